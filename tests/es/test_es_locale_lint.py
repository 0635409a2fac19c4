"""Lint of the Spanish pack: every list named with its source, sorted, deduplicated, the tree sound,
and the pack exactly what tools/build_locales.py makes of ../shared/data."""

import csv
import io
import sys
import unicodedata
from pathlib import Path

import pytest
import regex
import yaml
from shared_data import SHARED

from pseudo.lists.pack import load_pack

REPOSITORY = Path(__file__).resolve().parents[2]
PACK = REPOSITORY / "locales" / "es"
WEIGHTED = ("first_names_female", "first_names_male", "last_names", "streets", "saints", "email_domains")
KEYS = {"locations": ("id",), "postal_codes": ("postcode", "place_id"), "professions": ("name",),
        "phone_area_codes": ("code",), "phone_mobile_prefixes": ("prefix",), "phone_mobile_ranges": ("prefix",)}  # fmt: skip
PLACEHOLDERS = {"type", "place", "surname", "female_name", "male_name"}


def manifest():
    return yaml.safe_load((PACK / "pack.yaml").read_text(encoding="utf-8"))


def rows(name):
    text = (PACK / manifest()["lists"][name]["file"]).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def test_every_list_is_registered_with_its_source_and_licence():
    lists = manifest()["lists"]
    registered = {entry["file"] for entry in lists.values()}
    assert registered | {"pack.yaml"} == {p.name for p in PACK.iterdir()}
    for name, entry in lists.items():
        assert entry.get("source") and entry.get("licence"), name
        if entry["file"].endswith(".tsv"):
            hand_compiled = entry["licence"].startswith("hand-compiled")  # e-mail domains: no public source exists
            pinned = entry.get("commit") or entry.get("package") or hand_compiled
            if entry.get("sources"):  # a list joined from several sources: each one pinned
                pinned = all(part.get("commit") and part.get("licence") for part in entry["sources"])
            assert entry.get("derivation") and pinned, name


@pytest.mark.parametrize("name", WEIGHTED)
def test_weighted_lists_descend_by_count_then_name_without_duplicates(name):
    entries = [(r["name"], int(r["count"])) for r in rows(name)]
    assert entries == sorted(entries, key=lambda e: (-e[1], e[0]))
    assert len({n for n, _ in entries}) == len(entries)
    assert all(n == n.strip() and n and unicodedata.is_normalized("NFC", n) and c > 0 for n, c in entries)


def test_hospitals_descend_by_beds_and_stand_in_a_listed_municipality():
    """One row per hospital and municipality: the rule draws a real hospital of the surrogate town."""
    entries = [(r["name"], int(r["count"]), r["place_id"]) for r in rows("hospitals")]
    assert entries == sorted(entries, key=lambda e: (-e[1], e[0], e[2]))
    assert len({(n, p) for n, _, p in entries}) == len(entries)
    places = {r["id"] for r in rows("locations")}
    assert sum(p in places for _, _, p in entries) >= 0.95 * len(entries)


@pytest.mark.parametrize("name, key", KEYS.items())
def test_other_lists_are_sorted_by_their_key_without_duplicates(name, key):
    keys = [tuple(r[k] for k in key) for r in rows(name)]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_female_and_male_lists_are_not_mixed():
    """A name in both lists is rare and never among the common names surrogates come from."""
    female, male = ([r["name"] for r in rows(f"first_names_{g}")] for g in ("female", "male"))
    assert not set(female[:300]) & set(male[:300])
    assert len(set(female) & set(male)) < 0.07 * min(len(female), len(male))


def test_the_location_tree_is_connected_and_acyclic():
    places = {r["id"]: r for r in rows("locations")}
    kinds = {r["kind"] for r in places.values()}
    settings = manifest()["settings"]["places"]
    assert set(settings["group"]) | set(settings["group"].values()) | set(settings["keep"]) <= kinds
    for place_id, row in places.items():
        seen = {place_id}
        while row["parent_id"]:
            assert row["parent_id"] in places, place_id
            row = places[row["parent_id"]]
            assert row["id"] not in seen, f"cycle at {place_id}"
            seen.add(row["id"])
        assert row["kind"] == "continent", place_id
    assert all(code["place_id"] in places for code in rows("postal_codes"))


def test_vocabularies_are_well_formed():
    pack = load_pack("es")
    terms = pack.vocabulary("kinship")["terms"]
    assert len({t["word"] for t in terms}) == len(terms)
    assert all({"gender", "generation", "number"} <= set(t) for t in terms)
    assert len({t["word"] for t in pack.vocabulary("titles")["titles"]}) == len(pack.vocabulary("titles")["titles"])
    for vocabulary in ("healthcare_units", "organisations"):
        for unit_type in pack.vocabulary(vocabulary)["types"]:
            assert unit_type["cues"] and unit_type["names"]
            for template in unit_type["names"]:
                for slot in regex.findall(r"\{(\w+)\}", template):
                    assert slot in PLACEHOLDERS or pack.has(slot), (vocabulary, template)
            assert not unit_type.get("catalogue") or pack.has(unit_type["catalogue"])


def test_settings_patterns_compile():
    settings = manifest()["settings"]
    regex.compile(settings["places"]["postcode_pattern"])
    regex.compile(settings["phone"]["mobile_pattern"])


@pytest.mark.shared("data/PROVENANCE.md")
def test_the_pack_is_what_the_builder_makes_of_the_shared_data(tmp_path):
    sys.path.insert(0, str(REPOSITORY / "tools"))
    try:
        import build_locales
    finally:
        sys.path.pop(0)
    out = tmp_path / "es"
    build_locales.build_es(SHARED / "data", out)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in PACK.iterdir())
    for built in out.iterdir():
        assert built.read_bytes() == (PACK / built.name).read_bytes(), f"{built.name} differs: rebuild with tools/build_locales.py es"
