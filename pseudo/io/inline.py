"""Inline tags, as in the Stockholm EPR PHI Corpus: `<First_Name>Anna</First_Name> kom`.

One file is one document, its id the file name without the extension. Text outside tags is
kept byte for byte; a tag pair becomes a span over its content, and the output writes the same
tags around the surrogates. Tags do not nest. A `<` that opens no tag pair stays text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, TextIO

import regex

from pseudo.errors import InputError
from pseudo.model import Document, Span

_PAIR = regex.compile(r"<(?P<label>[A-Za-z][\w-]*)>(?P<content>.*?)</(?P=label)>", regex.DOTALL)
_TAG = regex.compile(r"</?[A-Za-z][\w-]*>")


def document_id(source: str) -> str:
    name = Path(source).name if source != "-" else "stdin"
    for extension in (".inline.txt", ".tagged", ".txt"):
        if name.lower().endswith(extension):
            return name[: -len(extension)] or name
    return name


def read(text: str, source: str) -> Document:
    """The plain text and one span per tag pair."""
    pieces: list[str] = []
    spans: list[Span] = []
    cursor = length = 0
    doc_id = document_id(source)
    for match in _PAIR.finditer(text):
        content = match.group("content")
        if _TAG.search(content):
            line = text.count("\n", 0, match.start()) + 1
            raise InputError(f"line {line}: tags inside a <{match.group('label')}> tag (tags do not nest)", source, doc_id)
        before = text[cursor : match.start()]
        pieces.append(before)
        length += len(before)
        if content:
            spans.append(Span(length, length + len(content), match.group("label")))
        pieces.append(content)
        length += len(content)
        cursor = match.end()
    pieces.append(text[cursor:])
    return Document(doc_id, "".join(pieces), tuple(spans)).validated(source)


def render(document: Document) -> str:
    """The document's text with every span wrapped in its label's tags."""
    out, cursor = [], 0
    for span in document.spans:
        out.append(document.text[cursor : span.start])
        out.append(f"<{span.label}>{document.text[span.start : span.end]}</{span.label}>")
        cursor = span.end
    out.append(document.text[cursor:])
    return "".join(out)


def write(documents: Iterable[Document], handle: TextIO) -> None:
    for number, document in enumerate(documents):
        if number:
            handle.write("\n")
        handle.write(render(document))
