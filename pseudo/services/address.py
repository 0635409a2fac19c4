"""The address world: one coherent surrogate geography per original geography of a scope.

An original place maps to one surrogate place of the same kind, once per scope, and the levels
above and below follow it: a town of an already mapped province is drawn inside that province's
surrogate, a province whose town is mapped becomes that town's province, a country whose town is
mapped becomes that town's country (so a Spanish patient's "España" stays when the town stays
Spanish). A kind kept (`keep`: a province, a county, a state) stays as written, and a place below a
kept region is drawn inside it, by population: a town of Tenerife becomes another town of Santa Cruz
de Tenerife, so the surrogate's postcode, area code and province digits are the original's
province's too, and an untagged value of that province does not stand out. A kept region holding
one town (Ceuta, Melilla) would name it: it is replaced like any other region. A place alone of
its kind in its kept region (the one province of a one-province community), or named like a kept
region it lies in ("Pontevedra"), is kept: the region names it already. Towns are mapped before
the regions that hold them (deeper places first), and a town's surrogate is never drawn inside the
original's own region when that region would be replaced, so a region never maps onto itself. A postcode maps, by its own value, to a postcode of the surrogate
of the place the postal data gives it (else of the town written beside it), whether it is written
with its town or alone. A street becomes a street of the surrogate of its town where the pack lists
streets for it (else of the region right above it, else of the country list). Health care units and phone
numbers ask the same world for the surrogate of a place they name or stand near. The world reads each
document once before drawing for it: the foreign country of an address abroad is kept like a kept
region (and a region abroad written after its town with it), and a town written with a hospital is drawn among the towns the catalogue lists hospitals of,
so the unit drawn there agrees with it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Sequence

import regex

from pseudo.digits import digits_of, replace_digits
from pseudo.errors import ConfigError, LocaleError
from pseudo.folds import ascii_fold, loose, normalise
from pseudo.keyed import KeyedStream
from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack
from pseudo.lists.tree import LocationTree, Place
from pseudo.lists.weighted import WeightedList
from pseudo.lists.words import common_words, particles
from pseudo.model import Tagged, Target
from pseudo.scope import ScopeState
from pseudo.services.makers import MakerService

PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
NAMESPACE = "places"  # the keyed draws of the world, as the places rule has always made them
COMMON_STREET_TOWNS = 3  # a street name borne in this many towns reads as at home anywhere
MIN_COMMON_STREETS = 100  # fewer shared names than this: the whole country list is drawn from
UNIT_NAMESAKES = 500  # the country list's most common street names a unit of no place may be named after
MIN_NAMES_ABROAD = 5  # saint-named towns of a country abroad enough to name its streets and neighbourhoods after
NAMESAKE_TRIES = 12  # draws of a street name a unit may be named after before the last one stands
ARTICLE_REACH = 12  # characters before a place searched for its article
ORIGIN_REACH = 40  # characters before a place searched for a birthplace cue
MAX_TRIES = 32  # draws for a town outside the original's region before any town is taken
CITY = 100_000  # inhabitants from which a town's surrogate is a town of its size class (`_of_its_size`)
SIZE_CLASSES = (10, 20)  # a city's surrogate has at least a 1/n of its population, the first n that leaves two towns
STREET_SHAPE_TRIES = 8  # draws for a street name of several words, for an original of several without its road type
KEEP_NOTHING = "none"  # the places option `keep: none`: every level is replaced
_TWO_NAMES = regex.compile(r"\s*[/-]\s*|\s+-\s+")  # "Donostia-San Sebastián", "Alicante / Alacant"
_WORD = regex.compile(r"[\p{L}\p{M}'’-]+")
_LETTERS = regex.compile(r"\p{L}+")
_BESIDE = regex.compile(r"\s*[,(]?\s*")  # between a town and its region: "Springfield, IL", "Estella (Navarra)"
_UNTAGGED_REGION = regex.compile(r"[^\S\n]*,[^\S\n]*\p{Lu}[\p{L}.]{1,12}[^\S\n]*,[^\S\n]*")  # ", Ags., " between a town and its country
_UNTAGGED_TOWN = regex.compile(r"[^\S\n]*,[^\S\n]*(\p{Lu}[\p{L}]*(?:[^\S\n]+\p{L}+){0,3})")  # ", Santiago de Chile" after a quarter of it
_ADDRESS_PART = regex.compile(r"[^,\n]+")
_TRAILING_CODE = regex.compile(r"\s*\d[\d -]*$")  # "IL 62704" -> "IL"
_ON_LINE = regex.compile(r"[^\S\n]*(?:[\p{P}\d][^\S\n]*)*")  # punctuation, digits and spaces on one line: a town beside its country
BESIDE_REACH = 30  # characters at most between a town and the country written beside it
UNIT_REACH = 100  # characters at most between a health care unit and the town of its address on its line
NO_TOWN_LISTED = "a town of a kept country the pack lists no town of"  # what such a town is kept as
FOREIGN_REGION_DIGITS = 2  # leading digits of a foreign postcode of five or more that name its region, kept
DEMONYMS = "demonyms"  # the pack's words for the people of each country ("búlgaro"): a country they name stays
UNIT_VOCABULARY = "healthcare_units"  # the pack's unit types: those with a `catalogue` list real units by town


@dataclass(frozen=True)
class AddressSettings:
    keep: frozenset[str]
    group: Mapping[str, str]  # kind -> ancestor kind within which it is replaced
    kinds: Mapping[str, tuple[str, ...]]  # label -> kinds it may be, in order of preference
    default_kind: Mapping[str, str]  # label -> kind of a place found in no list
    postcode: regex.Pattern | None
    street: regex.Pattern | None
    street_types: tuple[str, ...]
    street_type_words: Mapping[str, str]  # folded road type as written -> the type word of the street lists
    local_street_share: float
    address_words: frozenset[str]  # kept in a house number: "piso", "dcha", "y", and the number words
    ordinals: frozenset[str]  # letters written after a number to make it ordinal: "2o", "1er"
    tail: regex.Pattern  # where the name of a street ends and its number part begins: "," or a number word ("nº", "s/n")
    number_first: bool = False  # the house number stands before the street name ("221 Baker Street")
    region_streets: bool = True  # a town without streets of its own takes its region's
    street_link: str = ""  # the word a street takes before a place's name: "de" ("Plaza de Chile")
    localities_abroad: str = ""  # the pack list a town abroad beside its kept region is drawn from
    towns_abroad: str = ""  # the pack list of towns abroad by country and region
    origin: regex.Pattern | None = None  # a birthplace cue ending right before a place ("natural de ")
    article: regex.Pattern | None = None  # an article ending right before a place ("del "), group 1
    takes_article: Mapping[str, frozenset[str]] | None = None  # article (casefolded) -> loose names of the places that take it


def place_settings(pack: LocalePack) -> AddressSettings:
    def make() -> AddressSettings:
        raw = pack.settings.places
        kinds = {label: tuple(raw.kinds.get(label, ())) for label in PLACE_LABELS}
        return AddressSettings(
            keep=frozenset(raw.keep),
            group=dict(raw.group),
            kinds=kinds,
            default_kind={label: kinds[label][0] for label in PLACE_LABELS if kinds[label]},
            postcode=regex.compile(rf"(?<!\d)(?:{raw.postcode_pattern})(?!\d)") if raw.postcode_pattern else None,
            street=regex.compile(raw.street_pattern, regex.IGNORECASE) if raw.street_pattern else None,
            street_types=tuple(sorted(raw.street_types, key=len, reverse=True)),
            street_type_words={k.casefold(): v for k, v in raw.street_type_words.items()},
            local_street_share=raw.local_street_share,
            address_words=frozenset(w.casefold() for w in [*raw.address_words, *raw.number_words]),
            ordinals=frozenset(w.casefold() for w in raw.ordinals),
            tail=_tail_pattern(raw.number_words),
            number_first=raw.street_order == "number_first",
            region_streets=raw.street_reach == "region",
            street_link=raw.street_link,
            localities_abroad=raw.localities_abroad,
            towns_abroad=raw.towns_abroad,
            origin=_cue_before(raw.origin_cues),
            article=_article_before(raw.articles),
            takes_article={a.casefold(): frozenset(loose(n) for n in names) for a, names in raw.articles.items()},
        )

    return pack.cached("place-settings", make)


def _cue_before(cues: Sequence[str]) -> regex.Pattern | None:
    """Any of the cues as whole words, then spaces or a colon, at the end of the text before a place."""
    if not cues:
        return None
    alternatives = "|".join(regex.escape(c) for c in sorted(cues, key=len, reverse=True))
    return regex.compile(rf"(?<!\w)(?:{alternatives})[^\S\n]*:?[^\S\n]*$", regex.IGNORECASE)


def _article_before(articles: Mapping[str, Sequence[str]]) -> regex.Pattern | None:
    """Any of the articles as a whole word, then spaces, at the end of the text before a place."""
    if not articles:
        return None
    alternatives = "|".join(regex.escape(a) for a in sorted(articles, key=len, reverse=True))
    return regex.compile(rf"(?<!\w)({alternatives})[^\S\n]+$", regex.IGNORECASE)


def keep_option(value: object) -> frozenset[str] | None:
    """The kinds the places option `keep` names (a list, or `none`/`[]` for none), or None when
    left out (the pack's own); a ConfigError for any other value."""
    if value is None:
        return None
    if value == KEEP_NOTHING:
        return frozenset()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(kind, str) and kind for kind in value):
        raise ConfigError(f"keep: expected a list of place kinds or {KEEP_NOTHING!r}, got {value!r}")
    return frozenset(value)


def _tail_pattern(number_words: Sequence[str]) -> regex.Pattern:
    """A comma, or a space before a digit, '#' or a word that introduces a number ('s/n', 'km', 'nº')."""
    words = "|".join(regex.escape(w) for w in sorted(number_words, key=len, reverse=True))
    word = rf"|(?:{words})(?![\p{{L}}])" if words else ""
    return regex.compile(rf"(?i)[,;]|\s+(?=\d|#{word})")


def _with_keep(settings: AddressSettings, pack: LocalePack, keep: frozenset[str] | None) -> AddressSettings:
    """The pack's settings with the kinds the places option keeps (None: the pack's own); a
    ConfigError names a kind the pack's tree does not hold."""
    if keep is None or keep == settings.keep:
        return settings
    kinds = pack.cached("place-kinds", lambda: frozenset(p.kind for p in pack.tree().places.values()))
    unknown = sorted(keep - kinds)
    if unknown:
        raise ConfigError(
            f"rules.places.keep: {', '.join(unknown)}: not a place kind of locale {pack.code!r} (kinds: {', '.join(sorted(kinds))})"
        )
    return replace(settings, keep=keep)


def _weighted_names(places: Iterable[Place], aliases: bool = False) -> WeightedList:
    """Place names by population, heaviest first; a name borne by several places counts once; with
    `aliases`, their other names too (what a spelling slip is compared with: "Guipúacoa")."""
    names: dict[str, int] = {}
    for place in places:
        for name in [place.name, *(a for a in place.extra.get("aliases", "").split("|") if a and aliases)]:
            names[name] = max(names.get(name, 0), place.weight)
    return WeightedList.heaviest_first(names)


def _pool(pack: LocalePack, kind: str, anchor: Place | None, preposition: str | None) -> WeightedList:
    """Names of a kind under an anchor (or everywhere), weighted by population, cached per pack."""

    def make() -> WeightedList:
        tree = pack.tree()
        places = tree.descendants(anchor, kind) if anchor else tree.of_kind(kind)
        if preposition:
            places = [p for p in places if p.extra.get("preposition", "") == preposition]
        return _weighted_names(places)

    return pack.cached(f"place-pool:{kind}:{anchor.id if anchor else '*'}:{preposition or ''}", make)


def place_pool(pack: LocalePack, kind: str, inside: Place | None = None) -> WeightedList:
    """Every place name of a kind in the pack (`inside` a region: under it), by population."""
    return _pool(pack, kind, inside, None)


def _postcodes(pack: LocalePack) -> tuple[dict[str, list[str]], dict[int, tuple[str, ...]], dict[str, list[str]]]:
    """place id -> the postcodes drawn for it (not those the pack marks `outlying`: codes of a
    town's hamlets, "02511" for Albacete, read as a village's); digit count -> every postcode with
    that many digits; the digits of a postcode -> the ids of the places that hold it."""

    def make() -> tuple[dict[str, list[str]], dict[int, tuple[str, ...]], dict[str, list[str]]]:
        by_place: dict[str, list[str]] = {}
        by_length: dict[int, set[str]] = {}
        by_code: dict[str, list[str]] = {}
        for row in pack.rows("postal_codes"):
            digits = digits_of(row["postcode"])
            if not row.get("outlying"):
                by_place.setdefault(row["place_id"], []).append(row["postcode"])
            by_length.setdefault(len(digits), set()).add(row["postcode"])
            by_code.setdefault(digits, []).append(row["place_id"])
        return by_place, {length: tuple(sorted(codes)) for length, codes in by_length.items()}, by_code

    return pack.cached("postcodes", make)


def _codes_of(pack: LocalePack, place: Place, length: int, reach: str) -> tuple[str, ...]:
    """Postcodes of `length` digits of a place and the places right under it (`town`), or of its
    parent region and everything under that (`region`); cached per pack, place and reach."""

    def make() -> tuple[str, ...]:
        tree = pack.tree()
        by_place = _postcodes(pack)[0]
        if reach == "town":
            members = [place, *tree.children.get(place.id, [])]
        else:
            parent = tree.parent(place)
            kinds = {c.kind for c in tree.children.get(parent.id, [])} if parent else set()
            members = [parent, *(p for kind in kinds for p in tree.descendants(parent, kind))] if parent else []
        return tuple(sorted({c for m in members for c in by_place.get(m.id, []) if len(digits_of(c)) == length}))

    return pack.cached(f"{reach}-codes:{place.id}:{length}", make)


def _keyed_codes(pack: LocalePack, place: Place, length: int, reach: str) -> tuple[tuple[str, str, str], ...]:
    """`_codes_of` with each code's digits and consistency key, worked out once, not per postcode span."""
    return pack.cached(
        f"{reach}-codes-keyed:{place.id}:{length}", lambda: tuple((c, digits_of(c), normalise(c)) for c in _codes_of(pack, place, length, reach))
    )


def _streets_under(pack: LocalePack) -> dict[str, tuple[tuple[str, str], ...]]:
    """place id -> (name, type word) of every street the pack lists for it or for a place under it."""

    def make() -> dict[str, tuple[tuple[str, str], ...]]:
        tree = pack.tree()
        found: dict[str, list[tuple[str, str]]] = {}
        chains: dict[str, list[list[tuple[str, str]]]] = {}  # place id -> the lists of it and its regions: walked once
        for row in pack.rows("town_streets"):
            chain = chains.get(row["place_id"])
            if chain is None:
                chain, node = [], tree.places.get(row["place_id"])
                while node is not None:
                    chain.append(found.setdefault(node.id, []))
                    node = tree.parent(node)
                chains[row["place_id"]] = chain
            street = (row["name"], row["type"])
            for streets in chain:
                streets.append(street)
        return {place: tuple(streets) for place, streets in found.items()}

    return pack.cached("streets-under", make) if pack.has("town_streets") else {}


def _catalogue_addresses(pack: LocalePack, catalogue: str) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """A catalogue's unit names -> (place id, street, postcode) of each unit so named, heaviest
    first, where its list gives addresses (es: hospitals): "Hospital San Rafael" stands in Madrid
    and in Cádiz, and the Cádiz street beside a Madrid postcode gave a record away."""

    def make() -> dict[str, tuple[tuple[str, str, str], ...]]:
        rows = pack.rows(catalogue) if pack.has(catalogue) else []
        if not rows or "street" not in rows[0]:
            return {}
        found: dict[str, list[tuple[str, str, str]]] = {}
        for row in rows:
            if row["street"]:
                found.setdefault(row["name"], []).append((row["place_id"], row["street"], row.get("postcode") or ""))
        return {name: tuple(units) for name, units in found.items()}

    return pack.cached(f"catalogue-addresses:{catalogue}", make)


def depth(tree: LocationTree, place: Place) -> int:
    """Levels above a place: towns are deeper than the regions that hold them."""
    levels, node = 0, tree.parent(place)
    while node is not None:
        levels, node = levels + 1, tree.parent(node)
    return levels


class AddressWorld:
    """The surrogate geography of one scope and one locale pack (see the module docstring)."""

    def __init__(self, scope: ScopeState, pack: LocalePack, options: Mapping[str, object], makers: Callable[[], MakerService] | None = None):
        self._scope = scope
        self._makers = makers  # a product's maker's town and country are no place of the record
        self._fuzzy_cutoff = float(options["fuzzy_cutoff"])  # type: ignore[arg-type]
        self._pack = pack
        self._tree = pack.tree()
        self.settings = _with_keep(place_settings(pack), pack, keep_option(options.get("keep")))
        self._home = self._home_region(options.get("home"))  # where draws no record ties to a place lie
        self._mapped: dict[str, Place] = {}  # original place id -> its surrogate place
        self._by_surrogate: dict[str, Place] = {}  # surrogate name drawn -> the place it names
        self._by_text: dict[str, tuple[Place | None, str | None]] = {}  # a value as written -> the place read
        self._kept: dict[str, bool] = {}  # place id -> whether it stays as written
        self._kept_abroad: set[str] = set()  # foreign countries kept: an address's, or one the record names its people by
        self._document: Tagged | None = None  # the document read last (the one object its rules share), and what was read of it:
        self._abroad: dict[tuple[int, int], Place | None] = {}  # a span -> the foreign country it is written as of
        self._address_countries: tuple[Place, ...] = ()
        self._at_home = False  # whether the document read names a listed place at home
        self._unit_towns: dict[tuple[int, int], Place | None] = {}  # a unit span -> the town it is written with
        self._catalogue_towns: set[str] = set()  # towns written with a unit of a catalogue type: drawn among towns with such units
        self._unit_words: dict[str, set[str]] = {}  # such a town -> the naming words of its units as written
        self._region_beside: dict[str, set[str]] = {}  # a town id -> the loose names of its regions written beside it
        self._codes_written: dict[str, set[str]] = {}  # a town id -> its postcodes the scope writes
        self._articled: dict[str, frozenset[str]] = {}  # a place id -> the loose names of places that take the article written before it
        self._catalogue_drawn: dict[str, tuple[str, str]] = {}  # a catalogue unit's surrogate as written -> (list, catalogue name)
        self._unit_addresses: dict[tuple[int, int], tuple[str, str]] = {}  # a unit span of the document read -> its street, postcode
        self._units_written: dict[tuple[int, int], str] = {}  # a unit span of the document read -> its surrogate
        self._units_region: Place | None = None  # where the scope's first unit with a place was drawn

    # -- finding originals ------------------------------------------------------------------
    def find(self, name: str, label: str, beside: str | None = None) -> tuple[Place | None, str | None]:
        """The listed place a text names for a label (its preferred kinds first, then the most
        populous), through the spell-checked fallback when no spelling matches; one value read
        once per scope, so "Valencia" and "València" stay one place. A region written beside it
        ("Springfield, IL") reads it as the place of that name inside the region, for the scope."""
        key = normalise(name)
        inside = self._inside_region(name, label, beside) if beside else None
        if inside is not None:
            self._by_text[key] = (inside, None)
        elif beside and label == "PLACE" and (regions := self._regions_named(beside)):
            found = self._by_text.get(key) or self._find(name, label)
            if found[0] is not None and found[1] is None and not self._inside(found[0], regions):
                # "Aguadulce, Almería": a locality of Almería the lists hold only as Seville's town; drawn
                # there, it had put a Seville town beside "Almería" (round 44)
                found = (None, "a town the lists hold only outside the region written beside it: a town of that region")
            self._by_text[key] = found
        if key not in self._by_text:
            self._by_text[key] = self._find(name, label)
        return self._by_text[key]

    def _regions_named(self, region_text: str) -> list[Place]:
        """The listed regions a text names ("Almería": the province), as written."""
        return [p for p in self._tree.lookup(region_text) if p.kind in self.settings.kinds.get("REGION", ())]

    def _inside_region(self, name: str, label: str, region_text: str) -> Place | None:
        """The place a name may mean for the label inside a region the text names (as written, no
        spelling fallback; the label's preferred kinds first, then the most populous), or None."""
        regions = self._regions_named(region_text)
        wanted = self.settings.kinds.get(label) or ()
        found = [p for p in self._tree.lookup(name) if (not wanted or p.kind in wanted) and regions and self._inside(p, regions)]
        return _preferred(found, wanted)

    def _find(self, name: str, label: str) -> tuple[Place | None, str | None]:
        wanted = self.settings.kinds.get(label) or ()
        found = [p for p in self._tree.lookup(name) if not wanted or p.kind in wanted]
        if self._home is not None and len(found) > 1:  # "Hampton" of a Maryland corpus is Maryland's, not Virginia's larger one
            found = [p for p in found if self._inside(p, [self._home])] or found
        if self._home is not None and label == "PLACE" and found and all(p.weight < CITY and not self._inside(p, [self._home]) for p in found):
            # "go to harbor" in Maryland notes is Baltimore's Harbor Hospital, not Harbor, Oregon: drawn
            # there, it had made Oregon's towns a thread through a patient's notes (PhysioNet round 29)
            return None, "a small town only of another region than home: a place of the home region"
        countries = [p for p in found if p.kind == "country"]
        regions = self.settings.kinds.get("REGION", ())
        if countries and not any(p.kind in regions for p in found):
            # "Canada" is the country, not Canada, Kentucky: records name countries far more often
            # than small towns; but "Georgia" beside Atlanta is the state, a region as big as a country
            return min(countries, key=lambda p: (-p.weight, p.id)), None
        if found:
            return _preferred(found, wanted), None
        both = self._both_names(name, label)
        if both is not None:
            return both, None
        official = self._long_form(name) if label == "COUNTRY" else None
        if official is not None:
            return official, None
        if label != "PLACE":  # "Manresa (Barcelona)" with the province tagged as a country: it is the province
            other = self._find_exact(name, "REGION") or self._find_exact(name, "PLACE")
            if other is not None:
                return other, None
        joined = _preferred([p for p in self._joined_names().get(loose(name), ()) if not wanted or p.kind in wanted], wanted)
        if joined is not None:  # "Vitoria" of "Vitoria-Gasteiz"
            return joined, None
        # a misspelt town is a town at home: "Vitoria" had matched "Victoria", Seychelles, and the
        # Álava patient's town had become an African capital
        names = self._pack.cached(
            f"place-spellings:{label}",
            lambda: _weighted_names(
                (p for p in self._tree.places.values() if (not wanted or p.kind in wanted) and (label != "PLACE" or not self.is_abroad(p))),
                aliases=True,
            ),
        )
        near = closest(name, {"places": names}, self._fuzzy_cutoff)
        if near:
            return self._find(near[1], label)[0], "place matched to the closest listed spelling"
        return None, "place in no list: a random place of its level"

    def _joined_names(self) -> dict[str, tuple[Place, ...]]:
        """Each half of a place name of two joined by a hyphen ("Vitoria-Gasteiz", "Maó-Mahón") ->
        the places so named: a record writes one half alone ("Localidad: Vitoria"), which no list
        holds as a name of its own."""

        def make() -> dict[str, tuple[Place, ...]]:
            found: dict[str, list[Place]] = {}
            for place in self._tree.places.values():
                halves = place.name.split("-")
                if len(halves) == 2 and all(h.strip() for h in halves):
                    for half in halves:
                        found.setdefault(loose(half.strip()), []).append(place)
            return {half: tuple(places) for half, places in found.items()}

        return self._pack.cached("joined-place-names", make)

    def _find_exact(self, name: str, label: str) -> Place | None:
        """The listed place a name spells exactly for a label (its preferred kinds first), or None."""
        wanted = self.settings.kinds.get(label) or ()
        found = [p for p in self._tree.lookup(name) if not wanted or p.kind in wanted]
        return _preferred(found, wanted)

    def _long_form(self, name: str) -> Place | None:
        """A country written in a long official form, which the lists (CLDR's short names) do not
        hold: its listed name as the last words ("República Argentina", "República de Colombia"),
        else as the first words before a lowercase word ("Estados Unidos de América"). Countries
        only: a town's suffix would misread "San Luis Potosí" as Potosí."""
        kind = self.settings.default_kind.get("COUNTRY")
        words = list(_WORD.finditer(name))
        cuts = [name[w.start() :] for w in words[1:]]  # longest suffix first
        cuts += [name[: words[i - 1].end()] for i in range(len(words) - 1, 0, -1) if words[i].group()[:1].islower()]
        for cut in cuts:
            found = [p for p in self._tree.lookup(cut) if p.kind == kind]
            if found:
                return min(found, key=lambda p: (-p.weight, p.id))
        return None

    def _both_names(self, name: str, label: str) -> Place | None:
        """A place written with its two official names joined ("Donostia-San Sebastián",
        "Alicante/Alacant"), each listed for it: the lists hold them as a name and an alias."""
        halves = _TWO_NAMES.split(name.strip(), maxsplit=1)
        if len(halves) != 2 or not all(halves):
            return None
        first, second = (self._find(half, label)[0] if self._tree.lookup(half) else None for half in halves)
        return first if first is not None and second is not None and first.id == second.id else None

    def is_kept(self, place: Place) -> bool:
        """A kind kept on purpose (a province, a county), or the home country: a value most records
        share identifies nobody, and a local patient's "España" replaced by another country is the
        first thing a reader notices. A kept region with fewer than two towns would name its town
        (Ceuta): it is replaced. A place alone of its kind in its kept region is kept: the region
        names it already, and a surrogate from elsewhere would contradict the region; so is a town
        named like a kept region it lies in ("Pontevedra" in kept Pontevedra): "Vigo, Pontevedra"
        writes the province, and a provincial capital is a coarse value too. A foreign country that
        is the country of a record's address (`address_countries`) is kept too, as a kept region."""
        if place.id not in self._kept:
            if place.id == self._home_country() or place.id in self._kept_abroad:
                self._kept[place.id] = True
            elif place.kind in self.settings.keep:
                self._kept[place.id] = not self._holds_one_town(place)
            else:
                region = self._kept_region(place)
                self._kept[place.id] = region is not None and (
                    len(_pool(self._pack, place.kind, region, None)) < 2 or self._heads_kept(place) or self._only_unit_town(place, region)
                )
        return self._kept[place.id]

    def _only_unit_town(self, place: Place, region: Place) -> bool:
        """Whether a town written with a catalogue unit is the only town of its kept region the
        catalogue files units at ("Vitoria" in Álava): another town of the region would hold no
        unit the hospital could become, so the hospital came from another region while the town
        after it did not ("Hospital Universitario Araba ... 01400 Laudio"). Like a provincial
        capital named like its province, it is kept: the region names it nearly already."""
        if place.id not in self._catalogue_towns:
            return False
        filed = _catalogue_places(self._pack)
        return place.id in filed and not any(p.id in filed for p in self._tree.descendants(region, place.kind) if p.id != place.id)

    def _holds_one_town(self, region: Place) -> bool:
        """Whether a region holds exactly one town (a place of the PLACE label's default kind)."""
        kind = self.settings.default_kind.get("PLACE")
        return kind is not None and len(_pool(self._pack, kind, region, None)) == 1

    def in_one_kept_region(self, first: Place, second: Place) -> bool:
        """Whether two places lie in the same kept region (a state, a province), or neither in any."""
        regions = self.settings.kinds.get("REGION", ())

        def region_of(place: Place) -> str | None:
            found = place if place.kind in regions and self.is_kept(place) else self._kept_region(place)  # a kept province is its own
            return found.id if found else None

        return region_of(first) == region_of(second)

    def _kept_region(self, place: Place) -> Place | None:
        """The nearest region above a place that is kept, or None."""
        node = self._tree.parent(place)
        while node is not None and not self.is_kept(node):
            node = self._tree.parent(node)
        return node

    def _heads_kept(self, place: Place) -> bool:
        """Whether a place shares its name with a kept region it lies in."""
        node = self._tree.parent(place)
        while node is not None:
            if loose(node.name) == loose(place.name) and self.is_kept(node):
                return True
            node = self._tree.parent(node)
        return False

    def _anchor(self, place: Place) -> Place | None:
        """The region a place's surrogate is drawn inside: the nearest kept region above it (a
        town within its kept province, so the province stays true), else its group ancestor (a
        capital within its continent), else None (anywhere)."""
        group = self.settings.group.get(place.kind)
        node = self._tree.parent(place)
        while node is not None and node.kind != group and not self.is_kept(node):
            node = self._tree.parent(node)
        return node

    def _home_country(self) -> str | None:
        """The country that holds the pack's towns (the one with most places of the default kind)."""

        def make() -> str | None:
            kind = self.settings.default_kind.get("PLACE")
            counts: dict[str, int] = {}
            for town in self._tree.of_kind(kind) if kind else ():
                country = self._tree.ancestor(town, "country")
                if country is not None:
                    counts[country.id] = counts.get(country.id, 0) + 1
            return max(counts, key=lambda c: (counts[c], c)) if counts else None

        return self._pack.cached("home-country", make)

    # -- mapping ----------------------------------------------------------------------------
    def surrogate(self, place: Place) -> Place:
        """The one surrogate of a listed place in this scope: the place itself for a kind kept,
        and for a region whose mapped town stayed inside it (the home country)."""
        if self.is_kept(place):
            return place
        if place.id in self._mapped:
            return self._mapped[place.id]
        namesake = self._namesake(place)
        chosen = self._namesake_surrogate(place, namesake) if namesake is not None else None
        if chosen is not None:
            self._mapped[place.id] = chosen
            self._map_regions_above(place, chosen)
            return chosen
        derived = self._derived_from_below(place)
        if derived is not None and derived.id == place.id:  # "España" of a town that stayed Spanish
            return place
        if derived is not None:
            name = self._scope.consistent(NAMESPACE, f"place:{place.kind}", normalise(place.name), lambda _: derived.name, one_to_one=False)
            chosen = derived if name == derived.name else self._resolve(name, place.kind, None)
        else:
            anchor, pool = self._pool_for(place)
            if place.id in self._catalogue_towns:  # written with a hospital: a town the catalogue lists one of
                pool = self._with_units(pool, place, anchor, self._unit_words.get(place.id, set()))
            if place.id in self._region_beside:
                pool = _without(pool, self._region_beside[place.id])
            if place.id in self._articled:
                pool = self._taking_article(pool, place)
            if self._codes_written.get(place.id):  # written with its code: a town that has as many of its own
                pool = self._with_codes(pool, place, self._codes_written[place.id])
            if place.kind == self.settings.default_kind.get("PLACE"):  # towns only: not a country, a capital or a region
                pool = _of_its_size(pool, place)
            avoid = self._replaced_regions(place)
            name = self._scope.consistent(
                NAMESPACE, f"place:{place.kind}", normalise(place.name), lambda s: self._draw(pool, avoid, place.kind, anchor, s),
                one_to_one=True,
            )
            chosen = self._resolve(name, place.kind, anchor)
        self._mapped[place.id] = chosen
        self._map_regions_above(place, chosen)
        return chosen

    def _with_units(self, pool: WeightedList, place: Place, anchor: Place | None, words: set[str]) -> WeightedList:
        """The names of a pool, other than the place's own, borne by a place of its kind (under the
        anchor) that a catalogue files a unit at; of those, the places with a unit that shares no
        naming word with the units written with the place (`words`: Parla, whose one hospital is
        "Infanta Cristina", cannot hold the surrogate of "Hospital Infanta Sofía", and the unit had
        been drawn in another town than the one written after it); the whole pool when none is."""

        def make() -> WeightedList:
            filed = _catalogue_places(self._pack)
            named = {p.name for p in (self._tree.descendants(anchor, place.kind) if anchor else self._tree.of_kind(place.kind)) if p.id in filed}
            kept = [(n, w) for n, w in zip(pool.items, pool.weights) if n in named]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))

        key = f"place-pool-units:{place.kind}:{anchor.id if anchor else '*'}:{place.extra.get('preposition') or ''}:{len(pool)}"
        with_units = self._pack.cached(key, make)
        others = [(n, w) for n, w in zip(with_units.items, with_units.weights) if loose(n) != loose(place.name)]
        if words:
            units = _units_by_place(self._pack)
            named = self._pack.cached(f"places-by-name:{place.kind}:{anchor.id if anchor else '*'}", lambda: self._by_name(place.kind, anchor))

            def fits(name: str) -> bool:
                return any(not words & set(_naming_words(self._pack, unit)) for p in named.get(name, ()) for unit in units.get(p.id, ()))

            others = [(n, w) for n, w in others if fits(n)] or others
        return WeightedList(tuple(n for n, _ in others), tuple(w for _, w in others)) if others else pool

    def _by_name(self, kind: str, anchor: Place | None) -> dict[str, list[Place]]:
        """The places of a kind (under the anchor) by name."""
        named: dict[str, list[Place]] = {}
        for candidate in self._tree.descendants(anchor, kind) if anchor else self._tree.of_kind(kind):
            named.setdefault(candidate.name, []).append(candidate)
        return named

    def _map_regions_above(self, place: Place, chosen: Place) -> None:
        """The regions of a mapped place map to the regions of its surrogate, so another town of
        the same original province ("O Rosal" after "Pontevedra") is drawn in the same surrogate
        province, and the province itself, written later, names it."""
        node = self._tree.parent(place)
        while node is not None and node.kind != self.settings.group.get(place.kind):
            above = self._tree.ancestor(chosen, node.kind)
            if not self.is_kept(node) and node.id not in self._mapped and above is not None and above.id != node.id:
                self._mapped[node.id] = above
            node = self._tree.parent(node)

    def is_abroad(self, place: Place) -> bool:
        """Whether a place lies outside the home country (a foreign country, or a place under one)."""
        home = self._home_country()
        node: Place | None = place
        while node is not None and node.id != home:
            node = self._tree.parent(node)
        return node is None

    # -- addresses abroad -------------------------------------------------------------------
    def read_document(self, document: Tagged) -> None:
        """Read once per document, before any surrogate of it is drawn: the foreign countries of
        its address (`address_countries`) are kept from then on in the scope, and so are, for the
        draws of the whole scope, the towns written with a catalogue unit, beside their own region
        or after an article (a town's one surrogate in the scope must fit every place it is written)."""
        if self._document is document:
            return
        self._document, self._abroad, self._address_countries, self._at_home = document, {}, (), False
        self._unit_towns, self._unit_addresses, self._units_written = {}, {}, {}
        for unit in document.labelled("HEALTHCARE_UNIT"):
            town = self._unit_towns[(unit.span.start, unit.span.end)] = self._town_of_unit(document, unit)
            if town is not None and _catalogue_type(self._pack).search(unit.text):
                self._catalogue_towns.add(town.id)
                self._unit_words.setdefault(town.id, set()).update(_naming_words(self._pack, unit.text))
        for town, names in self._regions_beside_towns(document).items():
            self._region_beside.setdefault(town, set()).update(names)
        self._read_articles(document)
        self._read_codes(document)
        self._address_countries = self._find_address_countries(document)
        for country in (*self._address_countries, *self._named_by_their_people(document)):
            if country.id not in self._kept_abroad:
                self._kept_abroad.add(country.id)
                self._kept = {p: kept for p, kept in self._kept.items() if p in self._mapped}  # places under it now lie in a kept region; those already drawn stay drawn
        for target in document.labelled(*PLACE_LABELS):  # a kept place shows anyway: a unit drawn before the places rule may name it
            place = self.read(document, target) if any(c.isalpha() for c in target.text) else None
            if place is not None and place.id not in self._mapped and self.is_kept(place):
                self._scope.keep(target.text)

    def _named_by_their_people(self, document: Tagged) -> list[Place]:
        """The tagged countries of a record that also writes, untagged, the word for their people
        or their name ("País: Bulgaria" and "de nacionalidad búlgaro"): the word gives the country
        away, and a surrogate beside it read as altered ("País: Alemania ... búlgaro"); kept in the
        scope, as an address's country is (pack list `demonyms`; none without it)."""
        if not self._pack.has(DEMONYMS):
            return []
        country_kind = self.settings.default_kind.get("COUNTRY")
        countries = {}
        for target in document.targets:
            place = self.find(target.text.strip(), target.label)[0] if target.label in PLACE_LABELS else None
            if place is not None and place.kind == country_kind:
                countries[loose(place.name)] = place
        if not countries:
            return []
        untagged = list(document.text)
        for target in document.targets:
            untagged[target.span.start : target.span.end] = " " * (target.span.end - target.span.start)
        text = loose("".join(untagged))
        by_word = _demonym_countries(self._pack)
        words = {name: {name} | by_word.get(name, set()) for name in countries}
        if not any(word in text for found in words.values() for word in found):
            return []  # none of their words is even part of the text: the search of every country's words would find none
        written = {loose(found) for found in _demonym_words(self._pack).findall(text)}
        return [place for name, place in countries.items() if words[name] & written]

    def _read_codes(self, document: Tagged) -> None:
        """The postcodes the record writes of each town (by the postal data's place of the code),
        so a town written with two codes ("31016", "31008" of Pamplona) becomes one that has two,
        and one written with a code one that has a code of its own (a village the postal data
        gives none had taken another town's).
        A code the data files under a region (a post-office box code, "48080" of Bizkaia) counts
        for each town of that region the record writes ("48011 Bilbao ... 48080 Bilbao")."""
        _, _, by_code = _postcodes(self._pack)
        town_kind = self.settings.default_kind.get("PLACE")
        towns: list[Place] | None = None
        for target in document.targets:
            digits = digits_of(target.text)
            if target.label in PLACE_LABELS and digits and self.settings.postcode is not None and self.settings.postcode.fullmatch(digits):
                for holder in by_code.get(digits, ()):
                    place = self._tree.places.get(holder)
                    if place is not None and place.kind != town_kind:
                        if towns is None:
                            found = (self.find(t.text, t.label)[0] for t in document.targets if t.label in PLACE_LABELS and not any(c.isdigit() for c in t.text))
                            towns = [f for f in found if f is not None and f.kind == town_kind]
                        for town in towns:
                            if self._inside(town, [place]):
                                self._codes_written.setdefault(town.id, set()).add(digits)
                    self._codes_written.setdefault(holder, set()).add(digits)

    def _with_codes(self, pool: WeightedList, place: Place, written: set[str]) -> WeightedList:
        """The pool's places with as many postcodes of their own as the record writes of the
        original, else the whole pool."""
        length = len(next(iter(written)))
        kept = [
            (n, w) for n, w in zip(pool.items, pool.weights)
            if any(len(_codes_of(self._pack, p, length, "town")) >= len(written) for p in self._tree.lookup(n) if p.kind == place.kind)
        ]  # fmt: skip
        return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept)) if kept else pool

    def _read_articles(self, document: Tagged) -> None:
        """The places written after an article that only some places take ("del Reino Unido", "los
        Países Bajos"): their surrogate is drawn among those, so the article still agrees."""
        settings = self.settings
        if settings.article is None or settings.takes_article is None:
            return
        for target in document.targets:
            if target.label not in PLACE_LABELS:
                continue
            written = settings.article.search(document.text, max(0, target.span.start - ARTICLE_REACH), target.span.start)
            place = self.find(target.text.strip(), target.label)[0] if written else None
            if written and place is not None and place.id not in self._articled:
                names = settings.takes_article.get(written.group(1).casefold(), frozenset())
                if loose(place.name) in names:
                    self._articled[place.id] = names

    def _taking_article(self, pool: WeightedList, place: Place) -> WeightedList:
        """The pool's places that take the place's article, else such places of its kind anywhere."""
        names = self._articled[place.id] - {loose(place.name)}
        kept = _only(pool, names)
        return kept if len(kept) else (_only(_pool(self._pack, place.kind, None, None), names) or pool)

    def _regions_beside_towns(self, document: Tagged) -> dict[str, set[str]]:
        """Towns written right beside a region of theirs ("50800 Zuera Zaragoza", "Zuera
        (Zaragoza)"), with that region's name: in that slot writers name a town other than the one
        heading the region (that one they write alone, "50009 Zaragoza"), so its surrogate is drawn
        among the others, and "Zaragoza Zaragoza" is never written for them, nor a town ending in the
        region's name as written ("Santa Cruz de Tenerife Tenerife": "Tenerife" names the province)."""
        town_kind = self.settings.default_kind.get("PLACE")
        places = [t for t in document.targets if t.label in PLACE_LABELS and any(c.isalpha() for c in t.text)]
        found: dict[str, set[str]] = {}
        for target in places:
            town, note = self.find(target.text.strip(), target.label)
            if town is None or note is not None or town.kind != town_kind:
                continue
            regions, node = {}, self._tree.parent(town)
            while node is not None:
                regions[node.id] = loose(node.name)
                node = self._tree.parent(node)
            for other in places:
                if other is target or not _beside(document, target, other):
                    continue
                written = loose(other.text.strip())
                region = self.find(other.text.strip(), other.label)[0]
                if written != loose(town.name) and (written in regions.values() or (region is not None and region.id in regions)):
                    found.setdefault(town.id, set()).update({written, regions.get(region.id, written) if region else written})  # "Tenerife" names Santa Cruz de Tenerife
        return found

    def unit_town(self, document: Tagged, unit: Target) -> Place | None:
        """The original town a health care unit is written with: the first town written after it on
        its line, before any other unit ("Hospital Reina Sofía, Tudela", "Hospital X. Servicio de
        Y C/ Mayor 5 31500 Tudela"), else a town its name holds that is not all of the name
        ("Hospital de Alcañiz"); None. The unit and the town then agree: the town's
        surrogate is drawn among the towns the catalogue lists units of (`surrogate`), and the
        unit among the units of that surrogate town (the health care rule asks this)."""
        self.read_document(document)
        key = (unit.span.start, unit.span.end)
        if key not in self._unit_towns:
            self._unit_towns[key] = self._town_of_unit(document, unit)
        return self._unit_towns[key]

    # -- catalogue units and their addresses -------------------------------------------------
    def catalogue_drawn(self, written: str, catalogue: str, name: str) -> None:
        """The health care rule drew the catalogue unit `name` and writes it `written` (its type
        word as the original wrote it): for the scope, so every mention finds its address."""
        self._catalogue_drawn[written] = (catalogue, name)

    def unit_written(self, document: Tagged, unit: Target, written: str, place: Place | None = None) -> None:
        """A unit span became `written`, drawn at `place`: where that is a catalogue unit with an
        address, a street and a postcode written after it on its line are its own (`unit_address`),
        those of the unit so named in that place (a town, or under a region), else the first filed."""
        self.read_document(document)
        self._units_written[(unit.span.start, unit.span.end)] = written
        drawn = self._catalogue_drawn.get(written)
        filed = _catalogue_addresses(self._pack, drawn[0]).get(drawn[1]) if drawn else None
        if filed:
            here = [f for f in filed if place is not None and f[0] in self._tree.places and (f[0] == place.id or self._inside(self._tree.places[f[0]], [place]))]
            _, street, code = (here or filed)[0]  # the one where it was drawn: "Hospital San Rafael" of Madrid, not of Cádiz
            self._unit_addresses[(unit.span.start, unit.span.end)] = (street, code)


    def units_written(self, document: Tagged) -> list[tuple[Target, str]]:
        """The document's health care units drawn so far, each with its surrogate (an e-mail address
        of a unit's department is rebuilt from it)."""
        self.read_document(document)
        return [(unit, self._units_written[(unit.span.start, unit.span.end)]) for unit in document.labelled("HEALTHCARE_UNIT") if (unit.span.start, unit.span.end) in self._units_written]

    def unit_placed(self, place: Place) -> None:
        """A unit of the scope was drawn at the surrogate `place`: the first such place is where
        its units without a place of their own are drawn (`units_region`)."""
        if self._units_region is None:
            self._units_region = place

    def region_of_units_named(self, catalogue: str, naming: set[str]) -> Place | None:
        """The kept region (a state, a province) holding most of the catalogue's units whose names
        hold every one of the naming words (loose) of an original written without a town: the
        original lies there ("CALVERT HOSPITAL" is Maryland's Calvert Memorial; "HOLY CROSS" two of
        Maryland's among five states'), so its surrogate does too, as a kept region's towns stay
        in it; the configured home region wherever it holds one ("Harbor Hosp" of Maryland notes,
        though Washington holds more). None without naming words, without such units, or where only
        the country holds them."""
        if not naming or not self._pack.has(catalogue):
            return None
        index = self._pack.cached(f"catalogue-naming-words:{catalogue}", lambda: _units_by_word(self._pack, catalogue))
        found: set[str] | None = None
        for word in naming:
            places = index.get(word, frozenset())
            found = set(places) if found is None else found & places
            if not found:
                return None
        counts: dict[str, int] = {}
        regions: dict[str, Place] = {}
        for place_id in found or ():
            place = self._tree.places.get(place_id)
            region = self._kept_region(place) if place is not None else None
            if region is not None and region.id != self._home_country():
                counts[region.id] = counts.get(region.id, 0) + 1
                regions[region.id] = region
        if not counts:
            return None
        if self._home is not None and self._home.id in counts:  # "Harbor Hosp" of Maryland notes is Baltimore's, though Washington has more
            return self._home
        return regions[min(counts, key=lambda r: (-counts[r], r))]

    def units_region(self) -> Place | None:
        """Where the scope's first unit with a place was drawn, or None: a patient's hospitals lie
        in one region, not one in Maryland and the next in Washington state."""
        return self._units_region

    def home(self) -> Place | None:
        """The region the configuration says the corpus comes from (places option `home`), or None."""
        return self._home

    def _home_region(self, name: object) -> Place | None:
        if not name:
            return None
        kinds = self.settings.kinds.get("REGION", ())
        found = [p for p in self._tree.lookup(str(name)) if p.kind in kinds]
        if not found:
            raise ConfigError(f"rules.places.home: {name!r} is no region of the {self._pack.code!r} pack ({', '.join(kinds)})")
        return min(found, key=lambda p: (-p.weight, p.id))

    def unit_address(self, document: Tagged, target: Target) -> tuple[str, str] | None:
        """(street, postcode) of the catalogue unit a street or postcode is written after, on its
        line, with only places between ("Hospital Universitario La Paz. Paseo de la Castellana,
        261. 28046 Madrid"): a famous hospital at a street it is not on gave records away."""
        self.read_document(document)
        before = sorted((t for t in document.labelled("HEALTHCARE_UNIT") if t.span.end <= target.span.start), key=lambda t: t.span.end)
        if not before:
            return None
        unit, acronym = before[-1], None
        if len(before) > 1 and UNIT_ACRONYM_GAP.fullmatch(document.text, before[-2].span.end, unit.span.start):
            unit, acronym = before[-2], unit  # "Hospital Universitario La Paz (HULP). Paseo de la Castellana": the acronym is the unit's
        between = document.text[unit.span.end : target.span.start]
        between_labels = (*PLACE_LABELS, "POSTCODE") if target.label == "STREET" else (*PLACE_LABELS, "POSTCODE", "STREET")
        others = [
            t for t in document.targets
            if unit.span.end <= t.span.start < target.span.start and t.label not in between_labels and t is not acronym
        ]  # fmt: skip
        if "\n" in between or len(between) > UNIT_REACH or others:
            return None  # the first street after the unit is its own; another ("Apartado de correos 41") is not
        return self._unit_addresses.get((unit.span.start, unit.span.end))

    def filed_at_written_street(self, document: Tagged, unit: Target, catalogue: str) -> frozenset[str]:
        """The catalogue's units filed at the street the record writes right after the original
        unit on its line: the original under another name ("Complejo Hospitalario Universitario
        Infanta Cristina. Avenida de Elvas s/n" is today's "Hospital Universitario de Badajoz",
        filed at "Avenida Elvas s/n"), which a draw must refuse; empty without such a street."""
        street = self._street_after(document, unit)
        if street is None:
            return frozenset()
        written = {loose(w) for w in _LETTERS.findall(street.text)}  # "Martín" as the catalogue's "Martin"
        filed = self._pack.cached(
            f"catalogue-street-words:{catalogue}",
            lambda: {name: [self._street_naming_words(street) for _, street, _ in units] for name, units in _catalogue_addresses(self._pack, catalogue).items()},
        )
        return frozenset(name for name, streets in filed.items() if any(naming and naming <= written for naming in streets))

    def files_elsewhere(self, catalogue: str, name: str, town: Place) -> bool:
        """Whether the catalogue files units of that name (loose), none of them in or under the town:
        the name is then another unit's ("Hospital Sant Joan de Déu" of Esplugues read as the
        long-stay one of that name elsewhere), and its class says nothing of the original."""
        index = self._pack.cached(
            f"catalogue-places-by-name:{catalogue}",
            lambda: {loose(n): [f[0] for f in filings] for n, filings in _catalogue_addresses(self._pack, catalogue).items()},
        )
        filed = [self._tree.places[i] for i in index.get(loose(name), ()) if i in self._tree.places]
        return bool(filed) and not any(p.id == town.id or self._inside(p, [town]) for p in filed)

    def filed_at_original_postcode(self, document: Tagged, unit: Target, catalogue: str) -> frozenset[str]:
        """The catalogue's units filed at a postcode that is an original of the scope, where the
        record writes a postcode after the unit on its line: drawn, the unit's own code could not be
        written (an original never is), and another code of its town beside a famous hospital gave
        records away ("Lozano Blesa ... 50004", its code 50009 being the original Miguel Servet's);
        empty where no postcode follows the unit."""
        if not self._postcode_after(document, unit):
            return frozenset()

        def make() -> dict[str, frozenset[str]]:
            by_code: dict[str, set[str]] = {}
            for name, filings in _catalogue_addresses(self._pack, catalogue).items():
                for _, _, code in filings:
                    if code:
                        by_code.setdefault(normalise(code), set()).add(name)
            return {code: frozenset(names) for code, names in by_code.items()}

        by_code = self._pack.cached(f"catalogue-by-postcode:{catalogue}", make)
        codes = self._pack.cached(f"catalogue-postcodes:{catalogue}", lambda: frozenset(by_code))
        return frozenset(name for original in codes & self._scope.originals for name in by_code[original])  # the smaller set walked: a corpus scope holds millions of originals

    def _postcode_after(self, document: Tagged, unit: Target) -> bool:
        """Whether a postcode follows the unit on its line, with only places and streets between."""
        after = [t for t in document.targets if t.span.start >= unit.span.end and t.label in (*PLACE_LABELS, "POSTCODE") and digits_of(t.text)]
        if not after:
            return False
        code = min(after, key=lambda t: t.span.start)
        between = document.text[unit.span.end : code.span.start]
        others = [t for t in document.targets if unit.span.end <= t.span.start < code.span.start and t.label not in (*PLACE_LABELS, "POSTCODE", "STREET", "HEALTHCARE_UNIT")]
        return "\n" not in between and len(between) <= 2 * UNIT_REACH and not others

    def street_written_after(self, document: Tagged, unit: Target) -> bool:
        """Whether the record writes a street right after the unit on its line (`_street_after`):
        the unit's own address, which a unit's name must then agree with."""
        return self._street_after(document, unit) is not None

    def _street_after(self, document: Tagged, unit: Target) -> Target | None:
        """The first street written after a unit on its line, with only places between, or None."""
        after = [t for t in document.labelled("STREET") if t.span.start >= unit.span.end]
        if not after:
            return None
        street = min(after, key=lambda t: t.span.start)
        between = document.text[unit.span.end : street.span.start]
        others = [t for t in document.targets if unit.span.end <= t.span.start < street.span.start and t.label not in (*PLACE_LABELS, "POSTCODE")]
        return street if "\n" not in between and len(between) <= UNIT_REACH and not others else None

    def _street_naming_words(self, street: str) -> set[str]:
        """A street's words that name it: no road type, particle or number ("Avenida Elvas s/n" -> elvas)."""
        types = set(self.settings.street_type_words) | {v.casefold() for v in self.settings.street_type_words.values()}
        ignored = types | particles(self._pack) | set(self.settings.address_words)
        return {loose(w) for w in _LETTERS.findall(street) if len(w) > 2 and w.casefold() not in ignored}

    def _first_place_on_line(self, document: Tagged, unit: Target) -> Target | None:
        """The first place written after a unit on its line, before any other unit, or None; a
        postcode is none, even with its country's letter ("E-31008 Pamplona": Pamplona)."""
        after = [
            t for t in document.targets
            if t.span.start >= unit.span.end and t.label in PLACE_LABELS and any(c.isalpha() for c in t.text) and not any(c.isdigit() for c in t.text)
        ]  # fmt: skip
        if not after:
            return None
        first = min(after, key=lambda t: t.span.start)
        between = document.text[unit.span.end : first.span.start]
        units = [t for t in document.labelled("HEALTHCARE_UNIT") if unit.span.end <= t.span.start < first.span.start]
        return first if "\n" not in between and len(between) <= UNIT_REACH and not units else None

    def unit_town_abroad(self, document: Tagged, unit: Target) -> Place | None:
        """The surrogate of a town abroad written after a unit on its line ("Hospital Pablo Tobón
        Uribe Calle 78b ... Medellín, Antioquia, Colombia" in a record at home), or the largest town
        of the surrogate of a foreign country written first ("hospital Saint John of God en Sierra
        Leona"): a unit there is named after it, never a home one ("Hospital de Mérida" in
        Colombia, "La Princesa en Senegal"); None if none."""
        first = self._first_place_on_line(document, unit)
        if first is None:
            return None
        place, note = self.find(first.text.strip(), first.label)
        if place is not None and note is None and place.kind == self.settings.default_kind.get("COUNTRY") and self.is_abroad(place):
            towns = self._under(self.surrogate(place))  # "hospital Saint John of God en Sierra Leona": one of the surrogate country's towns
            return min(towns, key=lambda t: (-t.weight, t.id)) if towns else None
        country = self.country_abroad(document, first)
        if country is None:
            return None
        city = self._untagged_city_after(document, first, self._record_places(document))
        if city is not None:
            return city  # "Universidad de Chile ... Olivos 943, Independencia, Santiago de Chile": the city, as written
        locality = self.locality_abroad(first.text.strip(), country) if self.in_kept_region_abroad(document, first) else None
        name = locality or self.town_abroad(first.text.strip(), country)[0]  # as the places rule will write the town
        found = [p for p in self._tree.lookup(name) if p.kind != country.kind]
        return min(found, key=lambda p: (-p.weight, p.id)) if found else Place(f"abroad:{name}", None, self.settings.default_kind.get("PLACE", ""), name)

    def town_of_its_postcode(self, document: Tagged, town: Target) -> Place | None:
        """The listed town an unlisted town span is, by the postcode written right before it
        ("03550 San Juan de Alicante": the postal data's one town of 03550, Sant Joan d'Alacant,
        which the lists name only in Valencian); None without such a code or where the code is of
        several towns."""
        before = [t for t in document.targets if t.span.end <= town.span.start and t.label in PLACE_LABELS and digits_of(t.text)]
        if not before:
            return None
        code = max(before, key=lambda t: t.span.end)
        if not _BESIDE.fullmatch(document.text, code.span.end, town.span.start):
            return None
        holders = self._holders_of_code(code.text)
        return self._tree.places[holders[0]] if len(holders) == 1 else None

    def unlisted_town_after(self, document: Tagged, target: Target) -> Place | None:
        """The surrogate of an unlisted town written first after a unit or a postcode on its line
        ("Hospital ... 03550 San Juan de Alicante", a Spanish name the lists hold only in
        Valencian): the town the places rule draws for it (`unlisted`, with the same region and
        nearest place), so the unit is drawn there and the postcode is one of it; an "Alicante"
        read in the unit's name had put Alicante's hospital beside the town's surrogate, Benidorm,
        and a Dénia postcode after it. None where that town is listed or none is written."""
        first = self._first_place_on_line(document, target)
        if first is None or self.read(document, first) is not None:
            return None
        label = first.label if first.label in self.settings.default_kind else "PLACE"
        name = self.unlisted(first.text.strip(), label, self.region_after(document, first), self.nearest_listed(document, first))
        found = [p for p in self._tree.lookup(name) if p.kind == self.settings.default_kind.get(label)]
        return min(found, key=lambda p: (-p.weight, p.id)) if found else None

    def _town_of_unit(self, document: Tagged, unit: Target) -> Place | None:
        town_kind = self.settings.default_kind.get("PLACE")
        first = self._first_place_on_line(document, unit)
        if first is not None:
            place = self.read(document, first)
            if place is not None and place.kind == town_kind and self.country_abroad(document, first) is None:
                return place
            if place is None:
                return None  # an unlisted town is the unit's (`unlisted_town_after`), not a name inside the unit's
        named = self.named_in(unit.text, (town_kind,)) if town_kind else None
        if named is not None and named[1] - named[0] < len(unit.text.strip()) and self.named_as_its_place(unit.text, named, self.nearest_listed(document, unit)):
            return named[2]
        return None

    def named_as_its_place(self, text: str, named: tuple[int, int, Place], near: Place | None) -> bool:
        """Whether the place a unit's name holds is where the unit stands: written after a particle
        ("Hospital de Alcañiz"), or in the kept region of the record's nearest place; "Saint Vincent
        Hospital" of a Worcester, MA patient is a saint's, not Saint Vincent, Minnesota's."""
        before = _LETTERS.findall(text, 0, named[0])
        if before and before[-1].casefold() in particles(self._pack):
            return True
        return near is None or self.in_one_kept_region(named[2], near)

    def address_countries(self, document: Tagged) -> tuple[Place, ...]:
        """The foreign countries a record's address lies in, kept as written like a kept province
        (a record at home keeps its province): a foreign country a town of the record is written
        as of (`country_abroad`), the country of a town the tree puts abroad when it is written
        beside it or the record names no place at home, and a foreign country written beside a
        postcode or a street. A country of birth in a record whose address is at home is not one;
        written as the birthplace of a record whose address lies in it, it is that one value, kept.
        A country the tree lists no town of (Brasil) is kept too: its towns then stay as written
        (`town_abroad`), where a country changed under a Brazilian street, region and e-mail gave the
        record away. None (an empty tuple) with `keep: none` (every level replaced); never a country
        the scope already replaced."""
        self.read_document(document)
        return self._address_countries

    def _find_address_countries(self, document: Tagged) -> tuple[Place, ...]:
        country_kind = self.settings.default_kind.get("COUNTRY")
        places = self._record_places(document)
        read = {id(t): self.find(t.text.strip(), t.label) for t in places}
        at_home = any(p is not None and note is None and not self.is_abroad(p) for p, note in read.values())
        self._at_home = any(  # a home town written as of a foreign country ("Valencia, Venezuela") is not at home
            p is not None and note is None and not self.is_abroad(p) and self.country_abroad(document, t) is None
            for t in places if (p := read[id(t)][0]) is not None and (note := read[id(t)][1]) is None
        )
        if not self.settings.keep:
            return ()
        countries = [
            (t, p) for t in places
            if (p := read[id(t)][0]) is not None and read[id(t)][1] is None and p.kind == country_kind and self.is_abroad(p)
            and self.country_abroad(document, t) is None  # "Guadalupe, Zacatecas, México": a town of the country after it
        ]  # fmt: skip
        found: list[Place] = []
        for target in places:
            if self._origin(document, target):
                continue  # "natural de Lima (Perú)": where the patient comes from, not where they live
            place, note = read[id(target)]
            country = self.country_abroad(document, target)
            if country is None and place is not None and note is None and place.kind != country_kind and self.is_abroad(place):
                above = self._tree.ancestor(place, country_kind) if country_kind else None
                if above is not None and (not at_home or any(c.id == above.id and _beside(document, target, t) for t, c in countries)):
                    country = above
            if country is not None:
                found.append(country)
        others = [t for t in document.targets if t.label in ("STREET", "POSTCODE", "ADDRESS") or (t.label in PLACE_LABELS and not any(c.isalpha() for c in t.text))]
        found += [c for t, c in countries if any(_beside(document, t, other) for other in others)]
        unique = {c.id: c for c in found}
        return tuple(c for c in unique.values() if c.id not in self._mapped)

    def _origin(self, document: Tagged, target: Target) -> bool:
        """Whether a place is written as a birthplace or origin (a pack `origin_cues` word right
        before it: "natural de Lima", "born in Lima")."""
        cue = self.settings.origin
        return cue is not None and bool(cue.search(document.text, max(0, target.span.start - ORIGIN_REACH), target.span.start))

    def _record_places(self, document: Tagged) -> list[Target]:
        """The tagged places of words, less the addresses of makers cited with their product
        ("BioGide® (Geistlich, Wolhusen, Suiza)": Suiza is no country of the patient's address)."""
        makers = self._makers() if self._makers is not None else None
        return [
            t for t in document.targets
            if t.label in PLACE_LABELS and any(c.isalpha() for c in t.text) and not (makers and makers.is_address(document, t))
        ]  # fmt: skip

    def country_abroad(self, document: Tagged, target: Target) -> Place | None:
        """The foreign country a town is written as of, read once per span: one written right beside
        it on its line with only punctuation, digits or other places between ("Santiago, Chile",
        "80100 Holguín, Cuba"), even when a home town shares its name; for a town in no list
        ("Heredia"), also the nearest foreign country of a record that names no place at home.
        None for a town at home, a region, a country, or a place the tree already puts abroad."""
        self.read_document(document)
        key = (target.span.start, target.span.end)
        if key not in self._abroad:
            self._abroad[key] = self._country_abroad(document, target)
        return self._abroad[key]

    def _country_abroad(self, document: Tagged, target: Target) -> Place | None:
        if target.label != "PLACE":
            return None
        place, note = self.find(target.text.strip(), "PLACE")
        unlisted = place is None or note is not None
        if not unlisted and place.kind == self.settings.default_kind.get("COUNTRY"):
            return self._country_after(document, target, place)
        if not unlisted and (place.kind != self.settings.default_kind.get("PLACE") or self.is_abroad(place)):
            return None
        others = [t for t in self._record_places(document) if t is not target]
        countries: list[tuple[int, Target, Place]] = []
        at_home = False
        for other in others:
            found, other_note = self.find(other.text.strip(), other.label)
            if found is None or other_note is not None:
                continue
            if found.kind == self.settings.default_kind.get("COUNTRY") and self.is_abroad(found):
                if self._country_after(document, other, found) is None:  # not a town named like a country
                    countries.append((abs(other.span.start - target.span.start), other, found))
            elif not self.is_abroad(found):
                at_home = True
        same = [t for t in document.labelled("PLACE") if loose(t.text) == loose(target.text)]  # one value, one reading
        for _, other, country in sorted(countries, key=lambda item: (item[0], item[1].span.start)):
            if any(_beside(document, mine, other) for mine in same):
                return country
        if unlisted and countries and not at_home:
            return min(countries, key=lambda item: (item[0], item[1].span.start))[2]
        return None

    def _country_after(self, document: Tagged, target: Target, named: Place) -> Place | None:
        """The other foreign country written after a place named like a country, beside it on its
        line, whose towns the pack's `towns_abroad` list names so: that place is a town of it
        ("Calle Hidalgo 12, Guadalupe, Zacatecas, México": a Mexican town, not Guadeloupe, which had
        been kept as the address's country, so the town stood as written; "Bayamón, Puerto Rico,
        Estados Unidos" stays a territory of its sovereign). None where no such country follows."""
        country_kind = self.settings.default_kind.get("COUNTRY")
        written = loose(target.text)
        for other in self._record_places(document):
            if other.span.start <= target.span.start or not _beside(document, target, other):
                continue
            found, note = self.find(other.text.strip(), other.label)
            if found is None or note is not None or found.kind != country_kind or found.id == named.id or not self.is_abroad(found):
                continue
            if any(loose(name) == written for _, name, _ in self._towns_abroad().get(found.extra.get("code", ""), ())):
                return found
        return None

    def region_abroad(self, document: Tagged, target: Target) -> bool:
        """Whether a place abroad is the region written right after its town, in the town's kept
        country ("San Luis Potosí SLP México", "Recoleta, Región Metropolitana", "Sao Paulo SP"): it
        stays as written, as a record at home keeps its province. The pack lists no regions or other
        towns abroad, only capitals: drawn as a town, the region became the capital the town had
        become ("Ciudad de México CIUDAD DE MÉXICO"), and no region of that capital can be drawn to
        agree with it. A region written like a listed home place is drawn as a town is: kept, it
        would read as a home place to the rules that look for one; so is a value holding its
        country's name ("Condesa México D.F."), a town called after its country, not a region. One
        value, one reading: written alone elsewhere in the record ("Localidad: Antioquia"), it stays too."""
        same = [t for t in self._record_places(document) if loose(t.text) == loose(target.text)]
        return any(self._beside_its_town(document, t) for t in same)

    def in_kept_region_abroad(self, document: Tagged, target: Target) -> bool:
        """Whether a town abroad is written, here or elsewhere in the record, right before its
        region kept abroad ("Aguascalientes, Ags.", "Meireles, Fortaleza"; a region left untagged
        between the town and its country, "Aguascalientes, Ags., México", stays too): the pack lists a
        country's capital only, and the capital beside another region read as made up
        ("Ciudad de México, Ags.", "Bogotá, Antioquia"); so is a quarter written before its city
        abroad, left untagged ("Independencia, Santiago de Chile" had become "Santiago de Chile,
        Santiago de Chile")."""
        places = self._record_places(document)
        same = [t for t in places if loose(t.text) == loose(target.text)]
        for town in same:
            after = [t for t in places if t.span.start >= town.span.end]
            region = min(after, key=lambda t: t.span.start) if after else None
            if region is None:
                continue
            between = document.text[town.span.end : region.span.start]
            if _BESIDE.fullmatch(between) and self.region_abroad(document, region):
                return True
            if _UNTAGGED_REGION.fullmatch(between) and self._is_country_abroad(region):
                return True  # "Aguascalientes, Ags., México": the region left untagged stays as written
        return any(self._untagged_city_after(document, town, places) is not None for town in same)

    def _untagged_city_after(self, document: Tagged, town: Target, places: list[Target]) -> Place | None:
        """The listed town abroad written right after a town, untagged ("Independencia, Santiago
        de Chile": a quarter before its city), or None."""
        city = _UNTAGGED_TOWN.match(document.text, town.span.end)
        if city is None or any(t.span.start < city.end(1) and city.start(1) < t.span.end for t in places):
            return None
        words = city.group(1).split()
        for size in range(len(words), 0, -1):
            found = [p for p in self._tree.lookup(" ".join(words[:size])) if self.is_abroad(p) and p.kind != self.settings.default_kind.get("COUNTRY")]
            if found:
                return min(found, key=lambda p: (-p.weight, p.id))
        return None

    def _is_country_abroad(self, target: Target) -> bool:
        place, note = self.find(target.text.strip(), target.label)
        return place is not None and note is None and place.kind == self.settings.default_kind.get("COUNTRY") and self.is_abroad(place)

    def locality_abroad(self, text: str, country: Place) -> str | None:
        """The one surrogate of a town abroad inside its kept region: another town of its region in
        the pack's `towns_abroad` list where the list finds it ("Medellín, Antioquia": "Envigado,
        Antioquia"), else a name of the pack's `localities_abroad` list of at most two words that
        names no listed place ("San Isidro"); None where the pack names neither."""
        drawn = self._listed_town_abroad(text, country)
        if drawn is not None:
            return drawn
        pool = self._names_abroad(country)
        if pool is None:
            return None
        return self._scope.consistent(NAMESPACE, "place:abroad", normalise(text), pool.draw, one_to_one=True)

    def _names_abroad(self, country: Place | None = None) -> WeightedList | None:
        """What a town, a street or a neighbourhood abroad is called where no list names it: the
        towns of that country in `towns_abroad` named like an entry of the pack's
        `localities_abroad` (two words, the first one that opens an entry of two words or more:
        "Santo André" in Brazil, "Santa Rosa" in Argentina; not "Santiago Ixcuintla", a town's own
        name, which read as a town out of place in Mexico City's "Colonia Santiago Teyahualco",
        round 68), else the `localities_abroad` names of at most two words that name no listed
        place and, where the pack lists towns abroad, a town there too ("San Isidro" is at home in
        every country that names places after saints; Spain's "San Valero", "San Jaime" are not:
        "Rúa San Ernesto" in Brazil, "San Valero 82" in Buenos Aires gave records away); None
        without them. `country`: the record's address country (else the document's first)."""
        name = self.settings.localities_abroad
        if not name or not self._pack.has(name):
            return None
        country = country or (self._address_countries[0] if self._address_countries else None)
        code = country.extra.get("code", "") if country is not None else ""
        if code in self._towns_abroad():

            def theirs() -> WeightedList:
                firsts = {n.split()[0] for n in self._pack.weighted(name).items if len(n.split()) > 1}  # "San", "Santa": not "Santiago" of "Santiago Ixcuintla"
                named = {}
                for _, town, population in self._towns_abroad()[code]:
                    if town.split()[0] in firsts and len(town.split()) == 2 and not self._tree.lookup(town):
                        named[town] = max(named.get(town, 0), population)
                return WeightedList.heaviest_first(named)

            pool = self._pack.cached(f"localities-abroad:{name}:{code}", theirs)
            if len(pool) >= MIN_NAMES_ABROAD:
                return pool

        def make() -> WeightedList:
            names = self._pack.weighted(name)
            abroad = {ascii_fold(town) for towns in self._towns_abroad().values() for _, town, _ in towns}
            kept = [(n, w) for n, w in zip(names.items, names.weights) if len(n.split()) <= 2 and not self._tree.lookup(n) and (not abroad or ascii_fold(n) in abroad)]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))

        pool = self._pack.cached(f"localities-abroad:{name}", make)
        return pool if len(pool) else None

    def _beside_its_town(self, document: Tagged, target: Target) -> bool:
        country = self.country_abroad(document, target)
        if country is None or not self.is_kept(country) or _holds(target.text, country.name):
            return False
        place, note = self.find(target.text.strip(), target.label)
        if place is not None and note is None and not self.is_abroad(place):
            return False
        before = [t for t in self._record_places(document) if t.span.end <= target.span.start]
        if not before:
            return False
        town = max(before, key=lambda t: t.span.end)
        if not _BESIDE.fullmatch(document.text[town.span.end : target.span.start]):
            return False
        of_town = self.country_abroad(document, town)
        if of_town is None:  # a listed town abroad ("La Plata, Buenos Aires"): its own country
            listed, listed_note = self.find(town.text.strip(), town.label)
            abroad = listed is not None and listed_note is None and self.is_abroad(listed)
            of_town = self._tree.ancestor(listed, country.kind) if abroad else None
        return of_town is not None and of_town.id == country.id

    def before_country(self, document: Tagged, target: Target, name: str) -> str:
        """A surrogate place's name as written right before the place after it (a capital before its
        country): the short form its aliases hold ("Santiago") when its name ends with the name
        written after it, since writers do not write "Santiago de Chile Chile"; the name itself
        otherwise (no such alias: "Ciudad de México").
        One value, one surrogate: the value written elsewhere in the record takes the short form too."""
        words = [loose(w) for w in _WORD.findall(name)]
        same = [t for t in document.targets if t.label in PLACE_LABELS and loose(t.text) == loose(target.text)]
        endings = [[loose(w) for w in _WORD.findall(self.region_after(document, t) or "")] for t in same]
        ending = next((e for e in endings if e and len(e) < len(words) and words[-len(e) :] == e), None)
        if ending is None:
            return name
        for place in self._tree.lookup(name):
            for alias in place.extra.get("aliases", "").split("|"):
                short = [loose(w) for w in _WORD.findall(alias)]
                if short and len(short) < len(words) and words[: len(short)] == short and short[-len(ending) :] != ending:
                    return alias
        return name

    def address_abroad(self, document: Tagged) -> bool:
        """Whether a record's address lies abroad in a kept country and it names no place at home:
        its e-mail addresses are then at providers, not at the home country's institutions."""
        return bool(self.address_countries(document)) and not self._at_home

    def town_of_address_abroad(self, document: Tagged) -> Place | None:
        """The listed town (for a Spanish pack, the capital) of the kept country of a record whose
        address lies abroad (`address_abroad`), the most populous; None for a record at home."""
        if not self.address_abroad(document):
            return None
        towns = [t for c in self.address_countries(document) for t in self._under(c)]
        return min(towns, key=lambda t: (-t.weight, t.id)) if towns else None

    def postcode_abroad(self, document: Tagged, beside: Place | None) -> bool:
        """Whether a postcode belongs to an address abroad kept as written: the listed town written
        beside it lies abroad, or it has none and the record names no place at home."""
        if not self.address_countries(document):
            return False
        return self.is_abroad(beside) if beside is not None else not self._at_home

    def foreign_postcode(self, text: str) -> str:
        """The one surrogate of a postcode of an address abroad: its layout with new digits (the
        first nonzero when it was), since the pack lists no postcodes of that country, after its
        leading region digits (two of five or more, one of four: postal codes start with their
        region, "11300" of Montevideo, and the record keeps its country and town, so a code of
        another region read wrong: "68303" for Montevideo). A code of several groups
        ("04005-005") begins with the surrogate of its first group, as the same record's "CP:
        04005" becomes: the two had disagreed."""
        digits = digits_of(text)
        if not digits:
            return text  # no code to redraw ("s/n")
        groups = regex.findall(r"\d+", text)
        region = digits[: 2 if len(digits) >= FOREIGN_REGION_DIGITS + 3 else 1 if len(digits) == 4 else 0]
        head = digits_of(self.foreign_postcode(groups[0])) if len(groups) > 1 else region

        def draw(stream: KeyedStream) -> str:
            new = digits
            while new == digits:
                new = head + "".join(stream.digit(exclude="0" if i == 0 and c != "0" else "") for i, c in enumerate(digits) if i >= len(head))
            return replace_digits(text, new)

        return self._scope.consistent(NAMESPACE, "postcode", digits, draw, one_to_one=True)

    def town_abroad(self, text: str, country: Place) -> tuple[str, str | None]:
        """A town written as of a foreign country ("Santiago, Chile", "Heredia" in a Costa Rican
        record) becomes a town of that country's surrogate, never a Spanish namesake: the country is
        drawn, when not yet mapped, among those the tree lists towns of, and the town is one of them
        (for a Spanish pack, its capital). A kept country (an address's: `address_countries`) is its
        own surrogate, so the town is drawn inside it; the text itself when it is that country's one
        listed town, and, with the note NO_TOWN_LISTED, when the pack lists no town of it (a town of
        another country would contradict the kept country). A fallback note when the surrogate
        country has no town."""
        if country.id not in self._mapped and not self.is_kept(country):
            anchor = self._anchor(country)
            pool = self._pack.cached(f"countries-with-towns:{anchor.id if anchor else '*'}", lambda: self._with_towns(country.kind, anchor))
            taken = {p.name for p in self._mapped.values() if p.kind == country.kind}  # countries mapped through their towns
            free = [(n, w) for n, w in zip(pool.items, pool.weights) if n not in taken]
            if len(free) >= 2:
                draws = WeightedList(tuple(n for n, _ in free), tuple(w for _, w in free))
                name = self._scope.consistent(
                    NAMESPACE, f"place:{country.kind}", normalise(country.name), lambda s: self._draw(draws, (), country.kind, anchor, s),
                    one_to_one=True,
                )
                self._mapped[country.id] = self._resolve(name, country.kind, anchor)
        kept = self.is_kept(country)
        listed = self._under(self.surrogate(country))
        if not (kept and listed and all(_holds(text, t.name) for t in listed)):  # not the capital of its kept country
            drawn = self._listed_town_abroad(text, country)
            if drawn is not None:
                return drawn, None  # a town of its region: a drawn town of anywhere ("Mexico DF" as Piedras Negras) broke its kept postcode
        if not listed and kept:  # a kept country the pack lists no town of (Brasil): nothing to draw inside it
            return text, NO_TOWN_LISTED
        towns = _weighted_names(t for t in listed if not (_holds(text, t.name) if kept else loose(t.name) == loose(text)))
        fallback = None
        if not len(towns) and kept:
            return text, None  # it names the one town listed of a kept country ("Capital Federal. Buenos Aires"): kept like the region it heads
        if not len(towns):  # mapped before to a country the tree lists no town of: a town of its continent abroad
            anchor = self._anchor(country)
            towns = _weighted_names(
                t for c in self._with_towns(country.kind, anchor).items for t in self._under(self._resolve(c, country.kind, anchor))
                if loose(t.name) != loose(text)
            )
            fallback = "no town of the surrogate country listed"
        if not len(towns):
            return self.unlisted(text, "PLACE"), "no town abroad listed"
        return self._scope.consistent(NAMESPACE, "place:abroad", normalise(text), towns.draw, one_to_one=False), fallback

    def _listed_town_abroad(self, text: str, country: Place) -> str | None:
        """Another town of the written town's own region, by population, for a town of a kept
        country abroad that the pack's `towns_abroad` list finds there, so a postcode or region
        kept beside it still fits ("Córdoba ... CP: X500" had become "Buenos Aires ... CP: X411",
        the one listed town). Never a town the home lists name too (a hospital named after the
        town had become one of Spain's: "Hospital de Terrassa ... Barcelona, Anzoátegui"). None
        where the country is not kept, or the list does not find the town, finds it in several
        regions (which one the record means is not known: "Cuauhtémoc, Chihuahua") or holds no
        other town of its region."""
        if not self.is_kept(country):
            return None
        towns = self._towns_abroad().get(country.extra.get("code", ""), ())
        written = ascii_fold(text)  # "Sao Paulo" for "São Paulo"
        regions = {region for region, name, _ in towns if ascii_fold(name) == written}
        if len(regions) != 1:
            return None
        [region] = regions
        pool = [(name, population) for where, name, population in towns if where == region and ascii_fold(name) != written and not self._tree.lookup(name)]
        if len(pool) < 2:
            return None
        draws = WeightedList(tuple(n for n, _ in pool), tuple(w for _, w in pool))
        return self._scope.consistent(NAMESPACE, "place:abroad", written, draws.draw, one_to_one=False)  # "São Paulo", "Sao Paulo": one town

    def names_like_home(self, document: Tagged) -> bool:
        """Whether a record's address abroad lies in a country of the pack's `towns_abroad` list
        that speaks the pack's language, where institutions are named after saints and people as at
        home ("Fundación Torres" in Argentina, never in Nigeria nor in Brazil)."""
        alike = self._countries_named_like_home()
        return any(country.extra.get("code", "") in alike for country in self.address_countries(document))

    def _countries_named_like_home(self) -> frozenset[str]:
        """The countries of the `towns_abroad` list whose official language is the pack's (its
        `language` column; every listed country where the list has none): Spanish saints and
        "Doctor" names in a Brazilian address read as made up (a review's finding)."""
        name = self.settings.towns_abroad
        if not name or not self._pack.has(name):
            return frozenset()
        language = self._pack.code.split("-")[0]
        return self._pack.cached(
            f"towns-abroad-alike:{name}",
            lambda: frozenset(row["country"] for row in self._pack.rows(name) if row.get("language", language) in ("", language)),
        )

    def _towns_abroad(self) -> Mapping[str, tuple[tuple[str, str, int], ...]]:
        """Country code -> (region code, name, population) of each town of the pack's `towns_abroad`
        list, most populous first ({} without the list)."""
        name = self.settings.towns_abroad
        if not name or not self._pack.has(name):
            return {}

        def make() -> dict[str, tuple[tuple[str, str, int], ...]]:
            by_country: dict[str, list[tuple[str, str, int]]] = {}
            for row in self._pack.rows(name):
                by_country.setdefault(row["country"], []).append((row["region"], row["name"], int(row["population"])))
            return {code: tuple(towns) for code, towns in by_country.items()}

        return self._pack.cached(f"towns-abroad:{name}", make)

    def _with_towns(self, kind: str, anchor: Place | None) -> WeightedList:
        """Foreign places of a kind (countries) under an anchor that have places listed under them."""
        places = self._tree.descendants(anchor, kind) if anchor else self._tree.of_kind(kind)
        return _weighted_names(p for p in places if self._tree.children.get(p.id) and p.id != self._home_country())

    def _under(self, place: Place) -> list[Place]:
        """Every place under a place."""
        found, stack = [], list(self._tree.children.get(place.id, []))
        while stack:
            found.append(stack.pop())
            stack.extend(self._tree.children.get(found[-1].id, []))
        return found

    def unlisted(self, text: str, label: str, beside: str | None = None, near: Place | None = None) -> str:
        """A place in no list: a place of the label's default kind, once per value, drawn inside the
        surrogate of the region written right after it when the lists know that region ("Estella
        (Navarra)": a town of Navarre, as the kept province says), else inside the region the
        record's nearest listed place is drawn in ("Isla de la Palma" in a record of Santa Cruz de
        Tenerife: one of its towns, not Burgos), else inside the configured home region, else anywhere."""
        kind = self.settings.default_kind.get(label)
        if kind is None:
            raise LocaleError(f"locale {self._pack.code!r} says no place kind for {label} (settings.places.kinds)")
        region = self.find(beside, "REGION")[0] if beside else None
        if region is None or region.kind == kind:
            region = self._anchor(near) if near is not None and not self.is_abroad(near) else self._home
        if region is not None and len(_pool(self._pack, kind, region, None)) < 2:
            region = None  # too small a region to draw in: its surrogate is not asked for
        inside = region if region is None or region is self._home else self.surrogate(region)  # the home region is where draws lie, not a value
        pool = _pool(self._pack, kind, inside, None) if inside is not None else None
        if pool is None or len(pool) < 2:
            pool = _pool(self._pack, kind, None, None)
        return self._scope.consistent(NAMESPACE, f"place:{kind}", normalise(text), pool.draw, one_to_one=True)

    def nearest_listed(self, document: Tagged, target: Target) -> Place | None:
        """The listed place of the record written nearest to a span (a town or a region, or the town
        of a postcode: "Isla de la Palma. CP: 38710" is Breña Alta's island, and had been drawn as
        Vigo; not a country: "País: España" written near "Alcalá Meco" says nothing of its province,
        and the town had been drawn in all Spain, "Alcarràs" in Lleida beside a Madrid postcode)."""
        country_kind = self.settings.default_kind.get("COUNTRY")
        ranked = []
        for other in self._record_places(document):
            if other is not target:
                place, note = self.find(other.text.strip(), other.label)
                if place is not None and note is None and place.kind != country_kind:
                    ranked.append((abs(other.span.start - target.span.start), other.span.start, place))
        for code in self._record_postcodes(document):  # "Isla de la Palma. CP: 38710": Breña Alta's code
            ranked.append((abs(code.span.start - target.span.start), code.span.start, self._town_of_code(code.text)))
        return min((r for r in ranked if r[2] is not None), key=lambda item: item[:2], default=(0, 0, None))[2]

    def _record_postcodes(self, document: Tagged) -> list[Target]:
        """The tagged postcodes of the record: spans of digits of a place label or POSTCODE."""
        return [t for t in document.targets if t.label in (*PLACE_LABELS, "POSTCODE") and digits_of(t.text) and not any(c.isalpha() for c in t.text)]

    def _town_of_code(self, text: str) -> Place | None:
        """The listed place a postcode is of (the first by id where several share it), or None."""
        holders = self._holders_of_code(text)
        return self._tree.places[holders[0]] if holders else None

    def _holders_of_code(self, text: str) -> list[str]:
        """The ids of the listed places the postal data files a postcode under, sorted."""
        if not self._pack.has("postal_codes"):
            return []
        return sorted({i for i in _postcodes(self._pack)[2].get(digits_of(text), []) if i in self._tree.places})

    def _pool_for(self, place: Place) -> tuple[Place | None, WeightedList]:
        """Where a place's surrogate is drawn: inside the surrogate of its nearest mapped region,
        else inside its anchor (a town within its kept province), else anywhere."""
        preposition = place.extra.get("preposition")
        node = self._tree.parent(place)
        while node is not None:
            if node.id in self._mapped and not self.is_kept(node):
                pool = _pool(self._pack, place.kind, self._mapped[node.id], preposition)
                if len(pool) >= 2:
                    return self._mapped[node.id], pool
                break
            node = self._tree.parent(node)
        anchor = self._anchor(place)
        pool = _pool(self._pack, place.kind, anchor, preposition)
        if len(pool) < 2:
            anchor, pool = None, _pool(self._pack, place.kind, None, preposition)
        return anchor, pool

    def _replaced_regions(self, place: Place) -> tuple[Place, ...]:
        """The original's own regions between it and its anchor that are not kept: a surrogate
        inside one of them would map that region onto itself."""
        anchor = self._anchor(place)
        found: list[Place] = []
        node = self._tree.parent(place)
        while node is not None and node != anchor:
            if not self.is_kept(node) and node.id not in self._mapped:
                found.append(node)
            node = self._tree.parent(node)
        return tuple(found)

    def _draw(self, pool: WeightedList, avoid: Sequence[Place], kind: str, anchor: Place | None, stream: KeyedStream) -> str:
        name = pool.draw(stream)
        for _ in range(MAX_TRIES):
            place = self._resolve(name, kind, anchor)
            if place.id != self._home_country() and not (avoid and self._inside(place, avoid)):
                break  # a foreign place never becomes the home country: it stays foreign
            name = pool.draw(stream)
        return name

    def _regions_headed(self, town: Place) -> list[Place]:
        """The regions above a town that bear its name ("Zaragoza" the province, of Zaragoza the town)."""
        found, node = [], self._tree.parent(town)
        while node is not None:
            if loose(node.name) == loose(town.name):
                found.append(node)
            node = self._tree.parent(node)
        return found

    def _inside(self, place: Place, regions: Sequence[Place]) -> bool:
        ids = {r.id for r in regions}
        node = self._tree.parent(place)
        while node is not None:
            if node.id in ids:
                return True
            node = self._tree.parent(node)
        return False

    def heads_region(self, place: Place) -> bool:
        """Whether a town shares its name with a region it lies in ("Albacete")."""
        return self._namesake(place) is not None or self._heads_kept(place)

    def _namesake(self, place: Place) -> Place | None:
        """The region a town shares its name with and heads ("Pontevedra" in "Vigo, Pontevedra"),
        when that region is replaced; None otherwise."""
        node = self._tree.parent(place)
        while node is not None and node.kind != self.settings.group.get(place.kind):
            if loose(node.name) == loose(place.name) and not self.is_kept(node):
                return node
            node = self._tree.parent(node)
        return None

    def _namesake_surrogate(self, place: Place, region: Place) -> Place | None:
        """A town named like its region becomes the town named like the region's surrogate, so
        the name reads right as the town and as the region: "Vigo, Pontevedra" -> "Gijón, Asturias"
        never leaves a town of one province beside another province. None when no other such
        town lies inside the place's anchor (a kept state), or where no other town heads its region
        ("New York" alone in the United States): the town is then drawn as any other."""
        target = self._mapped.get(region.id) or self._derived_from_below(region)
        if target is None:
            anchor = self._anchor(place)
            heads = self._pack.cached(
                f"namesake-towns:{place.kind}:{region.kind}:{anchor.id if anchor else '*'}", lambda: self._heads(place.kind, region.kind, anchor)
            )
            if len(heads) < 2:
                return None
            avoid = self._replaced_regions(place)
            name = self._scope.consistent(
                NAMESPACE, f"place:{place.kind}", normalise(place.name), lambda s: self._draw(heads, avoid, place.kind, None, s), one_to_one=True
            )
            return self._resolve(name, place.kind, None)
        towns = [t for t in self._tree.descendants(target, place.kind) if loose(t.name) == loose(target.name)]
        if not towns:  # the surrogate region has no namesake town: its largest town
            towns = sorted(self._tree.descendants(target, place.kind), key=lambda t: (-t.weight, t.id))[:1]
        if not towns:
            return target
        chosen = min(towns, key=lambda t: (-t.weight, t.id))
        name = self._scope.consistent(NAMESPACE, f"place:{place.kind}", normalise(place.name), lambda _: chosen.name, one_to_one=False)
        return self._resolve(name, place.kind, target)

    def _heads(self, kind: str, region_kind: str, anchor: Place | None) -> WeightedList:
        """Towns named like the region of `region_kind` they lie in, under the anchor, by population."""
        return _weighted_names(
            t for t in (self._tree.descendants(anchor, kind) if anchor else self._tree.of_kind(kind))
            if (r := self._tree.ancestor(t, region_kind)) is not None and loose(r.name) == loose(t.name)
        )

    def _derived_from_below(self, place: Place) -> Place | None:
        """A region with a mapped place under it becomes that surrogate's region of its kind."""
        for original_id, surrogate in sorted(self._mapped.items()):
            node = self._tree.places.get(original_id)
            while node is not None and node.id != place.id:
                node = self._tree.parent(node)
            if node is None:
                continue
            above = self._tree.ancestor(surrogate, place.kind)
            if above is not None:
                return above
        return None

    def _resolve(self, name: str, kind: str, anchor: Place | None) -> Place:
        """The place a drawn name stands for: of the kind, under the anchor, most populous."""
        if name in self._by_surrogate and self._by_surrogate[name].kind == kind:
            return self._by_surrogate[name]
        candidates = [p for p in self._tree.lookup(name) if p.kind == kind and p.name == name]
        if anchor is not None:
            candidates = [p for p in candidates if self._inside(p, (anchor,))] or candidates
        place = min(candidates, key=lambda p: (-p.weight, p.id)) if candidates else Place(f"drawn:{name}", None, kind, name)
        self._by_surrogate[name] = place
        return place

    # -- reading texts ----------------------------------------------------------------------
    def named_in(self, text: str, kinds: Iterable[str]) -> tuple[int, int, Place] | None:
        """The longest run of words of a text that names a listed place of one of the kinds
        ("Getafe" in "Hospital Universitario de Getafe"), with its offsets; None if none."""
        wanted = set(kinds)
        words = list(_WORD.finditer(text))
        for size in range(min(len(words), 5), 0, -1):
            for i in range(len(words) - size + 1):
                start, end = words[i].start(), words[i + size - 1].end()
                if not text[start].isupper():
                    continue
                found = [p for p in self._tree.lookup(text[start:end]) if p.kind in wanted]
                if found:
                    return start, end, min(found, key=lambda p: (-p.weight, p.id))
        return None

    # -- postcodes --------------------------------------------------------------------------
    def postcode(self, text: str, beside: Place | None, prefer: str = "", drawn: Place | None = None) -> tuple[str, str | None]:
        """The one surrogate of an original postcode in this scope: a code of the surrogate of the
        town written beside it (the postal data gives a shared code to one of its towns only),
        else of the postal data's place of the code, else any valid code of its length; and a
        fallback note or None. A town beside it that heads its region, where the code is of another
        town of that region, names the region ("Localidad/ Provincia: Zaragoza. CP: 50800", the code
        of Zuera): the code then follows its own town, as it does where that town is written
        ("50800 Zuera"). A code
        another original already took in the scope is passed over for another of the town's own;
        where the town has no other, two originals share its code ("31200 Estella-Lizarra" in the
        header and after its hospital: a code of another town of the region, "31176", read as
        wrong), and a town with no code of its own takes one of its region. A town written with
        several codes is drawn among towns that have as many (`surrogate`) where the draw allows. A code to
        `prefer` (the catalogue unit's own, written after it) is taken when it is the surrogate
        town's and no original of the scope, even where another original drew it first (then
        the two share it). `drawn`: the surrogate town itself, where the town written is in no list
        (`unlisted_town_after`)."""
        digits = digits_of(text)
        by_place, every, by_code = _postcodes(self._pack)
        holders = [self._tree.places[i] for i in by_code.get(digits, []) if i in self._tree.places]
        town = beside  # the town written with the code: the record says the code is of that town
        if town is not None and holders and town.id not in {h.id for h in holders}:
            headed = self._regions_headed(town)
            inside = [h for h in holders if headed and self._inside(h, headed)]
            if inside:  # "Localidad/ Provincia: Zaragoza. CP: 50800" names the province: the code is Zuera's
                holders, town = inside, None
        if town is None and holders and drawn is None:
            town = min(holders, key=lambda p: (-p.weight, p.id))
        fitting: Sequence[str] = ()
        fallback = None
        shared = False
        surrogate = drawn if drawn is not None else self.surrogate(town) if town is not None else None
        if surrogate is not None:
            taken = self._scope.taken(NAMESPACE, "postcode")
            town_codes = [(c, key) for c, code_digits, key in _keyed_codes(self._pack, surrogate, len(digits), "town") if code_digits != digits]
            fitting = [c for c, key in town_codes if key not in taken]
            if not fitting and town_codes:  # a second code of a town that has one: shared, not a code of another town beside it
                fitting, shared = [c for c, _ in town_codes], True
            if not fitting:  # a town without codes of its own: one of its region
                fitting = [c for c, code_digits, key in _keyed_codes(self._pack, surrogate, len(digits), "region") if code_digits != digits and key not in taken]
            if not fitting:
                fallback = "no postcode of the surrogate town"
        own = {d for _, d, _ in _keyed_codes(self._pack, surrogate, len(digits), "town")} if prefer and surrogate is not None else set()
        if digits_of(prefer) in own and digits_of(prefer) != digits and normalise(prefer) not in self._scope.originals:
            # the unit's own code, when it is the town's, even where another original drew it first: a
            # real hospital beside another code of its town is read as wrong ("Clínico San Carlos ... 28018")
            fitting, fallback = (prefer,), None
            shared = normalise(prefer) in self._scope.taken(NAMESPACE, "postcode")
        if not fitting and town is None and not holders:  # a code no list holds ("31224"): one of its area's region's surrogate
            fitting = [c for c in self._codes_of_area(digits) if digits_of(c) != digits]
        if not fitting and not every.get(len(digits)) and surrogate is not None and every:
            # shorter than any code ("CP: 28", the province's two digits): the head of the surrogate town's own
            usual = max(every, key=lambda length: len(every[length]))
            heads = {code_digits[: len(digits)] for _, code_digits, _ in _keyed_codes(self._pack, surrogate, usual, "town") if len(digits) < usual}
            if heads:
                return replace_digits(text, min(heads)), None
        if not fitting:
            fitting = every.get(len(digits), ())
        if not fitting:
            return "", "postcode of an unknown shape"

        def draw(stream: KeyedStream) -> str:
            return digits_of(stream.choice(fitting))

        # the digits are the code's surrogate: each mention keeps its own shape ("CP: 28053", "E 28053")
        return replace_digits(text, self._scope.consistent(NAMESPACE, "postcode", digits, draw, one_to_one=not shared)), fallback

    def _codes_of_area(self, digits: str) -> tuple[str, ...]:
        """The codes of the surrogate of the one region (the pack's first REGION kind) that holds
        every listed code of the same length opening with the code's first two digits (a Spanish
        province: "31" is Navarra); none where that area spans regions (a US ZIP prefix may)."""
        kind = (self.settings.kinds.get("REGION") or ("",))[0]
        _, every, by_code = _postcodes(self._pack)
        head, length = digits[:2], len(digits)

        def regions() -> frozenset[str]:
            found = set()
            for code in every.get(length, ()):
                if digits_of(code)[:2] == head:
                    for place_id in by_code.get(digits_of(code), ()):
                        place = self._tree.places.get(place_id)
                        region = self._tree.ancestor(place, kind) if place is not None and kind else None
                        found.add(region.id if region is not None else "")
            return frozenset(found)

        found = self._pack.cached(f"postcode-area-regions:{head}:{length}", regions)
        if len(found) != 1 or "" in found:
            return ()
        region = self.surrogate(self._tree.places[next(iter(found))])

        def codes() -> tuple[str, ...]:
            return tuple(c for c in every.get(length, ()) if any(self._inside(self._tree.places[i], [region]) for i in by_code.get(digits_of(c), ()) if i in self._tree.places))

        return self._pack.cached(f"postcode-area-codes:{region.id}:{length}", codes)

    # -- streets ----------------------------------------------------------------------------
    def national_road_type(self, road_type: str, name: str, town: Place | None) -> str:
        """The road type a street drawn `name` is written with: as the original wrote it, unless it
        is a full word of another language of the country ("Carrer", "Rúa") and the name is no
        street of the surrogate town's own list: then the type word of the lists ("Calle"), since
        "Carrer Medio" mixes Catalan with a name of the national list."""
        written = road_type.strip()
        word = self.road_class(written)
        if not written.isalpha() or written.casefold() == word or word.startswith(written.casefold()) or town is None:
            return road_type  # "Av" is an abbreviation, not another language's word: "Av, de Leon" had become "Avenida, La Catedral"
        local = self._local_streets(self.surrogate(town), road_type)
        if local is not None and name in local:
            return road_type
        return road_type.replace(written, word.capitalize() if written[0].isupper() else word)

    def street(self, name: str, road_type: str, town: Place | None, abroad: bool = False) -> str:
        """The one surrogate name of an original street in this scope: a street of the surrogate of
        its town where the pack lists streets for it, else of the region right above it (a province;
        for a composed list, the town's municipality), else of the country list;
        of the original's road type where the local streets have one ("Plaza" for "Pza."). A street
        `abroad` (in a country the pack lists no streets of) takes a name of `localities_abroad`:
        the country list's "Concepción Arenal" in San José, Costa Rica, gave the record away."""
        local = self._local_streets(self.surrogate(town), road_type) if town is not None else None
        country = self._pack.cached("country-streets", self._country_streets)
        if abroad and local is None:
            country = self._names_abroad() or country
        share = self.settings.local_street_share
        several_words = not road_type and len(name.split()) > 1

        def draw_once(stream: KeyedStream) -> str:
            if local is None or (share < 1 and stream.below(1000) >= share * 1000):
                return country.draw(stream)
            return local.draw(stream)

        def draw(stream: KeyedStream) -> str:
            """A street written without its road type and of several words ("Profesor Martín Lagos
            s/n") takes a name of several words where a few draws find one: "Oeste s/n", a
            one-word name without its "Calle", read as cut off."""
            drawn = draw_once(stream)
            for _ in range(STREET_SHAPE_TRIES if several_words else 0):
                if len(drawn.split()) > 1:
                    break
                drawn = draw_once(stream)
            return drawn

        return self._scope.consistent(NAMESPACE, "street", loose(name), draw, one_to_one=True)

    def neighbourhood(self, name: str) -> str:
        """The one surrogate of a neighbourhood of an address abroad ("Col. Obraje"): a name of
        `localities_abroad`, as a street there takes, else a street name of the country list that
        names no place of the pack ("La Flor", not "Teruel"), since the pack lists no neighbourhoods
        abroad and a home town there gave the record away ("Colonia Salvador Dalí" in Mexico City,
        a Catalan painter from the country list, gave another away in round 63); the surrogate the
        record's header gave the same place, where it gave one ("Meireles" as the town and in an
        address)."""

        def make() -> WeightedList:
            streets = self._country_streets()
            kept = [(n, w) for n, w in zip(streets.items, streets.weights) if not self._tree.lookup(n)]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept)) if kept else streets

        for key in (normalise(name), ascii_fold(name)):  # "Meireles, Fortaleza" in the header: the same place, one surrogate
            known = self._scope.remembered(NAMESPACE, "place:abroad", key)
            if known is not None:
                return known
        pool = self._names_abroad() or self._pack.cached("neighbourhoods", make)
        return self._scope.consistent(NAMESPACE, "street", loose(name), pool.draw, one_to_one=True)

    def streets_of(self, place: Place) -> WeightedList | None:
        """The street names listed for a (surrogate) place or the region right above it, as
        `street` draws them; None where neither has streets: a unit named after a street
        ("Centro de Salud Doctor Fleming") is named after one of its town's."""
        return self._local_streets(place, "")

    def unit_namesake(self, place: Place | None, stream: KeyedStream) -> str | None:
        """A street name a unit of `place` may be named after: one of `streets_of` (a place with
        none, or no place: the country list's 500 most common) that names a person, a saint or a
        home place in one of its words (`_names_a_unit`): "Residencia Corta", "Residencia
        Cementerio", "Residencia Bolivia" read as made up (round 61). Drawn again a few times, then
        the last draw stands (names of one compound word, as Swedish streets are, the test cannot
        read); None where there are no streets."""
        streets = self.streets_of(place) if place is not None else None
        if streets is None:
            streets = self._pack.weighted("streets").top(UNIT_NAMESAKES) if self._pack.has("streets") else None
        if streets is None or not len(streets):
            return None
        name = streets.draw(stream)
        for _ in range(NAMESAKE_TRIES):
            if self._names_a_unit(name):
                break
            name = streets.draw(stream)
        return name

    def _names_a_unit(self, name: str) -> bool:
        """A street name with a word that is a listed person's name, a saint or a home place's
        ("Jovellanos", "Torrente", "Doctor Fleming"), never common words alone nor a place abroad
        ("Diseminado Majavacas", "Abogados del Turno de Oficio", "Bolivia"); judged once per name
        and pack, since towns share many."""
        judged: dict[str, bool] = self._pack.cached("unit-namesake-judged", dict)
        if name not in judged:
            common = self._pack.cached("unit-namesake-common", lambda: common_words(self._pack) | particles(self._pack))
            lists = self._pack.cached(
                "unit-namesake-lists",
                lambda: [self._pack.weighted(n) for n in ("first_names_female", "first_names_male", "last_names", "saints") if self._pack.has(n)],
            )
            words = [w for w in regex.findall(r"[\p{L}\p{N}]+", name) if w.casefold() not in common]

            def at_home(text: str) -> bool:
                found = self._tree.lookup(text)
                return bool(found) and not all(self.is_abroad(p) for p in found)

            abroad = bool(self._tree.lookup(name)) and not at_home(name)
            judged[name] = bool(words) and not abroad and (
                at_home(name) or any(listed.weight(w) for w in words for listed in lists) or any(at_home(w) for w in words)
            )
        return judged[name]

    def _country_streets(self) -> WeightedList:
        """The country list's names that many towns share ("Mayor", "Real", "San Roque"), when it
        has enough of them: a name one region gave a street ("Pradejón-Arnedo") read as out of
        place in another region to blind readers."""
        streets = self._pack.weighted("streets")
        shared = [(n, w) for n, w in zip(streets.items, streets.weights) if w >= COMMON_STREET_TOWNS]
        if len(shared) < MIN_COMMON_STREETS:
            return streets
        return WeightedList(tuple(n for n, _ in shared), tuple(w for _, w in shared))

    def _local_streets(self, place: Place, road_type: str) -> WeightedList | None:
        """Streets listed for a place, else, for a town and with `street_reach: region`, for the
        region right above it (a province; a Swedish municipality), never the one towns are replaced
        within (the country); by how many towns of the region have a street of that name. None when
        neither has streets."""
        listed = _streets_under(self._pack)
        town = self.settings.default_kind.get("PLACE", "")
        stop = self.settings.group.get(town)
        region = self._tree.parent(place) if self.settings.region_streets and place.kind == town else None
        for node in (place, region):
            if node is None or node.kind == stop:
                return None
            if node.id in listed:
                found = listed[node.id]
                around = listed.get(region.id, ()) if node is place and region is not None and region.kind != stop else ()
                wider = (around, self._every_street())
                return self._pack.cached(f"local-streets:{node.id}:{self.road_class(road_type)}", lambda: self._typed(found, road_type, wider))
        return None

    def _every_street(self) -> Sequence[tuple[str, str]]:
        """(name, type word) of every street the pack lists, of every town."""
        return self._pack.cached("every-street", lambda: tuple((r["name"], r["type"]) for r in self._pack.rows("town_streets")))

    def road_class(self, road_type: str) -> str:
        """The type word of the street lists a road type as written stands for ("Avda." -> "Avenida")."""
        written = road_type.strip().casefold()
        return self.settings.street_type_words.get(written, written).casefold()

    def _typed(self, streets: Sequence[tuple[str, str]], road_type: str, wider: tuple[Sequence[tuple[str, str]], ...] = ()) -> WeightedList:
        """The streets of the original's road type when there are any, else those of that type of
        the wider lists in order (the province's, then every town's: a road named as roads are,
        where the town lists none: "Carretera Nacional 330" had become "Carretera Parque del
        Canal"), else all of the town's."""
        wanted = self.road_class(road_type) if road_type.strip() else ""
        for pool in (streets, *wider) if wanted else ():
            classes = {kind: self.road_class(kind) for kind in {kind for _, kind in pool}}
            same = [name for name, kind in pool if classes[kind] == wanted]
            if same:
                return WeightedList.heaviest_first(Counter(same))
        return WeightedList.heaviest_first(Counter(name for name, _ in streets))

    # -- what other rules ask -----------------------------------------------------------------
    def names_around(self, place: Place) -> frozenset[str]:
        """The loose names (and aliases) of a place and every region above it."""
        names: set[str] = set()
        node: Place | None = place
        while node is not None:
            names.update(loose(n) for n in [node.name, *node.extra.get("aliases", "").split("|")] if n)
            node = self._tree.parent(node)
        return frozenset(names)

    def nearest(
        self,
        document: Tagged,
        position: int,
        labels: tuple[str, ...] = ("PLACE", "REGION", "ADDRESS"),
        kinds: Iterable[str] = (),
        besides: Target | None = None,
    ) -> Place | None:
        """The listed place written nearest to a position (of the kinds, when given), other than
        the span `besides` (a unit tagged as a place is no place of its own): where a phone's area
        code, an identifier's province, a unit's town or a service's region comes from."""
        wanted = set(kinds)
        spans = sorted(
            (abs(t.span.start - position), t.span.start, t)
            for t in document.targets
            if t.label in labels and any(c.isalpha() for c in t.text) and (besides is None or t.span != besides.span)
        )
        for _, _, target in spans:
            place = self.read(document, target)
            if place is not None and (not wanted or place.kind in wanted):
                return place
        return None

    def surrogate_town(self, document: Tagged, position: int) -> Place | None:
        """The surrogate of the record's town: of the listed town written nearest to a position
        (a whole address's town too), or None where the record names no town."""
        kind = self.settings.default_kind.get("PLACE")
        town = self.nearest(document, position, kinds=(kind,)) if kind else None
        return None if town is None else self.surrogate(town)

    def read(self, document: Tagged, target: Target) -> Place | None:
        """The listed place a span names: an address's town, or a place read beside the region
        written right after it ("Springfield, IL"), else the one town of the postcode written right
        before it (`town_of_its_postcode`), so every rule reads a record's town alike."""
        if target.label == "ADDRESS":
            return self.in_address(target.text)
        found = self.find(target.text, target.label, self.region_after(document, target))[0]
        return found if found is not None else self.town_of_its_postcode(document, target)

    def region_after(self, document: Tagged, target: Target) -> str | None:
        """The text of the place span written right after a place, only a comma between ("Springfield, IL")."""
        after = [t for t in document.targets if t.span.start >= target.span.end and t.label in PLACE_LABELS]
        if not after:
            return None
        following = min(after, key=lambda t: t.span.start)
        return following.text if _BESIDE.fullmatch(document.text[target.span.end : following.span.start]) else None

    def in_address(self, text: str) -> Place | None:
        """The town a whole address names: its first part without digits that names a town, read
        beside the part after it ("1668 Glyn St, Springfield, IL 62704": Springfield in Illinois)."""
        parts = [_TRAILING_CODE.sub("", p).strip(" .;:") for p in _ADDRESS_PART.findall(text)]
        parts = [p for p in parts if p and regex.search(r"\p{L}", p) and not any(c.isdigit() for c in p)]
        town_kind = self.settings.default_kind.get("PLACE")
        for i, part in enumerate(parts):
            place = self.find(part, "PLACE", parts[i + 1] if i + 1 < len(parts) else None)[0]
            if place is not None and place.kind == town_kind:
                return place
        return None

    def surrogate_of_text(self, text: str, label: str) -> Place | None:
        """The surrogate of the listed place a text names, or None when it names none."""
        place, _ = self.find(text, label)
        return None if place is None else self.surrogate(place)



def _only(pool: WeightedList, names: frozenset[str]) -> WeightedList:
    """The pool's names among those given (loose); possibly empty."""
    kept = [(n, w) for n, w in zip(pool.items, pool.weights) if loose(n) in names]
    return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))


UNIT_ACRONYM_GAP = regex.compile(r"[^\S\n]*\([^\S\n]*")  # between a unit and its acronym: " (" (fullmatch)


def a_home_unit_rather_than_a_town(pack: LocalePack, text: str, home_name: object) -> bool:
    """Whether a place value the lists hold only as small towns outside the configured `home`
    region, and as no region or county anywhere, is the name a unit of the home region goes by:
    "go to harbor and wait for heart" in Maryland notes is Baltimore's (Medstar) Harbor Hospital,
    not Harbor, Oregon; drawn as a home town ("Dundalk") it read as a town where a transplant centre
    belongs. The whole name before its type words must match ("Franklin" is no "Franklin Square")."""
    if not home_name or not pack.has("locations") or not pack.has(UNIT_VOCABULARY):
        return False
    tree, settings = pack.tree(), place_settings(pack)
    homes = [p for p in tree.lookup(str(home_name)) if p.kind in settings.kinds.get("REGION", ())]
    found = tree.lookup(text.strip())
    town = settings.default_kind.get("PLACE")
    if not homes or not found or any(p.kind != town or p.weight >= CITY or tree.ancestor(p, homes[0].kind) in homes for p in found):
        return False  # the home state, a city, a home town
    key = " ".join(loose(w) for w in _LETTERS.findall(text))
    regions = [r for kind in settings.kinds.get("REGION", ()) if kind != homes[0].kind for r in tree.descendants(homes[0], kind)]
    if any(len(_LETTERS.findall(r.name)) == len(_LETTERS.findall(text)) + 1 and loose(r.name).startswith(key + " ") for r in regions):
        return False  # a home region written without its kind's word: "lives in Calvert" (Calvert County)
    places = unit_names_before_type(pack).get(key, ())
    return any(i in tree.places and tree.ancestor(tree.places[i], homes[0].kind) in homes for i in places)


def unit_type_words(pack: LocalePack) -> frozenset[str]:
    """The words of the pack's health care unit type cues, folded ("hospital", "universitario"):
    words that name no unit."""

    def make() -> frozenset[str]:
        types = pack.vocabulary(UNIT_VOCABULARY).get("types", []) if pack.has(UNIT_VOCABULARY) else []
        return frozenset(loose(w) for t in types for cue in t.get("cues", []) for w in _LETTERS.findall(cue))

    return pack.cached("address:unit-type-words", make)


def unit_names_before_type(pack: LocalePack) -> dict[str, frozenset[str]]:
    """Each catalogue unit's name without the type words that end it, and without its first word
    too (an owner's: "Medstar"), folded -> the place ids of the units so named ("harbor" of
    "Medstar Harbor Hospital")."""

    def make() -> dict[str, frozenset[str]]:
        types = pack.vocabulary(UNIT_VOCABULARY).get("types", [])
        cue_words = unit_type_words(pack)
        found: dict[str, set[str]] = {}
        for catalogue in sorted({t["catalogue"] for t in types if t.get("catalogue") and pack.has(t["catalogue"])}):
            for row in pack.rows(catalogue):
                words = [loose(w) for w in _LETTERS.findall(row["name"])]
                while words and words[-1] in cue_words:
                    words.pop()
                for named in (words, words[1:] if len(words) >= 2 else []):
                    if named:
                        found.setdefault(" ".join(named), set()).add(row["place_id"])
        return {name: frozenset(ids) for name, ids in found.items()}

    return pack.cached("address:units-by-name-before-type", make)


def _units_by_word(pack: LocalePack, catalogue: str) -> dict[str, frozenset[str]]:
    """Each word (loose) of the catalogue's unit names -> the place ids of the units it names; a
    place once however many of its units bear the word."""
    found: dict[str, set[str]] = {}
    for row in pack.rows(catalogue):
        for word in _LETTERS.findall(row["name"]):
            found.setdefault(loose(word), set()).add(row["place_id"])
    return {word: frozenset(ids) for word, ids in found.items()}


def _of_its_size(pool: WeightedList, place: Place) -> WeightedList:
    """A city's names of the pool of at least a tenth of its population (a twentieth, where fewer
    than two besides its own are that large): records of a city cite its hospitals, its regional centres and its doctors'
    practices, and Donostia's doctor practising in Idiazabal, a village of 2,000, and Navarre's
    blood centre in Cintruénigo gave records away (round 33). Smaller towns draw by population
    from the whole pool."""
    if place.weight < CITY:
        return pool
    for fraction in SIZE_CLASSES:  # a tenth; in a province of small towns, a twentieth
        kept = [(n, w) for n, w in zip(pool.items, pool.weights) if w * fraction >= place.weight]
        if sum(n != place.name for n, _ in kept) >= 2:
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))
    return pool


def _without(pool: WeightedList, names: set[str]) -> WeightedList:
    """The pool less the names given (loose) and those ending in one ("Santa Cruz de Tenerife"
    before a written "Tenerife"), or the whole pool when nothing else is in it."""
    kept = [(n, w) for n, w in zip(pool.items, pool.weights) if not any(loose(n) == name or loose(n).endswith(f" {name}") for name in names)]
    return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept)) if kept else pool


def _beside(document: Tagged, first: Target, second: Target) -> bool:
    """Whether two spans are written beside each other on one line, with only punctuation, digits
    or other spans between them ("Santiago, Chile", "80100 Holguín, Cuba")."""
    start, end = min(first.span.end, second.span.end), max(first.span.start, second.span.start)
    if end - start > BESIDE_REACH:
        return False
    between = list(document.text[start:end])
    for t in document.targets:
        for i in range(max(t.span.start, start), min(t.span.end, end)):
            between[i - start] = " "  # another place or a postcode between them
    return bool(_ON_LINE.fullmatch("".join(between)))


def _holds(text: str, name: str) -> bool:
    """Whether a text holds a name as a run of whole words, accents and case aside."""
    words, inside = [loose(w) for w in _WORD.findall(text)], [loose(w) for w in _WORD.findall(name)]
    return bool(inside) and any(words[i : i + len(inside)] == inside for i in range(len(words) - len(inside) + 1))


def _preferred(found: Sequence[Place], wanted: Sequence[str]) -> Place | None:
    """The place of the label's most preferred kind among those found, then the most populous."""
    rank = {kind: i for i, kind in enumerate(wanted)}
    return min(found, key=lambda p: (rank.get(p.kind, len(rank)), -p.weight, p.id)) if found else None


def _demonym_countries(pack: LocalePack) -> dict[str, set[str]]:
    """A country's loose name -> the loose words for its people (the pack's `demonyms`)."""

    def make() -> dict[str, set[str]]:
        entries = pack.vocabulary(DEMONYMS).get("demonyms") or []
        return {loose(e["country"]): {loose(form) for form in e["forms"]} for e in entries}

    return pack.cached("address:demonyms", make)


def _demonym_words(pack: LocalePack) -> regex.Pattern:
    """Any country's name or people's word, whole, in loose text, with a plural -s or -es read through."""

    def make() -> regex.Pattern:
        words = {word for name, forms in _demonym_countries(pack).items() for word in (name, *forms)}
        alternatives = "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))
        return regex.compile(rf"(?<!\w)({alternatives})(?:e?s)?(?!\w)")

    return pack.cached("address:demonym-words", make)


def _catalogue_type(pack: LocalePack) -> regex.Pattern:
    """The cues of the unit types that name a catalogue of real units, as whole words ("Hospital",
    "H."); a pattern that matches nothing when there are none."""

    def make() -> regex.Pattern:
        types = pack.vocabulary(UNIT_VOCABULARY).get("types", []) if pack.has(UNIT_VOCABULARY) else []
        cues = sorted({c for t in types if t.get("catalogue") and pack.has(t["catalogue"]) for c in t.get("cues", [])}, key=len, reverse=True)
        body = "|".join(regex.escape(c) for c in cues) or r"(?!)"
        return regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}])(?:{body})(?![\p{{L}}\p{{N}}])")

    return pack.cached("address:catalogue-type-cues", make)


def catalogue_classes(pack: LocalePack, catalogue: str) -> tuple[dict[str, frozenset[str]], str | None]:
    """A catalogue's unit names (folded) -> their classes ("Hospitales Generales"), and the class
    most units have; ({}, None) for a catalogue without a `class` column."""

    def make() -> tuple[dict[str, frozenset[str]], str | None]:
        rows = pack.rows(catalogue)
        if not rows or "class" not in rows[0]:
            return {}, None
        by_name: dict[str, set[str]] = {}
        for row in rows:
            by_name.setdefault(loose(row["name"]), set()).add(row["class"])
        usual = Counter(row["class"] for row in rows).most_common(1)[0][0]
        return {name: frozenset(found) for name, found in by_name.items()}, usual

    return pack.cached(f"catalogue-classes:{catalogue}", make)


def catalogue_owners(pack: LocalePack, catalogue: str) -> tuple[dict[str, frozenset[str]], str | None]:
    """A catalogue's unit names (folded) -> who runs them ("public", "private"), and who runs most
    of its beds (the `count` column): the owner a unit the catalogue does not find is taken to
    have (case reports come mostly from public hospitals: 102 of the 108 MEDDOCAN train hospitals
    the catalogue finds, and a private one for a public one gave records away); ({}, None) for a
    catalogue without an `owner` column."""

    def make() -> tuple[dict[str, frozenset[str]], str | None]:
        rows = pack.rows(catalogue)
        if not rows or "owner" not in rows[0]:
            return {}, None
        by_name: dict[str, set[str]] = {}
        weight: Counter[str] = Counter()
        for row in rows:
            by_name.setdefault(loose(row["name"]), set()).add(row["owner"])
            weight[row["owner"]] += int(row.get("count") or 1)
        return {name: frozenset(found) for name, found in by_name.items()}, weight.most_common(1)[0][0]

    return pack.cached(f"catalogue-owners:{catalogue}", make)


def _catalogue_places(pack: LocalePack) -> frozenset[str]:
    """The ids of the places a catalogue of real units (hospitals) files a unit at, of the class
    most of its units have where it gives classes (a town whose one hospital is a psychiatric one
    cannot hold the general hospital a unit becomes)."""
    return pack.cached("address:catalogue-places", lambda: frozenset(_units_by_place(pack)))


def _units_by_place(pack: LocalePack) -> dict[str, tuple[str, ...]]:
    """Place id -> the names of the catalogue units filed there, of the usual class."""

    def make() -> dict[str, tuple[str, ...]]:
        types = pack.vocabulary(UNIT_VOCABULARY).get("types", []) if pack.has(UNIT_VOCABULARY) else []
        lists = {t["catalogue"] for t in types if t.get("catalogue") and pack.has(t["catalogue"])}
        found: dict[str, list[str]] = {}
        for name in sorted(lists):
            usual = catalogue_classes(pack, name)[1]
            for row in pack.rows(name):
                if row.get("place_id") and (usual is None or row["class"] == usual):
                    found.setdefault(row["place_id"], []).append(row["name"])
        return {place: tuple(names) for place, names in found.items()}

    return pack.cached("address:units-by-place", make)


def _naming_words(pack: LocalePack, name: str) -> frozenset[str]:
    """The words of a unit's name that name it: not a type word of the units vocabulary, a common
    word or a particle ("Infanta", "Sofía" of "Hospital Infanta Sofía")."""
    generic = pack.cached(
        "address:unit-generic-words",
        lambda: frozenset(
            w.casefold()
            for t in (pack.vocabulary(UNIT_VOCABULARY).get("types", []) if pack.has(UNIT_VOCABULARY) else [])
            for cue in t.get("cues") or ()
            for w in _WORD.findall(cue)
        )
        | common_words(pack)
        | particles(pack),
    )
    return frozenset(w.casefold() for w in _WORD.findall(name)) - generic
