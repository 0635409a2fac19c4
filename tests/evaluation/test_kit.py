"""Judgment kits: the densest window, one window for both versions, a reproducible draw, no key in the page."""

import csv
import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import PseudoError
from pseudo.evaluation import kit as kit_module
from pseudo.evaluation.corpus import Pair, pair_documents
from pseudo.model import Document, Span
from pseudo.evaluation.kit import densest_window, draw_records, line_bounds
from pseudo.io.native import document_from_dict

from .conftest import doc, write_jsonl


def as_document(raw):
    return document_from_dict(raw, "test", "document")


def test_line_bounds():
    assert line_bounds("a\nbc\n") == [(0, 1), (2, 4)]
    assert line_bounds("a\n\nb") == [(0, 1), (2, 2), (3, 4)]
    assert line_bounds("") == [(0, 0)]


def test_densest_window_and_edges():
    text = "quiet\nAnna met Erik\nquiet\nBerg\nquiet"
    document = as_document(doc("d", text, ("FIRST_NAME", "Anna"), ("FIRST_NAME", "Erik"), ("LAST_NAME", "Berg")))
    window = densest_window(document, 2)
    assert (window.first_line, window.last_line, window.spans) == (0, 1, 2)  # the earliest of two ties
    assert text[window.start : window.end] == "quiet\nAnna met Erik"
    assert densest_window(document, 3).spans == 3
    whole = densest_window(document, 20)
    assert (whole.first_line, whole.last_line, whole.density) == (0, 4, 3 / 5)


def test_a_span_across_the_window_edge_is_taken_whole():
    text = "x\nStora\nGatan 1\ny"
    document = as_document(doc("d", text, ("STREET", "Stora\nGatan 1")))
    window = densest_window(document, 1)
    assert text[window.start : window.end] == "Stora\nGatan 1"


def pairs(n=12):
    originals, outputs = [], []
    for i in range(n):
        names = ["Anna"] * (i % 4 + 1)
        text = "Rad utan namn\n" + "".join(f"{name} kom\n" for name in names) + "Slut"
        spans = [("FIRST_NAME", name) for name in names]
        originals.append(as_document(doc(f"d{i:02d}", text, *spans)))
        outputs.append(as_document(doc(f"d{i:02d}", text.replace("Anna", "Karolina"), *[("FIRST_NAME", "Karolina")] * len(names))))
    return pair_documents(originals, outputs).pairs


def test_draw_is_reproducible_and_ordered_by_density():
    first = draw_records(pairs(), None, 0.5, 3, seed=11)
    assert first == draw_records(pairs(), None, 0.5, 3, seed=11)
    assert [r.window.density for r in first] == sorted((r.window.density for r in first), reverse=True)
    assert [r.record_id for r in first] == [f"r{i:02d}" for i in range(1, 13)]
    assert {r.condition for r in first} == {"real", "pseudo"}
    for record in first:
        assert ("Karolina" in record.text) == (record.condition == "pseudo")
        assert "Anna" not in record.text or record.condition == "real"
    five = draw_records(pairs(), 5, 0.5, 3, seed=11)
    assert len(five) == 5 and five == draw_records(pairs(), 5, 0.5, 3, seed=11)
    assert five != draw_records(pairs(), 5, 0.5, 3, seed=12)


def test_share_extremes():
    assert {r.condition for r in draw_records(pairs(), None, 0.0, 20, seed=1)} == {"real"}
    assert {r.condition for r in draw_records(pairs(), None, 1.0, 20, seed=1)} == {"pseudo"}


def test_documents_without_enough_spans_are_not_drawn():
    untagged = as_document(doc("z", "Inget namn här"))
    drawn = draw_records([*pairs(4), Pair(untagged, untagged)], None, 1.0, 3, seed=1)
    assert "z" not in {r.document_id for r in drawn} and len(drawn) == 4
    assert {r.document_id for r in draw_records([*pairs(4), Pair(untagged, untagged)], None, 1.0, 3, seed=1, min_spans=0)} >= {"z"}
    assert len(draw_records(pairs(4), None, 1.0, 3, seed=1, min_spans=3)) == 2  # d02 and d03 name Anna three and four times
    with pytest.raises(PseudoError, match="at least 5 tagged span"):
        draw_records(pairs(4), 1, 1.0, 3, seed=1, min_spans=5)


def test_documents_of_one_subject_are_shown_in_one_condition():
    originals, outputs = [], []
    for i in range(40):
        meta = {"subject": f"p{i // 4}"}
        originals.append(Document(f"d{i:02d}", "Anna kom", (Span(0, 4, "FIRST_NAME"),), meta))
        outputs.append(Document(f"d{i:02d}", "Eva kom", (Span(0, 3, "FIRST_NAME"),), meta))
    drawn = draw_records(pair_documents(originals, outputs).pairs, None, 0.5, 3, seed=3)
    by_subject = {}
    for record in drawn:
        by_subject.setdefault(int(record.document_id[1:]) // 4, set()).add(record.condition)
    assert all(len(conditions) == 1 for conditions in by_subject.values())
    assert {c for conditions in by_subject.values() for c in conditions} == {"real", "pseudo"}


def test_misaligned_pairs_are_refused():
    original = as_document(doc("d", "Anna kom", ("FIRST_NAME", "Anna")))
    output = as_document(doc("d", "Karin gick", ("FIRST_NAME", "Karin")))
    with pytest.raises(PseudoError, match="run pseudo audit"):
        draw_records([Pair(original, output)], None, 0.5, 20, seed=1)


def test_build_command(tmp_path: Path):
    originals = write_jsonl(tmp_path / "orig.jsonl", [doc("a", "Hej Anna\nmer", ("FIRST_NAME", "Anna")), doc("b", "Bo här", ("FIRST_NAME", "Bo")), doc("c", "x")])
    outputs = write_jsonl(tmp_path / "pseudo.jsonl", [doc("a", "Hej Karin\nmer", ("FIRST_NAME", "Karin")), doc("b", "Per här", ("FIRST_NAME", "Per"))])
    kit = tmp_path / "kit"
    runner = CliRunner()
    result = runner.invoke(app, ["judge", "build", originals, outputs, "--out", str(kit), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "keep" in result.stderr and "key.json" in result.stderr
    assert "1 document(s) only in the originals: c" in result.stderr
    key = json.loads((kit / "key.json").read_text())
    assert stat.S_IMODE((kit / "key.json").stat().st_mode) == 0o600
    assert set(key["records"]) == {"r1", "r2"} and key["seed"] == 3
    assert f"kit {key['kit']} of 2 record(s)" in result.stdout
    assert {r["document_id"] for r in key["records"].values()} == {"a", "b"}
    with (kit / "sheet.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["record_id", "text", "answer", "confidence", "comment", "kit"]
    assert all(r["answer"] == r["confidence"] == r["comment"] == "" and r["kit"] == key["kit"] for r in rows)
    page = (kit / "judge.html").read_text()
    assert key["kit"] in page
    for secret in ('"condition"', '"document_id"', "pseudo\", \"document", '"seed"'):
        assert secret not in page
    assert "http://" not in page and "https://" not in page  # no network
    again = runner.invoke(app, ["judge", "build", originals, outputs, "--out", str(kit), "--seed", "3"])
    assert again.exit_code == 1 and "--force" in again.stderr
    forced = runner.invoke(app, ["judge", "build", originals, outputs, "--out", str(kit), "--seed", "3", "--force"])
    assert forced.exit_code == 0 and json.loads((kit / "key.json").read_text()) == key


def test_page_escapes_record_text(tmp_path: Path):
    text = "</script><b>Anna</b> & co"
    originals = write_jsonl(tmp_path / "o.jsonl", [doc("a", text, ("FIRST_NAME", "Anna"))])
    outputs = write_jsonl(tmp_path / "p.jsonl", [doc("a", text.replace("Anna", "Karin"), ("FIRST_NAME", "Karin"))])
    result = CliRunner().invoke(app, ["judge", "build", originals, outputs, "--out", str(tmp_path / "kit")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "kit" / "judge.html").read_text()
    assert "</script><b>" not in page and page.count("</script>") == 2


def build(tmp_path: Path, out: Path, *extra: str):
    originals = write_jsonl(tmp_path / "orig.jsonl", [doc("a", "Hej Anna\nmer", ("FIRST_NAME", "Anna")), doc("b", "Bo här", ("FIRST_NAME", "Bo"))])
    outputs = write_jsonl(tmp_path / "pseudo.jsonl", [doc("a", "Hej Karin\nmer", ("FIRST_NAME", "Karin")), doc("b", "Per här", ("FIRST_NAME", "Per"))])
    return CliRunner().invoke(app, ["judge", "build", originals, outputs, "--out", str(out), *extra])


def siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def test_a_failed_build_leaves_no_kit(tmp_path: Path, monkeypatch):
    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(kit_module, "key", broken)  # key.json is written last
    out = tmp_path / "kit"
    with pytest.raises(PseudoError, match="cannot write"):  # the atomic writer names the path, not a traceback
        kit_module.write_kit(draw_records(pairs(2), None, 0.5, 3, seed=1), out, 1, 0.5, 3)
    assert not out.exists() and siblings(out) == []


def test_a_failed_rebuild_keeps_the_old_kit_whole(tmp_path: Path, monkeypatch):
    out = tmp_path / "kit"
    assert build(tmp_path, out, "--seed", "1").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    monkeypatch.setattr(kit_module, "key", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        kit_module.write_kit(draw_records(pairs(2), None, 0.5, 3, seed=2), out, 2, 0.5, 3, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before and siblings(out) == []


def test_force_replaces_a_kit_as_a_whole_and_nothing_else(tmp_path: Path):
    out = tmp_path / "kit"
    out.mkdir()
    (out / "judge.html").write_text("an older page")
    refused = build(tmp_path, out)
    assert refused.exit_code == 1 and "not empty" in refused.stderr and "--force" in refused.stderr
    assert build(tmp_path, out, "--force").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["judge.html", "key.json", "sheet.csv"] and siblings(out) == []
    assert json.loads((out / "key.json").read_text())["kit"] in (out / "judge.html").read_text()
    (out / "answers-ann.csv").write_text("record_id,answer\n")
    kept = build(tmp_path, out, "--force")
    assert kept.exit_code == 1 and "1 file(s) that are not a kit's" in kept.stderr
    assert (out / "answers-ann.csv").exists()


def test_an_empty_folder_takes_a_kit(tmp_path: Path):
    out = tmp_path / "kit"
    out.mkdir()
    assert build(tmp_path, out).exit_code == 0 and (out / "key.json").exists()
