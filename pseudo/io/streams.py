"""Inputs read and outputs written document by document, so that a run's memory does not grow
with the corpus: JSON Lines (a file or stdin) to JSON Lines (a file or stdout), and brat folders
file by file. Each input can be read twice, a first pass checking and indexing it, and can give a
document again from where the first pass found it. Each output is atomic as the whole-batch
writers are: a temporary file or folder renamed at the end, or stdout written once everything else
is in place."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Protocol

from pseudo.errors import InputError
from pseudo.io import brat, native
from pseudo.io.atomic import atomic_folder, atomic_writer, stdout_spool
from pseudo.io.source import STDIO
from pseudo.model import Document

Place = Any  # where the first pass found a document: a byte offset, a relative path
Layout = Any  # what the output needs of a document besides the document (a brat .ann's shape), or None
Write = Callable[[Document, Layout], None]


class Input(Protocol):
    format: str
    origin: str  # the input's name in messages

    def scan(self) -> Iterator[tuple[Place, Document | InputError, Layout]]:
        """Every document (or the error that kept it from being read), in input order."""

    def at(self, places: Iterable[Place]) -> Iterator[tuple[Document | InputError, Layout]]:
        """The documents found at these places by `scan`, in the order given."""


class Output(Protocol):
    def opened(self) -> AbstractContextManager[Write]:
        """A function writing one document (with its input's layout); the output appears whole
        when the block completes, and not at all when it fails."""


class JsonlInput:
    """A JSON Lines file, or stdin copied aside (see `spool_stdin`), read line by line."""

    format = "jsonl"

    def __init__(self, origin: str, spool: BinaryIO | None = None):
        self.origin = origin
        self._spool = spool

    @contextmanager
    def _opened(self) -> Iterator[BinaryIO]:
        if self._spool is not None:
            self._spool.seek(0)
            yield self._spool
            return
        with open(self.origin, "rb") as handle:
            yield handle

    def scan(self) -> Iterator[tuple[Place, Document | InputError, Layout]]:
        with self._opened() as handle:
            for offset, item in native.stream_jsonl(handle, self.origin):
                yield offset, item, None

    def at(self, places: Iterable[Place]) -> Iterator[tuple[Document | InputError, Layout]]:
        with self._opened() as handle:
            for offset in places:
                yield native.jsonl_at(handle, offset, self.origin), None


class BratInput:
    """A brat folder, pair after pair in path order; the folder is listed once."""

    format = "brat"

    def __init__(self, origin: str):
        self.origin = origin
        self.listing = brat.listing(origin)

    def scan(self) -> Iterator[tuple[Place, Document | InputError, Layout]]:
        for orphan in self.listing.orphans:
            yield None, brat.orphan_error(self.listing, orphan), None
        for relative in self.listing.texts:
            yield (relative, *self._read(relative))

    def at(self, places: Iterable[Place]) -> Iterator[tuple[Document | InputError, Layout]]:
        for relative in places:
            yield self._read(relative)

    def _read(self, relative: PurePosixPath) -> tuple[Document | InputError, Layout]:
        try:
            return brat.read_document(self.listing, relative)
        except InputError as error:
            return error, None


STDIN_CHUNK = 1 << 20


def spool_stdin() -> BinaryIO:
    """stdin copied into an unnamed temporary file (mode 0600, gone when closed or when the
    process ends, however it ends), so that it can be read twice in bounded memory."""
    spool = tempfile.TemporaryFile()
    shutil.copyfileobj(sys.stdin.buffer, spool, STDIN_CHUNK)
    spool.seek(0)
    return spool


_BLANK = b"\xef\xbb\xbf \t\r\n"


def spooled_jsonl(spool: BinaryIO) -> bool:
    """Whether stdin's content is what reading it whole takes for JSON Lines: several non-blank
    lines, each starting with "{", the first a JSON value by itself (so the whole is not one JSON
    value). Anything else (a list, one object, pretty-printed JSON, a broken line) is read whole,
    with the messages of today."""
    spool.seek(0)
    first: bytes | None = None
    lines = 0
    for number, line in enumerate(spool):
        line = (line.lstrip(_BLANK) if number == 0 else line).strip()
        if not line:
            continue
        if not line.startswith(b"{"):
            return False
        first = line if first is None else first
        lines += 1
    if lines < 2:
        return False
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return False
    return True


class JsonlOutput:
    """JSON Lines to a file (a temporary renamed at the end) or to stdout (through an unnamed
    temporary file, printed once every other output is in place)."""

    def __init__(self, destination: str):
        self.destination = destination

    @contextmanager
    def opened(self) -> Iterator[Write]:
        with stdout_spool() if self.destination == STDIO else atomic_writer(self.destination, newline="") as handle:
            yield lambda document, layout: native.write_jsonl((document,), handle)


class BratOutput:
    """A brat folder filled file by file in a temporary sibling, moved into place at the end."""

    def __init__(self, destination: str, source: BratInput):
        self.destination = destination
        self.source = source

    @contextmanager
    def opened(self) -> Iterator[Write]:
        brat.check_destination(self.destination, self.source.origin)
        with atomic_folder(self.destination) as folder:
            brat.write_configuration(folder, self.source.listing.collection)
            yield lambda document, layout: brat.write_document(Path(folder), document, layout)
