"""The document model: immutable spans and documents, validated once on the way in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import regex

from pseudo.errors import InputError

_WORD_TAIL = regex.compile(r"\p{Ll}{1,2}(?![\p{L}\p{M}])")  # the last letters of a word a span stops short of


@dataclass(frozen=True, slots=True)
class Span:
    """A tagged region of a document: code-point offsets, end exclusive."""

    start: int
    end: int
    label: str
    attrs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    text: str
    spans: tuple[Span, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    def span_text(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def cut_words(self) -> list[Span]:
        """Spans that stop one or two lower-case letters short of their word's end ("Felicia Ber"
        of "Felicia Bergs", "una niet"): offsets off by one or two, most likely, so the surrogate
        would be glued to the letters left ("Svenssongs"). Text glued in the source ("añosingresó")
        leaves more letters and is not counted."""
        return [s for s in self.spans if self.text[s.end - 1].islower() and _WORD_TAIL.match(self.text, s.end)]

    def validated(self, source: str = "") -> "Document":
        """Check offsets, overlaps and whitespace at a span's edges; return the document with spans sorted."""
        spans = tuple(sorted(self.spans, key=lambda s: (s.start, s.end)))
        length = len(self.text)
        previous: Span | None = None
        for span in spans:
            where = f"{span.start}-{span.end}"
            if span.start < 0 or span.end > length:
                raise InputError(f"span {where} is outside the text (length {length})", source, self.id)
            if span.end <= span.start:
                raise InputError(f"span {where} is empty or reversed", source, self.id)
            covered = self.text[span.start : span.end]
            if covered.isspace():  # its surrogate would glue the words around it together
                raise InputError(f"span {where} is only whitespace", source, self.id)
            if covered[0].isspace() or covered[-1].isspace():
                raise InputError(f"span {where} starts or ends with whitespace: tag the words alone", source, self.id)
            if previous is not None and span.start < previous.end:
                raise InputError(
                    f"spans {previous.start}-{previous.end} and {where} overlap", source, self.id
                )
            given = span.attrs.get("text") if isinstance(span.attrs, Mapping) else None
            if given is not None and given != self.text[span.start : span.end]:
                raise InputError(f"span {where}: its text attribute does not match the document", source, self.id)
            previous = span
        return Document(self.id, self.text, spans, self.meta)


@dataclass(frozen=True, slots=True)
class Replacement:
    """What happened to one span: where it went, what replaced it and which rule decided."""

    span: Span
    new_start: int
    new_end: int
    surrogate: str
    label: str
    rule: str
    strategy: str
    scope: str
    fallback: str | None = None
    propagated: bool = False
    routed_from: str | None = None  # the tagset's label, where the value was read as another (Target.routed_from)
    kept_as: str | None = None  # what a value kept on purpose was kept as, where the rule says (Surrogate.kept_as)


@dataclass(frozen=True, slots=True)
class Result:
    """A pseudonymised document and the record of every replacement in it."""

    source: Document
    document: Document
    replacements: tuple[Replacement, ...]


@dataclass(frozen=True, slots=True)
class Target:
    """A span to replace, with what the tagset says about it: its canonical label, the role of
    the person (patient, staff) and the kind of unit where the tagset tells them. `routed_from`
    is the canonical label the tagset gave, where the value did not look like it and was read as
    one of its `may_be` labels (a Location "GH" read as a hospital)."""

    span: Span
    text: str
    label: str
    role: str | None = None
    kind: str | None = None
    routed_from: str | None = None


@dataclass(frozen=True, slots=True)
class Tagged:
    """A document as the rules see it: its text, every span with its canonical label, and the
    start offsets of the spans that get surrogates (the others are kept, redacted or tagged)."""

    document: Document
    targets: tuple[Target, ...]
    replaced: frozenset[int]

    @property
    def id(self) -> str:
        return self.document.id

    @property
    def text(self) -> str:
        return self.document.text

    def labelled(self, *labels: str) -> list[Target]:
        return [t for t in self.targets if t.label in labels]
