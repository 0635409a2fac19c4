"""Lint shared by every locale pack in locales/: each list registered with its source and licence,
weighted lists in descending count without duplicates, code lists sorted, the location tree sound,
the settings valid, and the pack exactly what tools/build_locales.py makes of ../shared/data.
Locale-specific checks stay in each locale's own tests."""

from __future__ import annotations

import csv
import filecmp
import importlib.util
import io
import unicodedata
from pathlib import Path

import pytest
import yaml
from shared_data import SHARED

from pseudo.lists.pack import LocalePack

ROOT = Path(__file__).resolve().parents[1]
PACKS = sorted(p for p in (ROOT / "locales").iterdir() if (p / "pack.yaml").is_file())
CODE_KEYS = {"postal_codes": ("postcode", "place_id"), "phone_area_codes": ("code",), "phone_mobile_prefixes": ("prefix",),
             "phone_mobile_ranges": ("prefix",), "professions": ("name",)}  # fmt: skip


def manifest(pack: Path) -> dict:
    return yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))


def rows(pack: Path, name: str) -> list[dict[str, str]]:
    text = (pack / manifest(pack)["lists"][name]["file"]).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def lists_with_header(pack: Path, header: tuple[str, ...]) -> list[str]:
    found = []
    for name, entry in manifest(pack)["lists"].items():
        if entry["file"].endswith(".tsv"):
            first = (pack / entry["file"]).read_text(encoding="utf-8").split("\n", 1)[0]
            if tuple(first.split("\t")[: len(header)]) == header:
                found.append(name)
    return found


def test_every_pack_is_linted():
    assert {"en", "es", "sv"} <= {p.name for p in PACKS}


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_every_list_is_registered_with_its_source_licence_and_derivation(pack):
    lists = manifest(pack)["lists"]
    assert {entry["file"] for entry in lists.values()} | {"pack.yaml"} == {p.name for p in pack.iterdir()}
    for name, entry in lists.items():
        assert entry.get("source") and entry.get("licence") and entry.get("derivation"), name


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_the_settings_follow_the_schema(pack):
    LocalePack(pack.name, pack)  # raises LocaleError naming the key on any schema breach


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_weighted_lists_descend_by_count_without_duplicates(pack):
    names = lists_with_header(pack, ("name", "count"))
    assert {"first_names_female", "first_names_male", "last_names", "streets"} <= set(names)
    for name in names:
        listed = rows(pack, name)
        entries = [(r["name"], int(r["count"])) for r in listed]
        counts = [c for _, c in entries]
        assert counts == sorted(counts, reverse=True) and min(counts) > 0, name
        keys = {(r["name"].casefold(), r.get("place_id", "")) for r in listed}  # a hospital name may recur in two towns
        assert len(keys) == len(entries), name
        assert all(n == n.strip() and n and unicodedata.is_normalized("NFC", n) for n, _ in entries), name


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_code_lists_are_sorted_by_their_key_without_duplicates(pack):
    for name, key in CODE_KEYS.items():
        if name in manifest(pack)["lists"]:
            keys = [tuple(r[k] for k in key) for r in rows(pack, name)]
            assert keys == sorted(set(keys)), name


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_the_location_tree_is_connected_and_acyclic_and_postcodes_point_into_it(pack):
    places = {r["id"]: r for r in rows(pack, "locations")}
    assert len(places) == len(rows(pack, "locations"))
    settings = manifest(pack)["settings"]["places"]
    kinds = {r["kind"] for r in places.values()}
    assert set(settings["group"]) | set(settings["group"].values()) | set(settings["keep"]) <= kinds
    assert {k for ks in settings["kinds"].values() for k in ks} <= kinds
    for place_id, row in places.items():
        seen = {place_id}
        while row["parent_id"]:
            assert row["parent_id"] in places, place_id
            row = places[row["parent_id"]]
            assert row["id"] not in seen, f"cycle at {place_id}"
            seen.add(row["id"])
        assert row["kind"] == "continent", place_id
    assert all(code["place_id"] in places for code in rows(pack, "postal_codes"))


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_closed_class_vocabularies_are_well_formed(pack):
    loaded = LocalePack(pack.name, pack)
    terms = loaded.vocabulary("kinship")["terms"]
    assert len({t["word"] for t in terms}) == len(terms)
    assert all({"gender", "generation", "number"} <= set(t) for t in terms)
    titles = loaded.vocabulary("titles")["titles"]
    assert len({t["word"] for t in titles}) == len(titles)
    assert all(t["gender"] in ("female", "male", "neutral") for t in titles)
    assert all(t["cues"] and len(t["names"]) >= 2 for t in loaded.vocabulary("healthcare_units")["types"])


@pytest.fixture(scope="module")
def builder():
    spec = importlib.util.spec_from_file_location("build_locales", ROOT / "tools" / "build_locales.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.shared("data/PROVENANCE.md")
@pytest.mark.parametrize("pack", PACKS, ids=lambda p: p.name)
def test_the_pack_is_what_the_builder_makes_of_the_shared_data(pack, builder, tmp_path):
    assert builder.main([pack.name, "--data", str(SHARED / "data"), "--out", str(tmp_path)]) == 0
    files = sorted(p.name for p in pack.iterdir())
    assert files == sorted(p.name for p in (tmp_path / pack.name).iterdir())
    _, mismatch, errors = filecmp.cmpfiles(pack, tmp_path / pack.name, files, shallow=False)
    assert not mismatch and not errors, f"{mismatch}: rebuild with tools/build_locales.py {pack.name}"
