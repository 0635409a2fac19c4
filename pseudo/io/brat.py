"""BRAT standoff: a folder of X.txt + X.ann pairs, written back as a folder of the same names.

Offsets count code points of the .txt exactly as brat reads it: every character, the CR of a CRLF
line end and a leading byte-order mark included, so the text is decoded as UTF-8 without dropping
either. Text-bound annotations (T lines) become spans, a discontinuous one (`0 5;9 14`) a span per
fragment. Relations, events, attributes and equivalences name only annotation ids, which are kept,
so they pass through unchanged. Notes (#) and normalisations (N) carry free text that may repeat
what the spans hide, so a file holding them is rejected rather than copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Mapping, Sequence

import regex

from pseudo.errors import InputError
from pseudo.io.atomic import atomic_writer
from pseudo.model import Document, Span

PASSED_THROUGH = ("R", "E", "A", "M", "*")  # ids and labels only
FREE_TEXT = {"#": "an annotator note (#)", "N": "a normalisation (N)"}
_OFFSETS = regex.compile(r"\d+ \d+(?:;\d+ \d+)*")
_SPACED = regex.compile(r"(?P<id>T\S*) (?P<label>\S+) (?P<offsets>\d+ \d+(?:;\d+ \d+)*)(?: (?P<text>.*))?")


@dataclass
class Layout:
    """How one .ann was written, so the output keeps its shape: line order, separators, line ends."""

    path: PurePosixPath  # relative to the input folder, without suffix
    lines: list[str | tuple[str, str]]  # a passed-through line, or ("T", id) for a text-bound annotation
    spaced: bool  # fields separated by single spaces instead of tabs
    newline: str
    final_newline: bool


def _fragments(offsets: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (part.split(" ") for part in offsets.split(";"))]


def _parse_ann(
    data: str, text: str, doc_id: str, source: str, path: PurePosixPath
) -> tuple[list[Span], Layout]:
    newline = "\r\n" if "\r\n" in data else "\n"
    final_newline = data.endswith("\n")
    rows = data.split("\n")
    if final_newline:
        rows.pop()
    spans: list[Span] = []
    lines: list[str | tuple[str, str]] = []
    spaced = False
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        row = row[:-1] if row.endswith("\r") else row
        kind = row[:1]
        if not row.strip():
            lines.append(row)
            continue
        if kind in FREE_TEXT:
            raise InputError(
                f"line {number}: {FREE_TEXT[kind]} may repeat the text the spans hide; remove such lines first",
                source,
                doc_id,
            )
        if kind in PASSED_THROUGH:
            lines.append(row)
            continue
        if kind != "T":
            raise InputError(f"line {number}: not a brat annotation line", source, doc_id)
        if "\t" in row:
            fields = row.split("\t", 2)
            head = fields[1].split(" ", 1) if len(fields) > 1 else []
            if len(fields) < 3 or len(head) < 2 or not _OFFSETS.fullmatch(head[1]):
                raise InputError(f"line {number}: expected 'T<n><TAB>LABEL START END<TAB>text'", source, doc_id)
            tid, label, offsets, given = fields[0], head[0], head[1], fields[2]
        else:
            match = _SPACED.fullmatch(row)
            if match is None:
                raise InputError(f"line {number}: expected 'T<n> LABEL START END text'", source, doc_id)
            spaced = True
            tid, label, offsets, given = match["id"], match["label"], match["offsets"], match["text"] or ""
        if tid in seen:
            raise InputError(f"line {number}: annotation id {tid} is used twice", source, doc_id)
        seen.add(tid)
        fragments = _fragments(offsets)
        for start, end in fragments:
            if not 0 <= start < end <= len(text):
                raise InputError(f"line {number}: {tid} span {start}-{end} is outside the text or empty", source, doc_id)
        if " ".join(text[s:e] for s, e in fragments) != given:
            where = ";".join(f"{s}-{e}" for s, e in fragments)
            raise InputError(f"line {number}: {tid} text does not match the .txt at {where}", source, doc_id)
        for index, (start, end) in enumerate(fragments):
            attrs = {"id": tid, "fragment": index} if len(fragments) > 1 else {"id": tid}
            spans.append(Span(start, end, label, attrs))
        lines.append(("T", tid))
    return spans, Layout(path, lines, spaced, newline, final_newline)


def _decode(data: bytes, source: str, doc_id: str) -> str:
    try:
        return data.decode("utf-8")  # not utf-8-sig: brat counts a byte-order mark as a character
    except UnicodeDecodeError as error:
        raise InputError(f"not valid UTF-8 (byte {error.start})", source, doc_id) from None


def _read_bytes(path: Path, doc_id: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read ({error.strerror})", str(path), doc_id) from None


def read(source: str) -> tuple[list[Document], list[InputError], dict[str, Layout]]:
    """Every X.txt under the folder with its X.ann (none: no annotations), sorted by path."""
    root = Path(source)
    if not root.is_dir():
        raise InputError("the brat format reads a folder of .txt and .ann files", source)
    documents: list[Document] = []
    errors: list[InputError] = []
    layouts: dict[str, Layout] = {}
    texts = {p.relative_to(root).with_suffix("") for p in root.rglob("*.txt") if p.is_file()}
    anns = {p.relative_to(root).with_suffix("") for p in root.rglob("*.ann") if p.is_file()}
    for orphan in sorted(anns - texts):
        errors.append(InputError("an .ann file without its .txt", f"{root / orphan}.ann", orphan.as_posix()))
    for relative in sorted(texts):
        doc_id = relative.as_posix()
        txt_path, ann_path = root / f"{relative}.txt", root / f"{relative}.ann"
        try:
            text = _decode(_read_bytes(txt_path, doc_id), str(txt_path), doc_id)
            ann = _decode(_read_bytes(ann_path, doc_id), str(ann_path), doc_id) if relative in anns else ""
            spans, layout = _parse_ann(ann.removeprefix("\ufeff"), text, doc_id, str(ann_path), PurePosixPath(doc_id))
            document = Document(doc_id, text, tuple(spans)).validated(str(ann_path))
        except InputError as error:
            errors.append(error)
            continue
        documents.append(document)
        layouts[doc_id] = layout
    return documents, errors, layouts


def _ann_text(document: Document, layout: Layout) -> str:
    by_id: dict[str, list[Span]] = {}
    new: list[Span] = []
    for span in document.spans:
        tid = span.attrs.get("id")
        (by_id.setdefault(tid, []) if isinstance(tid, str) else new).append(span)
    numbers = [int(t[1:]) for t in by_id if t[1:].isdigit()]
    next_number = max(numbers, default=0) + 1
    out: list[str] = []

    def line(tid: str, fragments: list[Span]) -> str:
        fragments = sorted(fragments, key=lambda s: s.attrs.get("fragment", 0))
        surface = " ".join(document.text[s.start : s.end] for s in fragments)
        if "\n" in surface or "\r" in surface:
            raise InputError(f"{tid}: a line break inside a span cannot be written in brat", document_id=document.id)
        offsets = ";".join(f"{s.start} {s.end}" for s in fragments)
        label = fragments[0].label
        return f"{tid} {label} {offsets} {surface}" if layout.spaced else f"{tid}\t{label} {offsets}\t{surface}"

    for entry in layout.lines:
        if isinstance(entry, tuple):
            out.append(line(entry[1], by_id.pop(entry[1])))
        else:
            out.append(entry)
    for span in new:  # spans the engine added (--propagate) get fresh ids after the others
        out.append(line(f"T{next_number}", [span]))
        next_number += 1
    body = layout.newline.join(out)
    return body + layout.newline if out and (layout.final_newline or new) else body


def _inside(folder: Path, relative: PurePosixPath, doc_id: str) -> Path:
    """The output path of a document: under the output folder, whatever its name says."""
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise InputError("its name would leave the output folder", document_id=doc_id)
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise InputError("its output path leaves the output folder (a symbolic link?)", document_id=doc_id)
    return target


def write(documents: Sequence[Document], destination: str, layouts: Mapping[str, Layout], origin: str) -> None:
    """All files are checked and composed before the first is written."""
    folder = Path(destination)
    if destination == "-" or (folder.exists() and not folder.is_dir()):
        raise InputError("brat output needs a folder (--out FOLDER)", destination)
    if folder.resolve() == Path(origin).resolve():
        raise InputError("the output folder is the input folder; choose another --out", destination)
    planned = []
    for document in documents:
        layout = layouts[document.id]
        target = _inside(folder, layout.path, document.id)
        planned.append((target, document.text, _ann_text(document, layout)))
    for target, text, ann in planned:
        with atomic_writer(target.with_name(target.name + ".txt"), newline="") as handle:
            handle.write(text)
        with atomic_writer(target.with_name(target.name + ".ann"), newline="") as handle:
            handle.write(ann)
