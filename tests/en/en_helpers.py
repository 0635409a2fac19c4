"""Helpers for the English pack's tests: one call pseudonymises a text with spans."""

from __future__ import annotations

from typing import Any

from pseudo.api import pseudonymise
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.keyed import Keyring
from pseudo.model import Document, Result, Span

BASE = {"locale": "en"}


def document(text: str, spans: list[tuple[str, str]], doc_id: str = "d1") -> Document:
    """Spans given as (surface, label), found left to right."""
    out, cursor = [], 0
    for surface, label in spans:
        start = text.index(surface, cursor)
        cursor = start + len(surface)
        out.append(Span(start, cursor, label))
    return Document(doc_id, text, tuple(out)).validated()


def run(text: str, spans: list[tuple[str, str]], key: bytes = b"test-key", **config: Any) -> Result:
    settings = Settings(config=parse_config({**BASE, **config}), keyring=Keyring(key))
    return pseudonymise([document(text, spans)], settings).results[0]


def surrogates(result: Result) -> list[str]:
    return [r.surrogate for r in result.replacements]


def run_many(text: str, spans: list[tuple[str, str]], keys: int = 20, **config: Any) -> list[list[str]]:
    """The surrogates under many keys: properties must hold for every draw, not one lucky key."""
    return [surrogates(run(text, spans, key=f"k{i}".encode(), **config)) for i in range(keys)]
