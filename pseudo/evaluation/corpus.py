"""Originals and their pseudonymised versions, paired by document id and checked for alignment.

A pseudonymised document keeps every span of its original, in order and with its label, and
every character outside the spans; only span text changes, and `--propagate` may add spans on
untagged repetitions of tagged values and on untagged dates that followed the clock. That lets a
position outside the spans be carried from one version to the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Mapping, Sequence

import regex

from pseudo.api import read_documents
from pseudo.config import Config
from pseudo.datetext import DateWords, date_words, find_dates
from pseudo.engine import Engine, Settings
from pseudo.errors import PseudoError
from pseudo.labels import LabelMapping
from pseudo.model import Document, Span
from pseudo.sweep import address_at

_WORD_CHAR = regex.compile(r"\w")  # as `pseudo apply --propagate` bounds a repeated value


def read_corpus(source: str, fmt: str = "auto") -> list[Document]:
    """Every document of an input; an unreadable document or a repeated id stops the command."""
    return read_documents(source, fmt)[0].documents


@dataclass(frozen=True)
class Link:
    """A span of the output and the stretch of the original it replaced.

    `added` marks a span `pseudo apply --propagate` put on an untagged repetition of a tagged
    value or on an untagged date: the original has no span there, only that text.
    """

    original: Span
    output: Span
    added: bool = False


@dataclass(frozen=True)
class Alignment:
    links: tuple[Link, ...] = ()
    problem: str | None = None  # why the versions do not correspond, in offsets and labels only


@dataclass(frozen=True)
class Pair:
    """An original and its output. Given `date_labels` and the locale's date `words`, an added
    span of a date label may also stand on an untagged date (one that followed the clock)."""

    original: Document
    output: Document
    date_labels: frozenset[str] = frozenset()
    words: DateWords | None = None
    email_labels: frozenset[str] = frozenset()  # the input labels of e-mail addresses: where an untagged one was added

    @property
    def id(self) -> str:
        return self.original.id

    @cached_property
    def alignment(self) -> Alignment:
        return _align(self.original, self.output, self.date_labels, self.words, self.email_labels)


@dataclass(frozen=True)
class Pairing:
    pairs: list[Pair]
    only_original: list[str]
    only_output: list[str]


def with_dates(pairs: Sequence[Pair], config: Config, tagset: str | None = None, locale: str | None = None) -> list[Pair]:
    """The pairs with what aligns an untagged date that followed the clock (the input labels of
    dates and the date words of each document's locale) or an untagged address that followed its
    person (the input labels of e-mail addresses)."""
    engine = Engine(Settings(config=config, tagset=tagset, locale=locale))
    labels = engine.label_map([p.original for p in pairs]) if pairs else {}
    dated = frozenset(label for label, mapping in labels.items() if mapping.label == "DATE")
    mailed = frozenset(label for label, mapping in labels.items() if mapping.label == "EMAIL")
    order = config.rule_options("dates")["order"]
    out = []
    for pair in pairs:
        try:
            pack = engine.pack_for(pair.original)
        except PseudoError:  # no such locale: the default date words
            pack = None
        out.append(Pair(pair.original, pair.output, dated, date_words(pack, order), mailed))
    return out


def pair_documents(originals: Sequence[Document], outputs: Sequence[Document]) -> Pairing:
    by_id = {d.id: d for d in outputs}
    pairs = [Pair(d, by_id[d.id]) for d in originals if d.id in by_id]
    known = {d.id for d in originals}
    return Pairing(
        pairs,
        [d.id for d in originals if d.id not in by_id],
        [d.id for d in outputs if d.id not in known],
    )


def _align(
    old: Document, new: Document, date_labels: frozenset[str] = frozenset(), words: DateWords | None = None, email_labels: frozenset[str] = frozenset()
) -> Alignment:
    """Walk both versions span by span: the text between spans must be identical, each original
    span must come back with its label, and an output span with no original span must stand
    where the original repeats one of its tagged values of that label (a propagated span), where
    it writes an e-mail address (one a tagged name made propagate) or, for a date label, where the
    original writes a date (one that followed the clock)."""
    links: list[Link] = []
    old_cursor = new_cursor = index = 0
    for position, span in enumerate(new.spans):
        old_start = old_cursor + span.start - new_cursor
        if old.text[old_cursor:old_start] != new.text[new_cursor : span.start]:
            return Alignment(problem=f"text outside the spans differs: original {old_cursor}-{old_start}, output {new_cursor}-{span.start}")
        tagged = old.spans[index] if index < len(old.spans) else None
        if tagged is not None and tagged.start < old_start:
            return Alignment(problem=f"original span {tagged.start}-{tagged.end} has no span in the output")
        if tagged is not None and tagged.start == old_start:
            if tagged.label != span.label:
                return Alignment(problem=f"labels differ: original span {tagged.start}-{tagged.end}, output span {span.start}-{span.end}")
            links.append(Link(tagged, span))
            index += 1
        else:
            following = new.spans[position + 1].start if position + 1 < len(new.spans) else len(new.text)
            after = new.text[span.end : following]
            length = _repeated_value(old, old_start, span.label, after)
            if length is None and span.label in date_labels and words is not None:
                length = _followed_date(old.text, old_start, words, after)
            if length is None and span.label in email_labels and (found := address_at(old.text, old_start)) is not None and old.text.startswith(after, old_start + found):
                length = found  # an untagged address of a tagged person's name
            if length is None:
                return Alignment(problem=f"output span {span.start}-{span.end} stands where the original has no span")
            links.append(Link(Span(old_start, old_start + length, span.label), span, added=True))
        old_cursor, new_cursor = links[-1].original.end, span.end
    if index < len(old.spans):
        return Alignment(problem=f"{len(old.spans)} span(s) in the original, {index} of them in the output")
    if old.text[old_cursor:] != new.text[new_cursor:]:
        return Alignment(problem=f"text outside the spans differs: original {old_cursor}-{len(old.text)}, output {new_cursor}-{len(new.text)}")
    return Alignment(tuple(links))


def _repeated_value(document: Document, start: int, label: str, after: str) -> int | None:
    """The length of the tagged value of `label` that the original repeats at `start` as a whole
    word (case aside) and that the output's next stretch of text follows; the longest wins."""
    text = document.text
    for length in sorted({s.end - s.start for s in document.spans if s.label == label}, reverse=True):
        end = start + length
        values = {document.span_text(s).casefold() for s in document.spans if s.label == label and s.end - s.start == length}
        whole_word = (start == 0 or not _WORD_CHAR.match(text, start - 1)) and not _WORD_CHAR.match(text, end)
        if text[start:end].casefold() in values and whole_word and text.startswith(after, end):
            return length
    return None


LONGEST_DATE = 80  # characters an untagged date is read in


def _followed_date(text: str, start: int, words: DateWords, after: str) -> int | None:
    """The length of the date the original writes at `start`, which the output's next stretch of
    text follows."""
    for expression in find_dates(text, words, start, min(len(text), start + LONGEST_DATE)):
        if expression.start == start and text.startswith(after, expression.end):
            return expression.end - start
    return None


def to_output(pair: Pair, position: int) -> int:
    """Carry a position outside the spans (or on a span's edge) from the original to the output."""
    shift = 0
    for link in pair.alignment.links:
        if link.original.end <= position:
            shift = link.output.end - link.original.end
        elif link.original.start >= position:
            break
        else:
            raise ValueError(f"position {position} is inside span {link.original.start}-{link.original.end}")
    return position + shift


def label_map(documents: Sequence[Document], config: Config, tagset: str | None) -> Mapping[str, LabelMapping]:
    """Input label -> canonical label, exactly as the engine would resolve it."""
    return Engine(Settings(config=config, tagset=tagset)).label_map(documents)
