"""Presidio's synthetic samples in and out: one item one document, spans in the order read, the
other keys as read, the same layout written back."""

from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError
from pseudo.io import presidio

# Hand-written items in presidio-research's layout (no corpus text).
ITEMS = [
    {
        "full_text": "My name is Ann Lee and I live at 12 Oak Street, Kenosha, WI 53140",
        "masked": "My name is {{PERSON}} and I live at {{STREET_ADDRESS}}",
        "spans": [
            {"entity_type": "STREET_ADDRESS", "entity_value": "12 Oak Street, Kenosha, WI 53140", "start_position": 33, "end_position": 65},
            {"entity_type": "PERSON", "entity_value": "Ann Lee", "start_position": 11, "end_position": 18},
        ],
        "template_id": 7,
        "metadata": None,
    },
    {"full_text": "What are my options?", "masked": "What are my options?", "spans": [], "template_id": 41, "metadata": None},
]
TEXT = json.dumps(ITEMS, indent=1, ensure_ascii=False)


def test_items_read_as_documents_and_write_back_unchanged():
    documents, errors, layouts = presidio.read(TEXT, "items.json")
    assert not errors and [d.id for d in documents] == ["0", "1"]
    assert [(s.start, s.label) for s in documents[0].spans] == [(11, "PERSON"), (33, "STREET_ADDRESS")]
    handle = io.StringIO()
    presidio.write(documents, handle, layouts)
    assert handle.getvalue() == TEXT


def test_a_broken_item_is_reported_and_the_others_read():
    broken = json.loads(TEXT)
    broken[0]["spans"][1]["entity_value"] = "Ann"
    documents, errors, _ = presidio.read(json.dumps(broken), "items.json")
    assert [d.id for d in documents] == ["1"] and len(errors) == 1 and "entity_value" in str(errors[0])
    with pytest.raises(InputError):
        presidio.read('{"full_text": "x"}', "items.json")


def test_apply_writes_surrogates_at_their_positions_in_the_order_read(tmp_path):
    source, out = tmp_path / "items.json", tmp_path / "out.json"
    source.write_text(TEXT, encoding="utf-8")
    arguments = ["apply", str(source), "--format", "presidio", "--locale", "en", "--out", str(out)]
    result = CliRunner().invoke(app, arguments, env={"PSEUDO_KEY": "test-key-0123456789"})
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert [s["entity_type"] for s in written[0]["spans"]] == ["STREET_ADDRESS", "PERSON"]
    for span in written[0]["spans"]:
        assert written[0]["full_text"][span["start_position"] : span["end_position"]] == span["entity_value"]
    assert "Ann Lee" not in written[0]["full_text"] and written[0]["masked"] == ITEMS[0]["masked"]
    assert written[1] == ITEMS[1]
