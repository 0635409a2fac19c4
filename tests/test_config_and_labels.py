import pytest

from pseudo.config import Strategy, load_config, parse_config
from pseudo.errors import ConfigError, InputError
from pseudo.labels import LabelMapping, detect_tagset, tagset, tagsets


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"scop": "document"}, "unknown key(s) scop"),
        ({"scope": "patient"}, "scope: 'patient' is not one of"),
        ({"strategies": {"PERSON": "hide"}}, "strategies.PERSON: strategy 'hide'"),
        ({"strategies": {"PERSON": {"strategy": "tag", "text": "x"}}}, "only for the redact strategy"),
        ({"strategies": {"PERSON": {"strategy": "redact", "indexed": True}}}, "only for the tag strategy"),
        ({"strategies": {"PERSN": "tag"}}, "strategies.PERSN: no such label"),
        ({"labels": {"NAME": {"label": "NAME"}}}, "labels.NAME: 'NAME' is not a canonical label"),
        ({"labels": {"NAME": {"label": "PERSON", "role": "nurse"}}}, "role 'nurse'"),
        ({"rules": {"agez": {}}}, "rules.agez: no such rule"),
        ({"rules": {"ages": {"shfit": 2}}}, "rules.ages: unknown key(s) shfit"),
        ({"rules": {"ages": {"shift": "two"}}}, "rules.ages.shift: expected a whole number"),
        ({"rules": {"ages": {"shift": 0}}}, "must be at least 1"),
        ({"rules": {"ages": {"shift": True}}}, "expected a whole number"),
        (["a"], "the top level must be a mapping"),
    ],
)
def test_bad_configuration_is_named_precisely(raw, message):
    with pytest.raises(ConfigError) as error:
        parse_config(raw, "pseudo.yaml")
    assert message in str(error.value)
    assert str(error.value).startswith("pseudo.yaml: ")


def test_a_valid_configuration_is_read(tmp_path):
    path = tmp_path / "pseudo.yaml"
    path.write_text(
        "scope: subject\nlabels:\n  NAME: PERSON\nstrategies:\n  OTHER: keep\n  ID: {strategy: redact, text: '[ID]'}\n"
        "rules:\n  ages: {shift: 3, cap: 90}\n"
    )
    config = load_config(path)
    assert config.scope == "subject"
    assert config.labels["NAME"] == LabelMapping("PERSON")
    assert config.strategies["ID"] == Strategy("redact", "[ID]")
    assert config.rule_options("ages") == {"shift": 3, "keep_under": 14, "cap": 90}


def test_broken_yaml_names_the_line(tmp_path):
    path = tmp_path / "pseudo.yaml"
    path.write_text("scope: [document\n")
    with pytest.raises(ConfigError, match="not valid YAML at line"):
        load_config(path)


def test_strategy_precedence_input_label_then_canonical_then_tagset():
    config = parse_config({"strategies": {"PERSON": "tag", "NOMBRE_SUJETO_ASISTENCIA": "redact"}})
    meddocan = tagset("meddocan").labels
    assert config.strategy("NOMBRE_SUJETO_ASISTENCIA", meddocan["NOMBRE_SUJETO_ASISTENCIA"]).name == "redact"
    assert config.strategy("NOMBRE_PERSONAL_SANITARIO", meddocan["NOMBRE_PERSONAL_SANITARIO"]).name == "tag"
    assert parse_config({}).strategy("OTROS_SUJETO_ASISTENCIA", meddocan["OTROS_SUJETO_ASISTENCIA"]).name == "tag"
    assert parse_config({}).strategy("OTHER", LabelMapping("OTHER")).name == "tag"
    assert parse_config({}).strategy("DATE", LabelMapping("DATE")).name == "surrogate"


def test_the_required_tagsets_ship_and_map_onto_canonical_labels():
    assert {"native", "stockholm", "meddocan", "i2b2-2014"} <= set(tagsets())
    assert set(tagset("stockholm").labels) == {
        "First_Name", "Last_Name", "Age", "Phone_Number", "Location", "Full_Date", "Date_Part", "Health_Care_Unit"
    }  # fmt: skip
    assert len(tagset("meddocan").labels) == 29
    assert tagset("i2b2-2014").labels["DOCTOR"] == LabelMapping("PERSON", role="clinician")


def test_detection_picks_the_one_tagset_holding_every_label():
    assert detect_tagset({"First_Name", "Full_Date"}).name == "stockholm"
    assert detect_tagset({"FECHAS", "CALLE"}).name == "meddocan"
    assert detect_tagset({"PERSON", "DATE"}).name == "native"


def test_detection_fails_clearly_on_unknown_or_mixed_labels():
    with pytest.raises(InputError, match="Favourite_Colour belong to no tagset"):
        detect_tagset({"First_Name", "Favourite_Colour"})
    with pytest.raises(InputError, match="mix several tagsets"):
        detect_tagset({"First_Name", "FECHAS"})
    assert detect_tagset({"First_Name", "Colour"}, {"Colour": LabelMapping("OTHER")}).name == "stockholm"
