"""Originals and their pseudonymised versions, paired by document id and checked for alignment.

A pseudonymised document keeps every span of its original, in order and with its label, and
every character outside the spans; only span text changes. That lets a position outside the
spans be carried from one version to the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from pseudo.config import Config
from pseudo.engine import Engine, Settings
from pseudo.errors import InputError
from pseudo.io import read_input
from pseudo.labels import LabelMapping
from pseudo.model import Document


def read_corpus(source: str, fmt: str = "auto") -> list[Document]:
    """Every document of an input; an unreadable document or a repeated id stops the command."""
    batch = read_input(source, fmt)
    if batch.errors:
        raise batch.errors[0]
    seen: set[str] = set()
    for document in batch.documents:
        if document.id in seen:
            raise InputError(f"document id {document.id!r} occurs twice", source)
        seen.add(document.id)
    return batch.documents


@dataclass(frozen=True)
class Pair:
    original: Document
    output: Document

    @property
    def id(self) -> str:
        return self.original.id


@dataclass(frozen=True)
class Pairing:
    pairs: list[Pair]
    only_original: list[str]
    only_output: list[str]


def pair_documents(originals: Sequence[Document], outputs: Sequence[Document]) -> Pairing:
    by_id = {d.id: d for d in outputs}
    pairs = [Pair(d, by_id[d.id]) for d in originals if d.id in by_id]
    known = {d.id for d in originals}
    return Pairing(
        pairs,
        [d.id for d in originals if d.id not in by_id],
        [d.id for d in outputs if d.id not in known],
    )


def misalignment(pair: Pair) -> str | None:
    """Why the two versions do not correspond, in offsets and labels only; None when they do."""
    old, new = pair.original, pair.output
    if len(old.spans) != len(new.spans):
        return f"{len(old.spans)} span(s) in the original, {len(new.spans)} in the output"
    old_cursor = new_cursor = 0
    for a, b in zip(old.spans + (None,), new.spans + (None,)):
        old_end = len(old.text) if a is None else a.start
        new_end = len(new.text) if b is None else b.start
        if old.text[old_cursor:old_end] != new.text[new_cursor:new_end]:
            return f"text outside the spans differs: original {old_cursor}-{old_end}, output {new_cursor}-{new_end}"
        if a is None or b is None:
            break
        if a.label != b.label:
            return f"labels differ: original span {a.start}-{a.end}, output span {b.start}-{b.end}"
        old_cursor, new_cursor = a.end, b.end
    return None


def to_output(pair: Pair, position: int) -> int:
    """Carry a position outside the spans (or on a span's edge) from the original to the output."""
    shift = 0
    for a, b in zip(pair.original.spans, pair.output.spans):
        if a.end <= position:
            shift = b.end - a.end
        elif a.start >= position:
            break
        else:
            raise ValueError(f"position {position} is inside span {a.start}-{a.end}")
    return position + shift


def label_map(documents: Sequence[Document], config: Config, tagset: str | None) -> Mapping[str, LabelMapping]:
    """Input label -> canonical label, exactly as the engine would resolve it."""
    return Engine(Settings(config=config, tagset=tagset)).label_map(documents)
