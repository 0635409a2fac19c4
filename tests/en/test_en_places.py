"""US addresses through the generic places rule: number-first streets, state codes, one world."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from en_helpers import run_many

from pseudo.lists.pack import load_pack

RULES = Path(__file__).resolve().parents[2] / "pseudo" / "rules"


def test_a_number_first_street_keeps_its_order_and_unit():
    streets = set(load_pack("en").weighted("streets").items)
    text = "She lives at 221 Baker Street, Apt 4B and works at 1600 Elm St Suite 200."
    for home, work in run_many(text, [("221 Baker Street, Apt 4B", "STREET"), ("1600 Elm St Suite 200", "STREET")]):
        found = regex.fullmatch(r"([1-9]\d{0,2}) (.+), Apt ([1-9][A-F])", home)  # three digits: drawn small, 1-200
        assert found and found[2] in streets and found[2] != "Baker Street", home
        found = regex.fullmatch(r"([1-9]\d{3}) (.+) Suite ([1-9]\d{0,2})", work)
        assert found and found[2] in streets, work


@pytest.mark.parametrize("keep", [None, "none"])
def test_city_state_code_and_zip_stay_one_place(keep):
    """The state is kept by default (HIPAA Safe Harbor allows it) and the city drawn inside it;
    with `keep: none` the state is replaced too, and the three still agree."""
    pack = load_pack("en")
    tree = pack.tree()
    zips = {r["postcode"]: r["place_id"] for r in pack.rows("postal_codes")}
    text = "Home: Boston, MA 02115."
    config = {"rules": {"places": {"keep": keep}}} if keep else {}
    for city, state, zip_code in run_many(text, [("Boston", "PLACE"), ("MA", "REGION"), ("02115", "POSTCODE")], **config):
        assert regex.fullmatch(r"[A-Z]{2}", state) and (state != "MA" if keep else state == "MA") and city != "Boston"
        place = tree.places[zips[zip_code]]
        assert tree.ancestor(place, "state").extra["code"] == state
        assert any(tree.ancestor(p, "state").extra["code"] == state for p in tree.lookup(city) if p.kind == "city")


def test_the_rules_have_no_locale_special_case():
    for module in RULES.glob("*.py"):
        assert not regex.search(r"locale\s*[!=]=|code\s*[!=]=\s*['\"](?:en|es|sv)['\"]", module.read_text(encoding="utf-8")), module.name


def test_a_street_is_one_of_the_surrogate_city_else_a_common_national_name():
    pack = load_pack("en")
    tree = pack.tree()
    national = set(pack.weighted("streets").items)
    by_city: dict[str, set[str]] = {}
    for row in pack.rows("town_streets"):
        by_city.setdefault(row["place_id"], set()).add(row["name"])
    text = "Address: 221 Baker Street, Boston, MA 02115."
    spans = [("221 Baker Street", "STREET"), ("Boston", "PLACE"), ("MA", "REGION"), ("02115", "POSTCODE")]
    local = 0
    for street, city, state, _ in run_many(text, spans, keys=60):
        town = next(p for p in tree.lookup(city) if p.kind == "city" and tree.ancestor(p, "state").extra["code"] == state)
        name = street.split(" ", 1)[1]
        if town.id in by_city:
            local += 1
            assert name in by_city[town.id], (street, city, state)
        else:
            assert name in national, (street, city, state)
        assert not any(p.kind == "city" for p in tree.lookup(name)), street  # never a town's name ("810 Cambridge")
    assert local >= 3


def test_title_case_starts_a_word_never_a_letter_after_a_digit():
    from pseudo.casing import match_case

    assert match_case("Baker Street", "22nd Street") == "22nd Street"
    assert match_case("Baker Street", "main street") == "Main street" and match_case("BAKER ST", "22nd Street") == "22ND STREET"


def test_a_street_after_two_numbers_keeps_them_and_gets_a_street_name():
    streets = set(load_pack("en").weighted("streets").items)
    for (street,) in run_many("Lives at 9554 62 Baker Street Apt. 981.", [("9554 62 Baker Street Apt. 981", "STREET")]):
        found = regex.fullmatch(r"\d+ \d+ (.+) Apt\. \d+", street)
        assert found and found[1] in streets, street


def test_a_city_named_like_its_state_alone_in_the_country_is_drawn_as_any_city():
    """With every level replaced, "New York, NY" (the one US city named like its state) is drawn as
    any city, its state and ZIP following; with the state kept (the default) it reads as the
    state's namesake and stays, as a Spanish provincial capital does."""
    pack = load_pack("en")
    tree = pack.tree()
    zips = {r["postcode"]: r["place_id"] for r in pack.rows("postal_codes")}
    text = "Lives in New York, NY 10005."
    spans = [("New York", "PLACE"), ("NY", "REGION"), ("10005", "POSTCODE")]
    for city, state, zip_code in run_many(text, spans, rules={"places": {"keep": "none"}}):
        assert city != "New York" and state != "NY"
        assert tree.ancestor(tree.places[zips[zip_code]], "state").extra["code"] == state
    for city, state, zip_code in run_many(text, spans):
        assert (city, state) == ("New York", "NY") and zip_code != "10005"
        assert tree.ancestor(tree.places[zips[zip_code]], "state").extra["code"] == "NY"


def test_a_country_named_like_a_small_us_town_stays_a_country():
    countries = {p.name for p in load_pack("en").tree().of_kind("country")}
    for canada, finland in run_many("Moved from Canada, then Finland.", [("Canada", "PLACE"), ("Finland", "PLACE")]):
        assert canada in countries and finland in countries and "United States" not in (canada, finland)


def test_a_state_that_is_also_a_country_beside_its_city_stays_the_state():
    """'Atlanta, Georgia': Georgia the state (kept), not the country, so Atlanta stays in Georgia."""
    tree = load_pack("en").tree()
    for city, state in run_many("He lives in Atlanta, Georgia.", [("Atlanta", "PLACE"), ("Georgia", "PLACE")]):
        assert state == "Georgia", (city, state)
        assert any(tree.ancestor(p, "state") is not None and tree.ancestor(p, "state").name == "Georgia" for p in tree.lookup(city)), city


def test_a_hospital_named_like_a_town_of_another_state_stays_in_the_record_s_state():
    """"a retired electrician from Worcester, MA who presented to Saint Vincent Hospital" had put
    the hospital in Saint Paul, Minnesota: "Saint Vincent" is a town there too. A town a unit's
    name holds places it only where it lies in the kept region of the record's nearest place."""
    pack = load_pack("en")
    tree = pack.tree()
    state_of = {row["name"]: tree.ancestor(tree.places[row["place_id"]], "state").name for row in pack.rows("hospitals") if row["place_id"] in tree.places}
    text = "Retired electrician from Worcester, MA who presented to Saint Vincent Hospital with chest pain."
    spans = [("Worcester", "CITY"), ("MA", "STATE"), ("Saint Vincent Hospital", "HOSPITAL")]
    for _, state, hospital in run_many(text, spans, keys=8, tagset="i2b2-2014", rules={"healthcare": {"names": "catalogue"}}):
        assert state == "MA" and state_of.get(hospital) == "Massachusetts", hospital
