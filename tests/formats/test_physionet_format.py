"""The PhysioNet deid layout: id.text records with id-phi.phrase beside them, read and written back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.io import read_input, write_output

# Hand-written synthetic records in the deid layout (no corpus text).
TEXT = (
    "START_OF_RECORD=7||||1||||\n"
    "Pt seen by Dr. Hale at Brockton on 3/14 at 9. Wife Ann called 508-555-0143.\n"
    "||||END_OF_RECORD\n"
    "START_OF_RECORD=7||||2||||\n"
    "No change.||||END_OF_RECORD\n"
)
PHRASES = "7 1 15 19 HCPName Hale\n7 1 23 31 Location Brockton\n7 1 35 40 Date 3/14 \n7 1 51 54 RelativeProxyName Ann\n7 1 62 74 Phone 508-555-0143\n"


def files(tmp_path, text=TEXT, phrases=PHRASES):
    (tmp_path / "id.text").write_text(text, encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text(phrases, encoding="utf-8")
    return str(tmp_path / "id.text")


def test_records_become_documents_of_one_subject_with_their_spans(tmp_path):
    batch = read_input(files(tmp_path))
    assert batch.format == "physionet" and [d.id for d in batch.documents] == ["7-1", "7-2"]
    first = batch.documents[0]
    assert first.meta["subject"] == "7"
    assert [(s.label, first.text[s.start : s.end]) for s in first.spans] == [
        ("HCPName", "Hale"), ("Location", "Brockton"), ("Date", "3/14"), ("RelativeProxyName", "Ann"), ("Phone", "508-555-0143"),
    ]  # fmt: skip


def test_an_unchanged_corpus_is_written_back_byte_for_byte(tmp_path):
    source = files(tmp_path, phrases=PHRASES.replace("35 40 Date 3/14 \n", "35 39 Date 3/14\n"))
    batch = read_input(source)
    out = tmp_path / "out"
    out.mkdir()
    write_output(batch.documents, str(out / "id.text"), batch)
    assert (out / "id.text").read_text(encoding="utf-8") == TEXT
    assert (out / "id-phi.phrase").read_text(encoding="utf-8") == PHRASES.replace("35 40 Date 3/14 \n", "35 39 Date 3/14\n")


def test_apply_writes_both_files_with_new_offsets(tmp_path):
    source = files(tmp_path)
    out = tmp_path / "out.text"
    result = CliRunner().invoke(app, ["apply", source, "--locale", "en", "--out", str(out)], env={"PSEUDO_KEY": "test-key-0123456789"})
    assert result.exit_code == 0, result.output
    text, phrases = out.read_text(encoding="utf-8"), (tmp_path / "out-phi.phrase").read_text(encoding="utf-8")
    assert text.startswith("START_OF_RECORD=7||||1||||\n") and "Brockton" not in text and "Hale" not in text
    records = text.split("||||END_OF_RECORD\n")
    body = records[0].split("||||\n", 1)[1]
    for line in phrases.splitlines():
        patient, note, start, end, label, written = line.split(" ", 5)
        assert (patient, note) == ("7", "1") and body[int(start) : int(end)] == written


@pytest.mark.shared("corpora/physionet_deid/id.text")
def test_the_physionet_sample_comes_out_aligned_and_the_audit_is_clean(tmp_path):
    source = str(SHARED / "corpora" / "physionet_deid" / "id.text")
    out = str(tmp_path / "id.text")
    environment = {"PSEUDO_KEY": "test-key-0123456789"}
    applied = CliRunner().invoke(app, ["apply", source, "--locale", "en", "--out", out], env=environment)
    assert applied.exit_code == 0, applied.output
    audited = CliRunner().invoke(app, ["audit", source, out, "--locale", "en"], env=environment)
    assert audited.exit_code == 0 and "audit passed" in audited.output, audited.output


def test_phrases_of_one_type_split_by_spaces_are_one_value_written_back_as_one_phrase(tmp_path):
    text = "START_OF_RECORD=8||||1||||\nSister in San Diego. Seen by DAN A. HALE, RRT. Dates 3/14 3/15.\n||||END_OF_RECORD\n"
    body = text.split("\n")[1]
    phrases = "".join(
        f"8 1 {found.start()} {found.end()} {label} {value}\n"
        for label, value in [
            ("Location", "San"), ("Location", "Diego"), ("HCPName", "DAN"), ("HCPName", "A"), ("HCPName", "HALE"),
            ("Date", "3/14"), ("Date", "3/15"),
        ]
        for found in [re.search(rf"\b{value}\b", body)]
    )
    batch = read_input(files(tmp_path, text, phrases))
    document = batch.documents[0]
    assert [(s.label, document.text[s.start : s.end]) for s in document.spans] == [
        ("Location", "San Diego"), ("HCPName", "DAN A. HALE"), ("Date", "3/14"), ("Date", "3/15"),
    ]  # fmt: skip
    out = tmp_path / "out"
    out.mkdir()
    write_output(batch.documents, str(out / "id.text"), batch)
    assert (out / "id-phi.phrase").read_text(encoding="utf-8").splitlines()[:2] == [
        "8 1 10 19 Location San Diego", "8 1 29 40 HCPName DAN A. HALE",
    ]  # fmt: skip


def test_a_full_stop_after_a_word_ends_the_value(tmp_path):
    text = "START_OF_RECORD=8||||1||||\nSeen by Hale. Cox came.\n||||END_OF_RECORD\n"
    batch = read_input(files(tmp_path, text, "8 1 8 12 HCPName Hale\n8 1 14 17 HCPName Cox\n"))
    assert len(batch.documents[0].spans) == 2


def test_the_example_config_gives_the_notes_of_a_patient_one_world(tmp_path):
    config = Path(__file__).resolve().parents[2] / "examples" / "physionet.yaml"
    text = (
        "START_OF_RECORD=7||||1||||\nTo GH on 3/14 from Brockton, seen by Dr. Hale.\n||||END_OF_RECORD\n"
        "START_OF_RECORD=7||||2||||\nBack at GH 3/14; Dr. Hale aware. Lives in Brockton.\n||||END_OF_RECORD\n"
    )
    phrases = "".join(
        f"7 {note} {found.start()} {found.end()} {label} {value}\n"
        for note, body in ((1, text.split("\n")[1]), (2, text.split("\n")[4]))
        for label, value in [("Location", "GH"), ("Date", "3/14"), ("Location", "Brockton"), ("HCPName", "Hale")]
        for found in [re.search(rf"\b{re.escape(value)}\b", body)]
    )
    source = files(tmp_path, text, phrases)
    out = tmp_path / "out.text"
    arguments = ["apply", source, "--config", str(config), "--out", str(out)]
    result = CliRunner().invoke(app, arguments, env={"PSEUDO_KEY": "test-key-0123456789"})
    assert result.exit_code == 0, result.output
    notes: dict[str, list[str]] = {"1": [], "2": []}
    for line in (tmp_path / "out-phi.phrase").read_text(encoding="utf-8").splitlines():
        _, note, _, _, label, written = line.split(" ", 5)
        notes[note].append(f"{label} {written}")
    first, second = sorted(notes["1"]), sorted(notes["2"])
    assert first == second and "GH" not in first and "Brockton" not in first
    assert "read as what they look like: PLACE as HEALTHCARE_UNIT 2" in result.output
