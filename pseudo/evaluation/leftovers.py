"""The leftover-hunting attack (Carrell et al., JAMIA 2020): some tags are dropped before
pseudonymisation, so their original values stay in the output among the surrogates, as the
annotators' misses would; a reader who knows the country tries to find them. The kit holds the
records as one plain file, the reader's brief, and the key (the dropped values: it re-identifies).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import regex

from pseudo.api import Settings, pseudonymise
from pseudo.engine import Engine
from pseudo.config import Config
from pseudo.errors import InputError, PseudoError
from pseudo.evaluation.corpus import label_map
from pseudo.evaluation.kit import detail_words, filled_brief, write_folder
from pseudo.evaluation.scoring import evaluator_names, format_proportion, proportion
from pseudo.io.atomic import atomic_writer
from pseudo.keyed import Keyring
from pseudo.lists.pack import load_pack
from pseudo.model import Document, Replacement, Span

FILES = ("sheet.txt", "brief.md", "key.json")
BRIEF = "brief-leftovers.md"
# Labels whose leftover identifies someone or somewhere; sex, kinship, profession, age and the
# like are not hunted: finding "madre" left as it was tells nothing.
IDENTIFYING = frozenset({
    "FIRST_NAME", "LAST_NAME", "PERSON", "DATE", "PHONE", "FAX", "EMAIL", "URL", "IP", "ID",
    "ADDRESS", "STREET", "POSTCODE", "PLACE", "REGION", "HEALTHCARE_UNIT", "ORGANISATION",
})  # fmt: skip
HEADER = "=== RECORD {} ==="
_HEADER = regex.compile(r"^=== RECORD (\S+) ===\n", regex.MULTILINE)
_WORD = regex.compile(r"\w+")
_NUMBER = regex.compile(r"(\d+)\s*$")
MIN_WORD = 3  # a shared word this long counts an answer as found


@dataclass(frozen=True)
class Dropped:
    """A tag left out whose value still stands untouched at start..end of the record's text in the
    sheet (a dropped value that the defaults replaced anyway is no leftover: `Record.caught`)."""

    start: int
    end: int
    label: str
    text: str


@dataclass(frozen=True)
class Record:
    record_id: str
    document_id: str
    text: str
    dropped: tuple[Dropped, ...]
    replaced: frozenset[str]  # canonical labels of the spans sent to a surrogate
    caught: int = 0  # dropped values the defaults replaced anyway (propagation, dates that follow the clock)


def draw(documents: Sequence[Document], n: int, seed: int) -> list[Document]:
    """N documents at most, in a seeded order that says nothing of their ids."""
    if n < 1:
        raise PseudoError("--n must be at least 1")
    chosen = sorted(documents, key=lambda d: d.id)
    rng = random.Random(seed)
    return rng.sample(chosen, min(n, len(chosen)))


def hunted(document: Document, labels: Mapping[str, Any], config: Config) -> list[Span]:
    """The spans that may be dropped: identifying labels that the configuration sends to a surrogate."""
    return [
        s for s in document.spans
        if labels[s.label].label in IDENTIFYING and config.strategy(s.label, labels[s.label]).name == "surrogate"
    ]  # fmt: skip


def drop_spans(spans: Sequence[Span], share: float, rng: random.Random) -> list[Span]:
    """round(share x spans) of them, at least one when there is any."""
    if not spans:
        return []
    count = min(len(spans), max(1, round(share * len(spans))))
    return sorted(rng.sample(list(spans), count), key=lambda s: s.start)


def _lf(text: str, positions: Sequence[int]) -> tuple[str, list[int]]:
    """The text with CR LF and lone CR as LF (as any reader's program reads a plain file), and the
    positions carried along."""
    carried = [p - text.count("\r\n", 0, p) for p in positions]
    return text.replace("\r\n", "\n").replace("\r", "\n"), carried


def build(
    documents: Sequence[Document], config: Config, keyring: Keyring, n: int, share: float, seed: int,
    locale: str | None = None, tagset: str | None = None, propagate: bool = True,
) -> list[Record]:  # fmt: skip
    """The same documents, options, key and seed always give the same records. Tags are dropped
    across the records' scopes, as annotators miss them everywhere (in a record shown,
    `drop_spans`; in its scope's other documents, a patient's other notes, each tag with the chance
    `share`, since one at least of a note's only tag would leave the other notes with hardly any),
    and the scopes are pseudonymised whole, as `pseudo apply` does (propagation on unless told
    otherwise), so a dropped value the defaults replace anyway (an untagged repetition of a name
    tagged in another note, a date that follows the clock) is caught, not left over: the key holds
    only the dropped values that still stand."""
    if not 0 < share <= 1:
        raise PseudoError("--drop must be above 0 and at most 1")
    chosen = draw(documents, n, seed)
    shown = {document.id for document in chosen}
    documents = _in_their_scopes(documents, chosen, config, locale, tagset)
    labels = label_map(documents, config, tagset)
    rng = random.Random(f"{seed}:drop")
    inputs, drops = [], {}
    for document in documents:  # in input order, as `pseudo apply` reads them
        spans = hunted(document, labels, config)
        dropped = drop_spans(spans, share, rng) if document.id in shown else [s for s in spans if rng.random() < share]
        kept = tuple(s for s in document.spans if s not in dropped)
        inputs.append(Document(document.id, document.text, kept, document.meta))
        drops[document.id] = (dropped, [labels[s.label].label for s in dropped], document)
    run = pseudonymise(inputs, Settings(config=config, keyring=keyring, locale=locale, tagset=tagset, propagate=propagate), skip_errors=True)
    for failure in run.summary.failures:
        if failure.document_id in shown:
            raise failure.error
    results = {result.document.id: result for result in run.results}
    digits = max(2, len(str(len(chosen))))
    records = []
    for number, (result, (dropped, canonical, document)) in enumerate(((results[d.id], drops[d.id]) for d in chosen), start=1):
        standing = [(s, label) for s, label in zip(dropped, canonical) if not _caught(s, result.replacements, document.text)]
        edges = [_to_output(result.replacements, p, p == s.end) for s, _ in standing for p in (s.start, s.end)]
        text, edges = _lf(result.document.text, edges)
        values = tuple(
            Dropped(edges[2 * i], edges[2 * i + 1], label, _lf(document.span_text(s), [])[0])
            for i, (s, label) in enumerate(standing)
        )
        replaced = frozenset(r.label for r in result.replacements if r.strategy == "surrogate")
        records.append(Record(f"d{number:0{digits}d}", document.id, text, values, replaced, len(dropped) - len(standing)))
    return records


def _in_their_scopes(documents: Sequence[Document], chosen: Sequence[Document], config: Config, locale: str | None, tagset: str | None) -> list[Document]:
    """The records shown and the documents of their scopes (a patient's other notes), in input
    order: nothing else can change a record's surrogates. A document whose scope cannot be told
    is left out unless shown (its error is then reported as `pseudo apply` would)."""
    engine = Engine(Settings(config=config, locale=locale, tagset=tagset))
    shown = {document.id for document in chosen}

    def scope_of(document: Document) -> str | None:
        try:
            return engine.scope_id(document)
        except PseudoError:
            return None

    scopes = {scope_of(document) for document in chosen} - {None}
    return [d for d in documents if d.id in shown or scope_of(d) in scopes]


def _caught(span: Span, replacements: Sequence[Replacement], text: str) -> bool:
    """A dropped value every character of which (spaces aside) spans the defaults added cover:
    nothing of it stands as written. One replaced in part still leaves the rest standing."""
    covered = {i for r in replacements for i in range(max(r.span.start, span.start), min(r.span.end, span.end))}
    return all(i in covered for i in range(span.start, span.end) if not text[i].isspace())


def _to_output(replacements: Sequence[Replacement], position: int, end: bool) -> int:
    """Carry a position from the input to the output; one inside a replaced span goes to that
    span's surrogate's edge (its end for the `end` of a stretch), so the stretch holds it."""
    shift = 0
    for replacement in replacements:
        if replacement.span.start < position < replacement.span.end:
            return replacement.new_end if end else replacement.new_start
        if replacement.span.end <= position:
            shift = replacement.new_end - replacement.span.end
    return position + shift


def locale_of(documents: Sequence[Document], config: Config, locale: str | None) -> str:
    """The one locale of the records (meta.locale, else --locale, else the configuration's): its
    pack fills in the brief, so a kit holds one locale."""
    codes = sorted({str(d.meta.get("locale") or locale or config.locale or "") for d in documents})
    if codes == [""]:
        raise PseudoError("no locale: pass --locale or set meta.locale")
    if len(codes) > 1:
        raise PseudoError(f"the records are in several locales ({', '.join(c or 'none' for c in codes)}): build one kit per locale")
    return codes[0]


def sheet(records: Sequence[Record]) -> str:
    """The records as one plain file, each under its header line, separated by a blank line."""
    return "".join(f"{HEADER.format(r.record_id)}\n{r.text.rstrip(chr(10))}\n\n" for r in records)


def read_sheet(text: str) -> dict[str, str]:
    """Record id -> the record's text as `sheet` wrote it, which the key's offsets index."""
    parts = _HEADER.split(text)
    return {parts[i]: parts[i + 1].rstrip("\n") for i in range(1, len(parts) - 1, 2)}


def kit_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def key(records: Sequence[Record], sheet_text: str, seed: int, share: float, locale: str) -> dict:
    return {
        "attack": "leftovers",
        "kit": kit_id(sheet_text),
        "seed": seed,
        "drop": share,
        "locale": locale,
        "caught": sum(r.caught for r in records),
        "standing": sum(len(r.dropped) for r in records),
        "records": {
            r.record_id: {
                "document_id": r.document_id,
                "caught": r.caught,
                "dropped": [{"start": d.start, "end": d.end, "label": d.label, "text": d.text} for d in r.dropped],
            }
            for r in records
        },
    }


def write_kit(
    records: Sequence[Record], out: Path, seed: int, share: float, locale: str, kind_of_text: str | None, force: bool = False
) -> str:
    """sheet.txt, brief.md and key.json (mode 0600), whole or not at all; returns the kit id.
    {DETAILS} names the identifying kinds the program replaced: what a leftover could be."""
    text = sheet(records)
    labels = IDENTIFYING.intersection(d.label for r in records for d in r.dropped).union(*(r.replaced & IDENTIFYING for r in records))
    brief = filled_brief(BRIEF, load_pack(locale), detail_words(labels), kind_of_text)

    def fill(folder: Path) -> None:
        with atomic_writer(folder / "sheet.txt") as handle:
            handle.write(text)
        with atomic_writer(folder / "brief.md") as handle:
            handle.write(brief)
        with atomic_writer(folder / "key.json", mode=0o600) as handle:
            json.dump(key(records, text, seed, share, locale), handle, ensure_ascii=False, indent=1)
            handle.write("\n")

    write_folder(out, force, FILES, fill)
    return kit_id(text)



def read_key(path: str | Path) -> dict[str, Any]:
    """Record id -> {document_id, dropped: [{start, end, label, text}]} from a leftover kit's key.json."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise InputError(f"cannot read the key ({error.strerror})", str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError("not a leftover kit key (written by pseudo judge leftovers build)", str(path)) from None
    records = raw.get("records") if isinstance(raw, dict) and raw.get("attack") == "leftovers" else None
    if not isinstance(records, dict) or not all(
        isinstance(r, dict) and isinstance(r.get("dropped"), list)
        and all(isinstance(d, dict) and isinstance(d.get("text"), str) for d in r["dropped"])
        for r in records.values()
    ):  # fmt: skip
        raise InputError("not a leftover kit key (written by pseudo judge leftovers build)", str(path))
    return records


_PLAIN = regex.compile(r"^\s*(?:record\s+)?([a-z]?\d+)\s*[,;:\t|]?\s*(.*?)\s*$", regex.IGNORECASE)


@dataclass
class Guesses:
    """One reader's file: (record as written, text) per guess, and the lines that name no record."""

    name: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    unreadable: list[int] = field(default_factory=list)  # line numbers of a plain list


def read_guesses(path: str | Path, name: str) -> Guesses:
    """The CSV the brief asks for (columns record_id and text at least), or a plain list: one guess
    a line, the record id, then the text after a comma, colon, tab or space; '#' starts a comment."""
    try:
        content = Path(path).read_text(encoding="utf-8-sig")
    except OSError as error:
        raise InputError(f"cannot read the guesses ({error.strerror})", str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", str(path)) from None
    guesses = Guesses(name)
    reader = csv.DictReader(io.StringIO(content))
    columns = {str(c).strip().casefold(): c for c in reader.fieldnames or ()}
    if "record_id" in columns and "text" in columns:
        for row in reader:
            guesses.rows.append((str(row.get(columns["record_id"]) or "").strip(), str(row.get(columns["text"]) or "")))
        return guesses
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _PLAIN.match(line)
        if match and match.group(2):
            guesses.rows.append((match.group(1), match.group(2)))
        else:
            guesses.unreadable.append(number)
    return guesses


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def matches(answer: str, value: str) -> bool:
    """Case and spacing aside: the same text, or the answer holds the whole value, or both share a
    whole word of the value of at least MIN_WORD characters ('Pérez' finds 'Juan Pérez')."""
    a, v = _norm(answer), _norm(value)
    if not a or not v:
        return False
    if regex.search(rf"(?<!\w){regex.escape(v)}(?!\w)", a):
        return True
    return bool({w for w in _WORD.findall(v) if len(w) >= MIN_WORD} & set(_WORD.findall(a)))


def record_number(record: str) -> int | None:
    """'d03', 'D3', '3' and 'RECORD d03' all name record 3."""
    match = _NUMBER.search(record.strip())
    return int(match.group(1)) if match else None


def score_one(guesses: Guesses, records: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Recall: dropped values found by some answer of their record. Precision: answers (one per
    record and text, case and spacing aside) that find a dropped value of their record."""
    by_number = {record_number(r): r for r in records}
    answers = list(dict.fromkeys((by_number.get(record_number(given)), given, _norm(text)) for given, text in guesses.rows if _norm(text)))
    per_record = {r: {"dropped": len(records[r]["dropped"]), "found": 0, "answers": 0, "right": 0} for r in records}
    found: dict[str, set[int]] = {r: set() for r in records}
    unknown = sorted({given for record, given, _ in answers if record is None})
    for record, _, text in answers:
        if record is None:
            continue
        per_record[record]["answers"] += 1
        hits = {i for i, d in enumerate(records[record]["dropped"]) if matches(text, d["text"])}
        per_record[record]["right"] += bool(hits)
        found[record] |= hits
    for record, hits in found.items():
        per_record[record]["found"] = len(hits)
    dropped = sum(v["dropped"] for v in per_record.values())
    right = sum(v["right"] for v in per_record.values())
    return {
        "recall": proportion(sum(len(h) for h in found.values()), dropped),
        "precision": proportion(right, len(answers)),
        "answers": len(answers),
        "records": per_record,
        "found": {r: sorted(h) for r, h in found.items() if h},  # indexes into the key's dropped list
        "unknown_records": unknown,  # their answers count as wrong
        "unreadable_lines": guesses.unreadable,
    }


def score(key_path: str, guess_paths: Sequence[str]) -> dict[str, Any]:
    """One object per reader, named by file name; with several readers, the dropped values every
    reader found (by record, label and offsets: the report never holds an original's text)."""
    records = read_key(key_path)
    readers = {n: score_one(read_guesses(p, n), records) for p, n in zip(guess_paths, evaluator_names(guess_paths))}
    report: dict[str, Any] = {"readers": readers}
    if len(readers) > 1:
        report["found_by_all"] = [
            {"record_id": r, "label": d["label"], "start": d["start"], "end": d["end"]}
            for r, value in records.items()
            for i, d in enumerate(value["dropped"])
            if all(i in reader["found"].get(r, ()) for reader in readers.values())
        ]
    return report


def text_table(report: Mapping[str, Any]) -> str:
    """Per reader: recall and precision with 95% Wilson intervals, then a row per record."""
    lines = []
    for name, figures in report["readers"].items():
        lines.append(f"{name}: recall {format_proportion(figures['recall'])} (dropped values found); "
                     f"precision {format_proportion(figures['precision'])} (answers that are dropped values)")  # fmt: skip
        rows = [("record", "dropped", "found", "answers", "right")]
        rows += [(r, *(str(v[c]) for c in ("dropped", "found", "answers", "right"))) for r, v in figures["records"].items()]
        totals = [sum(v[c] for v in figures["records"].values()) for c in ("dropped", "found", "answers", "right")]
        totals[2] = figures["answers"]
        rows.append(("all", *map(str, totals)))
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
        if figures["unknown_records"]:
            lines.append(f"  answers naming no record of the kit (counted wrong): {', '.join(figures['unknown_records'])}")
        if figures["unreadable_lines"]:
            lines.append(f"  lines read as no guess: {', '.join(map(str, figures['unreadable_lines']))}")
    if "found_by_all" in report:
        found = ", ".join(f"{f['record_id']} {f['label']} {f['start']}-{f['end']}" for f in report["found_by_all"]) or "none"
        lines.append(f"dropped values every reader found: {found}")
    return "\n".join(lines)
