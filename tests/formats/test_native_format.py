"""The native format: JSON Lines split at LF only, span-level text kept there, lone surrogates
refused, and stdin told apart as JSON or JSON Lines by its content."""

import json

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.io import read_input, write_output

SECRET = "Pettersson"
SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e"


def document(doc_id="a", text=f"Anna {SECRET} ringde.", **span):
    return {"id": doc_id, "text": text, "spans": [{"start": 5, "end": 5 + len(SECRET), "label": "LAST_NAME", **span}]}


def invoke(*args, input=None):
    return CliRunner().invoke(app, ["apply", *args], input=input, env={"PSEUDO_KEY": "native-key"})


def test_json_lines_split_at_line_feeds_only(tmp_path):
    text = f"Anna {SECRET} ringde.{SEPARATORS}Slut."
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(document(i, text), ensure_ascii=False) + "\n" for i in "ab"), encoding="utf-8")
    batch = read_input(str(path))
    assert not batch.errors and [d.text for d in batch.documents] == [text, text]


def test_pseudo_reads_its_own_json_lines_output(tmp_path):
    text = f"Anna {SECRET} ringde.{SEPARATORS}Slut.\r\nMer."
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(document("a", text)) + "\r\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert invoke(str(source), "--out", str(out), "--locale", "sv").exit_code == 0
    again = read_input(str(out))
    assert not again.errors and again.documents[0].text.endswith(f"ringde.{SEPARATORS}Slut.\r\nMer.")


def test_a_span_text_field_stays_at_span_level_and_follows_the_surrogate(tmp_path):
    beside, within = document("a", f"Anna {SECRET} ringde. {SECRET} kom."), document("b")
    beside["spans"][0]["text"] = SECRET
    within["spans"][0]["attrs"] = {"text": SECRET, "x": 1}
    source = tmp_path / "in.json"
    source.write_text(json.dumps([beside, within]))
    result = invoke(str(source), "--locale", "sv", "--propagate")
    assert result.exit_code == 0, result.output
    first, second = json.loads(result.stdout)
    span, propagated = first["spans"]
    assert "attrs" not in span and span["text"] == first["text"][span["start"] : span["end"]] != SECRET
    assert set(propagated) == {"start", "end", "label"}  # an added span gets no text it never had
    span = second["spans"][0]
    assert "text" not in span and span["attrs"] == {"text": second["text"][span["start"] : span["end"]], "x": 1}


def test_span_level_text_survives_worker_processes(tmp_path):
    documents = [document(f"d{i}") for i in range(70)]
    for item in documents:
        item["spans"][0]["text"] = SECRET
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in documents))
    result = invoke(str(source), "--locale", "sv", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert all("text" in json.loads(line)["spans"][0] for line in result.stdout.splitlines())


def test_a_text_both_beside_the_label_and_in_attrs_is_refused(tmp_path):
    path = tmp_path / "in.json"
    both = document()
    both["spans"][0].update(text=SECRET, attrs={"text": SECRET})
    path.write_text(json.dumps(both))
    assert "'text' both beside 'label' and in 'attrs'" in str(read_input(str(path)).errors[0])


@pytest.mark.parametrize(
    "raw, message",
    [
        ('{"id": "a", "text": "Anna \\ud83d ringde"}', "document 'a': a lone surrogate code point (\\ud83d) at offset 5 of 'text'"),
        ('{"id": "a", "text": "x", "meta": {"note": "\\udc00"}}', "document 'a': a lone surrogate code point in its id, spans or meta"),
    ],
)
def test_lone_surrogates_are_refused_with_their_offset(tmp_path, raw, message):
    path = tmp_path / "in.json"
    path.write_text(raw)
    assert message in str(read_input(str(path)).errors[0])


def test_a_surrogate_pair_spelt_with_escapes_is_one_character(tmp_path):
    path = tmp_path / "in.json"
    path.write_text('{"id": "a", "text": "\\ud83d\\ude00 Anna"}')
    assert read_input(str(path)).documents[0].text == "\U0001f600 Anna"


def test_stdin_reports_a_broken_pretty_printed_document_as_invalid_json():
    broken = json.dumps(document(), indent=2).replace('"LAST_NAME"', "LAST_NAME")
    number = next(n for n, line in enumerate(broken.split("\n"), start=1) if "LAST_NAME" in line)
    result = invoke("-", input=broken)
    assert result.exit_code == 1 and f"-: invalid JSON at line {number}, column" in result.stderr
    assert result.stderr.count("\n") == 1


def test_stdin_one_object_on_one_line_comes_back_on_one_line():
    result = invoke("-", "--locale", "sv", input=json.dumps(document()) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1 and json.loads(result.stdout)["id"] == "a"


def test_stdin_json_lines_and_lists_and_pretty_documents():
    lines = "".join(json.dumps(document(i)) + "\n" for i in "ab")
    assert [json.loads(line)["id"] for line in invoke("-", "--locale", "sv", input=lines).stdout.splitlines()] == ["a", "b"]
    listed = invoke("-", "--locale", "sv", input=json.dumps([document("a")]))
    assert [d["id"] for d in json.loads(listed.stdout)] == ["a"]
    pretty = invoke("-", "--locale", "sv", input=json.dumps(document("p"), indent=2))
    assert json.loads(pretty.stdout)["id"] == "p"


def test_stdin_json_lines_with_a_broken_line_name_the_line():
    lines = json.dumps(document("a")) + "\n{oops\n"
    result = invoke("-", input=lines)
    assert result.exit_code == 1 and "line 2: invalid JSON" in result.stderr


def test_json_lines_input_written_as_json_by_extension(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(document("a")) + "\n")
    batch = read_input(str(path))
    write_output(batch.documents, str(tmp_path / "out.json"), batch)
    assert json.loads((tmp_path / "out.json").read_text())[0]["id"] == "a"
