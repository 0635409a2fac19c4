"""English (US) pack checks beyond the shared lint (tests/test_pack_lint.py)."""

from __future__ import annotations

from pseudo.lists.pack import load_pack
from pseudo.lists.tree import Place

KINDS = {"continent": None, "country": "continent", "capital": "country", "state": "country",
         "county": "state", "city": ("county", "state")}  # fmt: skip


def test_a_first_name_tells_one_gender():
    pack = load_pack("en")
    female, male = (set(pack.weighted(f"first_names_{g}").items) for g in ("female", "male"))
    assert not female & male
    assert {"Mary", "Jennifer"} <= female and {"Michael", "James"} <= male


def test_no_first_name_is_what_the_ssa_records_for_a_child_not_yet_named():
    """"HOUSE STAFF mary souza AWARE" had become "unknown davis": the SSA files count "Unknown"."""
    pack = load_pack("en")
    names = {n.casefold() for g in ("female", "male") for n in pack.weighted(f"first_names_{g}").items}
    assert not names & {"unknown", "baby", "infant", "male", "female", "babyboy", "babygirl", "boy", "girl"}


def test_surnames_published_in_capitals_are_written_as_names():
    surnames = set(load_pack("en").weighted("last_names").items)
    assert {"Smith", "McDonald", "Obrien"} <= surnames and "SMITH" not in surnames  # the census drops apostrophes


def test_states_hold_counties_that_hold_cities_and_records_abbreviations_find_states():
    tree = load_pack("en").tree()
    for place in tree.places.values():
        parent = tree.parent(place)
        wanted = KINDS[place.kind]
        assert (parent is None) if wanted is None else parent.kind in (wanted if isinstance(wanted, tuple) else (wanted,))
    assert [p.name for p in tree.lookup("MA") if p.kind == "state"] == ["Massachusetts"]
    assert any(p.kind == "country" for p in tree.lookup("USA"))
    assert any(tree.ancestor(p, "state").name == "Massachusetts" for p in tree.lookup("Boston") if p.kind == "city")


def test_zip_codes_belong_to_cities_of_their_state():
    pack = load_pack("en")
    tree = pack.tree()
    places = {r["postcode"]: tree.places[r["place_id"]] for r in pack.rows("postal_codes")}
    assert all(isinstance(p, Place) and p.kind == "city" for p in places.values())
    assert tree.ancestor(places["02115"], "state").name == "Massachusetts"
    assert tree.ancestor(places["60614"], "state").name == "Illinois"


def test_area_codes_are_us_only_and_name_a_state_or_city_of_the_tree():
    pack = load_pack("en")
    tree = pack.tree()
    codes = {r["code"]: r["place"] for r in pack.rows("phone_area_codes")}
    assert codes["617"] == "Massachusetts" and codes["212"] == "New York" and codes["202"] == "District of Columbia"
    assert "416" not in codes and "204" not in codes  # Toronto, Manitoba
    assert all(tree.lookup(place) for place in codes.values())


def test_streets_are_real_names_with_their_type_word():
    pack = load_pack("en")
    streets = pack.weighted("streets").items
    assert {"Main Street", "2nd Avenue", "Oak Drive", "Broadway"} <= set(streets) and "Main Turnpike" not in streets
    chicago = next(p for p in pack.tree().lookup("Chicago") if p.kind == "city" and p.weight > 1_000_000)
    town_streets = {(r["place_id"], r["name"]) for r in pack.rows("town_streets")}
    assert (chicago.id, "Ashland Avenue") in town_streets
    assert all(not name.isupper() for name in streets) and all(not name.isupper() for _, name in town_streets)
