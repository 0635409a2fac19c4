"""Inline tags, as in the Stockholm EPR PHI Corpus: `<First_Name>Anna</First_Name> kom`.

One file is one document, its id the file name without the extension. Text outside tags is
kept byte for byte (a byte-order mark too); a tag pair becomes a span over its content, and the
output writes the same tags around the surrogates. Tags do not nest and carry no attributes.
Anything else that looks like a tag (a misspelt or unclosed tag, a tag with attributes, a
closing tag alone) is an error: read as text, the value inside it would go out unreplaced. An
empty pair `<X></X>` tags no text; it is kept as it is. A `<` that opens no tag stays text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, TextIO

import regex

from pseudo.errors import InputError
from pseudo.io.source import BOM
from pseudo.model import Document, Span

_TAG_LIKE = regex.compile(r"</?\p{L}[^<>]*>")
_OPEN = regex.compile(r"<(\p{L}[\w-]*)>")


@dataclass(frozen=True)
class Layout:
    bom: bool  # the file started with a byte-order mark


def document_id(source: str) -> str:
    name = Path(source).name if source != "-" else "stdin"
    for extension in (".inline.txt", ".tagged", ".txt"):
        if name.lower().endswith(extension):
            return name[: -len(extension)] or name
    return name


def _error(text: str, offset: int, what: str, source: str, doc_id: str) -> InputError:
    """Line and column, never the tag: a malformed tag may hold the very value it should hide."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return InputError(f"line {line}, column {column}: {what}", source, doc_id)


def read(text: str, source: str) -> tuple[Document, Layout]:
    """The plain text and one span per tag pair."""
    layout = Layout(text.startswith(BOM))
    text = text.removeprefix(BOM)
    doc_id = document_id(source)
    tags = list(_TAG_LIKE.finditer(text))
    pieces: list[str] = []
    spans: list[Span] = []
    cursor = length = 0
    for opening, closing in zip(tags[::2], tags[1::2] + [None]):
        label = _OPEN.fullmatch(opening.group())
        if label is None:
            raise _error(text, opening.start(), "a tag that opens no pair (misspelt, a closing tag alone, or with attributes)", source, doc_id)
        if closing is None:
            raise _error(text, opening.start(), "a tag that is never closed", source, doc_id)
        if closing.group() != f"</{label.group(1)}>":
            what = "a tag inside a tag pair (tags do not nest)" if _OPEN.fullmatch(closing.group()) else "a closing tag that does not match its opening tag"
            raise _error(text, closing.start(), what, source, doc_id)
        content = text[opening.end() : closing.start()]
        if not content:  # an empty pair tags nothing: it stays in the text as it was
            continue
        before = text[cursor : opening.start()]
        pieces += (before, content)
        spans.append(Span(length + len(before), length + len(before) + len(content), label.group(1)))
        length += len(before) + len(content)
        cursor = closing.end()
    pieces.append(text[cursor:])
    return Document(doc_id, "".join(pieces), tuple(spans)).validated(source), layout


def render(document: Document) -> str:
    """The document's text with every span wrapped in its label's tags."""
    out, cursor = [], 0
    for span in document.spans:
        out.append(document.text[cursor : span.start])
        out.append(f"<{span.label}>{document.text[span.start : span.end]}</{span.label}>")
        cursor = span.end
    out.append(document.text[cursor:])
    return "".join(out)


def write(documents: Iterable[Document], handle: TextIO, layouts: Mapping[str, Layout]) -> None:
    for number, document in enumerate(documents):
        layout = layouts.get(document.id)
        if number:
            handle.write("\n")
        elif layout and layout.bom:
            handle.write(BOM)
        handle.write(render(document))
