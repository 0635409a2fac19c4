"""Health care units and other institutions: a generic name of the same type.

The pack's vocabulary lists unit types, each with the words that recognise it (`cues`) and the
names a surrogate may take (`names`). A name may be a template: {type} is the type word exactly
as the original wrote it ("Hptal."), {place} a place of the pack's first PLACE kind by population,
a PLACE kind ({province}) the region of that kind that holds the surrogate place,
{surname}, {female_name} and {male_name} common names, {streets} a street of the surrogate town
where the pack lists its streets (a health centre is named after its own street), and any other
{list} an entry of that pack list ({saints}, {streets} elsewhere). So "bor permanent på" a
geriatric home stays a geriatric home, and a surrogate shares no word with its original except the type word and function words ("de", the
pack's name particles). A unit of no recognisable type becomes one of the vocabulary's `default`
type where it names one. Generic names are common nouns: a surrogate is capitalised only where the
original starts a sentence. A type may name a `catalogue` list of real names; the option
`names: catalogue` draws from it instead of the templates. A unit of a record whose address lies
abroad, in a kept country, is built from the templates with that country's listed town: a home
catalogue's hospital read wrong in a Mexican record.
A regional public health service ("Servicio Andaluz de Salud", "SERMAS", "Osakidetza"; the pack's
`health_services` list, filed at each region) names only its region, which records keep: it becomes
the service of the record's surrogate region, written in the same form (short name for a short
name), never a template name ("Servicio de Valladolid"). A value shaped as listed names are (the
first and last words two listed names share: "Servicio ... de Salud") counts as one too.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator, Mapping

import regex
from rapidfuzz.distance import Levenshtein

from pseudo.casing import casing_of, match_case
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack
from pseudo.lists.tree import LocationTree, Place
from pseudo.lists.weighted import WeightedList
from pseudo.model import Target
from pseudo.folds import loose, normalise
from pseudo.scope import nested
from pseudo.rules.base import CUED, NOT_RECOGNISED, Context, Option, Rule, Surrogate
from pseudo.lists.words import common_words, particles
from pseudo.services.clock import age_units
from pseudo.services.address import CITY, UNIT_ACRONYM_GAP, catalogue_classes, catalogue_owners, place_pool, unit_names_before_type

_WORD = regex.compile(r"[\p{L}\p{N}]+")
_PLACEHOLDER = regex.compile(r"\{(\w+)\}")
_NEXT_WORD = regex.compile(r"[^\S\n]*[,(]?[^\S\n]*(\p{L}+)")  # the word right after a span, on its line
_FOLLOWING = regex.compile(r"[^\S\n]*")  # what may stand between a name and the type word after it
_SENTENCE_END = regex.compile(r"(?:^|[.!?:\n])\s*$")
SHORT_CUE = 2  # letters of a cue ("H.") that, inside a value, may be a name's initial
_CLAUSE_BEFORE = regex.compile(r"[^.!?:;()\n]*$")  # the text back to the last sentence end, bracket or line
MAX_TRIES = 16
LONG_CUE = 20  # letters of a type cue from which a slip of two letters still reads as it ("Instituto de Medina Legal")
NAMING_LETTERS = 4  # letters of a word that may tell which units a name means ("Holy", "Calvert"; not "Fe" of "Santa Fe")
_LETTER_WORD = regex.compile(r"\p{L}+")
WARD_SURNAMES = 2000  # the surnames a ward named after a person is drawn among
_WARD_AFTER = regex.compile(r"[^\S\n]+\d{1,2}(?:/\d{1,2})?(?!\d)")  # " 2/3", " 3": a ward's floor after its name
NEAR_ATTEMPTS = 8  # draws of a unit made near the surrogate place before the whole catalogue is drawn from


def _types(pack: LocalePack, vocabulary: str) -> list[dict[str, Any]]:
    return pack.vocabulary(vocabulary).get("types", [])


def _cue_pattern(pack: LocalePack, vocabulary: str) -> regex.Pattern | None:
    """Every cue of every type as one whole-word pattern, longest cue first: at each place the
    longest cue written there ("Centro Penitenciario", not the "Centro" of a type listing a longer
    cue first: grouped by type, the prison had been read as a centre)."""

    def make() -> regex.Pattern | None:
        cues = sorted(_cue_types(pack, vocabulary), key=len, reverse=True)
        if not cues:
            return None
        return regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}])(?:{'|'.join(map(regex.escape, cues))})(?![\p{{L}}\p{{N}}])")

    return pack.cached(f"cues:{vocabulary}", make)


def _cue_types(pack: LocalePack, vocabulary: str) -> dict[str, int]:
    """A cue, folded -> the index of its type; a cue two types list goes to the type with the
    longer longest cue."""

    def make() -> dict[str, int]:
        types = list(enumerate(_types(pack, vocabulary)))
        by_longest = sorted(types, key=lambda item: -max(map(len, item[1].get("cues") or [""])))
        found: dict[str, int] = {}
        for index, unit_type in by_longest:
            for cue in unit_type.get("cues") or ():
                found.setdefault(cue.casefold(), index)
        return found

    return pack.cached(f"cue-types:{vocabulary}", make)


def recognise(text: str, pack: LocalePack, vocabulary: str) -> tuple[dict[str, Any] | None, str]:
    """(type, the cue as written) of the longest cue found as whole words; (None, '') if none."""
    pattern = _cue_pattern(pack, vocabulary)
    if pattern is None:
        return None, ""
    best: regex.Match | None = None
    for match in pattern.finditer(text, overlapped=True):
        if best is None or len(match.group()) > len(best.group()):
            best = match
    if best is None:
        return _misspelt_cue(text, pack, vocabulary)
    longer = _longer_cue_with_a_slip(text, best, pack, vocabulary)
    if longer is not None:
        unit_type = _types(pack, vocabulary)[_cue_types(pack, vocabulary)[longer]]
        return unit_type, next((c for c in unit_type.get("cues") or () if c.casefold() == longer), longer)  # as the pack spells it
    return _types(pack, vocabulary)[_cue_types(pack, vocabulary)[best.group().casefold()]], best.group()


def _longer_cue_with_a_slip(text: str, found: regex.Match, pack: LocalePack, vocabulary: str) -> str | None:
    """A cue of several words that opens with the cue found and follows it in the text with a
    slip (one letter, two in a cue of LONG_CUE letters or more): "Instituto de Medina Legal", read
    as an "Instituto" alone, had become "Instituto López" (round 66). None where there is none."""
    head = found.group().casefold()
    for cue in _cues_after(pack, vocabulary).get(head, ()):
        if len(cue) > len(head) + 3:
            slips = 2 if len(cue) >= LONG_CUE else 1  # "medina" for "medicina": two letters left out
            written = text[found.start() : found.start() + len(cue) + slips].casefold()
            for size in range(len(cue) - slips, len(cue) + slips + 1):
                piece = written[:size]
                ends = found.start() + size
                if len(piece) == size and 0 < Levenshtein.distance(cue, piece) <= slips and not text[ends : ends + 1].isalnum() and not _inflected(cue, piece):
                    return cue
    return None


def _misspelt_cue(text: str, pack: LocalePack, vocabulary: str) -> tuple[dict[str, Any] | None, str]:
    """(type, the cue spelt right) where the span opens with a cue of one word of six letters or
    more written with one slip ("Hopital Materno Infantil"): read as no unit, it had become a
    catalogue name without its type, "Vall D'Hebron", in A Coruña; (None, '') otherwise. The
    surrogate is written without the slip, so it is told apart from the record's other units."""
    first = _WORD.match(text)
    if first is None or len(first.group()) < 5:
        return None, ""
    word = first.group().casefold()
    cues = _cue_types(pack, vocabulary)
    for cue, index in cues.items():
        if " " not in cue and len(cue) >= 6 and cue[0] == word[0] and Levenshtein.distance(cue, word) == 1:
            return _types(pack, vocabulary)[index], match_case(first.group(), cue)
    return None, ""


def _inflected(cue: str, written: str) -> bool:
    """Whether the two differ only in words' last letters, a for o or o for a, or an a or o more
    ("Hospital Clínica Benidorm" is no "Hospital Clínico" nor "Hospital Clínic": a review's
    finding): another word, not a slip."""
    cue_words, written_words = cue.split(), written.split()
    if len(cue_words) != len(written_words):
        return False
    differ = [(a, b) for a, b in zip(cue_words, written_words) if a != b]

    def inflection(a: str, b: str) -> bool:
        shorter, longer = sorted((a, b), key=len)
        return (a[:-1] == b[:-1] and {a[-1:], b[-1:]} <= {"a", "o"}) or (longer[:-1] == shorter and longer[-1:] in ("a", "o"))

    return bool(differ) and all(inflection(a, b) for a, b in differ)


def _cues_after(pack: LocalePack, vocabulary: str) -> dict[str, tuple[str, ...]]:
    """Each cue (folded) -> the longer cues that open with it and a space, worked out once per pack."""

    def make() -> dict[str, tuple[str, ...]]:
        cues = list(_cue_types(pack, vocabulary))
        return {head: tuple(c for c in cues if c.startswith(head + " ")) for head in cues}

    return pack.cached(f"units:cues-after:{vocabulary}", make)


def _region_kinds(pack: LocalePack) -> frozenset[str]:
    """The kinds of place a template may name by kind ("{province}"): the pack's PLACE kinds."""
    return pack.cached(
        "units:region-kinds", lambda: frozenset(pack.settings.places.kinds.get("PLACE") or ()) if pack.has("locations") else frozenset()
    )


# The slots a unit abroad is named with where people bear the home lists' names (a country of the
# pack's `towns_abroad`): its town there, a saint, a person; elsewhere its town only. Every unit of
# a Mexican record named after its town ("Asociación de Ciudad de México. Hospital de Ciudad de
# México") read as made up; a home street, province or royal does not belong there.
ABROAD_SLOTS = frozenset({"type", "place", "saints", "surname", "male_name", "female_name"})


HOME_WORDS = frozenset({"Infanta", "Comarcal"})  # a Spanish royal's title, Spain's word for a district's hospital


def _named_as_abroad(template: str) -> bool:
    """Whether a template names a unit abroad: slots that exist there, one beside its type at
    least, and no word of Spain's own ("{type} Infanta {female_name} {surname}": no)."""
    slots = set(_PLACEHOLDER.findall(template))
    return slots <= ABROAD_SLOTS and bool(slots - {"type"}) and not HOME_WORDS & set(_WORD.findall(template))


def _fill(
    template: str, type_word: str, pack: LocalePack, stream: KeyedStream, place: Place | None, streets: Callable[[KeyedStream], str | None] | None = None
) -> str:
    """The template with its slots drawn; {streets} what `streets` draws (a street name the
    surrogate town's units may bear) when it draws one; a kind of place ("{province}") the region
    of that kind holding `place`."""

    def value(match: regex.Match) -> str:
        slot = match.group(1)
        if slot == "type":
            return type_word
        if slot == "surname":
            return pack.weighted("last_names").top(500).draw(stream)
        if slot in ("female_name", "male_name"):
            return pack.weighted(f"first_names_{slot.split('_')[0]}").top(200).draw(stream)
        if slot == "place" and place is not None:
            town_kind = (pack.settings.places.kinds.get("PLACE") or (place.kind,))[0]
            towns = place_pool(pack, town_kind, place) if place.kind != town_kind else None
            return towns.draw(stream) if towns is not None and len(towns) else place.name  # a region: one of its towns ("Maryland Community Hosp")
        if slot in _region_kinds(pack):
            region = pack.tree().ancestor(place, slot) if place is not None else None
            if region is not None:
                return region.name
            return place.name if place is not None else place_pool(pack, slot).draw(stream)  # a town abroad names itself
        if slot == "place":
            kinds = pack.settings.places.kinds.get("PLACE") or ()
            if not kinds:
                raise ValueError("the pack names no place kind for {place} (settings.places.kinds.PLACE)")
            return place_pool(pack, kinds[0]).draw(stream)
        if slot == "streets" and streets is not None and (namesake := streets(stream)) is not None:
            return namesake
        if pack.has(slot):
            return pack.weighted(slot).top(500).draw(stream)
        raise ValueError(f"unknown placeholder {{{slot}}} in the pack's institution names")

    return _PLACEHOLDER.sub(value, template)


def _units(pack: LocalePack, catalogue: str, key: str, ids: Callable[[], frozenset[str]]) -> WeightedList:
    """The catalogue's units filed at one of the place ids, by weight; worked out once per pack."""

    def make() -> WeightedList:
        chosen = ids()
        kept = [(r["name"], int(r.get("count") or 1)) for r in pack.rows(catalogue) if r["place_id"] in chosen]
        return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))

    return pack.cached(f"catalogue:{catalogue}:{key}", make)


def _units_under(pack: LocalePack, catalogue: str, region: Place) -> WeightedList:
    """The catalogue's units filed at the region or anywhere below it (a town, a county)."""
    tree = pack.tree()
    return _units(pack, catalogue, f"under:{region.id}", lambda: frozenset(r["place_id"] for r in pack.rows(catalogue) if _under(tree, r["place_id"], region)))


def _has_places(pack: LocalePack, catalogue: str) -> bool:
    rows = pack.rows(catalogue)
    return bool(rows) and "place_id" in rows[0]


def _near(pack: LocalePack, catalogue: str, place: Place | None, fits: Callable[[str], bool] = lambda _: True) -> WeightedList:
    """The catalogue's units in the place (under it, for a region: a kept "Canarias"), else in the
    regions above it in turn (province, community), else all of them: a real hospital of the
    record's surrogate town reads as real where a made-up one did not. Only units that `fits`
    (that share no word with the original): a kept town whose one unit of the type is the
    original takes its region's (Segovia's took one of another community's: "Hospital General
    Universitario de Ciudad Real" for a patient of Segovia)."""
    every = pack.weighted(catalogue)
    if place is None or not _has_places(pack, catalogue):
        return every
    tree = pack.tree()
    levels = [lambda: _units(pack, catalogue, f"in:{place.id}", lambda: frozenset({place.id}))]
    if tree.children.get(place.id):
        levels.append(lambda: _units_under(pack, catalogue, place))
    region = tree.parent(place)
    while region is not None and tree.parent(region) is not None:  # the towns of each region, of the place's own kind; not the country's
        levels.append(lambda r=region: _units(pack, catalogue, f"in:{r.id}:{place.kind}", lambda: frozenset(p.id for p in tree.descendants(r, place.kind))))
        region = tree.parent(region)
    for level in levels:
        found = level()
        kept = [(n, w) for n, w in zip(found.items, found.weights) if fits(n)]
        if kept:
            return found if len(kept) == len(found) else WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))
    return every


def _around(pack: LocalePack, catalogue: str, place: Place | None) -> Iterator[WeightedList]:
    """The catalogue's units under the place, then under each region above it in turn (county,
    state, country): the nearest ones first, for a name form few units have."""
    if place is None or not _has_places(pack, catalogue):
        return
    tree = pack.tree()
    node: Place | None = place
    while node is not None and tree.parent(node) is not None:
        yield _units_under(pack, catalogue, node)
        node = tree.parent(node)


def _under(tree: LocationTree, place_id: str, region: Place) -> bool:
    node = tree.places.get(place_id)
    while node is not None and node.id != region.id:
        node = tree.parent(node)
    return node is not None


def _from_catalogue(unit_type: dict[str, Any], type_word: str, near: WeightedList, every: WeightedList, stream: KeyedStream) -> tuple[str, str]:
    """A real name from the type's catalogue near the surrogate place (a real hospital in the
    wrong town gave records away): one that starts with the type word as written ("Hospital
    Universitario ..."), else with the type's full word, an abbreviation ("H.") re-spelled as
    written; else any near one; only where none is near, one anywhere that starts so. Returns
    (the name as written, the catalogue's name)."""
    full = (unit_type.get("cues") or [""])[0]
    for names in (near, every):
        for prefix in dict.fromkeys([type_word, full]):
            if not (type_word and prefix):
                continue
            kept = names.starting(prefix)
            if len(kept):
                name = kept.draw(stream)
                abbreviated = prefix == full and _abbreviates(type_word, full)
                return (_joined(type_word, name[len(prefix) :]) if prefix == type_word or abbreviated else name), name
        if names is near and len(near) and near is not every:
            name = near.draw(stream)
            return name, name
    name = near.draw(stream)
    return name, name


def _abbreviates(type_word: str, full: str) -> bool:
    """Whether a type word as written shortens the type's full word ("H.", "Hptal." of "Hospital"):
    its letters in order, the first the same. "Complejo Hospitalario" does not: a catalogue
    hospital under it became "Complejo Hospitalario Puerta de Andalucía", which no one has heard of."""
    letters, word = [c for c in type_word.casefold() if c.isalpha()], full.casefold()
    if not letters or len(letters) >= len(word) or letters[0] != word[0]:
        return False
    found = iter(word)
    return all(c in found for c in letters)


def _joined(type_word: str, rest: str) -> str:
    """The type word as written and the rest of a catalogue name, without the rest's leading words
    that the type word already holds ("Complejo Hospitalario Universitario" + " Universitario
    Nuestra Señora..." writes "Universitario" once)."""
    if not rest[:1].isspace():
        return type_word + rest
    held = {word.casefold() for word in type_word.split()}
    words = rest.split()
    while len(words) > 1 and words[0].casefold() in held:
        words.pop(0)
    return f"{type_word} {' '.join(words)}"


_ACRONYM = regex.compile(r"\p{L}{2,4}|(?:\p{L}\.){2,5}")  # "GH", "VAMC", "gh", "G.H."
_JOINED_ACRONYMS = regex.compile(r"\p{Lu}{2,6}(?:[-/]\p{Lu}{1,6})+")  # "CBMF-HGO"


def _also_named(pack: LocalePack, catalogue: str) -> dict[str, frozenset[str]]:
    """A catalogue unit's name -> the words of its `also` column: what the catalogue's note adds
    to the name records write ("Sede Txagorritxu" of "Hospital Universitario Araba")."""

    def make() -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for row in pack.rows(catalogue):  # a name filed in several towns: the notes of all of them
            found.setdefault(loose(row["name"]), set()).update(w.casefold() for w in _WORD.findall(row.get("also") or ""))
        return {name: frozenset(words) for name, words in found.items()}

    return pack.cached(f"units:also:{catalogue}", make)


def _generic_naming_words(pack: LocalePack, vocabulary: str, common: bool = True) -> frozenset[str]:
    """The words that name no unit, folded: the vocabulary's type words ("hospital", "universitario",
    "complejo"), particles and (`common`) the language's common words; made once per pack."""
    typed = pack.cached(
        f"units:type-words:{vocabulary}",
        lambda: frozenset(w.casefold() for t in _types(pack, vocabulary) for cue in t.get("cues") or () for w in _WORD.findall(cue)) | particles(pack),
    )
    return pack.cached(f"units:generic-words:{vocabulary}", lambda: typed | common_words(pack)) if common else typed


def _type_words_last(pack: LocalePack, vocabulary: str, catalogue: str) -> bool:
    """Whether the catalogue's names end in their type words ("Calvert Memorial Hospital") more
    often than they start with them ("Hospital Universitario La Paz"); once per pack."""

    def make() -> bool:
        pattern = _cue_pattern(pack, vocabulary)
        if pattern is None:
            return True
        ends = starts = 0
        for name in pack.weighted(catalogue).items:
            found = list(pattern.finditer(name, overlapped=True))
            starts += any(m.start() == 0 for m in found)
            ends += any(m.end() == len(name) for m in found)
        return ends >= starts

    return pack.cached(f"type-words-last:{vocabulary}:{catalogue}", make)


def _type_letters(text: str, last: bool, pack: LocalePack, vocabulary: str) -> tuple[str, bool] | None:
    """The letters of an acronym that stand for type words, and whether they end it: its last two
    ("VAMC": Medical Center; one of "TGH") where the pack's names end in their type words, else its
    first ones ("HULP": Hospital Universitario); None where those letters are no initials of the
    vocabulary's cues ("UCSF" keeps no "SF" of San Francisco, "JM" no "J"). A drawn unit's
    initials keep them: "OHAC HOSPITAL" for "VAMC HOSPITAL" read as made up."""
    letters = [c.upper() for c in text if c.isalpha()]
    count = 2 if len(letters) >= 4 else 1
    kept = "".join(letters[-count:] if last else letters[:count])
    words, pairs = _cue_letters(pack, vocabulary)
    return (kept, last) if kept in (pairs if count == 2 else words) else None


def _cue_words(pack: LocalePack, unit_type: dict[str, Any]) -> Iterator[list[str]]:
    """The words of each cue of a type, particles left out."""
    small = particles(pack)
    for cue in unit_type.get("cues") or ():
        yield [w for w in _WORD.findall(cue) if w.casefold() not in small and w[0].isalpha()]


def _cue_letters(pack: LocalePack, vocabulary: str) -> tuple[frozenset[str], frozenset[str]]:
    """The first letters of the vocabulary's cue words, and the initials of its cues of two words:
    the letters an acronym's type words may leave."""

    def make() -> tuple[frozenset[str], frozenset[str]]:
        cues = [words for unit_type in _types(pack, vocabulary) for words in _cue_words(pack, unit_type)]
        return frozenset(w[0].upper() for words in cues for w in words), frozenset(_initials(words) for words in cues if len(words) == 2)

    return pack.cached(f"cue-letters:{vocabulary}", make)


def _initials(words: list[str]) -> str:
    return "".join(w[0].upper() for w in words)


def _keeps_type_letters(initials: str, typed: tuple[str, bool]) -> bool:
    letters, last = typed
    return initials.upper().endswith(letters) if last else initials.upper().startswith(letters)


def _is_initials(text: str) -> bool:
    """One word in capitals, dotted or not ("UDELAR", "U.B."): a unit written by its initials."""
    return text.isupper() and len(_WORD.findall(text.replace(".", ""))) == 1


def _written_as_acronym(text: str) -> bool:
    """An acronym (`_is_acronym`), or acronyms joined by a hyphen or slash ("CBMF-HGO"): written so,
    a unit's surrogate is written by its initials too ("(CBMF-HGO)" had become "(Residencia
    Valencia)", round 41)."""
    return _is_acronym(text) or bool(_JOINED_ACRONYMS.fullmatch(text))


def _short_names(pack: LocalePack, vocabulary: str) -> frozenset[str]:
    """The short names of the catalogues' units, folded ("meritus", "calvert"): a unit, not a ward."""

    def make() -> frozenset[str]:
        types = _types(pack, vocabulary)
        catalogues = {t["catalogue"] for t in types if t.get("catalogue") and pack.has(t["catalogue"])}
        return frozenset(short.casefold() for c in catalogues for short, _ in _name_forms(pack, vocabulary, c).values() if short)

    return pack.cached(f"units:short-names:{vocabulary}", make)


def _is_acronym(text: str) -> bool:
    """A unit written as its initials: two to four letters (or dotted initials), not in title case
    ("GH", "VAMC", "gh"; "Kane" is a name)."""
    return bool(_ACRONYM.fullmatch(text)) and (text.isupper() or text.islower())


def _name_forms(pack: LocalePack, vocabulary: str, catalogue: str) -> dict[str, tuple[str, str]]:
    """Each catalogue name's short name (the name without the type words at one end: "Good
    Samaritan" of "Good Samaritan Hospital", "" where no type word ends it, another stays in it,
    only generic words stay or what stays names a region: "had a heart transplant at Howard County"
    read as the county, PhysioNet round 30) and initials ("GSH", "" where a particle or a digit stands in it), as
    real records write a hospital without its type word."""

    def make() -> dict[str, tuple[str, str]]:
        pattern = _cue_pattern(pack, vocabulary)
        generic = {w.casefold() for t in _types(pack, vocabulary) for cue in t.get("cues", []) for w in _WORD.findall(cue)}
        small = particles(pack)
        tree = pack.tree() if pack.has("locations") else None
        regions = frozenset(pack.settings.places.kinds.get("REGION") or ()) if tree is not None else frozenset()

        def names_region(rest: str) -> bool:  # "Howard County" of Howard County General Hospital reads as the county
            return tree is not None and any(p.kind in regions for p in tree.lookup(rest))

        forms: dict[str, tuple[str, str]] = {}
        for name in pack.weighted(catalogue).items:
            words = _WORD.findall(name)
            initials = "" if any(w.casefold() in small or not w.isalpha() for w in words) else "".join(w[0].upper() for w in words)
            short = ""
            edges = [m for m in (pattern.finditer(name, overlapped=True) if pattern else ()) if m.start() == 0 or m.end() == len(name)]
            if edges:
                cue = max(edges, key=lambda m: len(m.group()))
                rest = (name[: cue.start()] + name[cue.end() :]).strip(" -,")
                rest_words = _WORD.findall(rest)
                if rest_words and rest_words[0].casefold() not in small and rest_words[-1].casefold() not in small:
                    only_generic = all(w.casefold() in generic for w in rest_words)
                    if not only_generic and not any(c.isdigit() for c in rest) and not pattern.search(rest) and not names_region(rest):
                        short = rest
            forms[name] = (short, initials)
        return forms

    return pack.cached(f"name-forms:{catalogue}", make)


def _services(pack: LocalePack) -> tuple[dict[str, dict[str, str]], dict[str, tuple[dict[str, str], bool]], frozenset[tuple[str, str]]]:
    """The health services by place id; each written form (loose) with its row and whether it is a
    short name; the (first word, last word) pairs that two or more listed full names share."""

    def make() -> tuple[dict[str, dict[str, str]], dict[str, tuple[dict[str, str], bool]], frozenset[tuple[str, str]]]:
        by_place: dict[str, dict[str, str]] = {}
        forms: dict[str, tuple[dict[str, str], bool]] = {}
        ends: dict[tuple[str, str], int] = {}
        for row in pack.rows("health_services"):
            by_place[row["place_id"]] = row
            for name in [row["name"], *filter(None, (row.get("aliases") or "").split("|"))]:
                forms.setdefault(loose(name), (row, _is_short(name)))
                words = _WORD.findall(loose(name))
                if len(words) >= 3:
                    ends[(words[0], words[-1])] = ends.get((words[0], words[-1]), 0) + 1
            forms.setdefault(loose(row["short"]), (row, True))
        return by_place, forms, frozenset(pair for pair, count in ends.items() if count >= 2)

    return pack.cached("health-services", make)


def _named_after_its_place(unit_type: dict[str, Any], type_word: str, place: Place, target: Target, ctx: Context) -> bool:
    """A type named only after its place or region ("IML de Sevilla": one per province;
    "Universidad de Navarra"), whose name for the record's surrogate place is the original: the
    place is kept, so the name carries nothing else."""
    allowed = {"type", "place"} | _region_kinds(ctx.pack)
    slots = [set(_PLACEHOLDER.findall(name)) for name in unit_type["names"]]
    if any("type" not in found or found == {"type"} or not found <= allowed for found in slots):
        return False
    word = type_word or unit_type["cues"][0]
    filled = (_fill(name, word, ctx.pack, ctx.stream("place-named", target.text), place) for name in unit_type["names"])
    return any(loose(name) == loose(target.text) for name in filled)


def _generic_words(pack: LocalePack) -> frozenset[str]:
    """Words that name no one, folded: those of every cue of the pack's unit and institution types
    ("Centro", "Penitenciario", "Transfusión"), its common words and its name particles."""

    def make() -> frozenset[str]:
        cues = (c for v in ("healthcare_units", "organisations") if pack.has(v) for t in _types(pack, v) for c in t.get("cues", []))
        return frozenset(w.casefold() for c in cues for w in _WORD.findall(c)) | common_words(pack) | particles(pack)

    return pack.cached("units:generic-words", make)


def _generic_of_place(target: Target, ctx: Context, unit_type: dict[str, Any] | None = None, after: str | None = None) -> str | None:
    """'Centro de Transfusión Sanguínea de Navarra', 'Centro Penitenciario de Zuera': words that name
    no one, a particle, then a listed place ending the span: the same words and the place's
    surrogate, which is the span itself when the place is kept (a region: it names nothing else).
    A type whose names are after a region ("{type} de {province}": prisons, few to a province)
    takes the surrogate's region of that kind: "Centro Penitenciario de Novillas", a village of
    Zaragoza, read as made up (round 22); where that region is written right `after` the span,
    the town's surrogate ("Universidad de Asturias Asturias" for "Universidad de Oviedo Asturias")."""
    if not ctx.pack.has("locations"):
        return None
    world = ctx.services.address
    named = world.named_in(target.text, {world.settings.default_kind.get("PLACE"), *world.settings.kinds.get("REGION", ())})
    if named is None or _WORD.search(target.text, named[1]):
        return None
    start, end, place = named
    words = _WORD.findall(target.text, 0, start)
    generic = _generic_words(ctx.pack)
    if len(words) < 2 or words[-1].casefold() not in particles(ctx.pack) or any(w.casefold() not in generic for w in words):
        return None
    surrogate = world.surrogate(place)
    if surrogate.id != place.id and surrogate.weight >= CITY and (unit_type or {}).get("in_cities"):
        return None  # "Centro de Salud de Alcorcón" is no "Centro de Salud de Madrid": a city's are named otherwise (`in_cities`)
    slots = {slot for name in (unit_type or {}).get("names") or () for slot in _PLACEHOLDER.findall(name)}
    regions = [kind for kind in slots if kind in _region_kinds(ctx.pack)] if "place" not in slots else []
    region = ctx.pack.tree().ancestor(surrogate, regions[0]) if regions else None
    if region is not None and _WORD.findall(region.name)[-1].casefold() == after:
        region = None  # the region is written right after it: the town's surrogate ("Universidad de Asturias Asturias")
    return target.text[:start] + (region or surrogate).name + target.text[end:]


def _keeps_type_word(unit_type: dict[str, Any]) -> bool:
    """Whether every name of the type keeps the type word as written ("{type} de {place}"): then a
    span that is the type word alone has nothing else to replace. A type whose names replace the
    word itself ("NIVA" -> "intensiven": a neuro ICU narrows the hospital down) does not."""
    return all("type" in _PLACEHOLDER.findall(name) for name in unit_type["names"])


def _cue_initials(pack: LocalePack, vocabulary: str) -> frozenset[str]:
    """The initials of the cues of two words of the vocabulary's catalogued types, particles left
    out ("GH" of General Hospital, "CS" of Centro de Salud): a unit written so names no one. Real
    notes of a corpus write their own "GH" throughout, and a surrogate "BH" beside them read as
    made up (PhysioNet round 23). Not a word a catalogue name writes ("HM" of Hospital Militar is
    HM Hospitales too), nor a type without a catalogue's ("PP" of Prisión Provincial); not the
    initials of longer cues ("CSMC" would be Cedars-Sinai's too)."""

    def make() -> frozenset[str]:
        found: set[str] = set()
        taken: set[str] = set()
        for unit_type in _types(pack, vocabulary):
            catalogue = unit_type.get("catalogue")
            if not catalogue or not pack.has(catalogue):
                continue
            found.update(_initials(words) for words in _cue_words(pack, unit_type) if len(words) == 2)
            for name in pack.weighted(catalogue).items:  # two letters are many units' initials, but a word names a brand
                taken.update(w for w in _WORD.findall(name) if w.isupper())
        return frozenset(found - taken)

    return pack.cached(f"cue-initials:{vocabulary}", make)


def _same_size(candidate: str, original: str) -> bool:
    """As many words as the original, so a template name keeps its shape ("Fundació Puigvert" ->
    "Fundació Vidal", not "Fundació Olivia Martínez", which read as a person's, round 36)."""
    return len(_WORD.findall(candidate)) == len(_WORD.findall(original))


def _one_unit_key(text: str, type_word: str, pack: LocalePack, place: Place | None, world: Any) -> str:
    """The key of a unit however a scope writes it, with or without its type word ("Kessler-Adventist
    Hosp", "Kessler Adventist"): its naming words (no type word, particle or common word) and its
    place; a patient's two notes had named two hospitals for it (PhysioNet round 36). "" where it
    has no naming word."""
    ignored = {loose(w) for w in _WORD.findall(type_word)} | particles(pack) | common_words(pack)
    words = sorted({loose(w) for w in _WORD.findall(text)} - ignored)
    home = world.home() if world is not None else None
    where = place.id if place is not None and place is not home else "*"
    return f"{' '.join(words)} @{where}" if words else ""


def _unit_key(text: str) -> str:
    """The consistency key of a unit: "Kessler-Adventist" and "Kessler Adventist" are one unit
    (a patient's two notes had named two hospitals for it)."""
    return normalise(text.replace("-", " "))


def _is_short(name: str) -> bool:
    """An acronym or a one-word name ("SERMAS", "Osakidetza", "IB-Salut")."""
    return len(name.split()) == 1


class HealthcareUnitRule(Rule):
    name = "healthcare"
    labels: ClassVar[tuple[str, ...]] = ("HEALTHCARE_UNIT",)
    needs: ClassVar[tuple[str, ...]] = ("healthcare_units",)
    vocabulary: ClassVar[str] = "healthcare_units"
    own_casing = True  # "IVA" must not turn its surrogate into capitals
    requires = ("address",)  # a unit named after a place is named after the place's surrogate
    options = {
        "names": Option(
            "templates",
            "templates: names built from the pack's patterns; catalogue: real names from a type's catalogue list",
            str,
            choices=("templates", "catalogue"),
        ),
    }

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """CUED when a type word of the pack's units stands in the value ("Adventist Hosp") or
        right after it ("CALVERT HOSPITAL", "Harbor Hosp"); a cue of two letters or fewer ("H.")
        only where it opens the value: inside a name it is an initial ("José H. García")."""
        if label not in self.labels or not pack.has(self.vocabulary):
            return NOT_RECOGNISED
        pattern = _cue_pattern(pack, self.vocabulary)
        if pattern is None:
            return NOT_RECOGNISED
        following = _FOLLOWING.match(after)
        inside = any(m.start() == 0 or sum(c.isalpha() for c in m.group()) > SHORT_CUE for m in pattern.finditer(text))
        return CUED if inside or pattern.match(after, following.end()) else NOT_RECOGNISED

    def _place(self, target: Target, ctx: Context, catalogue: str | None = None) -> Place | None:
        """The place a surrogate name takes: the surrogate of the town the address world says the
        unit is written with ("Hospital Reina Sofía, Tudela"; drawn among the towns the catalogue
        lists units of, so the unit drawn there agrees with it), else of the place the original
        names ("Hospital de Getafe"; not a name that is all of it, as "CALVERT" before "HOSPITAL"), else
        of the listed town nearest to it, else where the scope's first unit with a place was drawn
        (a patient's hospitals lie in one region: "Western Maryland", then "Kennewick" read as
        made up), else, for a unit written without its type word, the kept region where the
        `catalogue`'s units so named lie ("CALVERT" had become Illinois's "MACNEAL" in a Maryland
        record), else the configured home region; None without a location tree or anything of
        these (a place by population, then)."""
        if not ctx.pack.has("locations"):
            return None
        world = ctx.services.address
        town = world.unit_town(ctx.document, target)  # the world's one decision: unit and town agree
        drawn = world.unlisted_town_after(ctx.document, target) if town is None else None
        if drawn is not None:  # an unlisted town after it: where its surrogate was drawn
            if target.label == "HEALTHCARE_UNIT":
                world.unit_placed(drawn)
            return drawn
        kinds = {world.settings.default_kind.get("PLACE"), *world.settings.kinds.get("REGION", ())}
        named = world.named_in(target.text, kinds) if town is None else None
        nearest = world.nearest(ctx.document, target.span.start, labels=("PLACE",), kinds=kinds, besides=target) if town is None else None
        if town is None and named is not None and named[1] - named[0] < len(target.text.strip()):  # "CALVERT" alone is the unit's own name
            town = named[2] if world.named_as_its_place(target.text, named, nearest) else None  # not a saint's "Saint Vincent" of another state
        if town is None:  # the nearest: "Hospital San Agustín, Avilés" is Avilés's, not the patient's town's
            town = nearest
        if town is None and (placed := world.units_region()) is not None:
            return placed
        if town is None:
            words = {loose(w) for w in _LETTER_WORD.findall(target.text) if len(w) >= NAMING_LETTERS}
            generic = {loose(w) for w in _generic_naming_words(ctx.pack, self.vocabulary)}
            typed = {loose(w) for w in _generic_naming_words(ctx.pack, self.vocabulary, common=False)}
            naming = (words - generic) or (words - typed)  # "HOLY CROSS": common words only, and they name it
            region = world.region_of_units_named(catalogue, naming) if catalogue else None
            if region is not None and target.label == "HEALTHCARE_UNIT":
                world.unit_placed(region)
            return region or world.home()  # else the region the corpus comes from, where configured
        place = world.surrogate(town)
        if target.label == "HEALTHCARE_UNIT":  # a firm or a university places no patient's hospitals
            world.unit_placed(place)
        return place

    def _one_unit_drawn(self, ctx: Context, key: str, typed: dict[str, Any] | None) -> str | None:
        """The surrogate the scope gave the unit so named (`_one_unit_key`): a unit written with its
        type word takes that of the same type, or of one written without any ("Kessler Adventist");
        one written without takes any. "Hospital San Rafael" and "Clínica San Rafael" stay two."""
        if not key:
            return None
        if typed is None:
            return ctx.scope.remembered(self.name, "unit-named", key)
        same_type = ctx.scope.remembered(self.name, f"unit-named:{typed['type']}", key)
        if same_type is not None:
            return same_type
        untyped = ctx.scope.remembered(self.name, "unit-named:untyped", key)
        return untyped.title() if untyped is not None and untyped.islower() else untyped  # written in a lower-case note first

    def _one_unit_written(self, ctx: Context, key: str, typed: dict[str, Any] | None, surrogate: str) -> None:
        """Remember a unit's surrogate by its naming key, for `_one_unit_drawn`."""
        if not key:
            return
        ctx.scope.remember(self.name, "unit-named", key, surrogate)
        ctx.scope.remember(self.name, f"unit-named:{typed['type']}" if typed is not None else "unit-named:untyped", key, surrogate)

    def _ward(self, target: Target, ctx: Context) -> str | None:
        """A ward written as one word before its floor ("transfer to quartermain 2/3"): wards are
        named after people ("Blake 3", "Weinberg 4"), so a surname of the pack's, cased as written;
        a hospital's short name there ("meritus 2/3") read as a hospital used as a ward. None
        where the value is a listed unit's name or the pack lists no surnames."""
        named = " ".join(loose(w) for w in _LETTER_WORD.findall(target.text))
        if not ctx.pack.has("last_names") or target.text.strip().casefold() in _short_names(ctx.pack, self.vocabulary) or named in unit_names_before_type(ctx.pack):
            return None  # "Sinai 3": Sinai Hospital's ward, the hospital named
        surnames = ctx.pack.weighted("last_names").top(WARD_SURNAMES)
        return match_case(target.text, ctx.consistent(f"{self.name}:ward", normalise(target.text), surnames.draw).capitalize())

    def _without_type_word(self, target: Target, ctx: Context, unit_type: dict[str, Any], place: Place | None) -> str | None:
        """A unit written without its type word ("CALVERT", "Holy Cross", "GH") as real records
        write one: the short name or the initials (of the same length) of a real unit of the type's
        catalogue in the surrogate place, else in the nearest region above it that has one; the same
        number of words for a short name, cased as the original. None when the catalogue has no such name."""
        catalogue = unit_type["catalogue"]
        forms = _name_forms(ctx.pack, self.vocabulary, catalogue)
        acronym = _is_acronym(target.text)
        letters = sum(c.isalpha() for c in target.text)
        size = len(_WORD.findall(target.text))
        every = ctx.pack.weighted(catalogue)

        typed = _type_letters(target.text, _type_words_last(ctx.pack, self.vocabulary, catalogue), ctx.pack, self.vocabulary) if acronym else None
        own = "".join(c for c in target.text.upper() if c.isalpha())

        def form(name: str) -> str:
            short, initials = forms.get(name, ("", ""))
            if acronym:
                return initials if len(initials) == letters and (typed is None or _keeps_type_letters(initials, typed)) else ""
            return short if len(_WORD.findall(short)) == size else ""

        def pool(names: WeightedList) -> WeightedList:
            kept: dict[str, int] = {}
            for name, weight in zip(names.items, names.weights):
                if written := form(name):
                    kept[written] = kept.get(written, 0) + weight
            ordered = sorted(kept.items(), key=lambda item: (-item[1], item[0]))
            return WeightedList(tuple(n for n, _ in ordered), tuple(w for _, w in ordered))

        def without_own(found: WeightedList) -> WeightedList:
            """Never the original's own initials: a pool of only those could draw nothing else."""
            if not acronym or own not in found:
                return found
            kept = [(n, w) for n, w in zip(found.items, found.weights) if n.upper() != own]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))

        shape = f"initials:{letters}:{typed[0] if typed else ''}" if acronym else f"short:{size}"
        anywhere = without_own(ctx.pack.cached(f"name-forms:{catalogue}:{shape}", lambda: pool(every)))
        if not len(anywhere) and typed is not None:  # no unit's initials keep the type letters: any of that length
            typed = None
            anywhere = without_own(ctx.pack.cached(f"name-forms:{catalogue}:initials:{letters}:", lambda: pool(every)))
        if not len(anywhere):
            return None
        around = (found for names in _around(ctx.pack, catalogue, place) if len(found := without_own(pool(names))))
        levels: list[WeightedList] = []
        attempts = [0]

        def draw(stream: KeyedStream) -> str:
            """Near the place first; after a few refused draws (a place's only unit may be the
            original, or taken by another of the scope) the region above it, and so on out to
            the whole country: a taken county's unit must not send the next one to another state."""
            attempts[0] += 1
            wanted = (attempts[0] - 1) // NEAR_ATTEMPTS
            while len(levels) <= wanted and (found := next(around, None)) is not None:
                levels.append(found)
            return (levels[wanted] if wanted < len(levels) else anywhere).draw(stream)

        family = f"{self.name}:{unit_type['type']}:{'initials' if acronym else 'short'}"
        run_wide = place is None or place is ctx.services.address.home()  # no place of its own: one unit for the run
        written = ctx.consistent(family, _unit_key(target.text), draw, run_wide=run_wide)
        if acronym and "." in target.text:
            written = "".join(f"{c}." for c in written)
        return match_case(target.text, written)

    def _health_service(self, target: Target, ctx: Context) -> Surrogate | None:
        """The regional health service of the record's surrogate region, in the original's form;
        without a listed place, the original's own (its region is kept) or, for a name of the
        listed shape, a listed one. None for a value that names no regional service."""
        if not ctx.pack.has("health_services") or not ctx.pack.has("locations"):
            return None
        by_place, forms, ends = _services(ctx.pack)
        written = loose(" ".join(target.text.split()))
        words = _WORD.findall(written)
        own, short = forms.get(written, (None, _is_short(target.text)))
        if own is None and not (len(words) >= 3 and (words[0], words[-1]) in ends):
            return None
        world = ctx.services.address
        place = self._place(target, ctx)
        if place is None and (near := world.nearest(ctx.document, target.span.start)) is not None:
            place = world.surrogate(near)
        tree = ctx.pack.tree()
        while place is not None and place.id not in by_place:
            place = tree.parent(place)
        row = by_place[place.id] if place is not None else own
        if row is None:
            names = sorted({r["name"] for r in by_place.values()})
            row = forms[loose(ctx.consistent(f"{self.name}:health-service", written, lambda stream: stream.choice(names), one_to_one=False))][0]
        text = row["short"] if short else row["name"]
        if normalise(text) == normalise(target.text):
            return Surrogate(target.text, kept=True, kept_as="its region's health service")
        return Surrogate(text)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        surrogate = self._replace(target, ctx)
        ctx.memo.setdefault("written", {})[target.span.start] = surrogate.text  # an acronym in brackets after it follows it
        return surrogate

    @staticmethod
    def _acronym_of_unit_before(target: Target, ctx: Context, family: str) -> str | None:
        """The initials of the surrogate of the unit written right before an acronym in brackets
        ("Hospital Universitario La Paz (HULP)"): the acronym is that unit's, and the initials of
        another unit ("AUSL") read as foreign; drawn in the `family` of the unit's initials, so the
        acronym written again elsewhere keeps them. None elsewhere, or where they would be the original's."""
        if not _is_acronym(target.text):
            return None
        before = [u for u in ctx.document.labelled(target.label) if u.span.end <= target.span.start]
        unit = max(before, key=lambda u: u.span.end, default=None)
        if unit is None or not UNIT_ACRONYM_GAP.fullmatch(ctx.document.text, unit.span.end, target.span.start):
            return None
        written = (ctx.memo.get("written", {}).get(unit.span.start) or "").split("(")[0]  # not "(Sede Txagorritxu ...)"
        naming = [w for w in _WORD.findall(written) if w[0].isupper() or w.isdigit()]
        ways = ["".join(w if w.isdigit() else w[0] for w in words) for words in (naming, [w for w in naming if w.casefold() not in particles(ctx.pack)])]
        # "Hospital Universitario de La Princesa" is "HULP" or "HUP": the second where the first is the original's;
        # a number stays whole ("HU12O")
        bare = target.text.replace(".", "").casefold()  # "H.U.L.P." is the letters HULP
        initials = next((i for i in ways if len(i) >= 2 and i.casefold() != bare), None)
        if initials is None:
            return None
        initials = initials if target.text.isupper() else initials.lower()
        if "." in target.text:
            initials = "".join(f"{c}." for c in initials)
        return ctx.consistent(family, normalise(target.text), lambda _: initials)  # the family of a unit's initials: "HULP" again, the same

    @staticmethod
    def _addressed(target: Target, ctx: Context) -> bool:
        """Whether the record writes the unit's street right after it: type words alone then name
        the one unit at that address ("Hospital Clínico Universitario. Avda. Choupana, s/n" is
        Santiago's), and kept beside a drawn street they read as a hospital that is not there."""
        return ctx.pack is not None and ctx.pack.has("locations") and ctx.services.address.street_written_after(ctx.document, target)

    def _type_of_clause(self, target: Target, ctx: Context) -> dict[str, Any] | None:
        """The type of the nearest unit written before the span in its clause, between commas
        ("Facultad de Odontología, UDELAR, Montevideo": a university), or None."""
        clause = _CLAUSE_BEFORE.search(ctx.text_before(target.span, 80)).group()
        for part in reversed(clause.split(",")):
            found, _ = recognise(part, ctx.pack, self.vocabulary)
            if found is not None:
                return found
        return None

    def _replace(self, target: Target, ctx: Context) -> Surrogate:
        service = self._health_service(target, ctx)
        if service is not None:
            return service
        types = _types(ctx.pack, self.vocabulary)
        unit_type, type_word = recognise(target.text, ctx.pack, self.vocabulary)
        if type_word and not _WORD.search(target.text.replace(type_word, "", 1)) and _keeps_type_word(unit_type) and not self._addressed(target, ctx):
            return Surrogate(target.text, kept=True, kept_as="a type word alone")  # "Clínica Universitaria" names no one
        if _is_acronym(target.text) and target.text.replace(".", "").upper() in _cue_initials(ctx.pack, self.vocabulary):
            return Surrogate(target.text, kept=True, kept_as="a type word alone")  # "GH": General Hospital names no one
        fallback = None
        if unit_type is None:  # the tagset may say what it is (MEDDOCAN's CENTRO_SALUD)
            unit_type = next((t for t in types if t["type"] == target.kind), None)
        written_as_initials = False
        if unit_type is None:  # "Facultad de Odontología, UDELAR": the unit the clause names
            unit_type = self._type_of_clause(target, ctx)
            written_as_initials = unit_type is not None and _is_initials(target.text)
            fallback = "no recognisable type: the type of the unit written before it" if unit_type else None
        if unit_type is None:
            default = ctx.pack.vocabulary(self.vocabulary).get("default")
            unit_type = next((t for t in types if t["type"] == default), None)
            fallback = "no recognisable type: the default type" if unit_type else "no recognisable type: a random type"
        written_as_initials = written_as_initials or _written_as_acronym(target.text)
        acronym = self._acronym_of_unit_before(target, ctx, f"{self.name}:{unit_type['type'] if unit_type else '*'}:initials")
        if acronym is not None:
            return Surrogate(acronym)
        world = ctx.services.address if ctx.pack.has("locations") else None
        abroad = (world.unit_town_abroad(ctx.document, target) or world.town_of_address_abroad(ctx.document)) if world else None
        # a unit written without its type word ("CALVERT", "Holy Cross") is placed by the units so named too
        listed = unit_type.get("catalogue") if unit_type and not type_word else None
        place = abroad or self._place(target, ctx, listed if listed and ctx.pack.has(listed) else None)  # a record living abroad: its country's town, no home catalogue
        catalogue_name = unit_type.get("catalogue") if unit_type and abroad is None else None
        one_unit = _one_unit_key(target.text, type_word, ctx.pack, place, world)
        drawn = self._one_unit_drawn(ctx, one_unit, unit_type if type_word else None)
        if drawn is not None:  # "Kessler Adventist" after "Kessler-Adventist Hosp"
            if world is not None:
                world.unit_written(ctx.document, target, drawn, place)  # its street and postcode follow it
            cased = casing_of(target.text) in ("lower", "upper") or not type_word  # a note's case, not another spelling's
            return Surrogate(match_case(target.text, drawn) if cased else drawn, fallback=fallback)
        floor = _WARD_AFTER.match(ctx.document.text, target.span.end)
        unit_after = _LETTER_WORD.match(ctx.document.text, floor.end() + 1) if floor else None  # "Howard 2 days ago": no floor
        if floor and not (unit_after and unit_after.start() <= floor.end() + 1 and unit_after.group().casefold() in age_units(ctx.pack)) \
                and not type_word and _LETTER_WORD.fullmatch(target.text.strip()) and not _is_acronym(target.text):
            ward = self._ward(target, ctx)
            if ward is not None:
                if one_unit:  # the same value without its floor is the same ward; a unit written with its type word is none
                    ctx.scope.remember(self.name, "unit-named", one_unit, ward)
                return Surrogate(ward, fallback=fallback)
        if not type_word and catalogue_name and ctx.pack.has(catalogue_name):
            named = self._without_type_word(target, ctx, unit_type, place)
            if named is not None:
                self._one_unit_written(ctx, one_unit, None, named)
                return Surrogate(named, fallback=fallback)
        ignored = {w.casefold() for w in _WORD.findall(type_word)} | particles(ctx.pack)
        # the kept place a unit is named after identifies no one ("Segovia" of "Hospital General de
        # Segovia"): a unit may bear it too, with a name of its own ("Hospital Recoletas Segovia")
        written = {w.casefold() for w in _WORD.findall(target.text)}
        place_words = {w.casefold() for w in _WORD.findall(place.name)} & written if place is not None else set()
        generic = _generic_naming_words(ctx.pack, self.vocabulary) | place_words
        original_words = written - ignored - place_words
        naming = original_words - common_words(ctx.pack)  # "San" of "San Eloy" names no one; "Virgen de la Salud" is common words only
        naming_words_only = bool(naming)
        original_words = naming or original_words
        catalogued = bool(catalogue_name and ctx.pack.has(catalogue_name))
        following = _NEXT_WORD.match(ctx.document.text, target.span.end)
        if following and following.group(1).casefold() in particles(ctx.pack):  # "(CAMD) de Almería": the word after the particle
            following = _NEXT_WORD.match(ctx.document.text, following.end()) or following
        next_word = following.group(1).casefold() if following else None
        town_after = ctx.services.address.unit_town(ctx.document, target) if ctx.pack.has("locations") else None
        if town_after is not None and place is not None and next_word == _WORD.findall(town_after.name)[0].casefold():
            next_word = _WORD.findall(place.name)[-1].casefold()  # "Hospital Cruz Roja Gijón" before "Avilés" -> "Gijón": "Gijón Gijón"

        classes, usual = catalogue_classes(ctx.pack, catalogue_name) if catalogued else ({}, None)
        wanted = classes.get(loose(target.text), frozenset({usual})) if usual else frozenset()
        if usual in wanted or (town_after is not None and world is not None and world.files_elsewhere(catalogue_name, target.text, town_after)):  # type: ignore[arg-type]
            wanted = frozenset({usual})  # a name of several classes, or another town's unit: a general one (a long-stay unit for a paediatric one gave a record away)
        owners, usual_owner = catalogue_owners(ctx.pack, catalogue_name) if catalogued else ({}, None)
        run_by = owners.get(loose(target.text), frozenset({usual_owner}) if usual_owner else frozenset())
        run_by = run_by if len(run_by) == 1 else frozenset()  # a name the catalogue files as public and private says nothing
        owner_matters = [bool(run_by)]  # dropped where the surrogate town has a unit of the class run otherwise only

        def fits(name: str) -> bool:
            """No word of the original but common words ("San", "General": "Hospital San Eloy" had
            refused Santurtzi's one hospital, "San Juan de Dios", and taken Galdakao's); not ending
            in the word written right after the span ("Hospital Universitario HM Madrid Madrid,
            España"); of the original's class in the catalogue, general where the catalogue does
            not hold it (a children's hospital for a man of 36 gave a record away), run as the original
            is where the catalogue says (a private hospital for a public one beside its health
            service's e-mail gave a record away); never a unit
            whose own postcode, written after it, is an original of the scope, nor one another unit
            of the scope became (a place whose units are taken gives way to its region's, not to
            one far away: "Hospital Universitario La Paz" in A Coruña); never the original itself, nor a unit named by type words and the kept place alone ("Hptal.
            Universitario de Navarra", today's name of the "Hptal. de Navarra")."""
            words = [w.casefold() for w in _WORD.findall(name)]
            same_class = (not wanted or bool(classes.get(loose(name), wanted) & wanted)) and (not owner_matters[0] or bool(owners.get(loose(name), run_by) & run_by))
            own = nested(original_loose, loose(name)) or (place_words & set(words) and not set(words) - generic)
            named = set(words) | also.get(loose(name), frozenset())  # a former name of the unit names it too ("Sede Txagorritxu")
            renamed_original = frozenset(words) - generic in originals_renamed  # "H. Universitario de Badajoz" as written
            at_original_code = name in at_original_codes  # its own code, written after it, would be an original
            taken = normalise(name) in drawn_before  # another unit of the scope's: the next nearest, not one far away
            return not own and not renamed_original and not at_original_code and not taken and not original_words & named and not (words and words[-1] == next_word) and same_class

        original_loose = loose(target.text)
        also = _also_named(ctx.pack, catalogue_name) if catalogued else {}
        filed_here = world.filed_at_written_street(ctx.document, target, catalogue_name) if world is not None and catalogue_name and catalogued else frozenset()
        originals_renamed = {frozenset(w.casefold() for w in _WORD.findall(n)) - generic for n in filed_here}  # the original under its new name, by naming words
        at_original_codes = world.filed_at_original_postcode(ctx.document, target, catalogue_name) if world is not None and catalogued else frozenset()
        drawn_before = ctx.scope.taken(self.name, f"{self.name}:{unit_type['type'] if unit_type else '*'}")
        near = _near(ctx.pack, unit_type["catalogue"], place, fits) if catalogued else None
        if near is not None and owner_matters[0] and place is not None:  # the town's own unit before one run alike elsewhere
            here = set(_units(ctx.pack, unit_type["catalogue"], f"in:{place.id}", lambda: frozenset({place.id})).items)
            owner_matters[0] = False
            anyhow = _near(ctx.pack, unit_type["catalogue"], place, fits)
            if set(near.items) & here or not set(anyhow.items) & here:
                owner_matters[0] = True
            else:
                near = anyhow

        renamed = None if catalogued or abroad is not None else _generic_of_place(target, ctx, unit_type, next_word)  # abroad, "de Córdoba" is no home province
        if renamed is not None:
            kept = renamed == target.text
            return Surrogate(renamed, kept=kept, kept_as="named after its kept place" if kept else None)
        if place is not None and unit_type and not catalogued and _named_after_its_place(unit_type, type_word, place, target, ctx):
            return Surrogate(target.text, kept=True, kept_as="named after its kept place")
        streets = (lambda stream: ctx.services.address.unit_namesake(place, stream)) if ctx.pack.has("locations") else None
        attempts = [0]  # the scope's consistent draw calls this once per attempt

        def draw(stream: KeyedStream) -> str:
            attempts[0] += 1
            chosen = unit_type or stream.choice(types)
            word = type_word or (chosen.get("cues") or [""])[0]
            catalogue = ctx.options["names"] == "catalogue" and chosen.get("catalogue") and ctx.pack.has(chosen["catalogue"]) and abroad is None
            candidate, fitting = "", ""
            for _ in range(MAX_TRIES):
                if catalogue:
                    every = ctx.pack.weighted(chosen["catalogue"])
                    # after a few refused draws the whole catalogue: a place whose only listed unit is
                    # the original itself (or holds its words) must not exhaust them
                    local = near is not None and chosen is unit_type and attempts[0] <= NEAR_ATTEMPTS
                    names = near if local else every
                    candidate, listed = _from_catalogue(chosen, type_word, names, every, stream)
                    if ctx.pack.has("locations"):
                        ctx.services.address.catalogue_drawn(candidate, chosen["catalogue"], listed)
                else:
                    names = chosen["names"]
                    if " " in type_word and _WORD.search(target.text.replace(type_word, "", 1)):  # "Instituto de Oftalmología Conde ...": the specialty stays
                        names = [n for n in names if "{type}" in n] or names
                    if abroad is None and place is not None and place.weight >= CITY and chosen.get("in_cities"):
                        names = chosen["in_cities"]  # a city's many health centres are named after its streets
                    if abroad is not None:  # named after its town there, or where people are named as at home after a saint or a person
                        like_home = world is not None and world.names_like_home(ctx.document)
                        names = chosen.get("abroad") or [n for n in names if _named_as_abroad(n) if like_home or "{place}" in n] or names
                    candidate = _fill(stream.choice(names), word, ctx.pack, stream, place, streets)
                if fits(candidate):
                    if catalogue or _same_size(candidate, target.text):
                        return candidate
                    fitting = fitting or candidate  # a name of another size, if none of the original's comes
            return fitting or candidate

        family = f"{self.name}:{unit_type['type'] if unit_type else '*'}"
        # one unit written two ways ("Hospital Son Dureta", "Hospital Universitario Son Dureta") is one
        # unit: its naming words find the surrogate the first way drew
        # the type word stays; a unit no place ties to the scope is the same unit in every scope of the run
        run_wide = place is None or (world is not None and place is world.home())
        # (the alias is the scope's, so a run-wide unit draws alone; two units of one name in two towns stay two)
        naming = f"{' '.join(sorted(original_words))} @{place.id}" if naming_words_only and not run_wide and place is not None else ""
        same_unit = ctx.scope.remembered(self.name, f"{family}:named", naming) if naming else None
        surrogate = same_unit or ctx.consistent(family, _unit_key(target.text), draw, shares_words=True, run_wide=run_wide)
        if naming:
            ctx.scope.remember(self.name, f"{family}:named", naming, surrogate)
        if written_as_initials:  # "UDELAR" -> "UM" of "Universidad de Montevideo", as real records write a unit by its initials
            initials = "".join(w[0] for w in _WORD.findall(surrogate) if w[0].isupper())
            if len(initials) >= 2 and initials.casefold() != target.text.casefold():
                self._one_unit_written(ctx, one_unit, unit_type if type_word else None, initials)
                return Surrogate(initials if not target.text.islower() else initials.lower(), fallback=fallback)
        self._one_unit_written(ctx, one_unit, unit_type if type_word else None, surrogate)
        if ctx.pack.has("locations"):
            ctx.services.address.unit_written(ctx.document, target, surrogate, place)  # its street and postcode follow it
        if casing_of(target.text) == "title" and surrogate[:1].islower() and _SENTENCE_END.search(ctx.text_before(target.span)):
            surrogate = surrogate[0].upper() + surrogate[1:]
        return Surrogate(surrogate, fallback=fallback)
