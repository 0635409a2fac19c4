"""tools/build_locales.py swaps a pack in only when it is whole (the rebuild-and-compare tests
are in tests/test_pack_lint.py, one per pack)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def builder():
    spec = importlib.util.spec_from_file_location("build_locales", ROOT / "tools" / "build_locales.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def old_pack(tmp_path):
    pack = tmp_path / "locales" / "xx"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("old manifest\n")
    (pack / "dropped_list.tsv").write_text("name\tcount\n")
    return pack


def contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in folder.iterdir()}


def leftovers(pack: Path) -> list[str]:
    return [p.name for p in pack.parent.iterdir() if p.name != pack.name]


def test_a_list_the_builder_no_longer_writes_does_not_survive(builder, old_pack):
    @builder.swapped_in
    def build(data, out):
        (out / "pack.yaml").write_text("new manifest\n")

    build(Path("unused"), old_pack)
    assert contents(old_pack) == {"pack.yaml": "new manifest\n"} and leftovers(old_pack) == []


def test_a_failed_build_leaves_the_old_pack_as_it_was(builder, old_pack, tmp_path, monkeypatch, capsys):
    @builder.swapped_in
    def build(data, out):
        (out / "pack.yaml").write_text("half a pack\n")
        raise builder.BuildError("names.tsv: no 'count' column")

    before = contents(old_pack)
    monkeypatch.setitem(builder.BUILDERS, "xx", build)
    data = tmp_path / "data"
    data.mkdir()
    (data / "PROVENANCE.md").write_text("sources\n")
    assert builder.main(["xx", "--data", str(data), "--out", str(old_pack.parent)]) == 1
    assert "build_locales: xx: names.tsv: no 'count' column" in capsys.readouterr().err
    assert contents(old_pack) == before and leftovers(old_pack) == []


def test_a_new_pack_appears_whole(builder, tmp_path):
    @builder.swapped_in
    def build(data, out):
        (out / "pack.yaml").write_text("manifest\n")

    build(Path("unused"), tmp_path / "locales" / "new")
    assert contents(tmp_path / "locales" / "new") == {"pack.yaml": "manifest\n"}


def test_source_names_in_capitals_keep_roman_numerals_and_acronyms(builder):
    assert builder._recase("PAPA JUAN PABLO II", {}) == "Papa Juan Pablo II"
    assert builder._recase("PIO XII", {}) == "Pio XII" and builder._recase("VIA AUGUSTA", {}) == "Via Augusta"
    assert builder._acronyms_upper("Hospital Universitario Hm Sanchinarro") == "Hospital Universitario HM Sanchinarro"
    assert builder._acronyms_upper("Clínica Dr Sanz, Sl") == "Clínica Dr Sanz, SL"


def test_a_capital_without_a_spanish_name_takes_its_english_one_when_spanish_writes_it_too(builder):
    assert builder._shared_form("Quito") and builder._shared_form("Andorra la Vella")
    assert not builder._shared_form("Guatemala City") and not builder._shared_form("St. John's")


def test_a_hospital_name_writes_its_own_town_with_the_towns_accents(builder):
    """"Hospital Valle de Guadalhorce de Cartama" beside the town "Cártama" read as a machine's."""
    assert builder._town_spelt("Hospital Valle de Guadalhorce de Cartama", "Cártama") == "Hospital Valle de Guadalhorce de Cártama"
    assert builder._town_spelt("Hospital de Denia", "Dénia") == "Hospital de Dénia"
    assert builder._town_spelt("Hospital Cartamaño", "Cártama") == "Hospital Cartamaño"  # a word of its own
    assert builder._town_spelt("Hospital de Madrid", "Madrid") == "Hospital de Madrid"


def test_us_hospital_names_are_written_as_notes_write_them(builder):
    assert builder._en_hospital_name("MOSES H CONE MEMORIAL HOSPITAL, THE") == "The Moses H Cone Memorial Hospital"
    assert builder._en_hospital_name("NEW YORK COMMUNITY HOSPITAL OF BROOKLYN, INC.") == "New York Community Hospital of Brooklyn"
    assert builder._en_hospital_name("VHS BROWNSVILLE HOSPITAL COMPANY, LLC") == "VHS Brownsville Hospital Company"
    assert builder._en_hospital_name("ST JOHN MED CTR") == "St John Med Ctr"


def test_the_work_slots_of_situations_are_checked(builder):
    """A cue of `field_after` that fits one field would make its surrogate say the original, and
    one that fits none left "trabaja en los intérprete" (a review's finding): the build refuses both,
    and a field without its gender or number."""
    fields = [{"word": "astilleros", "gender": "male", "number": "plural", "section": "C"},
              {"word": "transportes", "gender": "male", "number": "plural", "section": "H", "bare": True}]  # fmt: skip
    builder._check_work_slots({"work_words": ["trabaja"], "field_after": {"en los": {"gender": "male", "number": "plural"}}, "fields": fields})
    with pytest.raises(builder.BuildError, match="fits 1 field"):
        builder._check_work_slots({"work_words": ["trabaja"], "field_after": {"en": {"bare": True}}, "fields": fields})
    with pytest.raises(builder.BuildError, match="bad field"):
        builder._check_work_slots({"fields": [{"word": "pesca", "gender": "female", "section": "A"}]})
    with pytest.raises(builder.BuildError, match="quoted ISCO code"):
        builder._check_work_slots({"aliases": [{"word": "militar", "gender": "neutral", "group": 200}]})  # `group: 0310` unquoted reads as octal
    with pytest.raises(builder.BuildError, match="no profession of the alias's group"):
        builder._check_work_slots({"aliases": [{"word": "militar", "gender": "neutral", "group": "0310"}]}, frozenset({"5412"}))
