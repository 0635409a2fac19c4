"""Presidio's synthetic PII samples (microsoft/presidio-research, `synth_dataset_v2.json`): a JSON list.

    {"full_text": "My name is Kris Manning and I live in Omaha",
     "masked": "My name is {{PERSON}} and I live in {{GPE}}",
     "spans": [{"entity_type": "PERSON", "entity_value": "Kris Manning", "start_position": 11, "end_position": 23}, ...],
     "template_id": 1, "metadata": null}

An item is one document, its id its place in the list ("0", "1", ...); a span's positions are
code points of `full_text`, the end exclusive, and `entity_value` must be the text they cover.
Whitespace a span holds at its edges is left out of it. Written back in the same layout (a list
indented by one space, as presidio-research writes it): `full_text` pseudonymised, every span
with its surrogate and new positions in the order read, every other key (`masked`, the template
with no value in it; `template_id`, `metadata`) as read. A broken item is reported, the others read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence, TextIO

from pseudo.errors import InputError
from pseudo.model import Document, Span

SPAN_KEYS = ("entity_type", "entity_value", "start_position", "end_position")


@dataclass(frozen=True)
class Layout:
    fields: Mapping[str, Any]  # the item's keys in the order read, with the values of all but full_text and spans
    order: tuple[int, ...]  # for each span as read, its place among the document's sorted spans


def read(text: str, source: str) -> tuple[list[Document], list[InputError], dict[str, Layout]]:
    try:
        items = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno}, column {error.colno}", source) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to read", source) from None
    if not isinstance(items, list):
        raise InputError("not a list of Presidio samples (full_text, spans)", source)
    documents, errors, layouts = [], [], {}
    for number, item in enumerate(items):
        try:
            document, layout = _item(item, str(number), source)
        except InputError as error:
            errors.append(error)
            continue
        documents.append(document)
        layouts[document.id] = layout
    return documents, errors, layouts


def _item(item: Any, doc_id: str, source: str) -> tuple[Document, Layout]:
    if not isinstance(item, dict) or not isinstance(item.get("full_text"), str) or not isinstance(item.get("spans"), list):
        raise InputError("not a Presidio sample: needs full_text (a string) and spans (a list)", source, doc_id)
    text, spans = item["full_text"], []
    for index, raw in enumerate(item["spans"]):
        if not isinstance(raw, dict) or any(key not in raw for key in SPAN_KEYS):
            raise InputError(f"span {index}: needs {', '.join(SPAN_KEYS)}", source, doc_id)
        start, end, label = raw["start_position"], raw["end_position"], raw["entity_type"]
        if not (isinstance(start, int) and isinstance(end, int) and isinstance(label, str) and 0 <= start < end <= len(text)):
            raise InputError(f"span {index}: positions outside the text or not whole numbers", source, doc_id)
        if text[start:end] != raw["entity_value"]:
            raise InputError(f"span {index}: entity_value is not the text at its positions", source, doc_id)
        body = text[start:end]
        if body.strip():
            start, end = start + len(body) - len(body.lstrip()), end - len(body) + len(body.rstrip())
        spans.append(Span(start, end, label))
    ranked = sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end))
    order = tuple(ranked.index(i) for i in range(len(spans)))
    fields = {key: None if key in ("full_text", "spans") else value for key, value in item.items()}  # no original kept
    return Document(doc_id, text, tuple(spans)).validated(source), Layout(fields, order)


def write(documents: Sequence[Document], handle: TextIO, layouts: Mapping[str, Layout]) -> None:
    items = []
    for document in documents:
        layout = layouts.get(document.id)
        spans = [
            {"entity_type": s.label, "entity_value": document.text[s.start : s.end], "start_position": s.start, "end_position": s.end}
            for s in document.spans
        ]
        if layout is not None and len(layout.order) == len(spans):
            spans = [spans[i] for i in layout.order]
        fields = layout.fields if layout is not None else {"full_text": None, "spans": None}
        items.append({key: document.text if key == "full_text" else spans if key == "spans" else value for key, value in fields.items()})
    handle.write(json.dumps(items, indent=1, ensure_ascii=False))
