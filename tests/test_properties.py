"""Hypothesis properties of the invariants, on random documents over the tiny pack."""

from conftest import PACKS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pseudo.api import pseudonymise
from pseudo.engine import Settings
from pseudo.keyed import Keyring
from pseudo.model import Document, Span

FIRST = [line.split("\t")[0] for line in (PACKS / "tiny" / "first_names_female.tsv").read_text().splitlines()[1:]]
LAST = [line.split("\t")[0] for line in (PACKS / "tiny" / "last_names.tsv").read_text().splitlines()[1:]]

values = st.one_of(
    st.tuples(st.sampled_from(FIRST), st.just("FIRST_NAME")),
    st.tuples(st.sampled_from(LAST), st.just("LAST_NAME")),
    st.tuples(st.from_regex(r"0(8|31|40)-[1-9]\d{2} \d{2} \d{2}", fullmatch=True), st.just("PHONE")),
    st.tuples(st.from_regex(r"[A-Z]{2}[0-9]{3,6}", fullmatch=True), st.just("ID")),
    st.tuples(st.integers(20, 99).map(lambda n: f"{n} år"), st.just("AGE")),
    st.tuples(st.from_regex(r"[a-z]{3,8}\.[a-z]{3,8}@[a-z]{4,9}\.se", fullmatch=True), st.just("EMAIL")),
)
fillers = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12).map(lambda s: f" {s} ")


@st.composite
def documents(draw):
    pieces = draw(st.lists(st.tuples(fillers, values), min_size=1, max_size=8))
    text, spans = "", []
    for filler, (value, label) in pieces:
        text += filler
        spans.append(Span(len(text), len(text) + len(value), label))
        text += value
    text += draw(fillers)
    return Document("doc", text, tuple(spans), {"locale": "tiny"}).validated()


def apply(document, key=b"property-key"):
    [result] = pseudonymise([document], Settings(keyring=Keyring(key))).results
    return result


common = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(documents())
def test_text_outside_spans_is_preserved_in_order(document):
    result = apply(document)
    outside_in = [document.text[a.end : b.start] for a, b in zip((Span(0, 0, ""),) + document.spans, document.spans + (Span(len(document.text), 0, ""),))]
    spans_out = result.document.spans
    outside_out = [
        result.document.text[a.end : b.start]
        for a, b in zip((Span(0, 0, ""),) + spans_out, spans_out + (Span(len(result.document.text), 0, ""),))
    ]
    assert outside_in == outside_out


@common
@given(documents())
def test_output_spans_slice_to_their_surrogates_with_the_same_labels(document):
    result = apply(document)
    assert [s.label for s in result.document.spans] == [s.label for s in document.spans]
    for span, replacement in zip(result.document.spans, result.replacements):
        assert result.document.text[span.start : span.end] == replacement.surrogate


@common
@given(documents())
def test_no_surrogate_equals_its_original(document):
    result = apply(document)
    for replacement in result.replacements:
        original = document.text[replacement.span.start : replacement.span.end]
        assert replacement.surrogate.casefold() != original.casefold()


@common
@given(documents())
def test_the_same_key_gives_identical_output(document):
    assert apply(document).document == apply(document).document


@common
@given(st.lists(documents(), min_size=8, max_size=8))
def test_another_key_gives_other_output(batch):
    """Each document its own scope, so eight independent draws: equal output by chance is ~1e-10."""
    batch = [Document(f"doc{i}", d.text, d.spans, d.meta) for i, d in enumerate(batch)]
    assert [apply(d).document.text for d in batch] != [apply(d, b"another").document.text for d in batch]
