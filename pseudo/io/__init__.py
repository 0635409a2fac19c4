"""Input and output formats, found by name or by the input's extension."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pseudo.errors import InputError
from pseudo.io import brat, i2b2, native
from pseudo.io.atomic import atomic_writer
from pseudo.model import Document

STDIO = "-"


@dataclass
class Batch:
    """What was read: the documents, the ones that failed to parse, and how to write them back."""

    format: str
    documents: list[Document] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    single: bool = False  # a .json input holding one object is written back as one object
    origin: str = ""  # where it was read from: a folder format never writes over it
    layouts: dict[str, Any] = field(default_factory=dict)  # per document id: what its writer must restore


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]
    read: Callable[[str], Batch]
    write: Callable[[Sequence[Document], str, Batch], None]
    directory: bool = False  # reads and writes a folder of files


def _read_bytes(source: str) -> bytes:
    if source == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except IsADirectoryError:
        raise InputError("is a folder; this format reads one file", source) from None
    except OSError as error:
        raise InputError(f"cannot read ({error.strerror})", source) from None


def _split(items: Iterable[Document | InputError], batch: Batch) -> Batch:
    for item in items:
        (batch.errors if isinstance(item, InputError) else batch.documents).append(item)
    return batch


def _read_json(source: str) -> Batch:
    data = _read_bytes(source)
    batch = _split(native.read_json(data, source), Batch("json"))
    batch.single = data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    return batch


def _read_jsonl(source: str) -> Batch:
    return _split(native.read_jsonl(_read_bytes(source), source), Batch("jsonl"))


def _write_text(destination: str, write: Callable) -> None:
    if destination == STDIO:
        write(sys.stdout)
        sys.stdout.flush()
        return
    with atomic_writer(destination) as handle:
        write(handle)


def _write_json(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: native.write_json(documents, handle, batch.single))


def _write_jsonl(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: native.write_jsonl(documents, handle))


def _read_brat(source: str) -> Batch:
    documents, errors, layouts = brat.read(source)
    return Batch("brat", documents, errors, origin=source, layouts=layouts)


def _write_brat(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    brat.write(documents, destination, batch.layouts, batch.origin)


def _read_i2b2(source: str) -> Batch:
    doc_id = "stdin" if source == STDIO else Path(source).stem
    batch = Batch("i2b2", origin=source)
    try:
        document, layout = i2b2.read(_read_bytes(source), source, doc_id)
    except InputError as error:
        batch.errors.append(error)
        return batch
    batch.documents.append(document)
    batch.layouts[doc_id] = layout
    return batch


def _write_i2b2(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    """One document per file; a file whose document failed under --on-error skip is not written."""
    for document in documents:
        _write_text(destination, lambda handle: i2b2.write(document, handle, batch.layouts.get(document.id)))


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", (".json",), _read_json, _write_json),
        Format("jsonl", (".jsonl", ".ndjson"), _read_jsonl, _write_jsonl),
        Format("brat", (".ann", ".txt"), _read_brat, _write_brat, directory=True),
        Format("i2b2", (".xml",), _read_i2b2, _write_i2b2),
    )
}


def detect_format(source: str) -> str:
    """The format named by the extension; a folder or stdin needs more evidence."""
    if source == STDIO:
        return "json"
    path = Path(source)
    if path.is_dir():
        for fmt in FORMATS.values():
            if fmt.directory and any(path.rglob(f"*{ext}") for ext in fmt.extensions):
                return fmt.name
        raise InputError("a folder with no file of a known folder format (use --format)", source)
    for fmt in FORMATS.values():
        if not fmt.directory and path.name.lower().endswith(fmt.extensions):
            return fmt.name
    known = ", ".join(ext for f in FORMATS.values() for ext in f.extensions)
    raise InputError(f"unknown extension (known: {known}); choose one with --format", source)


def read_input(source: str, fmt: str = "auto") -> Batch:
    name = detect_format(source) if fmt == "auto" else fmt
    if name not in FORMATS:
        raise InputError(f"unknown format {name!r} (known: {', '.join(FORMATS)})", source)
    return FORMATS[name].read(source)


def write_output(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    FORMATS[batch.format].write(documents, destination, batch)
