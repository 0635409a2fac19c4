"""CoNLL token files: one `token TAG` per line (the tag is the last column), a blank line between
sentences, `-DOCSTART-` between documents; tags in BIO (B-, I-, O) or BIOES (also E-, S-).

A token file does not keep the original whitespace. The text is rebuilt by joining the tokens of
a sentence with single spaces and the sentences with newlines, and every offset refers to that
text. On output the text is split the same way, so a surrogate of several words becomes several
tokens of its span, tagged in the scheme the input used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator, TextIO

from pseudo.errors import InputError
from pseudo.model import Document, Span

DOCSTART = "-DOCSTART-"
SCHEMES = ("BIO", "BIOES")


def _document(tokens: list[list[tuple[str, str]]], doc_id: str, source: str) -> Document:
    lines: list[str] = []
    spans: list[Span] = []
    offset = 0
    open_span: tuple[int, int, str] | None = None  # start, end, label

    def close() -> None:
        nonlocal open_span
        if open_span is not None:
            spans.append(Span(*open_span))
            open_span = None

    for sentence in tokens:
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


def read(text: str, source: str) -> tuple[list[Document], str]:
    """The documents of a token file, and the tagging scheme it uses."""
    stem = Path(source).stem if source != "-" else "stdin"
    groups: list[list[list[tuple[str, str]]]] = [[]]
    sentence: list[tuple[str, str]] = []
    scheme = "BIO"
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            if sentence:
                groups[-1].append(sentence)
                sentence = []
            continue
        if fields[0] == DOCSTART:
            if sentence:
                groups[-1].append(sentence)
                sentence = []
            if groups[-1]:
                groups.append([])
            continue
        if len(fields) < 2 or not _tag_ok(fields[-1]):
            raise InputError(f"line {number}: expected 'token TAG' with a BIO or BIOES tag", source)
        if fields[-1][:2] in ("E-", "S-"):
            scheme = "BIOES"
        sentence.append((fields[0], fields[-1]))
    if sentence:
        groups[-1].append(sentence)
    groups = [g for g in groups if g]
    if len(groups) == 1:
        return [_document(groups[0], stem, source)], scheme
    return [_document(g, f"{stem}-{i}", source) for i, g in enumerate(groups, start=1)], scheme


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


def write(documents: Iterable[Document], handle: TextIO, scheme: str) -> None:
    items = list(documents)
    for document in items:
        if len(items) > 1:
            handle.write(f"{DOCSTART} O\n\n")
        for sentence in _tokens(document, scheme):
            handle.writelines(f"{token} {tag}\n" for token, tag in sentence)
            handle.write("\n")
