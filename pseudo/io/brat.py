"""BRAT standoff: a folder of X.txt + X.ann pairs, written back as a folder of the same names.

Offsets count code points of the .txt exactly as brat reads it: every character, the CR of a CRLF
line end and a leading byte-order mark included, so the text is decoded as UTF-8 without dropping
either. Text-bound annotations (T lines) become spans, a discontinuous one (`0 5;9 14`) a span per
fragment. Relations, events, attributes and equivalences name only annotation ids, which are kept,
so they pass through unchanged. Notes (#) and normalisations (N) carry free text that may repeat
what the spans hide, so a file holding them is rejected rather than copied. Each .ann line keeps
its own separator (tab or space) and line end; brat's configuration files are copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Mapping, Sequence

import regex

from pseudo.errors import InputError
from pseudo.io.atomic import atomic_folder, check_folder
from pseudo.io.source import BOM, STDIO, decode, read_bytes
from pseudo.model import Document, Span

PASSED_THROUGH = ("R", "E", "A", "M", "*")  # ids and labels only
FREE_TEXT = {"#": "an annotator note (#)", "N": "a normalisation (N)"}
CONFIGURATION = ("annotation.conf", "visual.conf", "tools.conf", "kb_shortcuts.conf")  # copied as they are
_OFFSETS = regex.compile(r"\d+ \d+(?:;\d+ \d+)*")
_SPACED = regex.compile(r"(?P<id>T\S*) (?P<label>\S+) (?P<offsets>\d+ \d+(?:;\d+ \d+)*)(?: (?P<text>.*))?")


@dataclass
class Line:
    """One line of an .ann: passed through as it was, or a text-bound annotation rebuilt from its spans."""

    text: str  # the line without its line end (for a T line: as read, unused on output)
    end: str  # its own line end: "\r\n", "\n", or "" for a last line without one
    tid: str | None = None  # a T line's id
    spaced: bool = False  # a T line's fields separated by single spaces instead of tabs


@dataclass
class Layout:
    """How one .ann was written, so the output keeps its shape: line order, separators, line ends."""

    path: PurePosixPath  # relative to the input folder, without suffix
    lines: list[Line]
    bom: bool = False


@dataclass
class Collection:
    """What a brat folder holds besides its documents."""

    configuration: dict[PurePosixPath, bytes] = field(default_factory=dict)  # brat's .conf files, copied
    ignored: list[str] = field(default_factory=list)  # other files, neither read nor copied (relative names)


def _fragments(offsets: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (part.split(" ") for part in offsets.split(";"))]


def _parse_ann(
    data: str, text: str, doc_id: str, source: str, path: PurePosixPath
) -> tuple[list[Span], Layout]:
    layout = Layout(path, [], data.startswith(BOM))
    rows = data.removeprefix(BOM).split("\n")
    spans: list[Span] = []
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        last = number == len(rows)
        if last and not row:
            break  # the file ended with a line end
        end = "" if last else "\r\n" if row.endswith("\r") else "\n"
        row = row.removesuffix("\r") if end else row
        kind = row[:1]
        if not row.strip() or kind in PASSED_THROUGH:
            layout.lines.append(Line(row, end))
            continue
        if kind in FREE_TEXT:
            raise InputError(
                f"line {number}: {FREE_TEXT[kind]} may repeat the text the spans hide; remove such lines first",
                source,
                doc_id,
            )
        if kind != "T":
            raise InputError(f"line {number}: not a brat annotation line", source, doc_id)
        spaced = "\t" not in row
        if not spaced:
            fields = row.split("\t", 2)
            head = fields[1].split(" ", 1) if len(fields) > 1 else []
            if len(fields) < 3 or len(head) < 2 or not _OFFSETS.fullmatch(head[1]):
                raise InputError(f"line {number}: expected 'T<n><TAB>LABEL START END<TAB>text'", source, doc_id)
            tid, label, offsets, given = fields[0], head[0], head[1], fields[2]
        else:
            match = _SPACED.fullmatch(row)
            if match is None:
                raise InputError(f"line {number}: expected 'T<n> LABEL START END text'", source, doc_id)
            tid, label, offsets, given = match["id"], match["label"], match["offsets"], match["text"] or ""
        if tid in seen:
            raise InputError(f"line {number}: annotation id {tid} is used twice", source, doc_id)
        seen.add(tid)
        fragments = _fragments(offsets)
        for start, stop in fragments:
            if not 0 <= start < stop <= len(text):
                raise InputError(f"line {number}: {tid} span {start}-{stop} is outside the text or empty", source, doc_id)
        if " ".join(text[s:e] for s, e in fragments) != given:
            where = ";".join(f"{s}-{e}" for s, e in fragments)
            raise InputError(f"line {number}: {tid} text does not match the .txt at {where}", source, doc_id)
        for index, (start, stop) in enumerate(fragments):
            attrs = {"id": tid, "fragment": index} if len(fragments) > 1 else {"id": tid}
            spans.append(Span(start, stop, label, attrs))
        layout.lines.append(Line(row, end, tid, spaced))
    return spans, layout


@dataclass
class Listing:
    """A brat folder's files, sorted by path, before any document is read."""

    root: Path
    texts: list[PurePosixPath]  # relative, without suffix
    annotated: set[PurePosixPath]  # the texts with an .ann beside them
    orphans: list[PurePosixPath]  # .ann files without their .txt
    collection: Collection


def listing(source: str) -> Listing:
    """Every X.txt under the folder and whether its X.ann is there; brat's configuration files are
    kept to be copied, any other file is listed as ignored."""
    root = Path(source)
    if not root.is_dir():
        raise InputError("the brat format reads a folder of .txt and .ann files", source)
    collection = Collection()
    texts, anns = set(), set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = PurePosixPath(path.relative_to(root).as_posix())
        if path.suffix in (".txt", ".ann"):
            (texts if path.suffix == ".txt" else anns).add(relative.with_suffix(""))
        elif path.name in CONFIGURATION:
            collection.configuration[relative] = read_bytes(path)
        else:
            collection.ignored.append(str(relative))
    return Listing(root, sorted(texts), anns & texts, sorted(anns - texts), collection)


def orphan_error(listing: Listing, orphan: PurePosixPath) -> InputError:
    return InputError("an .ann file without its .txt", f"{listing.root / orphan}.ann", orphan.as_posix())


def read_document(listing: Listing, relative: PurePosixPath) -> tuple[Document, Layout]:
    """One X.txt with its X.ann (none: no annotations)."""
    doc_id = relative.as_posix()
    txt_path, ann_path = listing.root / f"{relative}.txt", listing.root / f"{relative}.ann"
    # brat counts a byte-order mark of the .txt as character 0: it stays in the text
    text = decode(read_bytes(txt_path, doc_id), txt_path, doc_id)
    ann = decode(read_bytes(ann_path, doc_id), ann_path, doc_id) if relative in listing.annotated else ""
    spans, layout = _parse_ann(ann, text, doc_id, str(ann_path), relative)
    return Document(doc_id, text, tuple(spans)).validated(str(ann_path)), layout


def read(source: str) -> tuple[list[Document], list[InputError], dict[str, Layout], Collection]:
    """The folder's documents sorted by path, those that cannot be read as errors (orphan .ann
    files first)."""
    found = listing(source)
    documents: list[Document] = []
    errors = [orphan_error(found, orphan) for orphan in found.orphans]
    layouts: dict[str, Layout] = {}
    for relative in found.texts:
        try:
            document, layout = read_document(found, relative)
        except InputError as error:
            errors.append(error)
            continue
        documents.append(document)
        layouts[document.id] = layout
    return documents, errors, layouts, found.collection


def _ann_text(document: Document, layout: Layout) -> str:
    by_id: dict[str, list[Span]] = {}
    new: list[Span] = []
    for span in document.spans:
        tid = span.attrs.get("id")
        (by_id.setdefault(tid, []) if isinstance(tid, str) else new).append(span)
    numbers = [int(t[1:]) for t in by_id if t[1:].isdigit()]
    next_number = max(numbers, default=0) + 1

    def annotation(tid: str, fragments: list[Span], spaced: bool) -> str:
        fragments = sorted(fragments, key=lambda s: s.attrs.get("fragment", 0))
        surface = " ".join(document.text[s.start : s.end] for s in fragments)
        if "\n" in surface or "\r" in surface:
            raise InputError(f"{tid}: a line break inside a span cannot be written in brat", document_id=document.id)
        offsets = ";".join(f"{s.start} {s.end}" for s in fragments)
        label = fragments[0].label
        return f"{tid} {label} {offsets} {surface}" if spaced else f"{tid}\t{label} {offsets}\t{surface}"

    out = [[entry.text if entry.tid is None else annotation(entry.tid, by_id.pop(entry.tid), entry.spaced), entry.end] for entry in layout.lines]
    if new:  # spans the engine added (--propagate) get fresh ids after the others, in the file's style
        spaced = next((entry.spaced for entry in reversed(layout.lines) if entry.tid), False)
        end = next((entry.end for entry in reversed(layout.lines) if entry.end), "\n")
        if out and not out[-1][1]:
            out[-1][1] = end
        for span in new:
            out.append([annotation(f"T{next_number}", [span], spaced), end])
            next_number += 1
    return (BOM if layout.bom else "") + "".join(text + end for text, end in out)


def _inside(folder: Path, relative: PurePosixPath, doc_id: str) -> Path:
    """The output path of a document: under the output folder, whatever its name says."""
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise InputError("its name would leave the output folder", document_id=doc_id)
    return folder.joinpath(*relative.parts)


def check_destination(destination: str, origin: str) -> None:
    """A new or empty folder, apart from the input: never inside it, never holding it."""
    if destination == STDIO:
        raise InputError("brat output needs a folder (--out FOLDER)", destination)
    folder = Path(destination).resolve()
    if origin:
        source = Path(origin).resolve()
        for clash, what in ((folder == source, "is"), (folder.is_relative_to(source), "lies inside"), (source.is_relative_to(folder), "holds")):
            if clash:
                raise InputError(f"the output folder {what} the input folder; choose another --out", destination)
    check_folder(Path(destination))


def _write_file(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", newline="")


def write(
    documents: Sequence[Document], destination: str, layouts: Mapping[str, Layout], origin: str, collection: Collection | None
) -> None:
    """All files are composed before the first is written, into a temporary folder that becomes
    the output folder only when every file is in it."""
    check_destination(destination, origin)
    planned = [(document.id, layouts[document.id].path, document.text, _ann_text(document, layouts[document.id])) for document in documents]
    with atomic_folder(destination) as folder:
        write_configuration(folder, collection)
        for doc_id, relative, text, ann in planned:
            _write_pair(folder, doc_id, relative, text, ann)


def write_configuration(folder: Path, collection: Collection | None) -> None:
    for relative, data in (collection.configuration.items() if collection else ()):
        _write_file(_inside(folder, relative, str(relative)), data)


def write_document(folder: Path, document: Document, layout: Layout) -> None:
    """One document's .txt and .ann, as `write` writes them: for output written as it comes."""
    _write_pair(folder, document.id, layout.path, document.text, _ann_text(document, layout))


def _write_pair(folder: Path, doc_id: str, relative: PurePosixPath, text: str, ann: str) -> None:
    target = _inside(folder, relative, doc_id)
    _write_file(target.with_name(target.name + ".txt"), text)
    _write_file(target.with_name(target.name + ".ann"), ann)
