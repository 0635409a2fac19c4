"""The judging page in a real headless browser: open from a file URL, answer three records, save.

Needs Debian's chromium (apt-get install chromium) and Playwright (pip install ".[test]");
Playwright drives the system chromium, so no browser download is involved. Without them the test
is skipped, except under CI (CI set), where a skip would hide a missing install step: it fails.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.evaluation.scoring import score

from .conftest import doc, write_jsonl

CHROMIUM = os.environ.get("PSEUDO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip



def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)


@pytest.fixture
def sync_api():
    if not Path(CHROMIUM).exists():
        _missing(f"no chromium at {CHROMIUM}: apt-get install chromium (or set PSEUDO_CHROMIUM)")
    try:
        from playwright import sync_api
    except ImportError:
        _missing('Playwright is not installed: pip install ".[test]"')
    return sync_api


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    names = ("Anna", "Erik", "Karin", "Lars")
    originals = [doc(f"d{i}", f"Rad ett\n{n} kom in\nRad tre", ("FIRST_NAME", n)) for i, n in enumerate(names)]
    outputs = [doc(f"d{i}", f"Rad ett\nX{n} kom in\nRad tre", ("FIRST_NAME", f"X{n}")) for i, n in enumerate(names)]
    result = CliRunner().invoke(
        app,
        ["judge", "build", write_jsonl(tmp_path / "o.jsonl", originals), write_jsonl(tmp_path / "p.jsonl", outputs),
         "--out", str(tmp_path / "kit"), "--seed", "5"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return tmp_path / "kit"


def test_answer_three_records_and_save(sync_api, kit: Path, tmp_path: Path):
    with (kit / "sheet.csv").open(encoding="utf-8-sig", newline="") as handle:
        texts = {row["record_id"]: row["text"] for row in csv.DictReader(handle)}
    requests: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(accept_downloads=True)
            page = context.new_page()
            page.on("request", lambda request: requests.append(request.url))
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto((kit / "judge.html").as_uri())
            assert page.text_content("#title") == "Record r1 (1 of 4)"
            assert page.text_content("#record") == texts["r1"]

            page.click("#answer-pseudo")
            page.click("button.confidence[data-confidence='4']")
            page.fill("#comment", 'odd "X" names, surely')
            page.click("#next")
            page.keyboard.press("r")  # keys answer too
            page.keyboard.press("ArrowRight")
            page.click("#answer-pseudo")
            page.keyboard.press("2")
            assert page.text_content("#progress") == "3 of 4 answered"

            page.reload()  # answers are kept in the page's storage while working
            assert page.text_content("#progress") == "3 of 4 answered"
            assert page.text_content("#title") == "Record r3 (3 of 4)"
            assert page.get_attribute("#answer-pseudo", "aria-pressed") == "true"

            page.fill("#evaluator", "T. Tester")
            with page.expect_download() as csv_download:
                page.click("#save-csv")
            with page.expect_download() as json_download:
                page.click("#save-json")
            assert csv_download.value.suggested_filename == "answers-T_Tester.csv"
            saved_csv = tmp_path / csv_download.value.suggested_filename
            csv_download.value.save_as(saved_csv)
            saved_json = tmp_path / json_download.value.suggested_filename
            json_download.value.save_as(saved_json)
            assert errors == []
        finally:
            browser.close()

    assert all(url.startswith(("file:", "blob:", "data:")) for url in requests), requests
    raw = saved_csv.read_bytes()
    assert raw.startswith("\ufeff".encode()) and b"\r\n" in raw
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    kit_id = json.loads((kit / "key.json").read_text())["kit"]
    assert list(rows[0]) == ["record_id", "text", "answer", "confidence", "comment", "kit"]
    assert {r["kit"] for r in rows} == {kit_id}
    assert [(r["record_id"], r["answer"], r["confidence"]) for r in rows] == [
        ("r1", "pseudo", "4"), ("r2", "real", ""), ("r3", "pseudo", "2"), ("r4", "", ""),
    ]  # fmt: skip
    assert rows[0]["comment"] == 'odd "X" names, surely'
    assert {r["record_id"]: r["text"] for r in rows} == texts
    as_json = json.loads(saved_json.read_text(encoding="utf-8"))
    assert [(r["record_id"], r["answer"], r["confidence"]) for r in as_json] == [
        ("r1", "pseudo", 4), ("r2", "real", None), ("r3", "pseudo", 2), ("r4", "", None),
    ]  # fmt: skip
    assert set(as_json[0]) == {"record_id", "text", "answer", "confidence", "comment", "kit"}
    assert {r["kit"] for r in as_json} == {kit_id}

    report = score(str(kit / "key.json"), [str(saved_csv), str(saved_json)])
    assert report["answers-T_Tester.csv"]["answered"] == 3
    assert report["answers-T_Tester.csv"]["problems"] == {"missing": ["r4"]}
    assert report["agreement"]["pairs"][0]["cohen_kappa"] == pytest.approx(1.0)
