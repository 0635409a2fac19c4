"""Input and output formats, found by name or by the input's extension."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pseudo.errors import InputError
from pseudo.io import brat, conll, i2b2, inline, native
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
    scheme: str = "BIO"  # conll: the tagging scheme read, written back the same
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


def _read_json(source: str, data: bytes | None = None) -> Batch:
    data = _read_bytes(source) if data is None else data
    batch = _split(native.read_json(data, source), Batch("json"))
    batch.single = data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    return batch


def _read_jsonl(source: str, data: bytes | None = None) -> Batch:
    return _split(native.read_jsonl(_read_bytes(source) if data is None else data, source), Batch("jsonl"))


def _read_stdin() -> Batch:
    """JSON or JSON Lines, told apart by content: several top-level objects mean lines."""
    data = _read_bytes(STDIO)
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"{") and b"\n" in stripped.strip():
        try:
            json.loads(stripped)
        except ValueError:
            return _read_jsonl(STDIO, data)
    return _read_json(STDIO, data)


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not valid UTF-8 (byte {error.start})", source) from None


def _read_inline(source: str) -> Batch:
    return Batch("inline", [inline.read(_decode(_read_bytes(source), source), source)])


def _read_conll(source: str) -> Batch:
    documents, scheme = conll.read(_decode(_read_bytes(source), source), source)
    return Batch("conll", documents, scheme=scheme)


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


def _write_inline(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: inline.write(documents, handle))


def _write_conll(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    _write_text(destination, lambda handle: conll.write(documents, handle, batch.scheme))


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
        Format("inline", (".inline.txt", ".tagged"), _read_inline, _write_inline),
        Format("conll", (".conll", ".bio", ".bioes"), _read_conll, _write_conll),
        Format("brat", (".ann", ".txt"), _read_brat, _write_brat, directory=True),
        Format("i2b2", (".xml",), _read_i2b2, _write_i2b2),
    )
}


NATIVE = ("json", "jsonl")


def detect_format(source: str) -> str:
    """The format named by the extension; a folder needs more evidence."""
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
    if source == STDIO and fmt == "auto":
        return _read_stdin()
    name = detect_format(source) if fmt == "auto" else fmt
    if name not in FORMATS:
        raise InputError(f"unknown format {name!r} (known: {', '.join(FORMATS)})", source)
    return FORMATS[name].read(source)


def write_output(documents: Sequence[Document], destination: str, batch: Batch) -> None:
    """In the input's format; native JSON input may be written as the other native format by
    naming the output file .json or .jsonl."""
    name = batch.format
    if name in NATIVE and destination != STDIO:
        name = next((n for n in NATIVE if destination.lower().endswith(FORMATS[n].extensions)), name)
    FORMATS[name].write(documents, destination, batch)
