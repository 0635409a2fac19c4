"""Given names by age where the English lists carry no mean age: a person whose age the record
does not tell, or a grown-up, is drawn with the weights adults bear names with (the 1990 census:
people alive in 1990, the adults of today and of 2000s records), a child among the SSA births of
1930-2023."""

import collections

from en_helpers import document, run_many

from pseudo.api import pseudonymise
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.keyed import Keyring
from pseudo.lists.names import name_lists
from pseudo.lists.pack import load_pack

EVERY = 10**9


def lists():
    return name_lists(load_pack("en"), 2.0)


def test_a_person_of_no_told_age_and_an_adult_draw_among_the_adults_names():
    names = lists()
    adults = set(names.adults["male"].items)
    for age in (None, 40):
        assert set(names.pool_by_age("male", EVERY, age).items) <= adults
    assert "Kennedy" not in set(names.pool_by_age("female", EVERY, None).items)


def test_a_scope_of_many_men_never_runs_out_of_names():
    """A pool of the adults' names alone (1,120 men's) ran out in a corpus scope: a review saw 374
    of 700 men share a surrogate; drawn again among every name at the first meeting, a fifth of 300
    men got names of the 2000s. A name given already, or an original of the scope, is drawn again
    among the adults' free names, and among every free name once none is left."""
    adults = set(lists().adults["male"].items)
    for count in (300, 1000):
        surnames = load_pack("en").weighted("last_names")
        names = [n for n in load_pack("en").weighted("first_names_male").items if not surnames.weight(n)][:count]  # no "Davis", read as a surname
        docs = [document(f"Mr. {n} Smith is a 60 year old man.", [(f"{n} Smith", "PATIENT")], doc_id=f"d{i}") for i, n in enumerate(names)]
        results = pseudonymise(docs, Settings(config=parse_config({"locale": "en", "scope": "corpus"}), keyring=Keyring(b"k"))).results
        given = collections.Counter(r.replacements[0].surrogate.split()[0] for r in results)
        assert len(given) == count, given.most_common(3)
        if count == 300:
            assert sum(name not in adults for name in given) <= 3, [name for name in given if name not in adults]


def test_a_child_draws_among_every_birth_of_the_ssa_lists():
    names = lists()
    assert names.pool_at("female", 100, 6) is None  # the SSA lists carry no mean age
    assert names.pool_by_age("female", EVERY, 6).items == names.pool("female", EVERY).items


def test_a_childs_stated_age_reaches_the_draw():
    """A review found every English person drawn as of no told age: a 4-year-old girl became
    "Dorothy" or "Shirley"."""
    adults = set(lists().adults["female"].items)
    text = "Patient: Kaylee Smith, a 4 year old girl, was seen with her mother."
    drawn = [out[0].split()[0] for out in run_many(text, [("Kaylee Smith", "PATIENT"), ("4", "AGE")], keys=40)]
    assert any(name not in adults for name in drawn), drawn  # "Kinsley": every adult-weighted draw had missed the SSA-only names


def test_an_elderly_patients_husband_gets_a_name_adults_bear():
    """"Husband Rich Martino" had become "Tristan Clay", a name of the 2000s."""
    adults = set(lists().adults["male"].items)
    text = "SOCIAL: Husband Rich Martino in to visit, she is 81."
    drawn = [out[0].split()[0] for out in run_many(text, [("Rich Martino", "PERSON")], keys=40)]
    assert sum(name not in adults for name in drawn) <= 2, drawn


def test_a_spanish_double_surname_the_census_fuses_is_listed_but_never_drawn():
    """"MRS LOPEZGARCIA" (PhysioNet round 43): the 2010 census writes double Spanish surnames as one
    word; they stay in the list, so an original is read as a surname, but weigh nothing in a draw."""
    surnames = load_pack("en").weighted("last_names")
    assert 0 < surnames.weight("Lopezgarcia") <= 1 and surnames.weight("Villarreal") > 10000
