"""Hypothesis properties of the invariants, on random documents over the tiny pack."""

from conftest import PACKS
from hypothesis import example, given
from hypothesis import strategies as st
from property_checks import (
    apply,
    assert_no_original_survives,
    assert_one_surrogate_per_value,
    assert_same_key_same_output,
    assert_spans_slice_to_their_surrogates,
    assert_text_outside_spans_is_kept,
    common,
    twice,
)
from property_checks import documents as documents_of

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


def documents():
    return documents_of(values, "tiny")


@common
@given(documents())
def test_text_outside_spans_is_preserved_in_order(document):
    assert_text_outside_spans_is_kept(document, apply(document))


@common
@given(documents())
def test_output_spans_slice_to_their_surrogates_with_the_same_labels(document):
    assert_spans_slice_to_their_surrogates(document, apply(document))


@common
@given(documents())
def test_no_surrogate_equals_its_original(document):
    assert_no_original_survives(document, apply(document))


@common
@given(documents().map(twice))
@example(twice(Document("doc", "  Kim 0 Anna  ", (Span(2, 5, "FIRST_NAME"), Span(8, 12, "FIRST_NAME")), {"locale": "tiny"})))
def test_one_surrogate_per_value(document):
    """"Kim" alone, then "Kim" read with "Anna" as one woman: one surrogate still (the scope keeps
    the gender a given name was first drawn with where no title or kinship word says otherwise)."""
    assert_one_surrogate_per_value(document, apply(document))


@common
@given(documents())
def test_the_same_key_gives_identical_output(document):
    assert_same_key_same_output(document)


@common
@given(st.lists(documents(), min_size=8, max_size=8))
def test_another_key_gives_other_output(batch):
    """Each document its own scope, so eight independent draws: equal output by chance is ~1e-10."""
    batch = [Document(f"doc{i}", d.text, d.spans, d.meta) for i, d in enumerate(batch)]
    assert [apply(d).document.text for d in batch] != [apply(d, b"another").document.text for d in batch]
