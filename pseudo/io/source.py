"""Reading input bytes and decoding them, the same way and with the same messages for every format."""

from __future__ import annotations

import sys
from pathlib import Path

from pseudo.errors import InputError

STDIO = "-"
BOM = "\ufeff"


def read_bytes(source: str | Path, document_id: str | None = None) -> bytes:
    """A file's bytes, or stdin's for "-"."""
    if str(source) == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except FileNotFoundError:
        raise InputError("no such file or folder", str(source), document_id) from None
    except IsADirectoryError:
        raise InputError("is a folder; this format reads one file", str(source), document_id) from None
    except OSError as error:
        raise InputError(f"cannot read ({error.strerror})", str(source), document_id) from None


def decode(data: bytes, source: str | Path, document_id: str | None = None) -> str:
    """UTF-8, a byte-order mark kept as character 0: each format decides whether it counts."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not valid UTF-8 (byte {error.start})", str(source), document_id) from None
