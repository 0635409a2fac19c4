"""CoNLL token files: one `token TAG` per line, a blank line between sentences, `-DOCSTART-`
between documents; tags in BIO (B-, I-, O) or BIOES (also E-, S-).

A token file does not keep the original whitespace. The text is rebuilt by joining the tokens of
a sentence with single spaces and the sentences with newlines, and every offset refers to that
text. On output the text is split the same way, so a surrogate of several words becomes several
tokens of its span, tagged in the scheme the input used.

Everything else of the file's shape is written back as it was: the separator (a tab or a space),
the line ends, a byte-order mark, the `-DOCSTART-` lines (whatever columns they have) and the
blank lines. A token line must have exactly two columns: a third (part of speech, lemma) would
describe the original token, not its surrogate, and a lemma repeats the very value to hide, so
such files are refused rather than cut down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, TextIO

from pseudo.errors import InputError
from pseudo.io.source import BOM
from pseudo.model import Document, Span

DOCSTART = "-DOCSTART-"
_NAMES = {"\t": "tab", " ": "space"}


@dataclass
class Layout:
    """The shape of one token file, so its output differs only in the tokens and tags of spans."""

    scheme: str = "BIO"
    separator: str = " "
    newline: str = "\n"
    bom: bool = False
    final_newline: bool = True
    # per document, in order: the lines before its first sentence (a -DOCSTART- line, blank lines),
    # and the blank lines after each sentence
    heads: dict[str, list[str]] = field(default_factory=dict)
    gaps: dict[str, list[list[str]]] = field(default_factory=dict)


@dataclass
class _Group:
    head: list[str] = field(default_factory=list)
    sentences: list[list[tuple[str, str]]] = field(default_factory=list)
    gaps: list[list[str]] = field(default_factory=list)


def _document(sentences: list[list[tuple[str, str]]], doc_id: str, source: str) -> Document:
    lines: list[str] = []
    spans: list[Span] = []
    offset = 0
    open_span: tuple[int, int, str] | None = None  # start, end, label

    def close() -> None:
        nonlocal open_span
        if open_span is not None:
            spans.append(Span(*open_span))
            open_span = None

    for sentence in sentences:
        words = []
        for token, tag in sentence:
            if words:
                offset += 1
            start, end = offset, offset + len(token)
            words.append(token)
            offset = end
            prefix, _, label = tag.partition("-")
            if tag == "O":
                close()
            elif prefix in ("B", "S") or open_span is None or open_span[2] != label:
                close()
                open_span = (start, end, label)
            else:  # I- or E- continuing the open span
                open_span = (open_span[0], end, label)
            if prefix in ("E", "S"):
                close()
        close()
        lines.append(" ".join(words))
        offset += 1  # the newline after the sentence
    return Document(doc_id, "\n".join(lines), tuple(spans)).validated(source)


def _tag_ok(tag: str) -> bool:
    prefix, dash, label = tag.partition("-")
    return tag == "O" or (dash == "-" and prefix in ("B", "I", "E", "S") and bool(label))


def read(text: str, source: str) -> tuple[list[Document], Layout]:
    """The documents of a token file, and the shape to write them back in."""
    stem = Path(source).stem if source != "-" else "stdin"
    layout = Layout(bom=text.startswith(BOM))
    text = text.removeprefix(BOM)
    rows = text.split("\n")  # not splitlines(): a token may hold U+2028 or a form feed
    layout.final_newline = rows[-1] == ""
    if layout.final_newline:
        rows.pop()
    if rows and rows[0].endswith("\r"):
        layout.newline = "\r\n"
    groups = [_Group()]
    separator = None
    for number, row in enumerate(rows, start=1):
        line = row.removesuffix("\r")
        group = groups[-1]
        if not line.strip():
            (group.gaps[-1] if group.sentences else group.head).append(line)
            continue
        if line.split(maxsplit=1)[0] == DOCSTART:
            if group.sentences:
                groups.append(_Group())
            groups[-1].head.append(line)
            continue
        this = "\t" if "\t" in line else " "
        separator = separator or this
        if this != separator:
            raise InputError(f"line {number}: a {_NAMES[this]} between the columns, where earlier lines have a {_NAMES[separator]}", source)
        fields = line.split(separator)
        if len(fields) != 2 or not fields[0]:
            raise InputError(f"line {number}: expected two columns, 'token TAG', one {_NAMES[separator]} apart (found {len(fields)})", source)
        if " " in line.replace(separator, ""):
            raise InputError(f"line {number}: a space inside a column (a token would be written back as two)", source)
        if not _tag_ok(fields[1]):
            raise InputError(f"line {number}: expected 'token TAG' with a BIO or BIOES tag", source)
        if fields[1][:2] in ("E-", "S-"):
            layout.scheme = "BIOES"
        if not group.sentences or group.gaps[-1]:
            group.sentences.append([])
            group.gaps.append([])
        group.sentences[-1].append((fields[0], fields[1]))
    layout.separator = separator or " "
    groups = [g for g in groups if g.sentences or g.head]
    documents = []
    for number, group in enumerate(groups, start=1):
        doc_id = stem if len(groups) == 1 else f"{stem}-{number}"
        documents.append(_document(group.sentences, doc_id, source))
        layout.heads[doc_id], layout.gaps[doc_id] = group.head, group.gaps
    return documents, layout


def _tokens(document: Document, scheme: str) -> Iterator[list[tuple[str, str]]]:
    """Sentences of (token, tag), re-read from the text by the rule the reader used."""
    spans = list(document.spans)
    offset = 0
    for line in document.text.split("\n"):
        sentence = []
        position = offset
        for token in line.split(" "):
            start, end = position, position + len(token)
            position = end + 1
            if not token:
                continue
            span = next((s for s in spans if s.start < end and start < s.end), None)
            if span is None:
                sentence.append((token, "O"))
                continue
            first, last = start <= span.start, end >= span.end
            if scheme == "BIOES" and first and last:
                prefix = "S"
            elif first:
                prefix = "B"
            elif scheme == "BIOES" and last:
                prefix = "E"
            else:
                prefix = "I"
            sentence.append((token, f"{prefix}-{span.label}"))
        offset += len(line) + 1
        if sentence:
            yield sentence


def write(documents: Iterable[Document], handle: TextIO, layout: Layout | None) -> None:
    """Documents not read from a file are separated by `-DOCSTART- O` lines when there are several."""
    items = list(documents)
    layout = layout or Layout()
    lines: list[str] = []
    for document in items:
        head = layout.heads.get(document.id, [f"{DOCSTART} O", ""] if len(items) > 1 else [])
        lines += head
        gaps = layout.gaps.get(document.id, [])
        for number, sentence in enumerate(_tokens(document, layout.scheme)):
            lines += (f"{token}{layout.separator}{tag}" for token, tag in sentence)
            lines += gaps[number] if number < len(gaps) else [""]
    if layout.bom:
        handle.write(BOM)
    text = layout.newline.join(lines)
    handle.write(text + layout.newline if lines and layout.final_newline else text)
