"""Coherence of a pseudonymised corpus: what a reader notices that `pseudo audit` does not count.

The audit finds originals that survive; this finds surrogates that do not fit together, on a BRAT
folder of MEDDOCAN-style records (a header of "Field: value" lines, then the report) and its
pseudonymised version:

    python bench/coherence.py ORIGINALS/ PSEUDONYMISED/ [--locale es] [--tagset meddocan] [--examples N]

One line per check, `title: offending of checked, in D documents`:

- headers whose town ("Localidad/ Provincia:" first part), province (its last part, when it has
  two) and postcode ("CP:") do not belong together in the pack's location tree and postcode list;
  a header is checked when its original town and postcode are in the pack's lists (a Spanish
  address) and both fields hold tagged spans. A lone name that is also a province may go with any of its postcodes;
- given-name fields ("Nombre:") whose surrogate holds a word of the surname list that is in no
  first-name list;
- health care unit and organisation surrogates that hold, as whole words, a place tagged in the
  original of the same document and replaced there (a kept province shows anyway) (printed by offsets only: the words would show that original);
- health care units named after a town (the name after the type word, or after its last "de")
  none of whose namesakes is in a province of the document's surrogate header address;
- catalogue health care units (a name of a unit type's `catalogue` list) written with a town on
  their line (the first place span after the unit, on its line, within 100 characters, that names a
  municipality) that the catalogue files at another town;
- countries written Spain/España in the original and something else in the output;
- postcodes written right before a town ("48080 Bilbao", at most a space or comma between, both
  tagged, the original code in the postal list) whose surrogate code is neither the surrogate
  town's nor its province's.

`--examples N` prints up to N offenders per check: document id, offsets, and surrogate text only,
never an original. It reads the pack through pseudo's public modules and none of the rules, so
it judges the engine from outside. Exit 1 on unreadable input, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path

from pseudo.errors import PseudoError
from pseudo.labels import detect_tagset, tagset
from pseudo.lists.pack import LocalePack, load_pack
from pseudo.lists.tree import Place
from pseudo.lists.weighted import loose
from pseudo.lists.words import particles

HEADER_LINES = 40  # a header is at most this many lines, ending before the first long line
HEADER_LINE_LENGTH = 160
UNIT_REACH = 100  # characters at most between a unit and the town of its address on its line
TOWN_FIELDS = ("localidad/provincia", "localidad", "poblacion", "municipio")
PROVINCE_FIELDS = ("provincia",)
POSTCODE_FIELDS = ("cp", "c.p.", "codigo postal")
GIVEN_NAME_FIELDS = ("nombre",)
SPAIN = frozenset({"españa", "espana", "spain"})  # folded by `loose`, which keeps ñ
PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
NAME_LABELS = ("PERSON", "FIRST_NAME", "LAST_NAME")
AREA_KINDS = ("province", "autonomous_community")
DIRECTIONS = ("norte", "sur", "centro", "este", "oeste")  # "Centro de Salud Getafe Norte"
_T_LINE = re.compile(r"(?P<tid>T\S*)[\t ](?P<label>\S+) (?P<offsets>\d+ \d+(?:;\d+ \d+)*)")
_FIELD = re.compile(r"^[\ufeff \t]*(?P<name>[^:\n]{1,40}?)[ \t]*:[ \t]*(?P<value>[^\r\n]*)", re.MULTILINE)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_TOKEN = re.compile(r"\w+")


class BadInput(Exception):
    """One line for stderr: the file and what is wrong with it."""


@dataclass(frozen=True)
class Span:
    tid: str
    label: str
    start: int
    end: int


@dataclass
class Record:
    id: str
    text: str
    spans: dict[str, Span]


@dataclass
class Check:
    title: str
    checked: int = 0
    offenders: list[tuple[str, str]] = field(default_factory=list)  # (document id, where and why)

    def count(self, document: str, bad: str | None) -> None:
        self.checked += 1
        if bad is not None:
            self.offenders.append((document, bad))

    def line(self) -> str:
        documents = len({d for d, _ in self.offenders})
        return f"{self.title}: {len(self.offenders)} of {self.checked}, in {documents} documents"


# -- reading ------------------------------------------------------------------------------------
def read_folder(folder: Path) -> dict[str, Record]:
    """Every X.txt (with X.ann, absent meaning no spans) under a folder, by relative id.
    Offsets count code points of the file as brat does: a BOM and the CR of CRLF included."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: no such folder")
    records = {}
    for path in sorted(folder.rglob("*.txt")):
        doc_id = path.relative_to(folder).with_suffix("").as_posix()
        text = _decode(path)
        ann = path.with_suffix(".ann")
        spans = _parse_ann(ann, _decode(ann), len(text)) if ann.is_file() else {}
        records[doc_id] = Record(doc_id, text, spans)
    return records


def _decode(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(f"{path}: not UTF-8 (byte {error.start})") from None
    except OSError as error:
        raise BadInput(f"{path}: {error.strerror}") from None


def _parse_ann(path: Path, data: str, length: int) -> dict[str, Span]:
    spans = {}
    for number, row in enumerate(data.removeprefix("\ufeff").splitlines(), start=1):
        if not row.startswith("T"):
            continue
        match = _T_LINE.match(row)
        if match is None:
            raise BadInput(f"{path}:{number}: not a text-bound annotation line")
        offsets = [int(n) for n in re.split(r"[ ;]", match["offsets"])]
        start, end = offsets[0], offsets[-1]
        if not 0 <= start <= end <= length:
            raise BadInput(f"{path}:{number}: offsets {start}-{end} outside the text ({length} characters)")
        spans[match["tid"]] = Span(match["tid"], match["label"], start, end)
    return spans


def header_fields(text: str) -> dict[str, tuple[int, int]]:
    """Where each field's value stands in the header, by folded name ("localidad/provincia")."""
    end, lines = 0, 0
    for line in text.splitlines(keepends=True):
        if lines >= HEADER_LINES or len(line.rstrip("\r\n")) > HEADER_LINE_LENGTH:
            break
        end += len(line)
        lines += 1
    fields: dict[str, tuple[int, int]] = {}
    for match in _FIELD.finditer(text, 0, end):
        name = re.sub(r"\s*/\s*", "/", " ".join(loose(match["name"]).split()))
        fields.setdefault(name, match.span("value"))
    return fields


# -- the pack ----------------------------------------------------------------------------------
class Gazetteer:
    """The pack's lists as the checks ask them."""

    def __init__(self, pack: LocalePack):
        self.tree = pack.tree()
        self.codes: dict[str, set[str]] = defaultdict(set)
        for row in pack.rows("postal_codes"):
            self.codes[row["postcode"]].add(row["place_id"])
        self.female, self.male = pack.weighted("first_names_female"), pack.weighted("first_names_male")
        self.last = pack.weighted("last_names")
        self.particles = set(particles(pack))
        self.saints = pack.weighted("saints") if pack.has("saints") else None
        cues = [c for t in pack.vocabulary("healthcare_units").get("types", []) for c in t.get("cues", [])]
        self.cues = sorted({loose(c) for c in cues}, key=len, reverse=True)
        self.filed: dict[str, set[str]] = defaultdict(set)  # a catalogue unit's name -> the towns it is filed at
        for unit_type in pack.vocabulary("healthcare_units").get("types", []):
            if unit_type.get("catalogue") and pack.has(unit_type["catalogue"]):
                for row in pack.rows(unit_type["catalogue"]):
                    if row.get("place_id") in self.tree.places:
                        self.filed[row["name"]].add(loose(self.tree.places[row["place_id"]].name))

    def places(self, name: str, kinds: tuple[str, ...]) -> list[Place]:
        return [p for p in self.tree.lookup(name.strip()) if p.kind in kinds]

    def province(self, place: Place) -> Place | None:
        return self.tree.ancestor(place, "province")

    def surname_only(self, word: str) -> bool:
        return word in self.last and word not in self.female and word not in self.male

    def unit_town(self, name: str) -> list[Place]:
        """The municipalities a unit's name is named after: the rest after its type word, or
        after its last "de"; a devotion ("San Roque") is not a town here."""
        folded = " ".join(loose(name).split())
        cue = next((c for c in self.cues if folded.startswith(c + " ")), None)
        if cue is None:
            return []
        rest = folded[len(cue) :].split()
        if rest and rest[-1] in DIRECTIONS:
            rest = rest[:-1]
        candidates = [rest[rest.index("de") + 1 :] if rest[:1] == ["de"] else rest]
        candidates += [rest[i + 1 :] for i, word in enumerate(rest) if word == "de" and i > 0]
        for words in candidates:
            phrase = " ".join(words)
            if phrase and not (self.saints is not None and phrase in self.saints):
                found = self.places(phrase, ("municipality",))
                if found:
                    return found
        return []


# -- the checks --------------------------------------------------------------------------------
def header_problem(parts: list[str], code: str, places: Gazetteer, shown: Callable[[str], str] = repr) -> str | None:
    """Why a header's town, province and postcode do not go together, or None when they do."""
    owners = places.codes.get(code)
    if not owners:
        return f"postcode {shown(code)} is in no list"
    towns = places.places(parts[0], ("municipality",))
    if len(parts) == 1:
        for area in places.places(parts[0], AREA_KINDS):
            if all(area in _areas(places, owner) for owner in owners):
                return None
    if not towns:
        return f"{shown(parts[0])} is no municipality"
    towns_of_code = [t for t in towns if t.id in owners or (places.province(t) is not None and places.province(t).id in owners)]
    if not towns_of_code:
        return f"postcode {shown(code)} is not of {shown(parts[0])}"
    if len(parts) > 1:
        areas = places.places(parts[-1], AREA_KINDS)
        if not any(area in _areas(places, town.id) for town in towns_of_code for area in areas):
            return f"{shown(parts[-1])} is not the province of {shown(parts[0])}"
    return None


def _areas(places: Gazetteer, place_id: str) -> list[Place]:
    """A place and every ancestor of it."""
    found, current = [], places.tree.places.get(place_id)
    while current is not None:
        found.append(current)
        current = places.tree.parent(current)
    return found


def _in_fields(record: Record, spans: list[tuple[Span, str]], fields: dict[str, tuple[int, int]], names: tuple[str, ...], labels: tuple[str, ...]) -> list[Span]:
    found = []
    for name in names:
        if name in fields:
            start, end = fields[name]
            found += [s for s, label in spans if label in labels and start <= s.start and s.end <= end]
    return found


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(loose(text)))


def _holds(words: tuple[str, ...], inside: tuple[str, ...]) -> bool:
    return bool(words) and any(inside[i : i + len(words)] == words for i in range(len(inside) - len(words) + 1))


def check_pair(original: Record, output: Record, canonical: dict[str, str], places: Gazetteer, checks: dict[str, Check]) -> None:
    doc = output.id
    paired = sorted(((s, canonical[s.label]) for tid, s in output.spans.items() if tid in original.spans), key=lambda p: p[0].start)
    before = {s.tid: original.text[original.spans[s.tid].start : original.spans[s.tid].end] for s, _ in paired}
    after = {s.tid: output.text[s.start : s.end] for s, _ in paired}
    fields = header_fields(output.text)
    originals = [_tokens(v) for v in before.values() if len(v.strip()) >= 3]

    def shown(surrogate: str) -> str:
        """A surrogate for an example line, withheld where it holds an original of the document."""
        held = _tokens(surrogate)
        return "(withheld: holds an original)" if any(_holds(words, held) for words in originals) else repr(surrogate)

    town_spans = _in_fields(output, paired, fields, TOWN_FIELDS, ("PLACE", "REGION"))
    town_spans += _in_fields(output, paired, fields, PROVINCE_FIELDS, ("PLACE", "REGION"))
    code_spans = [s for s in _in_fields(output, paired, fields, POSTCODE_FIELDS, ("PLACE", "POSTCODE")) if after[s.tid].strip().isdigit()]
    address_areas: set[str] = set()
    if town_spans:
        for span in town_spans:
            for place in places.places(after[span.tid], ("municipality", *AREA_KINDS)):
                area = places.province(place) if place.kind == "municipality" else place
                if area is not None:
                    address_areas.add(area.id)
    spanish = bool(town_spans) and bool(places.places(before[town_spans[0].tid], ("municipality", *AREA_KINDS)))
    if spanish and code_spans and before[code_spans[0].tid].strip() in places.codes:
        parts = [after[s.tid] for s in town_spans]
        problem = header_problem(parts, after[code_spans[0].tid].strip(), places, shown)
        where = f"output {town_spans[0].start}-{code_spans[0].end}"
        checks["header"].count(doc, None if problem is None else f"{where}\t{problem}")

    given = _in_fields(output, paired, fields, GIVEN_NAME_FIELDS, NAME_LABELS)
    if given:
        words = [w for s in given for w in _WORD.findall(after[s.tid]) if len(w) > 1 and w.casefold() not in places.particles]
        surnames = [w for w in words if places.surname_only(w)]
        where = f"output {given[0].start}-{given[-1].end}"
        checks["given"].count(doc, f"{where}\t{shown(' '.join(surnames))} is a surname only" if surnames else None)

    place_originals = {  # a place kept as written (a kept province) shows anyway: a unit may hold it
        s.tid: _tokens(before[s.tid]) for s, label in paired if label in PLACE_LABELS and _WORD.search(before[s.tid]) and before[s.tid] != after[s.tid]
    }
    for span, label in paired:
        if label in ("HEALTHCARE_UNIT", "ORGANISATION"):
            held = _tokens(after[span.tid])
            hit = next((tid for tid, words in place_originals.items() if _holds(words, held)), None)
            bad = None if hit is None else f"output {span.start}-{span.end}\tholds the place of original {original.spans[hit].start}-{original.spans[hit].end}"
            checks["unit_place"].count(doc, bad)
        if label == "HEALTHCARE_UNIT" and address_areas:
            towns = places.unit_town(after[span.tid])
            if towns:
                provinces = {p.id for p in (places.province(t) for t in towns) if p is not None}
                far = not provinces & address_areas
                areas = ", ".join(sorted(shown(places.tree.places[a].name) for a in address_areas))
                checks["unit_province"].count(doc, f"output {span.start}-{span.end}\t{shown(after[span.tid])}, the address in {areas}" if far else None)
        if label == "HEALTHCARE_UNIT" and after[span.tid] in places.filed:
            town = _town_on_line(output, paired, span)
            if town is not None and places.places(after[town.tid], ("municipality",)):
                elsewhere = loose(after[town.tid].strip()) not in places.filed[after[span.tid]]
                bad = f"output {span.start}-{town.end}\t{shown(after[span.tid])} beside {shown(after[town.tid])}" if elsewhere else None
                checks["unit_town"].count(doc, bad)
        if label in PLACE_LABELS and before[span.tid].strip() in places.codes:
            town = _town_after_code(output, paired, span)
            if town is not None:
                code, name = after[span.tid].strip(), after[town.tid]
                problem = header_problem([name], code, places, shown) if places.places(name, ("municipality",)) else None
                checks["code_town"].count(doc, None if problem is None else f"output {span.start}-{town.end}\t{problem}")
        if label == "COUNTRY" and loose(before[span.tid].strip()) in SPAIN:
            foreign = loose(after[span.tid].strip()) not in SPAIN
            checks["spain"].count(doc, f"output {span.start}-{span.end}\t{shown(after[span.tid])}" if foreign else None)


def _town_on_line(output: Record, paired: list[tuple[Span, str]], unit: Span) -> Span | None:
    """The first place span after a unit on its line, within UNIT_REACH characters, or None."""
    after = [s for s, label in paired if label in ("PLACE", "REGION") and s.start >= unit.end and _WORD.search(output.text[s.start : s.end])]
    if not after:
        return None
    first = min(after, key=lambda s: s.start)
    between = output.text[unit.end : first.start]
    return first if "\n" not in between and len(between) <= UNIT_REACH else None


def _town_after_code(output: Record, paired: list[tuple[Span, str]], code: Span) -> Span | None:
    """The place span right after a postcode ("48080 Bilbao"), with at most a space or comma between."""
    for span, label in paired:
        if label in PLACE_LABELS and span.start > code.end and _WORD.search(output.text[span.start : span.end]):
            return span if re.fullmatch(r"[ ,]{1,2}", output.text[code.end : span.start]) else None
    return None


def run(originals: Path, output: Path, locale: str, tagset_name: str | None) -> tuple[int, int, dict[str, Check]]:
    before, after = read_folder(originals), read_folder(output)
    common = sorted(set(before) & set(after))
    if not common:
        raise BadInput(f"{output}: holds no document of {originals}")
    labels = {s.label for doc in common for s in before[doc].spans.values()}
    try:
        chosen = tagset(tagset_name) if tagset_name else detect_tagset(labels)
        places = Gazetteer(load_pack(locale))
    except PseudoError as error:
        raise BadInput(str(error)) from None
    unknown = sorted(labels - set(chosen.labels))
    if unknown:
        raise BadInput(f"{originals}: label(s) {', '.join(unknown)} are not in tagset {chosen.name}")
    canonical = {label: mapping.label for label, mapping in chosen.labels.items()}
    checks = {
        "header": Check("headers whose town, province and postcode do not belong together"),
        "given": Check('given-name fields ("Nombre:") whose surrogate is a surname only'),
        "unit_place": Check("unit and organisation surrogates holding a place original of their document"),
        "unit_province": Check("health care units named after a town of another province than the address"),
        "unit_town": Check("catalogue units written with a town on their line that the catalogue files at another town"),
        "spain": Check("Spain/España replaced by a foreign country"),
        "code_town": Check('postcodes written right before a town ("48080 Bilbao") that are not of its surrogate'),
    }
    for doc in common:
        check_pair(before[doc], after[doc], canonical, places, checks)
    unpaired = len(set(before) ^ set(after))
    return len(common), unpaired, checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coherence", description=__doc__.split("\n\n")[0])
    parser.add_argument("originals", type=Path, help="the original BRAT folder")
    parser.add_argument("output", type=Path, help="its pseudonymised version")
    parser.add_argument("--locale", default="es", help="the locale pack to judge places and names by (default es)")
    parser.add_argument("--tagset", help="the tagset of the labels (detected if omitted)")
    parser.add_argument("--examples", type=int, default=0, metavar="N", help="print up to N offenders per check")
    args = parser.parse_args(argv)
    if args.examples < 0:
        parser.error("--examples must be 0 or more")
    try:
        documents, unpaired, checks = run(args.originals, args.output, args.locale, args.tagset)
    except BadInput as error:
        print(f"coherence: {error}", file=sys.stderr)
        return 1
    print(f"documents: {documents} (unpaired: {unpaired})")
    print(f"headers checked: {checks['header'].checked}")
    for check in checks.values():
        print(check.line())
        for doc, detail in check.offenders[: args.examples]:
            print(f"  {doc}\t{detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
