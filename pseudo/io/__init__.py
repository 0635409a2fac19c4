"""Input and output formats, found by name or by the input's extension."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Sequence

from pseudo.errors import InputError, PseudoError
from pseudo.io import brat, conll, i2b2, inline, mimic, native, physionet, presidio
from pseudo.io.atomic import atomic_writer, transaction, write_stdout
from pseudo.io.source import STDIO, decode, read_bytes
from pseudo.io.streams import BratInput, BratOutput, Input, JsonlInput, JsonlOutput, Output, spool_stdin, spooled_jsonl
from pseudo.model import Document

__all__ = [
    "Batch", "FORMATS", "STDIO", "check_output", "detect_format", "read_input", "spooled_stdin", "streams", "transaction",
    "write_output",
]  # fmt: skip


@dataclass
class Batch:
    """What was read: the documents, the ones that failed to parse, and how to write them back."""

    format: str
    documents: list[Document] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    single: bool = False  # one document, written back as one (a .json object, an XML file): none, no file
    origin: str = ""  # where it was read from: a folder format never writes over it
    layouts: dict[str, Any] = field(default_factory=dict)  # per document id: what its writer must restore
    layout: Any = None  # per input: what the writer of the whole file or folder must restore
    ignored: list[str] = field(default_factory=list)  # files of an input folder neither read nor copied


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]
    read: Callable[[str], Batch]
    write: Callable[[Sequence[Document], str, Batch], None]
    directory: bool = False  # reads and writes a folder of files


def _split(items: Iterable[Document | InputError], batch: Batch) -> Batch:
    for item in items:
        (batch.errors if isinstance(item, InputError) else batch.documents).append(item)
    return batch


_BLANK = b"\xef\xbb\xbf \t\r\n"


def _read_json(source: str, data: bytes | None = None) -> Batch:
    data = read_bytes(source) if data is None else data
    batch = _split(native.read_json(data, source), Batch("json"))
    batch.single = data.lstrip(_BLANK).startswith(b"{")
    return batch


def _read_jsonl(source: str, data: bytes | None = None) -> Batch:
    return _split(native.read_jsonl(read_bytes(source) if data is None else data, source), Batch("jsonl"))


def _read_stdin(data: bytes | None = None) -> Batch:
    """JSON or JSON Lines, told apart by content. A list, or any input that parses as one value, is
    JSON, except one object on one line, which is both and is written back on one line; several
    lines that each start with "{" are JSON Lines; anything else is reported as broken JSON."""
    data = read_bytes(STDIO) if data is None else data
    stripped = data.lstrip(_BLANK).rstrip()
    if stripped.startswith(b"["):
        return _read_json(STDIO, data)
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):  # read again below, to be reported as broken JSON
        lines = [line.lstrip() for line in stripped.split(b"\n") if line.strip()]
        if len(lines) > 1 and all(line.startswith(b"{") for line in lines):
            return _read_jsonl(STDIO, data)
        return _read_json(STDIO, data)
    if isinstance(value, dict) and b"\n" not in stripped:
        batch = _read_jsonl(STDIO, data)
        batch.single = True
        return batch
    return _read_json(STDIO, data)


def _read_inline(source: str) -> Batch:
    document, layout = inline.read(decode(read_bytes(source), source), source)
    return Batch("inline", [document], single=True, layouts={document.id: layout})


def _read_conll(source: str) -> Batch:
    documents, layout = conll.read(decode(read_bytes(source), source), source)
    return Batch("conll", documents, layout=layout)


def _write_text(destination: str, write: Callable) -> None:
    if destination == STDIO:
        buffer = io.StringIO()
        write(buffer)
        write_stdout(buffer.getvalue())
        return
    with atomic_writer(destination, newline="") as handle:
        write(handle)


def _write_json(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: native.write_json(documents, handle, batch.single))


def _write_jsonl(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: native.write_jsonl(documents, handle))


def _write_inline(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: inline.write(documents, handle, batch.layouts))


def _write_conll(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: conll.write(documents, handle, batch.layout))


def _read_brat(source: str) -> Batch:
    documents, errors, layouts, collection = brat.read(source)
    return Batch("brat", documents, errors, origin=source, layouts=layouts, layout=collection, ignored=collection.ignored)


def _write_brat(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    brat.write(documents, destination, batch.layouts, batch.origin, batch.layout)


def _read_i2b2(source: str) -> Batch:
    doc_id = "stdin" if source == STDIO else Path(source).stem
    batch = Batch("i2b2", origin=source, single=True)
    try:
        document, layout = i2b2.read(read_bytes(source), source, doc_id)
    except InputError as error:
        batch.errors.append(error)
        return batch
    batch.documents.append(document)
    batch.layouts[doc_id] = layout
    return batch


def _write_i2b2(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    """An XML file holds one document: several cannot be written to one destination."""
    if len(documents) != 1:
        raise PseudoError(f"{destination}: i2b2 XML holds one document per file, not {len(documents)}")
    (document,) = documents
    _write_text(destination, lambda handle: i2b2.write(document, handle, batch.layouts.get(document.id)))


def _read_physionet(source: str) -> Batch:
    """id.text with id-phi.phrase beside it; a record that breaks is reported, the others read."""
    if source == STDIO:
        raise InputError("the PhysioNet layout is two files (id.text and id-phi.phrase): give the .text file", source)
    phrases = physionet.phrase_path(source)
    if not phrases.is_file():
        raise InputError(f"no {phrases.name} beside it", source)
    documents, errors, layout = physionet.read(decode(read_bytes(source), source), decode(read_bytes(str(phrases)), str(phrases)), source)
    return Batch("physionet", documents, errors, origin=source, layout=layout)


def _write_physionet(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    """The records to the destination and their spans to <stem>-phi.phrase beside it."""
    if destination == STDIO:
        raise PseudoError("the PhysioNet layout is two files: give --out a .text file")
    with atomic_writer(destination, newline="") as text, atomic_writer(str(physionet.phrase_path(destination)), newline="") as phrases:
        physionet.write(documents, text, phrases, batch.layout)


def _read_mimic(source: str) -> Batch:
    doc_id = "stdin" if source == STDIO else Path(source).name.split(".")[0]
    document, layout = mimic.read(decode(read_bytes(source), source), source, doc_id)
    return Batch("mimic", [document], single=True, layouts={document.id: layout})


def _write_mimic(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: mimic.write(documents, handle))


def _read_presidio(source: str) -> Batch:
    documents, errors, layouts = presidio.read(decode(read_bytes(source), source), source)
    return Batch("presidio", documents, errors, layouts=layouts)


def _write_presidio(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: presidio.write(documents, handle, batch.layouts))


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", (".json",), _read_json, _write_json),
        Format("jsonl", (".jsonl", ".ndjson"), _read_jsonl, _write_jsonl),
        Format("inline", (".inline.txt", ".tagged"), _read_inline, _write_inline),
        Format("conll", (".conll", ".bio", ".bioes"), _read_conll, _write_conll),
        Format("brat", (".ann", ".txt"), _read_brat, _write_brat, directory=True),
        Format("i2b2", (".xml",), _read_i2b2, _write_i2b2),
        Format("physionet", (".text",), _read_physionet, _write_physionet),
        Format("mimic", (".mimic.txt",), _read_mimic, _write_mimic),
        Format("presidio", (), _read_presidio, _write_presidio),  # a .json file: named with --format presidio
    )
}


NATIVE = ("json", "jsonl")


def _holds(folder: Path, extension: str) -> bool:
    return next((p for p in folder.rglob(f"*{extension}") if p.is_file()), None) is not None


def detect_format(source: str) -> str:
    """The format named by the extension; a folder needs more evidence."""
    path = Path(source)
    if not path.exists():
        raise InputError("no such file or folder", source)
    if path.is_dir():
        folder_formats = [f for f in FORMATS.values() if f.directory]
        readers = ", ".join(f"{f.name} ({' '.join(f.extensions)})" for f in folder_formats)
        files = sorted({ext for f in FORMATS.values() if not f.directory for ext in f.extensions if _holds(path, ext)})
        # .inline.txt files would pass for brat texts without annotations, their tags for text
        clash = [ext for ext in files for f in folder_formats if ext.endswith(f.extensions)]
        for fmt in folder_formats:
            if not clash and any(_holds(path, ext) for ext in fmt.extensions):
                return fmt.name
        if files:
            raise InputError(f"a folder of {', '.join(files)} files: only {readers} reads a folder; give such files one per run", source)
        raise InputError(f"no file in this folder that a folder format reads: {readers}", source)
    for fmt in FORMATS.values():
        if not fmt.directory and path.name.lower().endswith(fmt.extensions):
            return fmt.name
    known = ", ".join(ext for f in FORMATS.values() for ext in f.extensions)
    raise InputError(f"unknown extension (known: {known}); choose one with --format", source)


def read_input(source: str, fmt: str = "auto", spool: BinaryIO | None = None) -> Batch:
    """The whole input; stdin's bytes from `spool` when `spooled_stdin` copied them aside."""
    data = None
    if spool is not None:
        spool.seek(0)
        data = spool.read()
    if source == STDIO and fmt == "auto":
        return _read_stdin(data)
    name = detect_format(source) if fmt == "auto" else fmt
    if name not in FORMATS:
        raise InputError(f"unknown format {name!r} (known: {', '.join(FORMATS)})", source)
    if data is not None and name == "jsonl":
        return _read_jsonl(source, data)
    return FORMATS[name].read(source)


def _output_format(destination: str, batch: Batch) -> str:
    """The input's format; native input may be written as the other native format by naming the
    output file .json or .jsonl."""
    name = batch.format
    if name in NATIVE and destination != STDIO:
        name = next((n for n in NATIVE if destination.lower().endswith(FORMATS[n].extensions)), name)
    return name


def check_output(destination: str, batch: Batch) -> None:
    """Refuse an output the writer would refuse, before any work is done (a folder format's --out)."""
    if FORMATS[_output_format(destination, batch)].directory:
        brat.check_destination(destination, batch.origin)


def write_output(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    """In the input's format (see _output_format). An input of one document whose document failed
    writes nothing: an empty list or file in its place would pass for a result."""
    if batch.single and not documents:
        return
    FORMATS[_output_format(destination, batch)].write(documents, destination, batch)


def spooled_stdin(source: str, fmt: str, destination: str) -> BinaryIO | None:
    """stdin copied into an unnamed temporary file when it may be JSON Lines written as JSON
    Lines, to be streamed (see `streams`); else None, and stdin is read whole."""
    if source != STDIO or fmt not in ("auto", "jsonl") or _output_format(destination, Batch("jsonl")) != "jsonl":
        return None
    return spool_stdin()


def streams(source: str, fmt: str, destination: str, spool: BinaryIO | None = None) -> tuple[Input, Output] | None:
    """The input read and the output written document by document, where the formats allow it:
    JSON Lines (a file, or stdin's `spool`) into JSON Lines (a file or stdout), a brat folder
    into a brat folder. None: the input is read whole, as the other formats are."""
    if source == STDIO:
        if spool is None or not (fmt == "jsonl" or spooled_jsonl(spool)):
            return None
        return JsonlInput(source, spool), JsonlOutput(destination)
    try:
        name = detect_format(source) if fmt == "auto" else fmt
    except InputError:
        return None
    if name == "jsonl" and Path(source).is_file() and _output_format(destination, Batch("jsonl")) == "jsonl":
        return JsonlInput(source), JsonlOutput(destination)
    if name == "brat" and Path(source).is_dir() and destination != STDIO:
        found = BratInput(source)
        return found, BratOutput(destination, found)
    return None
