"""The statistical reader: a classifier per label family telling surrogate values from originals."""

import json
import random
import sys

from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.config import Config
from pseudo.evaluation import reader
from pseudo.evaluation.corpus import label_map
from pseudo.io.native import document_from_dict

from .conftest import doc, write_jsonl

FIRST = ("juan", "maria", "jose", "carmen", "luis", "ana", "pedro", "lucia", "pablo", "elena", "jorge", "sara")
LAST = ("garcia", "lopez", "martin", "sanz", "ruiz", "gil", "vega", "mora", "pardo", "soto")
DOMAINS = ("hospital.es", "salud.es", "gmail.com", "hotmail.com", "sescam.org")


def emails(domains, seed):
    draw = random.Random(seed)
    return [f"{draw.choice(FIRST)}{draw.choice(('.', '', '_'))}{draw.choice(LAST)}@{draw.choice(domains)}" for _ in range(60)]


def record(doc_id, addresses, places=("Madrid",)):
    text = "Correos: " + ", ".join(addresses) + ". Vive en " + ", ".join(places) + "."
    return doc(doc_id, text, *(("EMAIL", a) for a in addresses), *(("PLACE", p) for p in places))


def values(raw, surrogate):
    documents = [document_from_dict(r, "test", "d") for r in raw]
    return reader.collect(documents, label_map(documents, Config(), None), lambda d: None, surrogate)


def family(result, name):
    return next(f for f in result["families"] if f["family"] == name)


def test_surrogates_at_example_com_are_caught():
    result = reader.read(values([record("a", emails(DOMAINS, 1))], False), values([record("a", emails(("example.com",), 2))], True), True)
    mail = family(result, "EMAIL")
    assert mail["status"] == "read" and mail["auc"] > 0.9 and mail["values"] == 120
    assert "domain=example.com" in mail["giveaways"]
    assert not any(d in g for g in mail["giveaways"] for d in DOMAINS)  # nothing seen in an original is shown
    assert family(result, "PLACE")["status"] == "too few" and family(result, "PLACE")["auc"] is None


def test_originals_against_themselves_or_two_halves_are_indistinguishable():
    originals = emails(DOMAINS, 1) + emails(DOMAINS, 3)
    same = reader.read(values([record("a", originals)], False), values([record("a", originals)], True), True)
    assert family(same, "EMAIL")["auc"] < 0.65
    halves = reader.read(values([record("a", originals[::2])], False), values([record("b", originals[1::2])], True), False)
    assert family(halves, "EMAIL")["auc"] < 0.65 and family(halves, "EMAIL")["values"] == 120


def test_the_reader_is_deterministic():
    before, after = values([record("a", emails(DOMAINS, 1))], False), values([record("a", emails(DOMAINS[:2], 2))], True)
    assert reader.read(before, after, True) == reader.read(before, after, True)


def test_cli_reader_table_and_json(tmp_path):
    originals = write_jsonl(tmp_path / "o.jsonl", [record("a", emails(DOMAINS, 1))])
    pseudo = write_jsonl(tmp_path / "p.jsonl", [record("a", emails(("example.com",), 2))])
    runner = CliRunner()
    shown = runner.invoke(app, ["tells", pseudo, "--originals", originals, "--reader"])
    assert shown.exit_code == 0, shown.output
    row = next(line for line in shown.stdout.splitlines() if line.startswith("EMAIL"))
    assert float(row.split()[3]) > 0.9 and "too few" in shown.stdout and "5-fold" in shown.stdout
    assert not any(d in shown.stdout for d in DOMAINS)
    as_json = json.loads(runner.invoke(app, ["tells", pseudo, "--originals", originals, "--reader", "--unpaired", "--json"]).stdout)
    assert as_json["paired"] is False and family(as_json, "EMAIL")["auc"] > 0.9


def test_cli_reader_needs_the_originals(tmp_path):
    pseudo = write_jsonl(tmp_path / "p.jsonl", [record("a", emails(DOMAINS, 1))])
    result = CliRunner().invoke(app, ["tells", pseudo, "--reader"])
    assert result.exit_code == 2 and "--originals" in result.output


def test_missing_scikit_learn_is_one_line_and_exit_1(tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "sklearn" or m.startswith("sklearn.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn now raises ImportError
    path = write_jsonl(tmp_path / "p.jsonl", [record("a", emails(DOMAINS, 1))])
    result = CliRunner().invoke(app, ["tells", path, "--originals", path, "--reader"])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [f"pseudo: error: {reader.INSTALL}"]
    assert 'pip install "pseudo[eval]"' in result.stderr
    assert CliRunner().invoke(app, ["tells", path]).exit_code == 0  # the counts need no scikit-learn
