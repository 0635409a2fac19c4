"""Bad input: one clear error naming file, document and offsets, never the span's text."""

import json

import pytest

from pseudo.errors import InputError
from pseudo.io import read_input

SECRET = "Hemligsson"


def write(tmp_path, payload, name="in.json"):
    path = tmp_path / name
    path.write_bytes(payload if isinstance(payload, bytes) else json.dumps(payload).encode())
    return str(path)


def doc(**changes):
    base = {"id": "doc-7", "text": f"Patient {SECRET} kom in.", "spans": [{"start": 8, "end": 18, "label": "LAST_NAME"}]}
    base.update(changes)
    return base


@pytest.mark.parametrize(
    "payload, expected",
    [
        ({"id": "doc-7", "spans": []}, "'text' must be a string"),
        (doc(id=7), "'id' must be a non-empty string"),
        (doc(spans=[{"start": "8", "end": 18, "label": "X"}]), "must be integers"),
        (doc(spans=[{"start": 8, "end": 99, "label": "X"}]), "span 8-99 is outside the text"),
        (doc(spans=[{"start": 18, "end": 8, "label": "X"}]), "span 18-8 is empty or reversed"),
        (doc(spans=[{"start": 0, "end": 12, "label": "X"}, {"start": 8, "end": 18, "label": "Y"}]), "overlap"),
        (doc(spans=[{"start": 8, "end": 18, "label": ""}]), "'label' must be a non-empty string"),
        (doc(spans=[{"start": 8, "end": 18, "label": "X", "text": "Svensson"}]), "does not match"),
        (doc(spans={"start": 1}), "'spans' must be a list"),
        (doc(extra=1), "unknown field"),
    ],
)
def test_each_bad_document_gets_a_precise_message(tmp_path, payload, expected):
    batch = read_input(write(tmp_path, payload))
    assert not batch.documents
    message = str(batch.errors[0])
    assert expected in message
    assert SECRET not in message and "Svensson" not in message


def test_invalid_json_fails_the_file_with_its_position(tmp_path):
    with pytest.raises(InputError, match=r"in.json: invalid JSON at line 1"):
        read_input(write(tmp_path, b'{"id": "a", "text": '))


def test_invalid_utf8_is_named(tmp_path):
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_input(write(tmp_path, b'{"id": "a", "text": "\xff"}'))


def test_jsonl_errors_name_the_line(tmp_path):
    good = json.dumps(doc())
    batch = read_input(write(tmp_path, (good + "\n{oops\n" + good.replace("doc-7", "doc-8") + "\n").encode(), "in.jsonl"))
    assert [d.id for d in batch.documents] == ["doc-7", "doc-8"]
    assert "line 2" in str(batch.errors[0])


def test_empty_documents_and_documents_without_spans_are_valid(tmp_path):
    batch = read_input(write(tmp_path, [{"id": "a", "text": ""}, {"id": "b", "text": "nothing here", "spans": []}]))
    assert [d.id for d in batch.documents] == ["a", "b"] and not batch.errors


def test_a_bom_is_accepted(tmp_path):
    batch = read_input(write(tmp_path, b"\xef\xbb\xbf" + json.dumps(doc()).encode()))
    assert batch.documents[0].id == "doc-7"
