"""Makers cited with their product: which tagged organisations are the maker of a product named
beside them, and which tagged places are that maker's own address.

Corpora tag a drug's or device's maker as an institution but leave the product untagged
("Prograf® (Astellas)", "BioGide® (Geistlich, Wolhusen, Suiza)"): a famous product beside
another firm gives the record away, while the maker of a named product is public knowledge about
the product, not about the patient. One service decides it, so the organisations rule (which
keeps the maker) and the places rule (which keeps the maker's town and country) never disagree.

A maker is cited with its product when it stands
- in brackets, as the first tagged span there, with the product in the same brackets before it
  ("(Timoftol® 0,5%, MSD)", "(Rigiflex®; Microvasive, Boston Scientific)") or right after it
  ("(Astellas, Prograf®)"), or right before the opening bracket ("BioGide® (Geistlich, ...)"), or
  its own name marked ("(MODUS ARS 1.5; Medartis®, Basel, Suiza)");
- in brackets, as the first tagged span there, followed there by its address, a maker of the
  pack's catalogue (spelling slips allowed: "(Topógrafo corneal, Baush and Lomb, U.S.A.)"), or any
  firm after a model (with its number, or the firm with its legal form) whose address names a
  country or a town abroad and its region's code ("(Sonos 100 CF, Hewlett Packard, Massachusetts,
  USA)", "(OCT 3000, Humphrey Zeiss Instruments, Dublin, CA)", "(NOxPUMP plus, Bedfont
  Scientific Ltd, Upchurch Kent, England)"; "(Empresa, Talleres Pérez, Vigo, España)" may be an
  employer);
- in brackets, a maker of the pack's catalogue right after a product's coined name, one
  capitalised word of no list, closing the brackets or followed by its address ("(Cresophene,
  Septodont)");
- outside brackets, right after or before the product with nothing but spaces and punctuation
  between ("Dietsource 3.0 ®Nestlé Healthcare Nutrition");
where a product is an untagged word carrying one of the pack's trademark `marks` (® ™), or a
brand of the pack's `products` list. Its address is the tagged places right after it in the same
brackets, up to the first span of another label. The organisations option `keep_makers: false`
turns it off: every maker is then replaced, and its address with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import regex

from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack
from pseudo.lists.words import common_words
from pseudo.model import Tagged, Target

ADDRESS_LABELS = ("PLACE", "REGION", "COUNTRY", "STREET", "POSTCODE", "ADDRESS")
BRACKET_REACH = 160  # characters searched either side of a maker for the brackets around it
LISTED_MAKER_CUTOFF = 90  # similarity (0-100) at which a maker in brackets before its address is a listed one
MIN_BRAND_LETTERS = 4  # a shorter listed brand is too likely an ordinary word or an acronym
_WORD = regex.compile(r"[\p{L}][\p{L}\p{N}'’-]*")
_CLAUSE_END = regex.compile(r"[()\n]|[.;:](?=\s)")
_GAP = regex.compile(r"[^\p{L}\p{N}()\n]*")  # between a product and its maker outside brackets
_GAP_BEFORE = regex.compile(rf"{_GAP.pattern}$")
_WORD_BEFORE = regex.compile(r"(\S+)\s*$")  # the word right before a bracket or a gap
_DESCRIPTION = regex.compile(r"\s*[\p{Lu}\p{N}][^(),;]*,\s*")  # "(Sonos 100 CF, " before a maker: a model or what it is
_STATE_CODE = regex.compile(r"\p{Lu}{2,3}\.?")  # "CA", "MN": a region's code after a town abroad
_FORM_AFTER = regex.compile(r"\s*,?\s*([\p{L}.]+)(?=[\s,;)])")  # ", Inc." right after a firm's name
_COINED_THEN = regex.compile(r"\s*(\p{Lu}\p{L}{3,})\s*,\s*")  # "(Cavit, " before a maker: one capitalised word


@dataclass(frozen=True)
class Citations:
    """The start offsets of one document's makers cited with their product, and of their addresses."""

    makers: frozenset[int]
    addresses: frozenset[int]


NO_CITATIONS = Citations(frozenset(), frozenset())


class MakerService:
    """Reads each document once (the rules of one document share its `Tagged`)."""

    def __init__(self, pack: LocalePack, settings: Mapping[str, Any]):
        self._pack = pack
        self._keep = bool(settings.get("keep_makers", True))
        vocabulary = pack.vocabulary("organisations") if pack.has("organisations") else {}
        self._section: Mapping[str, Any] = vocabulary.get("makers") or {}
        self._marks = tuple(self._section.get("marks") or ())
        self._last: tuple[Tagged, Citations] | None = None

    def is_maker(self, document: Tagged, target: Target) -> bool:
        """The organisation is the maker of a product named beside it, kept as written."""
        return target.span.start in self.citations(document).makers

    def is_address(self, document: Tagged, target: Target) -> bool:
        """The place is the town, region or country of such a maker, in its brackets."""
        return target.span.start in self.citations(document).addresses

    def citations(self, document: Tagged) -> Citations:
        if self._last is not None and self._last[0] is document:
            return self._last[1]
        found = self._read(document) if self._keep and self._marks else NO_CITATIONS
        self._last = (document, found)
        return found

    # -- reading --------------------------------------------------------------------------
    def _read(self, document: Tagged) -> Citations:
        makers: set[int] = set()
        addresses: set[int] = set()
        targets = sorted(document.targets, key=lambda t: t.span.start)
        for index, target in enumerate(targets):
            if target.label != "ORGANISATION" or target.span.start not in document.replaced:
                continue
            if any(mark in target.text for mark in self._marks):
                continue  # a product tagged as an organisation, not its maker
            brackets = _brackets(document.text, target)
            if brackets is None:
                if self._beside_outside(document, targets, target):
                    makers.add(target.span.start)
                continue
            opening, closing = brackets
            inside = [t for t in targets if opening < t.span.start < closing]
            if inside[0] is not target:
                continue
            address = []
            for other in targets[index + 1 :]:
                if other.span.start >= closing or other.label not in ADDRESS_LABELS:
                    break
                address.append(other)
            described = _DESCRIPTION.fullmatch(document.text, opening + 1, target.span.start)
            firm = described is not None and (any(c.isdigit() for c in described.group()) or self._has_legal_form(target.text))
            cited = self._is_listed(target.text) or (firm and (any(a.label == "COUNTRY" for a in address) or self._town_and_state_abroad(address)))
            registered = len(address) >= 3 and not any(a.label in ("STREET", "POSTCODE") for a in address)  # town, region, country
            cited = cited or (registered and self.legal_form_after(document.text, target) and self._names_a_country_abroad(address))
            coined = self._coined_product(document.text, opening, target) and (address or _GAP.fullmatch(document.text, target.span.end, closing))
            if self._product_in(document, targets, target, opening) or (address and cited) or coined:
                makers.add(target.span.start)
                addresses.update(a.span.start for a in address)
        return Citations(frozenset(makers), frozenset(addresses))

    def _town_and_state_abroad(self, address: list[Target]) -> bool:
        """"Dublin, CA": a town the pack lists only abroad with a region's code or a region no home
        place names, or a town no list holds with a region listed abroad: a maker's address in
        another country, where an employer's at home ("Talleres Pérez S.L., Vigo, Pontevedra", "C/
        Mayor 12, Tomelloso", "Polígono Las Quemadas, Córdoba", "Villarrubia, CR") names home places,
        streets, postcodes or a home region's code (reviews' findings)."""
        if len(address) != 2 or not self._pack.has("locations") or not all(any(c.isalpha() for c in a.text) for a in address):
            return False
        tree = self._pack.tree()

        def abroad(text: str) -> bool:  # listed, and only as a foreign capital or country
            found = tree.lookup(text.strip())
            return bool(found) and all(place.kind in ("capital", "country") for place in found)

        def unlisted(text: str) -> bool:
            return not tree.lookup(text.strip())

        town, region = address[0].text, address[1].text
        code = _STATE_CODE.fullmatch(region.strip()) is not None
        # a foreign capital with a code or a region of no home place ("Dublin, CA"), or a town no list holds with a
        # foreign region ("Mountain View, USA"); an unlisted village with a code may be a home one ("Villarrubia, CR")
        return (abroad(town) and (code or unlisted(region) or abroad(region))) or (unlisted(town) and abroad(region))

    def legal_form_after(self, text: str, maker: Target) -> bool:
        """'(Ohio Medical Instrument Co, Inc., Cincinnati, Oh, USA)': a legal form written right after
        the name, untagged, the way a firm's registered name is cited (a surrogate ending in its
        own then wrote "Matheson Tri-Gas Inc., Inc.")."""
        after = _FORM_AFTER.match(text, maker.span.end)
        return after is not None and self._has_legal_form(after.group(1))

    def _names_a_country_abroad(self, address: list[Target]) -> bool:
        """A country the pack lists, that holds none of its towns: a firm's address abroad, where
        an employer's at home names the home country ("Talleres Pérez, S.L., Vigo, España")."""
        if not self._pack.has("locations"):
            return False
        tree, kinds = self._pack.tree(), self._pack.settings.places.kinds
        country_kind, town_kind = (kinds.get("COUNTRY") or ("",))[0], (kinds.get("PLACE") or ("",))[0]
        for part in address:
            found = tree.lookup(part.text.strip()) if part.label == "COUNTRY" else []
            if found and all(p.kind == country_kind and not tree.descendants(p, town_kind) for p in found):
                return True
        return False

    def _has_legal_form(self, name: str) -> bool:
        """A firm's name ending in a legal form of the pack ("Bedfont Scientific Ltd")."""
        forms = {f.casefold() for f in self._section.get("legal_forms") or ()}
        return bool(name.split()) and name.split()[-1].casefold() in forms

    def _is_listed(self, name: str) -> bool:
        """A maker of the pack's catalogue, spelling slips and "&" for "and" allowed ("Baush and Lomb"): cited with
        its address in brackets ("(Topógrafo corneal, Baush and Lomb, U.S.A.)") it is that firm,
        with no product sign; an unlisted name there may be anyone's employer."""
        catalogue = self._section.get("catalogue", "")
        if not catalogue or not self._pack.has(catalogue):
            return False
        listed = {catalogue: self._pack.weighted(catalogue)}
        spelled = [name, " ".join(name.replace("&", " and ").split())]  # "Johnson & Johnson" is the list's "Johnson and Johnson"
        return any(closest(form, listed, LISTED_MAKER_CUTOFF) is not None for form in dict.fromkeys(spelled))

    def _product_in(self, document: Tagged, targets: list[Target], maker: Target, opening: int) -> bool:
        """A product in the brackets before the maker or right after it, right before the
        brackets, or a mark on the maker's own name."""
        text = document.text
        if text[maker.span.end : maker.span.end + 1] in self._marks or self._product_after(text, targets, maker):
            return True
        if self._names_product(text, opening + 1, maker.span.start, targets):
            return True
        before = _WORD_BEFORE.search(text, max(0, opening - 40), opening)
        return before is not None and self._names_product(text, before.start(1), before.end(1), targets)

    def _coined_product(self, text: str, opening: int, maker: Target) -> bool:
        """'(Cresophene, Septodont)': a maker of the pack's catalogue after one capitalised word of
        no list (no frequent word of the language, no name, no place), a product's coined name;
        replacing a dental material's maker with a drug firm ("Cresophene, Invatech") gave a record
        away. The maker must be listed: an unlisted one ("(Traumatología, Teknon)", "(Mutua,
        Fremap)") may be a clinic or an employer, since the pack's frequent words leave most nouns
        out, and is replaced."""
        coined = _COINED_THEN.fullmatch(text, opening + 1, maker.span.start)
        return coined is not None and self._is_listed(maker.text) and self._unlisted_word(coined.group(1))

    def _unlisted_word(self, text: str) -> bool:
        """One word that is no ordinary word of the language, no name and no place."""
        pack, word = self._pack, text.strip()
        if _WORD.fullmatch(word) is None or word.casefold() in common_words(pack) or pack.tree().lookup(word):
            return False
        return not any(pack.has(names) and pack.weighted(names).weight(word) for names in ("first_names_female", "first_names_male", "last_names"))

    def _beside_outside(self, document: Tagged, targets: list[Target], maker: Target) -> bool:
        """Outside brackets: a marked word or a listed brand right before or after the maker in
        its clause, nothing but spaces and punctuation between."""
        text, start, end = document.text, maker.span.start, maker.span.end
        if text[end : end + 1] in self._marks:
            return True
        ends = list(_CLAUSE_END.finditer(text, max(0, start - BRACKET_REACH), start))
        clause_start = ends[-1].end() if ends else max(0, start - BRACKET_REACH)
        gap = _GAP_BEFORE.search(text, clause_start, start)
        if self._names_product(text, gap.start(), start, targets):  # a sign in the gap: "3.0 ®Nestlé"
            return True
        word = _WORD_BEFORE.search(text, clause_start, gap.start())
        if word is not None and self._names_product(text, word.start(1), gap.start(), targets):
            return True
        return self._product_after(text, targets, maker)

    def _product_after(self, text: str, targets: list[Target], maker: Target) -> bool:
        """The word right after the maker, nothing but spaces and punctuation between, is marked
        or a listed brand: "(Astellas, Prograf®)"."""
        after = _GAP.match(text, maker.span.end)
        word = _WORD.match(text, after.end())
        return word is not None and self._names_product(text, word.start(), word.end() + 1, targets)

    def _names_product(self, text: str, start: int, end: int, targets: list[Target]) -> bool:
        """Untagged text holding a trademark sign or a listed brand's name."""
        if start >= end or any(t.span.start < end and start < t.span.end for t in targets):
            return False
        piece = text[start:end]
        if any(mark in piece for mark in self._marks):
            return True
        brands = self._brands()
        return any(word.group().casefold() in brands for word in _WORD.finditer(piece))

    def _brands(self) -> frozenset[str]:
        """The pack's product brands, folded, that are no ordinary word of the language."""
        pack, products = self._pack, self._section.get("products", "")

        def make() -> frozenset[str]:
            if not products or not pack.has(products):
                return frozenset()
            common = {r["word"] for r in pack.rows("common_words")} if pack.has("common_words") else set()
            names = (n.casefold() for n in pack.weighted(products).items)
            return frozenset(n for n in names if len(n) >= MIN_BRAND_LETTERS and n not in common)

        return pack.cached("makers:brands", make)


def _brackets(text: str, target: Target) -> tuple[int, int] | None:
    """(opening, closing) offsets of the round brackets around a span on its line, or None."""
    before = text[max(0, target.span.start - BRACKET_REACH) : target.span.start]
    opening = before.rfind("(")
    if opening < 0 or before.rfind(")") > opening or "\n" in before[opening:]:
        return None
    after = text[target.span.end : target.span.end + BRACKET_REACH]
    closing = after.find(")")
    if closing < 0 or "\n" in after[:closing] or "(" in after[:closing]:
        return None
    return target.span.start - len(before) + opening, target.span.end + closing
