"""MIMIC-III placeholders as spans: labelled by category, one surrogate per identity, dates kept."""

from __future__ import annotations

import regex
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.io.mimic import label_of

# A hand-written synthetic note in MIMIC-III's placeholder style (no corpus text).
NOTE = """Admission Date:  [**2151-7-16**]       Discharge Date:  [**2151-7-29**]
HPI: Mr. [**Known lastname 1234**] is a [**Age over 90 **] y/o man from [**Hospital1 18**].
His daughter [**First Name8 (NamePattern2) **] [**Known lastname 1234**] is at [**Telephone/Fax (3) 5678**].
Seen by Dr. [**Last Name (STitle) 4521**] in [**Month (only) 116**]. MRN [**Medical Record Number 9921**].
[**Known lastname 1234**] went to [**Hospital 54**].
"""
ENVIRONMENT = {"PSEUDO_KEY": "test-key-0123456789"}


def apply(tmp_path, *extra: str) -> str:
    source = tmp_path / "note.mimic.txt"
    source.write_text(NOTE, encoding="utf-8")
    out = tmp_path / "out.mimic.txt"
    result = CliRunner().invoke(app, ["apply", str(source), "--locale", "en", "--out", str(out), *extra], env=ENVIRONMENT)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_categories_give_labels():
    assert label_of("2151-7-16") == label_of("7-16") == "MIMIC_DATE"
    assert label_of("Known lastname 1234") == label_of("Last Name (STitle) 4521") == "MIMIC_LAST_NAME"
    assert label_of("First Name8 (NamePattern2) ") == label_of("Female First Name (un) 12") == "MIMIC_FIRST_NAME"
    assert label_of("Hospital1 18") == label_of("Hospital Ward Name 7") == "MIMIC_HOSPITAL"
    assert label_of("Age over 90 ") == "MIMIC_AGE" and label_of("Telephone/Fax (3) 5678") == "MIMIC_PHONE"
    assert label_of("Month (only) 116") == "MIMIC_DATE_PART" and label_of("Holiday 3") == "MIMIC_OTHER"
    assert label_of("Medical Record Number 9921") == label_of("Numeric Identifier 33") == "MIMIC_ID"


def test_every_placeholder_is_filled_and_one_identity_is_one_person(tmp_path):
    text = apply(tmp_path)
    assert "[**" not in text and not regex.search(r"Firstname|Lastname|Hospital [a-j]+\b|Place[a-j]", text)
    first = regex.search(r"Mr\. (\S+) is a (\d+) y/o", text)
    assert first and 90 <= int(first[2]) and text.count(first[1]) == 3  # Known lastname 1234, three times
    assert regex.search(r"is at \(\d{3}\) \d{3}-\d{4}\.", text)


def test_mimic_dates_are_kept_unless_the_config_moves_them(tmp_path):
    assert apply(tmp_path).startswith("Admission Date:  2151-7-16       Discharge Date:  2151-7-29")
    config = tmp_path / "move.yaml"
    config.write_text("strategies:\n  MIMIC_DATE: surrogate\n", encoding="utf-8")
    moved = apply(tmp_path, "--config", str(config))
    dates = regex.findall(r"Date:  (\d{4}-\d{1,2}-\d{1,2})", moved)
    assert len(dates) == 2 and dates != ["2151-7-16", "2151-7-29"]
