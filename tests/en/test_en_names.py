"""Given names by age where the English lists carry no mean age: a person whose age the record
does not tell, or a grown-up, is drawn with the weights adults bear names with (the 1990 census:
people alive in 1990, the adults of today and of 2000s records), a child among the SSA births of
1930-2023."""

from en_helpers import run_many

from pseudo.lists.names import ADULT_RARITY, name_lists
from pseudo.lists.pack import load_pack

EVERY = 10**9


def lists():
    return name_lists(load_pack("en"), 2.0)


def outside_share(pool, adults: set[str]) -> float:
    return sum(w for n, w in zip(pool.items, pool.weights) if n not in adults) / sum(pool.weights)


def test_a_person_of_no_told_age_and_an_adult_draw_mostly_among_the_adults_names():
    names = lists()
    adults = set(names.adults["male"].items)
    for age in (None, 40):
        pool = names.pool_by_age("male", EVERY, age)
        assert outside_share(pool, adults) < 0.05 and pool.items[:3] == names.adults["male"].items[:3]
    assert names.pool_by_age("female", EVERY, None).share("Kennedy") < ADULT_RARITY * names.pool("female", EVERY).share("Kennedy") * 2


def test_the_adults_pool_keeps_every_name_so_a_scope_of_many_people_finds_one_unused_for_each():
    """A pool of the adults' names alone (1,120 men's names) ran out in a corpus scope: a review
    saw 374 of 700 men share a surrogate."""
    names = lists()
    assert set(names.pool_by_age("male", EVERY, None).items) == set(names.pool("male", EVERY).items)


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
