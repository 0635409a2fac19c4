"""The four evaluation commands end to end on real data: a few MEDDOCAN training documents (BRAT,
the Spanish pack, `--propagate`) and the Swedish examples from Dalianis (2019).

MEDDOCAN is looked for in the shared folder (tests/shared_data.py: $PSEUDO_SHARED, else shared/
beside the checkout); those tests are skipped when it is not there, and fail under CI. Nothing here prints or compares span text in output
that a command shows: the commands print ids and offsets, and the tests check that they do.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.io import read_input

REPOSITORY = Path(__file__).resolve().parents[2]
CORPUS = SHARED / "corpora/meddocan/train"
MEDDOCAN_CONFIG = str(REPOSITORY / "examples" / "meddocan.yaml")
DOCUMENTS = (
    "S0004-06142007000500011-1",  # an untagged repetition of a patient's name: --propagate adds a span
    "S0004-06142005000900016-1",  # two addresses, postcodes beside towns
    "S0211-69952014000200012-1",  # dates written with month names ("noviembre de 2002")
    "S0365-66912011001000003-2",  # both parents named inside one kinship span
    "S1139-76322016000300015-1",  # a newborn: the age is kept
)
KEY = {"PSEUDO_KEY": "bundled-data-test"}
needs_meddocan = pytest.mark.shared("corpora/meddocan/train")


def invoke(*arguments: str):
    return CliRunner().invoke(app, list(arguments), env=KEY)


def as_json(result) -> dict:
    return json.loads(result.stdout)


# -- MEDDOCAN ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def meddocan(tmp_path_factory):
    """Five training documents and their pseudonymised version, as `pseudo apply` writes them."""
    work = tmp_path_factory.mktemp("meddocan")
    originals = work / "originals"
    originals.mkdir()
    for name in DOCUMENTS:
        for suffix in (".txt", ".ann"):
            shutil.copy(CORPUS / f"{name}{suffix}", originals / f"{name}{suffix}")
    result = invoke("apply", str(originals), "--out", str(work / "pseudo"), "--locale", "es", "-c", MEDDOCAN_CONFIG, "--propagate")
    assert result.exit_code == 0, result.output
    return originals, work / "pseudo", work


@needs_meddocan
def test_meddocan_audit_passes_with_propagated_spans(meddocan):
    originals, pseudo, _ = meddocan
    spans = {side: {d.id: len(d.spans) for d in read_input(str(path)).documents} for side, path in (("o", originals), ("p", pseudo))}
    assert spans["p"][DOCUMENTS[0]] == spans["o"][DOCUMENTS[0]] + 1  # the propagated span
    result = invoke("audit", str(originals), str(pseudo), "-c", MEDDOCAN_CONFIG, "--json")
    assert result.exit_code == 0, result.output
    report = as_json(result)
    assert report["passed"] and report["documents_paired"] == len(DOCUMENTS)
    assert {kind: report["counts"][kind] for kind in ("unpaired", "misaligned", "leak", "date_shift", "not_rerun")} == dict.fromkeys(
        ("unpaired", "misaligned", "leak", "date_shift", "not_rerun"), 0
    )


@needs_meddocan
def test_meddocan_audit_catches_a_planted_missed_mention(meddocan, tmp_path):
    """The patient's name written once more without a tag, in both versions: it survives."""
    originals, pseudo, _ = meddocan
    planted = {side: tmp_path / side for side in ("originals", "pseudo")}
    for side, source in (("originals", originals), ("pseudo", pseudo)):
        shutil.copytree(source, planted[side])
    document = next(d for d in read_input(str(originals)).documents if d.id == DOCUMENTS[1])
    name = next(s for s in document.spans if s.label == "NOMBRE_SUJETO_ASISTENCIA")
    value = document.span_text(name)
    lengths = {}
    for side in planted.values():  # appended after every span: the .ann offsets stay right
        path = side / f"{DOCUMENTS[1]}.txt"
        lengths[side] = len(path.read_text(encoding="utf-8"))
        with open(path, "a", encoding="utf-8", newline="") as handle:
            handle.write(f"\nFirma: {value.upper()}.\n")
    result = invoke("audit", str(planted["originals"]), str(planted["pseudo"]), "-c", MEDDOCAN_CONFIG)
    assert result.exit_code == 4
    where = lengths[planted["pseudo"]] + len("\nFirma: ")
    line = f"{DOCUMENTS[1]}\tleak\tPERSON\toriginal {name.start}-{name.end}, output {where}-{where + len(value)}\tcase-insensitive"
    assert line in result.stdout.splitlines()
    assert value.casefold() not in (result.stdout + result.stderr).casefold()


@needs_meddocan
def test_meddocan_audit_catches_a_value_written_back_in_place(meddocan, tmp_path):
    """A surrogate replaced by its original (in JSON Lines, offsets recomputed) is a leak in place."""
    originals, pseudo, _ = meddocan
    source = {d.id: d for d in read_input(str(originals)).documents}
    outputs = []
    planted = None
    for document in read_input(str(pseudo)).documents:
        spans = [{"start": s.start, "end": s.end, "label": s.label} for s in document.spans]
        text = document.text
        if document.id == DOCUMENTS[2]:
            index = next(i for i, s in enumerate(source[document.id].spans) if s.label == "CALLE")
            value = source[document.id].span_text(source[document.id].spans[index])
            old = spans[index]
            text = text[: old["start"]] + value + text[old["end"] :]
            delta = len(value) - (old["end"] - old["start"])
            for later in spans[index + 1 :]:
                later["start"] += delta
                later["end"] += delta
            old["end"] = old["start"] + len(value)
            planted = (source[document.id].spans[index], old["start"], old["end"])
        outputs.append({"id": document.id, "text": text, "spans": spans})
    jsonl = lambda docs: "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)  # noqa: E731
    originals_file, pseudo_file = tmp_path / "originals.jsonl", tmp_path / "pseudo.jsonl"
    originals_file.write_text(jsonl({"id": d.id, "text": d.text, "spans": [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans]} for d in source.values()), encoding="utf-8")
    pseudo_file.write_text(jsonl(outputs), encoding="utf-8")
    result = invoke("audit", str(originals_file), str(pseudo_file), "-c", MEDDOCAN_CONFIG, "--locale", "es", "--json")
    assert result.exit_code == 4
    leaks = [f for f in as_json(result)["findings"] if f["kind"] == "leak"]
    span, start, end = planted
    assert [(f["document"], f["label"], f["start"], f["end"], f["output_start"], f["output_end"], f["detail"]) for f in leaks] == [
        (DOCUMENTS[2], "STREET", span.start, span.end, start, end, "exact")
    ]


@needs_meddocan
def test_meddocan_tells_on_originals_and_output(meddocan):
    originals, pseudo, _ = meddocan
    before = as_json(invoke("tells", str(originals), "-c", MEDDOCAN_CONFIG, "--locale", "es", "--json"))
    after = as_json(invoke("tells", str(pseudo), "-c", MEDDOCAN_CONFIG, "--locale", "es", "--originals", str(originals), "--json"))
    assert before["documents"] == after["documents"] == len(DOCUMENTS) and after["compared_with_originals"]
    by_id = {d["id"]: d["counts"] for d in before["per_document"]}
    assert by_id["S0365-66912011001000003-2"]["kinship_gender"] == 0  # "padres": mother and father
    # MEDDOCAN's social security numbers have wrong control digits; so have their surrogates (a
    # surrogate that alone passed its check gave itself away to a reader who computed it)
    assert before["totals"]["id_check_digit"] == 2 and after["totals"]["id_check_digit"] == 2
    assert before["totals"]["unlisted_surrogate"] > 0  # real rare surnames
    for kind in ("unlisted_surrogate", "unshifted_date", "kinship_gender", "title_gender", "phone_prefix"):
        assert after["totals"][kind] == 0, kind


@needs_meddocan
def test_meddocan_judging_kit_and_its_score(meddocan, tmp_path):
    originals, pseudo, _ = meddocan
    kit = tmp_path / "kit"
    result = invoke("judge", "build", str(originals), str(pseudo), "--out", str(kit), "--seed", "1")
    assert result.exit_code == 0, result.output
    key = json.loads((kit / "key.json").read_text(encoding="utf-8"))["records"]
    assert sorted(r["document_id"] for r in key.values()) == sorted(DOCUMENTS)
    assert {v["condition"] for v in key.values()} == {"real", "pseudo"}  # seed 1 shows both
    assert os.stat(kit / "key.json").st_mode & 0o777 == 0o600
    with open(kit / "sheet.csv", encoding="utf-8-sig", newline="") as handle:
        sheet = list(csv.DictReader(handle))
    assert [r["record_id"] for r in sheet] == sorted(key) and all(r["text"] and not r["answer"] for r in sheet)
    always_pseudo, right = tmp_path / "always.csv", tmp_path / "right.csv"
    always_pseudo.write_text("record_id,answer\n" + "".join(f"{r},pseudo\n" for r in key), encoding="utf-8")
    right.write_text("record_id,answer\n" + "".join(f"{r},{v['condition']}\n" for r, v in key.items()), encoding="utf-8")
    scored = as_json(invoke("judge", "score", str(kit / "key.json"), str(always_pseudo), str(right), "--json"))
    shown_pseudo = sum(v["condition"] == "pseudo" for v in key.values())
    always = scored["always.csv"]
    assert always["counts"] == {
        "pseudo_judged_pseudo": shown_pseudo, "pseudo_judged_real": 0,
        "real_judged_pseudo": len(key) - shown_pseudo, "real_judged_real": 0,
    }  # fmt: skip
    assert always["recall"]["value"] == 1 and always["precision"]["k"] == shown_pseudo and always["precision"]["n"] == len(key)
    assert scored["right.csv"]["accuracy"]["value"] == 1


# -- Swedish examples -----------------------------------------------------------------------------

FIGURE_1, FIGURE_2 = ("sv-discharge-letter", "sv-relatives")


@pytest.fixture(scope="module")
def swedish(tmp_path_factory):
    work = tmp_path_factory.mktemp("swedish")
    examples = [json.loads((REPOSITORY / "examples" / f"{name}.json").read_text(encoding="utf-8")) for name in (FIGURE_1, FIGURE_2)]
    originals = work / "sv.json"
    originals.write_text(json.dumps(examples, ensure_ascii=False), encoding="utf-8")
    result = invoke("apply", str(originals), "--out", str(work / "sv-pseudo.json"))
    assert result.exit_code == 0, result.output
    return originals, work / "sv-pseudo.json"


def test_swedish_audit_passes(swedish):
    originals, pseudo = swedish
    result = invoke("audit", str(originals), str(pseudo), "--json")
    assert result.exit_code == 0, result.output
    report = as_json(result)
    assert report["passed"] and report["counts"]["leak"] == 0 and report["counts"]["not_rerun"] == 0


def test_swedish_audit_catches_a_planted_leak(swedish, tmp_path):
    """The brother's surrogate written back as the original name: found in place, by offsets."""
    originals, pseudo = swedish
    documents = json.loads(pseudo.read_text(encoding="utf-8"))
    relatives = next(d for d in documents if d["id"] == FIGURE_2)
    brother = relatives["spans"][2]
    value = "Madeleine"
    delta = len(value) - (brother["end"] - brother["start"])
    relatives["text"] = relatives["text"][: brother["start"]] + value + relatives["text"][brother["end"] :]
    for later in relatives["spans"][3:]:
        later["start"] += delta
        later["end"] += delta
    brother["end"] = brother["start"] + len(value)
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(documents, ensure_ascii=False), encoding="utf-8")
    result = invoke("audit", str(originals), str(planted))
    assert result.exit_code == 4
    leak = f"{FIGURE_2}\tleak\tFIRST_NAME\toriginal 56-65, output {brother['start']}-{brother['end']}\texact"
    assert leak in result.stdout.splitlines()
    assert value not in result.stdout + result.stderr


def test_swedish_tells_figure_2_and_our_output(swedish):
    """Figure 2 has the paper's three tells; our pseudonymisation of it has none of them (but a number from a fiction range)."""
    originals, pseudo = swedish
    before = as_json(invoke("tells", str(originals), "--json"))
    paper = {d["id"]: d for d in before["per_document"]}
    assert {k: v for k, v in paper[FIGURE_2]["counts"].items() if v} == {"kinship_gender": 1, "shared_first_name": 1, "phone_prefix": 1}
    assert sorted((t["kind"], t["start"], t["end"]) for t in paper[FIGURE_2]["tells"]) == [
        ("kinship_gender", 88, 97), ("phone_prefix", 102, 113), ("shared_first_name", 88, 97)
    ]  # fmt: skip
    assert paper[FIGURE_1]["tells"] == []
    after = as_json(invoke("tells", str(pseudo), "--originals", str(originals), "--json"))
    # the phone rule draws Swedish surrogates from PTS's fiction ranges, which phone_fiction counts: a tell readers found
    assert {kind: n for kind, n in after["totals"].items() if n and kind != "phone_fiction"} == {}
    assert after["documents_without_locale"] == 0 and after["documents_without_original"] == 0


def test_swedish_judging_kit(swedish, tmp_path):
    originals, pseudo = swedish
    result = invoke("judge", "build", str(originals), str(pseudo), "--out", str(tmp_path / "kit"), "--seed", "2019")
    assert result.exit_code == 0, result.output
    key = json.loads((tmp_path / "kit" / "key.json").read_text(encoding="utf-8"))["records"]
    assert sorted(r["document_id"] for r in key.values()) == [FIGURE_1, FIGURE_2]
    page = (tmp_path / "kit" / "judge.html").read_text(encoding="utf-8")
    assert FIGURE_2 not in page and "document_id" not in page  # the page never carries the key
