"""The native format (docs/format.md): JSON documents, one per file, a list, or one per line."""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, TextIO

from pseudo.errors import InputError
from pseudo.model import Document, Span


def document_from_dict(raw: Any, source: str, position: str) -> Document:
    """Validate the shape and types of one document; offsets are checked by Document.validated."""
    if not isinstance(raw, dict):
        raise InputError(f"{position}: a document must be a JSON object", source)
    doc_id = raw.get("id")
    if not isinstance(doc_id, str) or not doc_id:
        raise InputError(f"{position}: 'id' must be a non-empty string", source)
    text = raw.get("text")
    if not isinstance(text, str):
        raise InputError("'text' must be a string", source, doc_id)
    spans_raw = raw.get("spans", [])
    if not isinstance(spans_raw, list):
        raise InputError("'spans' must be a list", source, doc_id)
    meta = raw.get("meta", {})
    if not isinstance(meta, dict):
        raise InputError("'meta' must be an object", source, doc_id)
    unknown = set(raw) - {"id", "text", "spans", "meta"}
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(sorted(unknown))}", source, doc_id)
    spans = []
    for number, span in enumerate(spans_raw):
        if not isinstance(span, dict):
            raise InputError(f"span #{number} must be an object", source, doc_id)
        start, end, label = span.get("start"), span.get("end"), span.get("label")
        if not (type(start) is int and type(end) is int):
            raise InputError(f"span #{number}: 'start' and 'end' must be integers", source, doc_id)
        if not isinstance(label, str) or not label:
            raise InputError(f"span {start}-{end}: 'label' must be a non-empty string", source, doc_id)
        attrs = span.get("attrs", {})
        if not isinstance(attrs, dict):
            raise InputError(f"span {start}-{end}: 'attrs' must be an object", source, doc_id)
        extra = set(span) - {"start", "end", "label", "attrs", "text"}
        if extra:
            raise InputError(f"span {start}-{end}: unknown field(s) {', '.join(sorted(extra))}", source, doc_id)
        if "text" in span:
            attrs = {**attrs, "text": span["text"]}
        spans.append(Span(start, end, label, attrs))
    return Document(doc_id, text, tuple(spans), meta).validated(source)


def document_to_dict(document: Document) -> dict[str, Any]:
    spans = []
    for span in document.spans:
        entry: dict[str, Any] = {"start": span.start, "end": span.end, "label": span.label}
        attrs = dict(span.attrs)
        if "text" in attrs:  # a span's text attribute follows its new text
            attrs["text"] = document.text[span.start : span.end]
        if attrs:
            entry["attrs"] = attrs
        spans.append(entry)
    out: dict[str, Any] = {"id": document.id, "text": document.text, "spans": spans}
    if document.meta:
        out["meta"] = dict(document.meta)
    return out


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not valid UTF-8 (byte {error.start})", source) from None


def read_json(data: bytes, source: str) -> Iterator[Document | InputError]:
    """A document or a list of documents. A broken file fails whole; a broken document alone."""
    try:
        raw = json.loads(_decode(data, source))
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno}, column {error.colno}", source) from None
    items = raw if isinstance(raw, list) else [raw]
    for number, item in enumerate(items):
        try:
            yield document_from_dict(item, source, f"document #{number}")
        except InputError as error:
            yield error


def read_jsonl(data: bytes, source: str) -> Iterator[Document | InputError]:
    for number, line in enumerate(_decode(data, source).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            yield InputError(f"line {number}: invalid JSON at column {error.colno}", source)
            continue
        try:
            yield document_from_dict(raw, source, f"line {number}")
        except InputError as error:
            yield error


def write_json(documents: Iterable[Document], handle: TextIO, single: bool) -> None:
    items = [document_to_dict(d) for d in documents]
    payload: Any = items[0] if single and len(items) == 1 else items
    json.dump(payload, handle, ensure_ascii=False, indent=1)
    handle.write("\n")


def write_jsonl(documents: Iterable[Document], handle: TextIO) -> None:
    for document in documents:
        handle.write(json.dumps(document_to_dict(document), ensure_ascii=False))
        handle.write("\n")
