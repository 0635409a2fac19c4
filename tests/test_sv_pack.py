"""Swedish pack checks beyond the shared lint (tests/test_pack_lint.py): required lists, names, tree, phones."""

from __future__ import annotations

from pathlib import Path

import yaml
from sv_helpers import SV, places, rows

from pseudo.lists.pack import load_pack
from pseudo.lists.names import name_lists

ROOT = Path(__file__).resolve().parents[1]
REQUIRED = (
    "first_names_female", "first_names_male", "last_names", "locations", "postal_codes", "streets",
    "phone_area_codes", "phone_mobile_prefixes", "phone_fiction_ranges", "kinship", "titles",
    "healthcare_units", "professions",
)  # fmt: skip
# Names the census gives to many women and many men alike: the only ones allowed in both top-1000 lists.
BOTH_GENDERS = {"Alaa", "Charlie", "Hanna", "Isa", "Jasmin", "Kari", "Kim", "Lo", "Mika", "Nour", "Rayan"}
KINDS = {"continent": None, "country": "continent", "capital": "country", "county": "country",
         "municipality": "county", "locality": "municipality"}  # fmt: skip


def manifest() -> dict:
    return yaml.safe_load((SV / "pack.yaml").read_text(encoding="utf-8"))


def test_every_required_list_is_present_with_a_source_and_a_licence():
    lists = manifest()["lists"]
    assert set(REQUIRED) <= set(lists)
    for name, entry in lists.items():
        assert (SV / entry["file"]).is_file(), name
        assert entry.get("source") and entry.get("licence") and entry.get("derivation"), name
    assert "COMPOSED" in lists["streets"]["source"]
    assert "PTS" in lists["phone_fiction_ranges"]["source"]


def test_female_and_male_lists_mix_only_within_the_allow_list():
    female = {r["name"] for r in rows("first_names_female.tsv")[:1000]}
    male = {r["name"] for r in rows("first_names_male.tsv")[:1000]}
    assert female & male <= BOTH_GENDERS
    lists = name_lists(load_pack("sv"), 3.0)
    assert not set(lists.pool("female", 100).items) & set(lists.pool("male", 100).items)


def test_the_location_tree_is_connected_acyclic_and_well_ordered():
    tree = places()
    assert len(tree) == len(rows("locations.tsv"))  # unique ids
    for place in tree.values():
        seen = set()
        current = place
        while current["parent_id"]:
            assert current["id"] not in seen, f"cycle at {current['id']}"
            seen.add(current["id"])
            parent = tree.get(current["parent_id"])
            assert parent is not None, f"{current['id']}: parent {current['parent_id']} missing"
            assert parent["kind"] == KINDS[current["kind"]], current["id"]
            current = parent
        assert current["kind"] == "continent"
        assert place["preposition"] in ("i", "på") and place["name"].strip() == place["name"] != ""


def test_på_places_come_from_the_hand_list_and_exist():
    hand = {(r["name"], r["municipality_code"]) for r in rows_of(ROOT / "tools" / "locale_sources" / "sv" / "pa_places.tsv")}
    marked = {(p["name"], (p["id"] if p["kind"] == "municipality" else p["parent_id"]).removeprefix("SE-K"))
              for p in places().values() if p["preposition"] == "på"}  # fmt: skip
    assert marked == hand


def rows_of(path: Path) -> list[dict[str, str]]:
    import csv

    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def test_postal_codes_point_at_localities_and_have_the_swedish_shape():
    tree = places()
    for row in rows("postal_codes.tsv"):
        assert tree[row["place_id"]]["kind"] == "locality"
        assert len(row["postcode"]) == 6 and row["postcode"][3] == " " and row["postcode"].replace(" ", "").isdigit()


def test_phone_lists_and_fiction_ranges_are_coherent():
    fixed = {r["code"] for r in rows("phone_area_codes.tsv")}
    mobile = {r["prefix"] for r in rows("phone_mobile_prefixes.tsv")}
    assert mobile == {"070", "072", "073", "076", "079"}
    assert all(c.startswith("0") and not c.startswith("07") for c in fixed)
    for r in rows("phone_fiction_ranges.tsv"):
        assert len(r["first"]) == len(r["last"]) and int(r["first"]) <= int(r["last"])
        assert any(r["first"].startswith(p) for p in (mobile if r["kind"] == "mobile" else fixed))


def test_every_gendered_kinship_word_has_a_replacement_of_its_signature():
    terms = load_pack("sv").vocabulary("kinship")["terms"]
    spellings = [t["word"] for t in terms]
    assert len(spellings) == len(set(spellings))
    signature = lambda t: (t["gender"], t["generation"], t["number"], t["form"])  # noqa: E731
    lonely = [t["word"] for t in terms if t["gender"] != "neutral" and sum(signature(o) == signature(t) for o in terms) < 2]
    assert lonely == []


def test_health_care_unit_types_have_cues_and_two_generic_names():
    vocabulary = load_pack("sv").vocabulary("healthcare_units")
    types = {t["type"]: t for t in vocabulary["types"]}
    assert vocabulary["default"] in types
    assert {"emergency", "primary_care", "hospital", "intensive_care", "geriatrics", "nursing_home", "pain_clinic",
            "psychiatry", "child_health", "maternity"} <= set(types)  # fmt: skip
    assert all(len(t["names"]) >= 2 and t["cues"] for t in types.values())
