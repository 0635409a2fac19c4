"""The invariants every pack's hypothesis properties check, shared so each pack's test only says
which values its documents hold (test_properties.py over the tiny pack, tests/en for English)."""

from __future__ import annotations

import regex
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pseudo.api import pseudonymise
from pseudo.config import Config, parse_config
from pseudo.engine import Settings
from pseudo.keyed import Keyring
from pseudo.model import Document, Result, Span

fillers = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12).map(lambda s: f" {s} ")
sentences = fillers.map(lambda s: f"{s}. ")  # a sentence end between values: two names side by side read as one person
common = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def documents(values: st.SearchStrategy, locale: str, max_values: int = 8, between: st.SearchStrategy = fillers) -> st.SearchStrategy:
    """Documents of `locale` whose spans are drawn (value, label) pairs between random fillers."""

    @st.composite
    def build(draw):
        pieces = draw(st.lists(st.tuples(between, values), min_size=1, max_size=max_values))
        text, spans = "", []
        for filler, (value, label) in pieces:
            text += filler
            spans.append(Span(len(text), len(text) + len(value), label))
            text += value
        text += draw(between)
        return Document("doc", text, tuple(spans), {"locale": locale}).validated()

    return build()


def twice(document: Document) -> Document:
    """The document written twice over, so every value comes back at least once."""
    shift = len(document.text)
    again = tuple(Span(s.start + shift, s.end + shift, s.label) for s in document.spans)
    return Document(document.id, document.text * 2, document.spans + again, document.meta).validated()


def apply(document: Document, key: bytes = b"property-key", config: Config | None = None) -> Result:
    settings = Settings(keyring=Keyring(key), config=config) if config else Settings(keyring=Keyring(key))
    [result] = pseudonymise([document], settings).results
    return result


# Every level replaced: a region kept on purpose (a US state, a Spanish province) is no surviving original.
REPLACE_EVERY_PLACE = parse_config({"rules": {"places": {"keep": "none"}}})


def _outside(text: str, spans: tuple[Span, ...]) -> list[str]:
    edges = (Span(0, 0, ""),) + spans, spans + (Span(len(text), 0, ""),)
    return [text[a.end : b.start] for a, b in zip(*edges)]


def assert_text_outside_spans_is_kept(document: Document, result: Result) -> None:
    assert _outside(document.text, document.spans) == _outside(result.document.text, result.document.spans)


def assert_spans_slice_to_their_surrogates(document: Document, result: Result) -> None:
    assert [s.label for s in result.document.spans] == [s.label for s in document.spans]
    for span, replacement in zip(result.document.spans, result.replacements):
        assert result.document.text[span.start : span.end] == replacement.surrogate


def assert_no_original_survives(document: Document, result: Result) -> None:
    """No surrogate is its original, nor holds it as a run of words."""
    for replacement in result.replacements:
        original = document.text[replacement.span.start : replacement.span.end]
        assert replacement.surrogate.casefold() != original.casefold()
        if len(original) >= 4 and any(c.isalpha() for c in original):
            assert not regex.search(rf"(?<!\w){regex.escape(original)}(?!\w)", replacement.surrogate, regex.IGNORECASE), (original, replacement.surrogate)


def assert_one_surrogate_per_value(document: Document, result: Result) -> None:
    """A value written twice with one label is replaced the same way both times."""
    seen: dict[tuple[str, str], str] = {}
    for replacement in result.replacements:
        original = document.text[replacement.span.start : replacement.span.end]
        assert seen.setdefault((original, replacement.label), replacement.surrogate) == replacement.surrogate, original


def assert_same_key_same_output(document: Document) -> None:
    assert apply(document).document == apply(document).document
