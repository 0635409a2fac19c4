"""Scoring checked against figures computed by hand for a small answer set."""

import csv
import json
from html import escape
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.evaluation.report import html_report
from pseudo.evaluation.scoring import notes, score, table_rows, text_table

KEY = {
    "kit": "test",
    "records": {
        **{f"r{i}": {"condition": "pseudo", "document_id": f"doc{i}"} for i in (1, 2, 3, 4)},
        **{f"r{i}": {"condition": "real", "document_id": f"doc{i}"} for i in (5, 6, 7, 8)},
    },
}
# A: r1 p, r2 p, r3 r, r4 p | r5 r, r6 p, r7 r, r8 r  ->  TP 3, FN 1, FP 1, TN 3
ALICE = dict(r1="pseudo", r2="pseudo", r3="real", r4="pseudo", r5="real", r6="pseudo", r7="real", r8="real")
# B has every kind of problem: r1 twice alike, r2 twice unlike, r3 'maybe', r8 missing, r99 unknown.
# Usable: r1 p, r4 p, r5 p, r6 p, r7 r  ->  TP 2, FN 0, FP 2, TN 1
BOB_ROWS = [("r1", "pseudo"), ("r1", "Pseudo"), ("r2", "pseudo"), ("r2", "real"), ("r3", "maybe"),
            ("r4", "pseudo"), ("r5", "pseudo"), ("r6", "pseudo"), ("r7", "real"), ("r99", "pseudo")]  # fmt: skip
# C: r1 p, r2 p, r3 p, r4 r, r5 r, r6 r, r7 r, r8 r
CAROL = dict(r1="pseudo", r2="pseudo", r3="pseudo", r4="real", r5="real", r6="real", r7="real", r8="real")


@pytest.fixture
def study(tmp_path: Path) -> tuple[str, list[str]]:
    key = tmp_path / "key.json"
    key.write_text(json.dumps(KEY))
    alice = tmp_path / "alice.csv"
    with alice.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(("record_id", "text", "answer", "confidence", "comment"))
        writer.writerows((r, "some\ntext", a, "3", "") for r, a in ALICE.items())
    bob = tmp_path / "bob.csv"
    with bob.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle)
        writer.writerow(("record_id", "text", "answer", "confidence", "comment"))
        writer.writerows((r, "", a, "", "") for r, a in BOB_ROWS)
    carol = tmp_path / "carol.json"
    carol.write_text(json.dumps([{"record_id": r, "text": "", "answer": a, "confidence": None, "comment": ""} for r, a in CAROL.items()]))
    return str(key), [str(alice), str(bob), str(carol)]


def test_one_evaluator_by_hand(study):
    key, answers = study
    alice = score(key, answers[:1])["alice.csv"]
    assert alice["counts"] == {"pseudo_judged_pseudo": 3, "pseudo_judged_real": 1, "real_judged_pseudo": 1, "real_judged_real": 3}
    assert alice["answered"] == 8
    assert (alice["precision"]["k"], alice["precision"]["n"]) == (3, 4)
    assert (alice["recall"]["k"], alice["recall"]["n"]) == (3, 4)
    assert alice["accuracy"]["value"] == 0.75
    assert alice["share_pseudo_judged_real"]["value"] == 0.25
    assert alice["share_real_judged_pseudo"]["value"] == 0.25
    # Wilson 95% for 3/4: centre (0.75 + 3.8415/8) / 1.9604 = 0.6276, half-width 1.96 * 0.32695 / 1.9604 = 0.3269
    assert (alice["recall"]["low"], alice["recall"]["high"]) == pytest.approx((0.3006, 0.9544), abs=1e-4)
    # 6 of 8 right: P(X >= 6) = (28 + 8 + 1) / 256, doubled
    assert alice["binomial_p"] == pytest.approx(74 / 256)
    assert alice["problems"] == {}


def test_problems_are_listed_not_dropped(study):
    key, answers = study
    bob = score(key, answers[1:2])["bob.csv"]
    assert bob["problems"] == {
        "unknown": ["r99"],
        "duplicates": ["r1", "r2"],
        "conflicting": ["r2"],
        "invalid": ["r3"],
        "missing": ["r3", "r8"],
    }
    assert bob["counts"] == {"pseudo_judged_pseudo": 2, "pseudo_judged_real": 0, "real_judged_pseudo": 2, "real_judged_real": 1}
    assert bob["precision"]["value"] == 0.5 and bob["recall"]["value"] == 1.0


def test_agreement_by_hand(study):
    key, answers = study
    report = score(key, answers)
    agreement = report["agreement"]
    alice_bob = agreement["pairs"][0]
    # on r1 r4 r5 r6 r7: A p p r p r, B p p p p r -> p_o = 4/5; p_e = (3*4 + 2*1) / 25 = 0.56
    assert alice_bob["evaluators"] == ["alice.csv", "bob.csv"]
    assert alice_bob["records"] == 5
    assert alice_bob["observed_agreement"] == pytest.approx(0.8)
    assert alice_bob["cohen_kappa"] == pytest.approx((0.8 - 0.56) / 0.44)
    # Fleiss on the 5 records all answered; (real, pseudo) counts: r1 (0,3) r4 (1,2) r5 (2,1) r6 (1,2) r7 (3,0)
    # P-bar = (1 + 1/3 + 1/3 + 1/3 + 1) / 5 = 0.6; p = (7/15, 8/15); P-e = 113/225 -> kappa = 22/112
    assert agreement["records_answered_by_all"] == 5
    assert agreement["fleiss_kappa"] == pytest.approx(22 / 112)
    assert agreement["caught_by_all"] == [{"record_id": "r1", "document_id": "doc1"}]


def test_cli_table_json_and_report(study, tmp_path):
    key, answers = study
    runner = CliRunner()
    result = runner.invoke(app, ["judge", "score", key, *answers, "--report", str(tmp_path / "report.html")])
    assert result.exit_code == 0, result.output
    assert "alice.csv" in result.stdout and "0.75 [0.41, 0.93] 6/8" in result.stdout
    assert "bob.csv: conflicting record(s) (1): r2" in result.stdout
    assert "Fleiss' kappa: 0.196 on 5 record(s)" in result.stdout
    assert "bob.csv: 1 unknown, 2 duplicates, 1 conflicting, 1 invalid, 2 missing record(s)" in result.stderr
    html = (tmp_path / "report.html").read_text()
    assert "<svg" in html and "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    as_json = json.loads(runner.invoke(app, ["judge", "score", key, *answers, "--json"]).stdout)
    assert set(as_json) == {"alice.csv", "bob.csv", "carol.json", "agreement"}


def test_not_a_key(tmp_path):
    (tmp_path / "key.json").write_text("[]")
    (tmp_path / "a.csv").write_text("record_id,answer\n")
    result = CliRunner().invoke(app, ["judge", "score", str(tmp_path / "key.json"), str(tmp_path / "a.csv")])
    assert result.exit_code == 1 and "not a judgment kit key" in result.stderr


def test_a_key_that_is_not_utf8_is_a_one_line_error(tmp_path):
    (tmp_path / "key.json").write_bytes(b'{"kit": "\xe5"}')
    (tmp_path / "a.csv").write_text("record_id,answer\n")
    result = CliRunner().invoke(app, ["judge", "score", str(tmp_path / "key.json"), str(tmp_path / "a.csv")])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "not UTF-8" in result.stderr


def test_answers_to_another_kit_are_refused_by_file(study, tmp_path):
    key, answers = study
    other = tmp_path / "dan.json"
    other.write_text(json.dumps([{"record_id": "r1", "answer": "pseudo", "kit": "0123abcd"}, {"record_id": "r2", "answer": "real", "kit": "test"}]))
    result = CliRunner().invoke(app, ["judge", "score", key, *answers, str(other)])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "dan.json: answers to kit 0123abcd, not to this key's kit test" in result.stderr
    same = tmp_path / "eve.csv"
    same.write_text("record_id,answer,kit\nr1,pseudo,test\nr2,real,\n")
    assert score(key, [str(same)])["eve.csv"]["answered"] == 2


def test_the_table_and_the_report_show_the_same_figures(study, tmp_path):
    key, answers = study
    report = score(key, answers)
    text, html = text_table(report), html_report(report)
    for title, cells in table_rows(report):
        assert escape(title) in html and all(escape(cell) in html for cell in cells)
    for line in notes(report):
        assert line in text.splitlines() and f"<li>{escape(line)}</li>" in html
    assert "pseudonymised records every evaluator caught: r1 (doc1)" in notes(report)
