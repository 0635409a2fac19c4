"""The command line, called in-process: exit codes, atomic output, the audit file, review loop."""

import csv
import json
import os
import stat

import pytest
from conftest import make_doc
from typer.testing import CliRunner

from pseudo import __version__
from pseudo.cli import app

runner = CliRunner()
SECRET = "Andersson"


def write_docs(tmp_path, docs, name="in.json"):
    path = tmp_path / name
    path.write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
    return str(path)


def good(doc_id="a"):
    return make_doc(f"Anna {SECRET} ringde 08-123 45 67.", [("Anna", "FIRST_NAME"), (SECRET, "LAST_NAME"), ("08-123 45 67", "PHONE")], doc_id, locale="tiny")


def invoke(*args, key="cli-key"):
    env = {"PSEUDO_KEY": key} if key else {}
    return runner.invoke(app, list(args), env=env)


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_apply_writes_the_output_and_a_summary(tmp_path):
    out = tmp_path / "out.json"
    result = invoke("apply", write_docs(tmp_path, [good()]), "--out", str(out))
    assert result.exit_code == 0, result.output
    [doc] = json.loads(out.read_text())
    assert SECRET not in doc["text"] and doc["text"].endswith(" ringde " + doc["text"][doc["spans"][2]["start"] : doc["spans"][2]["end"]] + ".")
    assert "1 document(s); 3 span(s) (FIRST_NAME 1, LAST_NAME 1, PHONE 1); 0 error(s)" in result.stderr


def test_a_single_object_comes_back_as_a_single_object(tmp_path):
    result = invoke("apply", write_docs(tmp_path, good()))
    assert json.loads(result.stdout)["id"] == "a"


def test_the_same_key_reproduces_and_no_key_warns_and_differs(tmp_path):
    source = write_docs(tmp_path, [good()])
    assert invoke("apply", source).stdout == invoke("apply", source).stdout
    first, second = invoke("apply", source, key=None), invoke("apply", source, key=None)
    assert "fresh random key" in first.stderr
    assert first.stdout != second.stdout


def test_a_key_file_and_seed(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(b"file-key\n")
    source = write_docs(tmp_path, [good()])
    plain = invoke("apply", source, "--key-file", str(key), key=None)
    again = invoke("apply", source, "--key-file", str(key), key=None)
    reroll = invoke("apply", source, "--key-file", str(key), "--seed", "7", key=None)
    assert plain.exit_code == 0 and plain.stdout == again.stdout != reroll.stdout


def test_bad_input_fails_in_one_line_without_text_and_writes_nothing(tmp_path):
    bad = good("b")
    bad["spans"].append({"start": 200, "end": 210, "label": "PHONE"})
    out = tmp_path / "out.json"
    out.write_text("previous content")
    result = invoke("apply", write_docs(tmp_path, [good(), bad]), "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0
    assert "document 'b'" in result.stderr and "200-210" in result.stderr and SECRET not in result.stderr
    assert out.read_text() == "previous content"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.json")] == []


def test_skip_processes_the_rest_and_lists_the_failed(tmp_path):
    bad = good("b")
    bad["spans"][0]["label"] = "NOT_A_LABEL"
    out = tmp_path / "out.json"
    result = invoke("apply", write_docs(tmp_path, [good(), bad]), "--out", str(out), "--tagset", "native", "--on-error", "skip")
    assert result.exit_code == 3
    assert [d["id"] for d in json.loads(out.read_text())] == ["a"]
    assert "skipped:" in result.stderr and "document 'b'" in result.stderr and "1 error(s)" in result.stderr


def test_unknown_labels_fail_unless_the_config_maps_them(tmp_path):
    doc = make_doc("Anna ringde.", [("Anna", "NAMN")], locale="tiny")
    source = write_docs(tmp_path, [doc])
    assert invoke("apply", source).exit_code == 1
    config = tmp_path / "pseudo.yaml"
    config.write_text("labels:\n  NAMN: FIRST_NAME\n")
    assert invoke("apply", source, "--config", str(config)).exit_code == 0


def test_audit_is_private_and_overrides_feed_back(tmp_path):
    source = write_docs(tmp_path, [good()])
    audit = tmp_path / "audit.csv"
    result = invoke("apply", source, "--audit", str(audit))
    assert result.exit_code == 0 and "re-identifies" in result.stderr
    assert stat.S_IMODE(os.stat(audit).st_mode) == 0o600
    rows = list(csv.DictReader(audit.open(encoding="utf-8")))
    assert [r["original"] for r in rows] == ["Anna", SECRET, "08-123 45 67"]
    rows[1]["manual_surrogate"] = "Granath"
    with (tmp_path / "reviewed.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    reviewed = invoke("apply", source, "--overrides", str(tmp_path / "reviewed.csv"))
    [doc] = json.loads(reviewed.stdout)
    assert "Granath" in doc["text"]
    untouched = json.loads(result.stdout)[0]["text"]
    assert untouched.split(" ")[0] == doc["text"].split(" ")[0]


def test_jsonl_round_trip(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(json.dumps(good(i)) for i in "abc") + "\n")
    result = invoke("apply", str(source))
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["a", "b", "c"]


def test_locales_and_labels_list_what_is_installed():
    locales = invoke("locales")
    assert locales.exit_code == 0 and "tiny" in locales.stdout and "SCB" in locales.stdout
    labels = invoke("labels")
    assert "First_Name" in labels.stdout and "rule names" in labels.stdout


@pytest.mark.parametrize("args, message", [(("apply", "missing.json"), "no such file or folder"), (("apply", "x.txt"), "unknown extension")])
def test_missing_or_unknown_inputs(tmp_path, args, message):
    if args[1] == "x.txt":
        (tmp_path / "x.txt").write_text("hello")
        args = ("apply", str(tmp_path / "x.txt"))
    result = invoke(*args)
    assert result.exit_code == 1 and message in result.stderr


def test_stdin_takes_json_or_json_lines():
    lines = "\n".join(json.dumps(good(i)) for i in "ab") + "\n"
    result = runner.invoke(app, ["apply", "-"], input=lines, env={"PSEUDO_KEY": "k"})
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["a", "b"]
    single = runner.invoke(app, ["apply", "-"], input=json.dumps(good()), env={"PSEUDO_KEY": "k"})
    assert json.loads(single.stdout)["id"] == "a"


def test_the_output_extension_picks_the_native_format(tmp_path):
    out = tmp_path / "out.jsonl"
    assert invoke("apply", write_docs(tmp_path, [good("a"), good("b")]), "--out", str(out)).exit_code == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b"]


def test_several_processes_give_the_same_output(tmp_path):
    docs = [good(f"d{i}") for i in range(150)]
    source = write_docs(tmp_path, docs)
    single, parallel = invoke("apply", source), invoke("apply", source, "--jobs", "2")
    assert parallel.exit_code == 0 and parallel.stdout == single.stdout


@pytest.mark.parametrize(
    "extra, message",
    [
        (("--format", "xyz"), "'xyz' is not one of"),
        (("--audit", "{out}"), "the audit file cannot be the output"),
    ],
)
def test_usage_errors_exit_2(tmp_path, extra, message):
    out = str(tmp_path / "out.json")
    result = invoke("apply", write_docs(tmp_path, [good()]), "--out", out, *(e.format(out=out) for e in extra))
    assert result.exit_code == 2 and message in result.output and not os.path.exists(out)


def test_a_single_document_that_failed_is_not_written_back_as_an_empty_list(tmp_path):
    bad = good("b")
    bad["spans"][0]["label"] = "NOT_A_LABEL"
    out = tmp_path / "out.json"
    result = invoke("apply", write_docs(tmp_path, bad), "--out", str(out), "--tagset", "native", "--on-error", "skip")
    assert result.exit_code == 3 and not out.exists()
    assert "nothing written: the input's only document was skipped" in result.stderr
    on_stdout = invoke("apply", write_docs(tmp_path, bad), "--tagset", "native", "--on-error", "skip")
    assert on_stdout.exit_code == 3 and on_stdout.stdout == ""


def test_a_document_that_cannot_be_read_under_skip_writes_nothing_for_a_single_object(tmp_path):
    result = invoke("apply", write_docs(tmp_path, {"id": "a", "text": 1}), "--on-error", "skip")
    assert result.exit_code == 3 and result.stdout == "" and "'text' must be a string" in result.stderr


def test_a_missing_path_says_so(tmp_path):
    result = invoke("apply", str(tmp_path / "nodir") + "/")
    assert result.exit_code == 1 and "no such file or folder" in result.stderr and "extension" not in result.stderr


def test_a_folder_of_files_no_folder_format_reads_says_to_give_them_one_by_one(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.xml").write_text("<MEDDOCAN/>")
    result = invoke("apply", str(tmp_path / "in"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and "a folder of .xml files" in result.stderr and "one per run" in result.stderr
    assert "--format" not in result.stderr


def test_a_folder_of_inline_files_is_not_taken_for_brat(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.inline.txt").write_text(f"<Last_Name>{SECRET}</Last_Name>")
    result = invoke("apply", str(tmp_path / "in"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and "a folder of .inline.txt files" in result.stderr and not (tmp_path / "out").exists()


def test_reviewed_overrides_are_kept_in_the_next_audit_and_unused_rows_reported(tmp_path):
    source = write_docs(tmp_path, [good()])
    audit = tmp_path / "audit.csv"
    invoke("apply", source, "--audit", str(audit))
    rows = list(csv.DictReader(audit.open(encoding="utf-8")))
    rows[1]["manual_surrogate"] = "Granath"
    rows.append({**rows[0], "label": "LAST_NAME", "original": "Nobody", "manual_surrogate": "Else"})
    with (tmp_path / "reviewed.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    again = tmp_path / "audit2.csv"
    result = invoke("apply", source, "--overrides", str(tmp_path / "reviewed.csv"), "--audit", str(again))
    assert "1 override row(s) (lines 5) matched no span" in result.stderr
    assert [r["manual_surrogate"] for r in csv.DictReader(again.open(encoding="utf-8"))] == ["", "Granath", ""]
