"""Blind judgment kits (Dalianis 2019, sections 3 and 5): each record shown real or pseudonymised
at random, cut to its densest window of lines, stripped of tags, ordered by PHI density."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import random
import secrets
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Callable, Collection, Iterable, Sequence

from pseudo.errors import PseudoError
from pseudo.evaluation.corpus import Pair, to_output
from pseudo.io.atomic import atomic_writer, swap_folder
from pseudo.labels import CANONICAL_LABELS
from pseudo.lists.pack import LocalePack
from pseudo.model import Document

COLUMNS = ("record_id", "text", "answer", "confidence", "comment", "kit")
ANSWERS = ("real", "pseudo")
FILES = ("judge.html", "sheet.csv", "key.json")


@dataclass(frozen=True)
class Window:
    """Lines first_line..last_line (0-based, inclusive) of the original, as character offsets."""

    first_line: int
    last_line: int
    start: int
    end: int
    spans: int

    @property
    def density(self) -> float:
        """PHI spans per line: windows of the full size compare by span count, short records fairly."""
        return self.spans / (self.last_line - self.first_line + 1)


@dataclass(frozen=True)
class Record:
    record_id: str
    text: str
    condition: str  # "real" or "pseudo"
    document_id: str
    window: Window


def line_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line without its newline; a final newline ends the last line."""
    bounds, start = [], 0
    for index, char in enumerate(text):
        if char == "\n":
            bounds.append((start, index))
            start = index + 1
    if start < len(text) or not bounds:
        bounds.append((start, len(text)))
    return bounds


def densest_window(document: Document, size: int) -> Window:
    """The run of min(size, lines) consecutive lines holding the most spans; the earliest on a tie.

    A span counts on the line where it starts; a span cut by the window's edge is taken whole.
    """
    bounds = line_bounds(document.text)
    per_line = [0] * len(bounds)
    line = 0
    for span in document.spans:
        while line + 1 < len(bounds) and bounds[line + 1][0] <= span.start:
            line += 1
        per_line[line] += 1
    width = min(size, len(bounds))
    count = sum(per_line[:width])
    best_first, best_count = 0, count
    for first in range(1, len(bounds) - width + 1):
        count += per_line[first + width - 1] - per_line[first - 1]
        if count > best_count:
            best_first, best_count = first, count
    last = best_first + width - 1
    start, end = bounds[best_first][0], bounds[last][1]
    for span in document.spans:
        if span.start < start < span.end:
            start = span.start
        if span.start < end < span.end:
            end = span.end
    return Window(best_first, last, start, end, best_count)


def _shown(pair: Pair, window: Window, condition: str) -> str:
    """The window's text of the chosen version, tags gone (the spans are stand-off: only text is kept)."""
    if condition == "real":
        text = pair.original.text[window.start : window.end]
    else:
        text = pair.output.text[to_output(pair, window.start) : to_output(pair, window.end)]
    return text.replace("\r\n", "\n")


def draw_records(pairs: Sequence[Pair], n: int | None, share_pseudo: float, size: int, seed: int, min_spans: int = 1) -> list[Record]:
    """The same pairs, n, share, window, seed and min_spans always give the same kit. Only documents
    with at least `min_spans` tagged spans are drawn: one without any reads the same in both
    versions, so shown "pseudonymised" it measures nothing but the original. Documents of one
    subject (meta.subject: a PhysioNet patient) are shown in one condition, as a user of the output
    sees them: readers set "Dr Jones" in one note against "Dr Vasquez" in a real note of the same stay."""
    if not 0 <= share_pseudo <= 1:
        raise PseudoError("--share-pseudo must be between 0 and 1")
    if size < 1:
        raise PseudoError("--window must be at least 1 line")
    broken = [(p.id, why) for p in pairs if (why := p.alignment.problem)]
    if broken:
        listed = "; ".join(f"{doc}: {why}" for doc, why in broken[:5])
        raise PseudoError(f"{len(broken)} document(s) do not match their original (run pseudo audit): {listed}")
    rng = random.Random(seed)
    chosen = sorted((p for p in pairs if len(p.original.spans) >= min_spans), key=lambda p: p.id)
    if n is not None:
        if not 0 < n <= len(chosen):
            raise PseudoError(f"--n {n}: there are {len(chosen)} paired document(s) with at least {min_spans} tagged span(s)")
        chosen = sorted(rng.sample(chosen, n), key=lambda p: p.id)
    drawn, conditions = [], {}
    for pair in chosen:
        subject = pair.original.meta.get("subject", pair.id)
        if subject not in conditions:  # one condition per patient: no reader sets a real note against a pseudonymised one of the same stay
            conditions[subject] = "pseudo" if rng.random() < share_pseudo else "real"
        condition = conditions[subject]
        window = densest_window(pair.original, size)
        drawn.append((-window.density, rng.random(), pair, condition, window))
    drawn.sort(key=lambda item: item[:2])  # densest first; ties in keyed random order, not by id
    digits = len(str(len(drawn)))
    return [
        Record(f"r{number:0{digits}d}", _shown(pair, window, condition), condition, pair.id, window)
        for number, (_, _, pair, condition, window) in enumerate(drawn, start=1)
    ]


def kit_id(records: Sequence[Record]) -> str:
    """Names the kit in the page's storage and in every answer, so that answers meet only their own
    key. Derived from what evaluators see, never from the key: the page shows it, and a hash of a
    small key (a known seed, a few records) would give the conditions away."""
    digest = hashlib.sha256("\x1f".join(r.record_id + "\x1e" + r.text for r in records).encode("utf-8"))
    return digest.hexdigest()[:12]


def page(records: Sequence[Record]) -> str:
    """judge.html: the template with the records (ids and texts only) in a JSON block."""
    data = {"kit": kit_id(records), "columns": COLUMNS, "records": [{"record_id": r.record_id, "text": r.text} for r in records]}
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    template = resources.files("pseudo.evaluation").joinpath("templates/judge.html").read_text(encoding="utf-8")
    return template.replace("/*KIT*/null", payload)


def key(records: Sequence[Record], seed: int, share_pseudo: float, size: int) -> dict:
    return {
        "kit": kit_id(records),
        "seed": seed,
        "share_pseudo": share_pseudo,
        "window": size,
        "records": {
            r.record_id: {
                "condition": r.condition,
                "document_id": r.document_id,
                "first_line": r.window.first_line + 1,
                "last_line": r.window.last_line + 1,
                "spans": r.window.spans,
                "density": round(r.window.density, 4),
            }
            for r in records
        },
    }


def check_target(out: Path, force: bool, files: Collection[str] = FILES) -> None:
    """A kit lands in an empty or new folder; with --force it replaces an old kit as a whole, but
    never a folder holding anything else (answers saved beside a kit, a mistyped --out)."""
    if out.exists() and not out.is_dir():
        raise PseudoError(f"{out}: exists and is not a folder")
    present = {p.name for p in out.iterdir()} if out.is_dir() else set()
    if present and not force:
        raise PseudoError(f"{out} is not empty: answers may refer to the kit in it; use --force to replace the kit")
    foreign = present - set(files)
    if foreign:
        raise PseudoError(f"{out} holds {len(foreign)} file(s) that are not a kit's: move them first, or choose another --out")


def write_folder(out: Path, force: bool, files: Collection[str], fill: Callable[[Path], None]) -> None:
    """`fill` writes the kit's files in a temporary sibling folder that then takes the place of
    `out`, so a kit is whole or absent, and its sheet never meets another kit's key."""
    check_target(out, force, files)
    out.parent.mkdir(parents=True, exist_ok=True)
    building = out.parent / f".{out.name}.{secrets.token_hex(6)}.tmp"
    building.mkdir()
    try:
        fill(building)
        if out.is_dir() and any(out.iterdir()):
            swap_folder(building, out)
        else:
            os.replace(building, out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise


def write_kit(records: Sequence[Record], out: Path, seed: int, share_pseudo: float, size: int, force: bool = False) -> None:
    """The three files, written whole or not at all (`write_folder`)."""
    write_folder(out, force, FILES, lambda folder: _write_files(records, folder, seed, share_pseudo, size))


def _write_files(records: Sequence[Record], folder: Path, seed: int, share_pseudo: float, size: int) -> None:
    identity = kit_id(records)
    with atomic_writer(folder / "judge.html") as handle:
        handle.write(page(records))
    with atomic_writer(folder / "sheet.csv", newline="") as handle:
        handle.write("\ufeff")  # spreadsheets read UTF-8 only with the mark
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows((r.record_id, r.text, "", "", "", identity) for r in records)
    with atomic_writer(folder / "key.json", mode=0o600) as handle:
        json.dump(key(records, seed, share_pseudo, size), handle, ensure_ascii=False, indent=1)
        handle.write("\n")


SHARED_ENVIRONMENT = "PSEUDO_SHARED"
CHECKOUT = Path(__file__).resolve().parents[2]
PLACEHOLDERS = ("{LANGUAGE}", "{KIND OF TEXT}", "{DETAILS}")
DETAIL_WORDS = {
    "FIRST_NAME": "names", "LAST_NAME": "names", "PERSON": "names", "AGE": "ages", "DATE": "dates",
    "PHONE": "phone numbers", "FAX": "fax numbers", "EMAIL": "e-mail addresses", "URL": "web addresses",
    "IP": "IP addresses", "ID": "identifiers", "ADDRESS": "addresses", "STREET": "streets",
    "POSTCODE": "postcodes", "PLACE": "towns and places", "REGION": "regions", "COUNTRY": "countries",
    "HEALTHCARE_UNIT": "hospitals and care units", "ORGANISATION": "organisations",
    "PROFESSION": "professions", "KINSHIP": "relatives", "SEX": "sex", "OTHER": "other details",
}  # fmt: skip


def brief_template(name: str) -> str:
    """A reader's brief: the shared folder's judging/<name> when there is one ($PSEUDO_SHARED, else
    shared/ beside this checkout), which is the reference; else the copy bundled with the package,
    so that an installed package builds kits too."""
    given = os.environ.get(SHARED_ENVIRONMENT)
    shared = Path(given) if given else (CHECKOUT.parent / "shared" if (CHECKOUT / "pyproject.toml").is_file() else None)
    if shared is not None and (shared / "judging" / name).is_file():
        return (shared / "judging" / name).read_text(encoding="utf-8")
    return resources.files("pseudo.evaluation").joinpath(f"briefs/{name}").read_text(encoding="utf-8")


def detail_words(labels: Iterable[str]) -> str:
    """What the annotators tagged, in words, for {DETAILS}: 'names, dates and phone numbers'."""
    present = set(labels)
    words = list(dict.fromkeys(DETAIL_WORDS[label] for label in CANONICAL_LABELS if label in present))
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def filled_brief(name: str, pack: LocalePack, details: str, kind_of_text: str | None = None) -> str:
    """The brief with its placeholders filled in for the pack's locale and nothing else changed:
    the language and country come from the pack's name ('Spanish (Spain)')."""
    language, _, country = str(pack.manifest.get("name") or pack.code).partition(" (")
    country = country.rstrip(")")
    kind = kind_of_text or (f"clinical records from {country}" if country else "clinical records")
    text = brief_template(name)
    for placeholder, value in zip(PLACEHOLDERS, (language, kind, details)):
        text = text.replace(placeholder, value)
    return text
