"""The native format (docs/format.md): JSON documents, one per file, a list, or one per line."""

from __future__ import annotations

import json
import re
from typing import Any, BinaryIO, Iterable, Iterator, TextIO

from pseudo.errors import InputError
from pseudo.io.source import BOM, decode
from pseudo.model import Document, Span

_SURROGATE = re.compile("[\ud800-\udfff]")
TOO_DEEP = "JSON nested too deeply to read"  # Python's parser recurses once per level


class SpanText(dict):
    """The attrs of a span that carried "text" beside its label: the writer puts it back there."""


class _Repeated(dict):
    """A JSON object that held `key` twice; json keeps the last value silently, we refuse it."""

    key: str


def _parsed(text: str) -> tuple[Any, bool]:
    """The JSON value, and whether some object in it held a key twice (then marked _Repeated)."""
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict:
        nonlocal repeated
        value = dict(items)
        if len(value) == len(items):
            return value
        seen: set[str] = set()
        marked = _Repeated(value)
        marked.key = next(key for key, _ in items if key in seen or seen.add(key))
        repeated = True
        return marked

    return json.loads(text, object_pairs_hook=pairs), repeated


def _repeated_key(value: Any, path: str = "") -> str | None:
    """The path of the first key held twice ("spans[0].label"): keys only, never values."""
    if isinstance(value, _Repeated):
        return f"{path}.{value.key}" if path else value.key
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for name, child in children:
        found = _repeated_key(child, f"{path}[{name}]" if isinstance(value, list) else f"{path}.{name}" if path else name)
        if found:
            return found
    return None


def _refuse_repeated_keys(raw: Any, source: str, position: str) -> None:
    where = _repeated_key(raw)
    if where is not None:
        raise InputError(f"{position}: key {where!r} occurs twice (JSON would keep only its last value)", source)


def _check_code_points(raw: dict, text: str, source: str, doc_id: str) -> None:
    """JSON escapes can spell lone surrogates, which no UTF-8 output can hold."""
    bad = _SURROGATE.search(text)
    if bad:
        raise InputError(f"a lone surrogate code point (\\u{ord(bad.group()):04x}) at offset {bad.start()} of 'text'", source, doc_id)
    try:
        json.dumps({k: v for k, v in raw.items() if k != "text"}, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("a lone surrogate code point in its id, spans or meta", source, doc_id) from None


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
    _check_code_points(raw, text, source, doc_id)
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
            if "text" in attrs:
                raise InputError(f"span {start}-{end}: 'text' both beside 'label' and in 'attrs'", source, doc_id)
            attrs = SpanText(attrs, text=span["text"])  # checked against the text with the attrs' own
        spans.append(Span(start, end, label, attrs))
    return Document(doc_id, text, tuple(spans), meta).validated(source)


def document_to_dict(document: Document) -> dict[str, Any]:
    spans = []
    for span in document.spans:
        entry: dict[str, Any] = {"start": span.start, "end": span.end, "label": span.label}
        attrs = dict(span.attrs)
        if "text" in attrs:  # a span's text follows its new text, where it was
            attrs["text"] = document.text[span.start : span.end]
            if isinstance(span.attrs, SpanText):
                entry["text"] = attrs.pop("text")
        if attrs:
            entry["attrs"] = attrs
        spans.append(entry)
    out: dict[str, Any] = {"id": document.id, "text": document.text, "spans": spans}
    if document.meta:
        out["meta"] = dict(document.meta)
    return out


def read_json(data: bytes, source: str) -> Iterator[Document | InputError]:
    """A document or a list of documents. A broken file fails whole; a broken document alone."""
    try:
        raw, repeated = _parsed(decode(data, source).removeprefix(BOM))
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno}, column {error.colno}", source) from None
    except RecursionError:
        raise InputError(TOO_DEEP, source) from None
    items = raw if isinstance(raw, list) else [raw]
    for number, item in enumerate(items):
        try:
            yield _checked_document(item, repeated, source, f"document #{number}")
        except InputError as error:
            yield error


def read_jsonl(data: bytes, source: str) -> Iterator[Document | InputError]:
    """One document per line. Lines end at LF only (str.splitlines would also split at U+2028 and
    other separators, which JSON strings may hold unescaped); a CR before it is dropped."""
    for number, line in enumerate(decode(data, source).removeprefix(BOM).split("\n"), start=1):
        item = jsonl_line(line, number, source)
        if item is not None:
            yield item


def jsonl_line(line: str, number: int, source: str) -> Document | InputError | None:
    """The document on one line of JSON Lines, its error, or None for a blank line."""
    line = line.removesuffix("\r")
    if not line.strip():
        return None
    try:
        raw, repeated = _parsed(line)
    except json.JSONDecodeError as error:
        return InputError(f"line {number}: invalid JSON at column {error.colno}", source)
    except RecursionError:
        return InputError(f"line {number}: {TOO_DEEP}", source)
    try:
        return _checked_document(raw, repeated, source, f"line {number}")
    except InputError as error:
        return error


def _checked_document(raw: Any, repeated: bool, source: str, where: str) -> Document:
    """The document of one parsed item, refused where the JSON repeated a key."""
    if repeated:
        _refuse_repeated_keys(raw, source, where)
    return document_from_dict(raw, source, where)


def stream_jsonl(handle: BinaryIO, source: str) -> Iterator[tuple[int, Document | InputError]]:
    """A JSON Lines file line by line, each document or error with the byte offset of its line:
    read as `read_jsonl` reads the whole file, with the same messages, in bounded memory."""
    for number, (offset, raw) in enumerate(_lines(handle), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"not valid UTF-8 (byte {offset + error.start})", source) from None
        item = jsonl_line(line.removeprefix(BOM) if offset == 0 else line, number, source)
        if item is not None:
            yield offset, item


def jsonl_at(handle: BinaryIO, offset: int, source: str) -> Document | InputError | None:
    """The document on the line at a byte offset (as `stream_jsonl` gave it)."""
    handle.seek(offset)
    line = handle.readline().decode("utf-8").removesuffix("\n")
    return jsonl_line(line.removeprefix(BOM) if offset == 0 else line, 0, source)


def _lines(handle: BinaryIO) -> Iterator[tuple[int, bytes]]:
    offset = 0
    for raw in handle:  # binary lines end at LF only
        yield offset, raw.removesuffix(b"\n")
        offset += len(raw)


def write_json(documents: Iterable[Document], handle: TextIO, single: bool) -> None:
    items = [document_to_dict(d) for d in documents]
    payload: Any = items[0] if single and len(items) == 1 else items
    json.dump(payload, handle, ensure_ascii=False, indent=1)
    handle.write("\n")


def write_jsonl(documents: Iterable[Document], handle: TextIO) -> None:
    for document in documents:
        handle.write(json.dumps(document_to_dict(document), ensure_ascii=False))
        handle.write("\n")
