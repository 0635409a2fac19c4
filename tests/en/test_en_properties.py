"""Hypothesis properties of the invariants on random English documents over the real en pack:
names, US phones, dates, places, streets, ZIP codes, ages, SSNs and e-mail addresses."""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_checks import (
    REPLACE_EVERY_PLACE,
    apply,
    assert_no_original_survives,
    assert_one_surrogate_per_value,
    assert_same_key_same_output,
    assert_spans_slice_to_their_surrogates,
    assert_text_outside_spans_is_kept,
    documents,
    sentences,
    twice,
)

from pseudo.lists.pack import load_pack

PACK = load_pack("en")
FIRST = [r["name"] for g in ("female", "male") for r in PACK.rows(f"first_names_{g}")[:200]]
LAST = [r["name"] for r in PACK.rows("last_names")[:300]]
CITIES = sorted(p.name for p in PACK.tree().of_kind("city") if p.weight >= 200_000)
STATES = sorted(n for p in PACK.tree().of_kind("state") for n in (p.name, p.extra["code"]))
ZIPS = sorted(r["postcode"] for r in PACK.rows("postal_codes"))[::97]
STREETS = sorted({r["name"] for r in PACK.rows("town_streets")})[::7]
WHOLE_DATES = ("%m/%d/%Y", "%-m/%-d/%y", "%Y-%m-%d", "%B %-d, %Y", "%A, %B %-d, %Y")


def dates(layouts: tuple[str, ...]) -> st.SearchStrategy:
    return st.tuples(st.dates(dt.date(1940, 1, 1), dt.date(2020, 12, 31)), st.sampled_from(layouts)).map(lambda d: d[0].strftime(d[1]))


whole_values = st.one_of(
    st.tuples(st.sampled_from(FIRST), st.just("PERSON")),
    st.tuples(st.tuples(st.sampled_from(FIRST), st.sampled_from(LAST)).map(" ".join), st.just("PERSON")),
    st.tuples(st.from_regex(r"(\([2-9][0-9]{2}\) |[2-9][0-9]{2}-|\+1 [2-9][0-9]{2} )[2-9][0-9]{2}-[0-9]{4}", fullmatch=True), st.just("PHONE")),
    st.tuples(dates(WHOLE_DATES), st.just("DATE")),
    st.tuples(st.sampled_from(CITIES), st.just("PLACE")),
    st.tuples(st.sampled_from(STATES), st.just("REGION")),
    st.tuples(st.sampled_from(ZIPS), st.just("POSTCODE")),
    st.tuples(st.tuples(st.integers(1, 9999), st.sampled_from(STREETS)).map(lambda s: f"{s[0]} {s[1]}"), st.just("STREET")),
    st.tuples(st.integers(18, 89).map(lambda n: f"{n}-year-old"), st.just("AGE")),
    st.tuples(st.from_regex(r"[1-8][0-9]{2}-[1-9][0-9]-[1-9][0-9]{3}", fullmatch=True), st.just("ID")),
    st.tuples(st.from_regex(r"[a-z]{3,8}\.[a-z]{3,8}@(gmail|yahoo)\.com", fullmatch=True), st.just("EMAIL")),
)
# A date without its year ("Jan 1") takes the year of the record around it, so it is one value
# only within one year: the property of one surrogate per value leaves it out.
values = st.one_of(whole_values, st.tuples(dates(("%b %-d",)), st.just("DATE")))
english = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))  # generation is slow on a loaded machine


@english
@given(documents(values, "en"))
def test_text_outside_spans_is_preserved_in_order(document):
    assert_text_outside_spans_is_kept(document, apply(document))


@english
@given(documents(values, "en"))
def test_output_spans_slice_to_their_surrogates_with_the_same_labels(document):
    assert_spans_slice_to_their_surrogates(document, apply(document))


@english
@given(documents(values, "en"))
def test_no_original_survives(document):
    assert_no_original_survives(document, apply(document, config=REPLACE_EVERY_PLACE))


@english
@given(documents(whole_values, "en", between=sentences).map(twice))
def test_one_surrogate_per_value(document):
    assert_one_surrogate_per_value(document, apply(document))


@english
@given(documents(values, "en"))
def test_the_same_key_gives_identical_output(document):
    assert_same_key_same_output(document)
