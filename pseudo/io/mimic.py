"""MIMIC-III notes with their de-identification placeholders: each placeholder is a span.

    Pt is a [**Age over 90 **] y/o seen by Dr. [**Last Name (STitle) 1234**] at [**Hospital1 18**]
    on [**2151-7-16**]; call [**Telephone/Fax (3) 5678**].

One file is one note (document id: the file name). The category before the placeholder's own
number gives the label (the `mimic` tagset: `Last Name (STitle)` is a surname, `Hospital1` a
hospital, a date written inside the brackets a date); its number names one identity, so every
`[**Known lastname 1234**]` of a note (or subject, under `scope: subject`) is one person. The
engine sees a stand-in in its place that carries only the category and the identity: a date
written in the placeholder (MIMIC's own shifted date) stands as written and is kept unless the
configuration gives MIMIC_DATE another strategy; a date MIMIC removed whole (`Month (only)`) stands
as a date of the same parts in MIMIC's years and is moved like any date; every other stand-in is
replaced, so none is ever written. The output is the note with the surrogates where the placeholders stood.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, TextIO

import regex

from pseudo.errors import InputError
from pseudo.model import Document, Span

_PLACEHOLDER = regex.compile(r"\[\*\*(.*?)\*\*\]", regex.DOTALL)
_DATE = regex.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{4}")
_IDENTITY = regex.compile(r"\s(\d+)\s*$")
# Category words -> label of the mimic tagset, the first found in the category winning ("Hospital
# Ward Name" is a unit, "Holiday" no day, "Female First Name (un)" a first name).
CATEGORIES = (
    ("known firstname", "MIMIC_FIRST_NAME"), ("first name", "MIMIC_FIRST_NAME"), ("known lastname", "MIMIC_LAST_NAME"),
    ("last name", "MIMIC_LAST_NAME"), ("hospital", "MIMIC_HOSPITAL"), ("wardname", "MIMIC_HOSPITAL"),
    ("holiday", "MIMIC_OTHER"), ("name", "MIMIC_NAME"), ("telephone/fax", "MIMIC_PHONE"), ("pager number", "MIMIC_PHONE"),
    ("age over 90", "MIMIC_AGE"), ("street address", "MIMIC_STREET"), ("apartment address", "MIMIC_STREET"),
    ("state", "MIMIC_STATE"), ("country", "MIMIC_COUNTRY"), ("location", "MIMIC_LOCATION"), ("address", "MIMIC_LOCATION"),
    ("college", "MIMIC_ORGANIZATION"), ("company", "MIMIC_ORGANIZATION"), ("e-mail", "MIMIC_EMAIL"), ("url", "MIMIC_URL"),
    ("po box", "MIMIC_OTHER"), ("month", "MIMIC_DATE_PART"), ("year", "MIMIC_DATE_PART"), ("day", "MIMIC_DATE_PART"),
    ("date", "MIMIC_DATE_PART"),
)  # fmt: skip
# What the engine reads in a placeholder's place, per label: a shape the label's rule reads, with
# the identity spelled in letters after it where a name or a unit must stay one per identity.
_STAND_IN = {
    "MIMIC_FIRST_NAME": "Firstname{id}", "MIMIC_LAST_NAME": "Lastname{id}", "MIMIC_NAME": "Firstname{id} Lastname{id}",
    "MIMIC_HOSPITAL": "Hospital {id}", "MIMIC_PHONE": "(617) 555-{digits}", "MIMIC_AGE": "92", "MIMIC_STREET": "1 Street{id} Street",
    "MIMIC_STATE": "State{id}", "MIMIC_COUNTRY": "Country{id}", "MIMIC_LOCATION": "Place{id}", "MIMIC_ORGANIZATION": "Company {id}",
    "MIMIC_EMAIL": "mail{id}@example.com", "MIMIC_URL": "www.example{id}.com", "MIMIC_OTHER": "Other{id}", "MIMIC_ID": "{digits}",
}  # fmt: skip


@dataclass(frozen=True)
class Layout:
    placeholders: tuple[str, ...]  # as written, in text order (for the record; never written back)


def label_of(inside: str) -> str:
    """The mimic label of a placeholder's content: a date written in it, else its category words."""
    body = inside.strip()
    if _DATE.fullmatch(body):
        return "MIMIC_DATE"
    category = body.casefold()  # with its number: "Age over 90"
    for words, label in CATEGORIES:
        if words in category:
            return label
    return "MIMIC_ID"  # Medical Record Number, Social Security Number, Numeric Identifier, Job Number ...


def _letters(identity: str) -> str:
    """The digits of an identity as letters (1234 -> bcde): a name stand-in holds letters only."""
    return "".join("abcdefghij"[int(d)] for d in identity) or "a"


def stand_in(inside: str) -> tuple[str, str]:
    """(label, the text the engine reads) for one placeholder."""
    label = label_of(inside)
    if label == "MIMIC_DATE":
        return label, inside.strip()
    if label == "MIMIC_DATE_PART":  # a date MIMIC removed whole: a date of the same parts, moved by the clock
        category = inside.casefold()
        parts = [part for part, word in (("January", "month"), ("1", "day"), ("2150", "year")) if word in category]
        return label, {("January",): "January", ("2150",): "2150", ("January", "2150"): "January 2150"}.get(tuple(parts), "January 1, 2150")
    found = _IDENTITY.search(inside)
    identity = found.group(1) if found else ""
    digits = (identity or "0").rjust(4, "0")[-4:]
    category = _letters(str(sum(map(ord, _IDENTITY.sub("", inside).strip().casefold())))) if not identity else ""
    return label, _STAND_IN[label].format(id=_letters(identity) + category, digits=digits)


def read(text: str, source: str, doc_id: str) -> tuple[Document, Layout]:
    pieces, spans, placeholders, cursor, length = [], [], [], 0, 0
    for found in _PLACEHOLDER.finditer(text):
        before = text[cursor : found.start()]
        pieces.append(before)
        length += len(before)
        label, standing = stand_in(found.group(1))
        spans.append(Span(length, length + len(standing), label))
        pieces.append(standing)
        length += len(standing)
        placeholders.append(found.group())
        cursor = found.end()
    if "[**" in text[cursor:]:
        raise InputError("a placeholder '[**' is never closed with '**]'", source)
    pieces.append(text[cursor:])
    document = Document(doc_id, "".join(pieces), tuple(spans), {"format": "mimic"}).validated(source)
    return document, Layout(tuple(placeholders))


def write(documents: Sequence[Document], handle: TextIO) -> None:
    for document in documents:
        handle.write(document.text)
