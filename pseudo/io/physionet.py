"""The PhysioNet deid layout (Neamatullah et al. 2008): a text file of records and a phrase file of spans.

    id.text          START_OF_RECORD=1||||1||||
                     O: 58 YEAR OLD FEMALE ADMITTED IN TRANSFER FROM CALVERT HOSPITAL ...||||END_OF_RECORD
    id-phi.phrase    1 1 48 55 Location CALVERT

A record is one document (id "<patient>-<note>", meta.subject the patient, so `scope: subject`
keeps one world per patient); its text starts after the header line's LF and ends before
"||||END_OF_RECORD". The phrase file sits beside the text file (`<stem>-phi.phrase`), one span a
line: patient, note, start, end (exclusive, code points of the record's text), type, text. Both
are written back the same way, the phrase file beside the written text file. Whitespace the gold
standard sometimes tags with the words ("nov. ") is left out of the span, and spans it lets overlap
become one. The gold standard tags word by word ("Holy" "Cross", "San" "Diego", "DAN" "A" "FORMAN-LYONS"):
phrases of words (no digits: "3/14 3/15" stay two dates) of one type separated only by spaces on
one line (after an initial, its full stop and spaces) are one value, one span, written back as
one phrase, so "San Diego" becomes one surrogate town and not two.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TextIO

import regex

from pseudo.errors import InputError
from pseudo.model import Document, Span

_RECORD = regex.compile(r"START_OF_RECORD=(?P<patient>[^|\n]+)\|\|\|\|(?P<note>[^|\n]+)\|\|\|\|\n(?P<text>.*?)\|\|\|\|END_OF_RECORD\n?", regex.DOTALL)
_PHRASE = regex.compile(r"(?P<patient>\S+) (?P<note>\S+) (?P<start>\d+) (?P<end>\d+) (?P<type>\S+)(?: (?P<text>.*))?")
SUFFIX = "-phi.phrase"


@dataclass(frozen=True)
class Layout:
    between: tuple[str, ...]  # what stands between records (and after the last), restored as read


def phrase_path(text_path: str) -> Path:
    """id.text -> id-phi.phrase, in the same folder."""
    path = Path(text_path)
    return path.with_name(path.stem + SUFFIX)


def read(text: str, phrases: str, source: str) -> tuple[list[Document], list[InputError], Layout]:
    documents: dict[str, Document] = {}
    between, cursor = [], 0
    for record in _RECORD.finditer(text):
        if text[cursor : record.start()].strip():
            raise InputError(f"text outside a record at offset {cursor}", source)
        between.append(text[cursor : record.start()])
        cursor = record.end()
        doc_id = f"{record['patient']}-{record['note']}"
        if doc_id in documents:
            raise InputError(f"record {doc_id} appears twice", source)
        documents[doc_id] = Document(doc_id, record["text"], (), {"subject": record["patient"], "note": record["note"]})
    if text[cursor:].strip():
        raise InputError(f"text outside a record at offset {cursor}", source)
    between.append(text[cursor:])
    spans: dict[str, list[Span]] = {doc_id: [] for doc_id in documents}
    errors: list[InputError] = []
    for number, line in enumerate(phrases.splitlines(), 1):
        if not line.strip():
            continue
        found = _PHRASE.fullmatch(line.rstrip("\r"))
        if found is None:
            raise InputError(f"{phrase_path(source).name} line {number}: not 'patient note start end type text'", source)
        doc_id = f"{found['patient']}-{found['note']}"
        if doc_id not in documents:
            raise InputError(f"{phrase_path(source).name} line {number}: no record {doc_id}", source)
        start, end = int(found["start"]), int(found["end"])
        body = documents[doc_id].text[start:end]
        if body.strip():  # the gold standard sometimes tags a space with the words ("nov. "): the words alone
            start, end = start + len(body) - len(body.lstrip()), end - len(body) + len(body.rstrip())
        spans[doc_id].append(Span(start, end, found["type"]))
    out = []
    for doc_id, document in documents.items():
        try:
            joined = _joined(_merged(spans[doc_id]), document.text)
            out.append(Document(doc_id, document.text, joined, document.meta).validated(source))
        except InputError as error:
            errors.append(error)
    return out, errors, Layout(tuple(between))


def _merged(spans: list[Span]) -> tuple[Span, ...]:
    """Overlapping spans of the gold standard ("Kessler-Adventist" and "Adventist Hosp") as one
    span over both, with the first one's type: the engine replaces a region once."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and span.start < out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, span.end), out[-1].label)
        else:
            out.append(span)
    return tuple(out)


_WORD_GAP = regex.compile(r"\.?[ \t]+")  # spaces on one line; after an initial, its full stop too
_DIGIT = regex.compile(r"\d")
_INITIAL = regex.compile(r"(?<![\p{L}.])\p{L}$")  # a value ending in one letter alone: "A", "DAN A"


def _joined(spans: tuple[Span, ...], text: str) -> tuple[Span, ...]:
    """Adjacent phrases of words (no digits) of one type that only spaces separate on one line
    ("San" "Diego"), or an initial's full stop and spaces ("A" ". " "FORMAN-LYONS"), as one span:
    one value, replaced once."""
    out: list[Span] = []
    for span in spans:
        previous = out[-1] if out else None
        gap = _WORD_GAP.fullmatch(text, previous.end, span.start) if previous is not None else None
        initial = previous is not None and _INITIAL.search(text, previous.start, previous.end) is not None
        words = previous is not None and not _DIGIT.search(text, previous.start, span.end)  # "3/14 3/15" stay two dates
        if previous is not None and gap and words and previous.label == span.label and (initial or not gap.group().startswith(".")):
            out[-1] = Span(previous.start, span.end, span.label)
        else:
            out.append(span)
    return tuple(out)


def write(documents: Sequence[Document], text: TextIO, phrases: TextIO, layout: Layout | None) -> None:
    between = layout.between if layout and len(layout.between) == len(documents) + 1 else ("",) * len(documents) + ("",)
    for gap, document in zip(between, documents):
        patient, note = document.meta.get("subject", document.id), document.meta.get("note", "1")
        text.write(f"{gap}START_OF_RECORD={patient}||||{note}||||\n{document.text}||||END_OF_RECORD\n")
        for span in document.spans:
            phrases.write(f"{patient} {note} {span.start} {span.end} {span.label} {document.text[span.start : span.end]}\n")
    text.write(between[-1])
