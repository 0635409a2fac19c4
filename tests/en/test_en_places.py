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
