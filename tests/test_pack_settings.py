"""A pack's `settings:` is checked against one schema when the pack loads, key path in the error."""

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import _clear_pack_caches, make_doc
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import LocaleError
from pseudo.lists.pack import LOCALE_PATH, LocalePack, load_pack
from pseudo.lists.settings import schema_keys

ROOT = Path(__file__).parents[1]


@pytest.fixture
def packs_with(tmp_path, monkeypatch):
    """A temporary copy of the Spanish pack, its pack.yaml edited, first on PSEUDO_LOCALE_PATH."""

    def make(old: str, new: str) -> Path:
        folder = tmp_path / "packs" / "es"
        shutil.copytree(ROOT / "locales" / "es", folder)
        manifest = folder / "pack.yaml"
        text = manifest.read_text(encoding="utf-8")
        assert old in text
        manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
        monkeypatch.setenv(LOCALE_PATH, str(tmp_path / "packs"))
        _clear_pack_caches()
        return folder

    yield make
    _clear_pack_caches()


def apply_es(tmp_path):
    source = tmp_path / "in.json"
    source.write_text(json.dumps([make_doc("Llamar al 612 345 678.", [("612 345 678", "PHONE")], locale="es")]), encoding="utf-8")
    return CliRunner().invoke(app, ["apply", str(source), "--out", str(tmp_path / "out.json")], env={"PSEUDO_KEY": "k"})


def test_a_misspelt_key_fails_at_load_naming_its_path_and_the_allowed_keys(tmp_path, packs_with):
    packs_with("    national_length: 9", "    national_lenght: 9")
    with pytest.raises(LocaleError) as error:
        load_pack("es")
    assert str(error.value).startswith("locale 'es': pack.yaml: settings.phone: unknown key(s) national_lenght (allowed: ")
    assert "national_length" in str(error.value)
    result = apply_es(tmp_path)
    assert result.exit_code == 1 and "settings.phone: unknown key(s) national_lenght" in result.stderr
    assert "KeyError" not in result.stderr and not (tmp_path / "out.json").exists()


def test_a_value_of_the_wrong_type_fails_at_load_naming_its_path(tmp_path, packs_with):
    packs_with("    national_length: 9", "    national_length: nine")
    with pytest.raises(LocaleError, match=r"^locale 'es': pack\.yaml: settings\.phone\.national_length: expected an integer$"):
        load_pack("es")
    result = apply_es(tmp_path)
    assert result.exit_code == 1 and "settings.phone.national_length: expected an integer" in result.stderr


def test_a_missing_required_key_fails_at_load(packs_with):
    packs_with("    country_code: '34'\n", "")
    with pytest.raises(LocaleError, match=r"settings\.phone\.country_code: required$"):
        load_pack("es")


@pytest.mark.parametrize(
    "settings, message",
    [
        ("settings: {phone: {country_code: 46}}", "settings.phone.country_code: expected a string"),
        ("settings: {places: {number_words: [nº, no]}}", "settings.places.number_words: expected a list of strings"),  # YAML reads no as false
        ("settings: {places: {postcode_pattern: '(\\d'}}", "settings.places.postcode_pattern: expected a regular expression"),
        ("settings: {places: {kinds: {TOWN: [locality]}}}", "settings.places.kinds: expected a mapping of PLACE, REGION, COUNTRY"),
        ("settings: {ages: {units: {år: decade}}}", "settings.ages.units: expected a mapping of words to year, month, week, day"),
        ("settings: {names: {shared_name_ratio: 2}}", "settings.names.shared_name_ratio: expected a number from 0 to 1"),
        ("settings: {names: {age_concentration: 0}}", "settings.names.age_concentration: expected a positive number"),
        ("settings: {dates: {order: DYM}}", "settings.dates.order: expected one of DMY, MDY, YMD"),
        ("settings: {date: {order: DMY}}", "settings: unknown key(s) date (allowed: phone, names, places, ages, dates, ids)"),
        ("settings: [phone]", "settings: expected a mapping"),
    ],
)
def test_every_section_is_checked(tmp_path, settings, message):
    (tmp_path / "pack.yaml").write_text(f"language: sv\n{settings}\n", encoding="utf-8")
    with pytest.raises(LocaleError) as error:
        LocalePack("xx", tmp_path)
    assert str(error.value).startswith(f"locale 'xx': pack.yaml: {message}")


def test_phone_lists_need_the_phone_settings(tmp_path):
    (tmp_path / "pack.yaml").write_text("lists:\n  phone_area_codes: {file: a.tsv}\n", encoding="utf-8")
    with pytest.raises(LocaleError, match="settings.phone: required with the list phone_area_codes"):
        LocalePack("xx", tmp_path)


def test_settings_left_out_take_their_defaults(tmp_path):
    (tmp_path / "pack.yaml").write_text("language: sv\nsettings:\n  names:\n", encoding="utf-8")
    settings = LocalePack("xx", tmp_path).settings
    assert settings.phone is None and settings.names.particles == () and settings.dates.order == "DMY"


def test_the_locale_guide_lists_exactly_the_schema_keys():
    guide = (ROOT / "docs" / "adding-a-locale.md").read_text(encoding="utf-8")
    table = guide.split("## Settings", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `([\w.]+)` \|", table, re.MULTILINE)
    assert documented == [path for path, *_ in schema_keys()]
