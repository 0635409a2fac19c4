"""The i2b2-2014 tagset end to end on i2b2-2014-style XML (a hand-written synthetic note): every
type replaced, the output aligned and the audit clean, and the address one world."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import regex
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.lists.pack import load_pack

NOTE = Path(__file__).parent / "data" / "i2b2-2014-note.xml"
ENVIRONMENT = {"PSEUDO_KEY": "test-key-0123456789"}


def tags(path: Path) -> dict[str, str]:
    root = ElementTree.parse(path).getroot()
    return {tag.get("TYPE") + ":" + tag.get("id"): tag.get("text") for tag in root.find("TAGS")}


def test_an_i2b2_2014_note_comes_out_aligned_audited_and_coherent(tmp_path):
    source, out = tmp_path / "in" / NOTE.name, tmp_path / "out" / NOTE.name
    source.parent.mkdir()
    out.parent.mkdir()
    shutil.copyfile(NOTE, source)
    applied = CliRunner().invoke(app, ["apply", str(source), "--locale", "en", "--out", str(out)], env=ENVIRONMENT)
    assert applied.exit_code == 0, applied.output
    audited = CliRunner().invoke(app, ["audit", str(source), str(out), "--locale", "en"], env=ENVIRONMENT)
    assert audited.exit_code == 0 and "audit passed" in audited.output, audited.output
    before, after = tags(source), tags(out)
    assert before.keys() == after.keys() and all(before[k] != after[k] for k in before if k != "STATE:P8")
    assert after["STATE:P8"] == before["STATE:P8"]  # the state is kept (HIPAA Safe Harbor), the city drawn inside it
    root = ElementTree.parse(out).getroot()
    text = root.find("TEXT").text
    for tag in root.find("TAGS"):
        assert text[int(tag.get("start")) : int(tag.get("end"))] == tag.get("text")
    tree = load_pack("en").tree()
    zips = {r["postcode"]: r["place_id"] for r in load_pack("en").rows("postal_codes")}
    state, zip_code = after["STATE:P8"], after["ZIP:P9"]
    assert tree.ancestor(tree.places[zips[zip_code]], "state").extra["code"] == state
    assert regex.fullmatch(r"[1-9]\d? .+, Apt [1-9]", after["STREET:P6"])
    assert after["PATIENT:P14"] == after["PATIENT:P1"].split()[0] + "'s"  # Nathan's follows Nathan Ortiz


def test_the_example_config_gives_each_i2b2_type_its_strategy(tmp_path):
    config = Path(__file__).resolve().parents[2] / "examples" / "i2b2-2014.yaml"
    out = tmp_path / NOTE.name
    applied = CliRunner().invoke(app, ["apply", str(NOTE), "--config", str(config), "--out", str(out)], env=ENVIRONMENT)
    assert applied.exit_code == 0, applied.output
    before, after = tags(NOTE), tags(out)
    assert after["USERNAME:P17"] == after["ROOM:P18"] == "***"
    assert after["DEPARTMENT:P5"] == before["DEPARTMENT:P5"] == "Cardiology"
    assert after["ORGANIZATION:P15"] == "[ORGANISATION]"
    assert after["PATIENT:P1"] != before["PATIENT:P1"] and after["ZIP:P9"] != before["ZIP:P9"]
