"""The review loop: the audit file carries the reviewer's surrogates, and override rows that
replace nothing are named by line, never by text."""

import csv
import json

import pytest
from conftest import make_doc
from typer.testing import CliRunner

from pseudo.api import pseudonymise
from pseudo.audit import Overrides, read_overrides, write_audit
from pseudo.cli import app
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.errors import InputError, PseudoError
from pseudo.io.native import document_from_dict
from pseudo.keyed import Keyring

SECRET = "Andersson"
DOCUMENT = document_from_dict(
    make_doc(f"Anna {SECRET} ringde 08-123 45 67.", [("Anna", "FIRST_NAME"), (SECRET, "LAST_NAME"), ("08-123 45 67", "PHONE")], "a", locale="tiny"),
    "test",
    "#0",
)


def run(overrides=None, config=None):
    settings = Settings(config=parse_config(config), keyring=Keyring(b"review-key"), overrides=overrides if overrides is not None else Overrides())
    return pseudonymise([DOCUMENT], settings)


def rows(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_rows(path, table):
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    return path


def reviewed(tmp_path, **manual):
    """The audit of a plain run with manual surrogates filled in, by original value."""
    write_audit(run().results, tmp_path / "audit.csv")
    table = rows(tmp_path / "audit.csv")
    for row in table:
        row["manual_surrogate"] = manual.get(row["original"], "")
    return write_rows(tmp_path / "reviewed.csv", table)


def test_the_audit_keeps_the_reviewers_surrogate(tmp_path):
    overrides = read_overrides(reviewed(tmp_path, Andersson="Granath"))
    result = run(overrides)
    assert "Granath" in result.results[0].document.text and result.unmatched_overrides == []
    write_audit(result.results, tmp_path / "again.csv", overrides)
    again = rows(tmp_path / "again.csv")
    assert [r["manual_surrogate"] for r in again] == ["", "Granath", ""]
    assert read_overrides(tmp_path / "again.csv") == overrides


def test_rows_that_replace_nothing_are_named_by_line(tmp_path):
    path = reviewed(tmp_path, Andersson="Granath")
    table = rows(path)
    table.append({**table[2], "original": "8-123 45 67", "manual_surrogate": "08-999 99 99"})  # the spreadsheet dropped the 0
    table.append({**table[1], "scope": "document:b"})
    write_rows(path, table)
    assert run(read_overrides(path)).unmatched_overrides == [5, 6]


def test_a_row_for_a_label_sent_to_another_strategy_replaces_nothing(tmp_path):
    overrides = read_overrides(reviewed(tmp_path, Andersson="Granath"))
    result = run(overrides, {"strategies": {"LAST_NAME": "tag"}})
    assert "[LAST_NAME]" in result.results[0].document.text and result.unmatched_overrides == [3]
    write_audit(result.results, tmp_path / "again.csv", overrides)
    assert [r["manual_surrogate"] for r in rows(tmp_path / "again.csv")] == ["", "", ""]


@pytest.mark.parametrize(
    "column, value, message",
    [("label", "LASTNAME", "line 3: the label is not a canonical label"), ("scope", "a", "line 3: the scope is not a scope id")],
)
def test_a_wrong_label_or_scope_names_its_line_not_its_text(tmp_path, column, value, message):
    path = reviewed(tmp_path, Andersson="Granath")
    table = rows(path)
    table[1][column] = value
    write_rows(path, table)
    with pytest.raises(InputError, match=message) as raised:
        read_overrides(path)
    assert SECRET not in str(raised.value) and "Granath" not in str(raised.value)


def test_a_spreadsheets_byte_order_mark_is_read(tmp_path):
    path = reviewed(tmp_path, Andersson="Granath")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert list(read_overrides(path).values()) == ["Granath"]


def test_an_overrides_file_that_is_not_utf8_is_a_one_line_error(tmp_path):
    path = reviewed(tmp_path, Andersson="Granath")
    path.write_bytes(path.read_bytes().replace("Granath".encode(), "Gr\xe5nath".encode("latin-1")))
    with pytest.raises(PseudoError, match="not valid UTF-8"):
        read_overrides(path)
    source = tmp_path / "in.json"
    source.write_text(json.dumps([make_doc("Anna", [("Anna", "FIRST_NAME")], "a", locale="tiny")]))
    result = CliRunner().invoke(app, ["apply", str(source), "--overrides", str(path)], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "not valid UTF-8" in result.stderr
