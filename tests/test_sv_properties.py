"""Property: a surrogate first name is a census name of the required gender (its kinship cue's, or
a cued mention's of the same name, else its list's), whatever the name, cue and key; and two
different originals of one gender never share a surrogate."""

from __future__ import annotations

from conftest import make_doc, run, surrogate_texts
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sv_helpers import rows

from pseudo.lists.pack import load_pack
from pseudo.lists.names import name_lists

CENSUS = {g: {r["name"] for r in rows(f"first_names_{g}.tsv")} for g in ("female", "male")}
NAMES = sorted({r["name"] for g in ("female", "male") for r in rows(f"first_names_{g}.tsv")[:300] if r["name"].isalpha()})  # doubles: test_sv_rules
CUES = {"Mamma": "female", "Mor": "female", "syster": "female", "dottern": "female", "hustru": "female",
        "Pappa": "male", "Bror": "male", "sonen": "male", "morfar": "male", "maken": "male", "": None}  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    first=st.tuples(st.sampled_from(sorted(CUES)), st.sampled_from(NAMES)),
    second=st.tuples(st.sampled_from(sorted(CUES)), st.sampled_from(NAMES)),
    key=st.binary(min_size=1, max_size=8),
)
@example(first=("Bror", "Bror"), second=("Mamma", "Bror"), key=b"\x00")  # a name spelled as its cue
def test_surrogates_belong_to_the_census_list_of_the_required_gender(first, second, key):
    lists = name_lists(load_pack("sv"), 3.0)
    text = f"{first[0]} {first[1]} ringde. Sedan {second[0]} {second[1]}."
    one = len(first[0]) + 1  # by offset: a name may be spelled as its cue ("Bror Bror")
    two = text.rindex(f" {second[1]}.") + 1
    spans = [(one, one + len(first[1]), "FIRST_NAME"), (two, two + len(second[1]), "FIRST_NAME")]
    [out] = run(make_doc(text, spans, locale="sv"), key=key)
    surrogates = surrogate_texts(out)
    wanted = []
    cued = {name: CUES[cue] for cue, name in (first, second) if CUES[cue]}
    if first[1] == second[1] and len({CUES[first[0]], CUES[second[0]]} - {None}) > 1:
        cued.pop(first[1])  # cues that disagree: each mention keeps its own
    for (cue, name), surrogate in zip((first, second), surrogates):
        gender = CUES[cue] or cued.get(name) or lists.gender(name)
        wanted.append(gender)
        if gender in ("female", "male"):
            assert surrogate in CENSUS[gender] and lists.gender(surrogate) == gender
        else:
            assert lists.gender(surrogate) == "neutral"
    if first[1] != second[1] and wanted[0] == wanted[1]:
        assert surrogates[0] != surrogates[1]
