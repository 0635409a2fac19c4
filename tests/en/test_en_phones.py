"""US phones follow the record's surrogate town: its own exchanges, else its state's area codes."""

from __future__ import annotations

import regex
from en_helpers import run_many

from pseudo.digits import digits_of
from pseudo.lists.pack import load_pack
from pseudo.lists.numbering import numbering_plan


def _surrogate_city(city: str, state: str):
    tree = load_pack("en").tree()
    return next(p for p in tree.lookup(city) if p.kind == "city" and tree.ancestor(p, "state").extra["code"] == state)


def test_a_phone_takes_an_exchange_of_the_surrogate_town_or_an_area_code_of_its_state():
    pack = load_pack("en")
    plan, tree = numbering_plan(pack), pack.tree()
    text = "Lives in Boston, MA. Phone (617) 555-0134."
    spans = [("Boston", "PLACE"), ("MA", "REGION"), ("(617) 555-0134", "PHONE")]
    own = 0
    for city, state, phone in run_many(text, spans, keys=40):
        town = _surrogate_city(city, state)
        national = digits_of(phone)
        listed = plan.town_exchanges.get(town.id)
        if listed:
            own += 1
            assert (national[:3], national[3:6]) in listed, (city, state, phone)
        else:
            state_name = tree.ancestor(town, "state").name
            assert (national[:3], state_name) in plan.regions or (national[:3], town.name) in plan.regions, (city, state, phone)
    assert own >= 10  # most surrogate towns (weighted by population) have exchanges of their own


def test_one_number_in_several_layouts_gets_one_surrogate_in_each_layout():
    layouts = ["617-555-0134", "+1 617 555 0134", "(617) 555-0134", "1-617-555-0134"]
    text = "Boston, MA. " + "; ".join(layouts)
    shape = lambda t: regex.sub(r"\d", "9", t)  # noqa: E731
    for drawn in run_many(text, [("Boston", "PLACE"), *((t, "PHONE") for t in layouts)]):
        numbers = drawn[1:]
        assert len({digits_of(n)[-10:] for n in numbers}) == 1, numbers
        assert [shape(n) for n in numbers] == [shape(t) for t in layouts]
        assert digits_of(numbers[1]).startswith("1") and digits_of(numbers[0]) != "6175550134"
