"""Given names by age where the English lists carry no mean age: a person whose age the record
does not tell, or a grown-up, is drawn among the names of people alive in 1990 (the adults of
today and of 2000s records), a child among the SSA births of 1930-2023."""

from en_helpers import run_many

from pseudo.lists.names import name_lists
from pseudo.lists.pack import load_pack

EVERY = 10**9


def lists():
    return name_lists(load_pack("en"), 2.0)


def test_a_person_of_no_told_age_and_an_adult_draw_among_the_adults_names():
    names = lists()
    adults = set(names.adults["male"].items)
    assert set(names.pool_by_age("male", EVERY, None).items) <= adults
    assert set(names.pool_by_age("male", EVERY, 40).items) <= adults
    assert "Kennedy" not in set(names.pool_by_age("female", EVERY, None).items)


def test_a_child_draws_among_every_birth_of_the_ssa_lists():
    names = lists()
    assert names.pool_by_age("female", EVERY, 6).items == names.pool("female", EVERY).items
    assert "Kennedy" in set(names.pool_by_age("female", EVERY, 6).items)


def test_an_elderly_patients_husband_gets_a_name_adults_bear():
    """"Husband Rich Martino" had become "Tristan Clay", a name of the 2000s."""
    adults = set(lists().adults["male"].items)
    text = "SOCIAL: Husband Rich Martino in to visit, she is 81."
    drawn = [out[0].split()[0] for out in run_many(text, [("Rich Martino", "PERSON")], keys=40)]
    assert all(name in adults for name in drawn), drawn
