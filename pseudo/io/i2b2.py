"""i2b2-style XML, as MEDDOCAN and the i2b2 2014 track ship it: one document per file.

    <MEDDOCAN>
      <TEXT><![CDATA[...]]></TEXT>
      <TAGS>
        <NAME id="T21" start="29" end="36" text="Ernesto" TYPE="NOMBRE_SUJETO_ASISTENCIA" comment=""/>
      </TAGS>
    </MEDDOCAN>

The TYPE attribute is the label; the element name (NAME, LOCATION, ...), the id and any other
attribute are kept and written back. Offsets count code points of the text an XML parser reads,
which has its line ends normalised to LF as the XML standard requires. The root element's name is
kept. Anything else in the file (a second TEXT or TAGS, markup inside TEXT or a tag, text outside
TEXT, namespaces) would pass unseen by the engine or could not be written back, so it is rejected.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import TextIO

import regex

from pseudo.errors import InputError
from pseudo.model import Document, Span

DEFAULT_ROOT = "MEDDOCAN"
DEFAULT_ELEMENT = "PHI"
_FIRST = ("id", "start", "end", "text", "TYPE")  # attribute order of the written tags
_NOT_XML = regex.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class Layout:
    root: str


def _check_shape(root: ElementTree.Element, source: str, doc_id: str) -> None:
    """Exactly the MEDDOCAN shape: what the engine would not see, or the writer could not write
    back (namespaces, nested markup, text outside TEXT), is refused rather than dropped."""
    if any(element.tag.startswith("{") or any(name.startswith("{") for name in element.attrib) for element in root.iter()):
        raise InputError("XML namespaces are not supported (a namespaced element or attribute)", source, doc_id)
    names = [child.tag for child in root]
    unexpected = sorted(set(names) - {"TEXT", "TAGS"})
    if unexpected:
        raise InputError(f"unexpected element(s) {', '.join(unexpected)} beside TEXT and TAGS", source, doc_id)
    if "TEXT" not in names:
        raise InputError("no <TEXT> element", source, doc_id)
    for name, most in (("TEXT", 1), ("TAGS", 1)):
        if names.count(name) > most:
            raise InputError(f"{names.count(name)} <{name}> elements; a file holds one", source, doc_id)
    text_element, tags = root.find("TEXT"), root.find("TAGS")
    if len(text_element):
        raise InputError("<TEXT> holds elements; it must hold text only", source, doc_id)
    if root.attrib or text_element.attrib or (tags is not None and tags.attrib):
        raise InputError("attributes on the root, <TEXT> or <TAGS> (they would not be written back)", source, doc_id)
    outside = [root.text, *(child.tail for child in root)]
    if tags is not None:
        outside += [tags.text, *(tag.text for tag in tags), *(tag.tail for tag in tags)]
        nested = next((number for number, tag in enumerate(tags, start=1) if len(tag)), None)
        if nested:
            raise InputError(f"tag #{nested} holds elements; tags must be empty", source, doc_id)
    if any(piece and piece.strip() for piece in outside):
        raise InputError("text outside <TEXT> (in the root, in <TAGS> or inside a tag)", source, doc_id)


def read(data: bytes, source: str, doc_id: str) -> tuple[Document, Layout]:
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        line, column = error.position
        raise InputError(f"not well-formed XML at line {line}, column {column}", source, doc_id) from None
    _check_shape(root, source, doc_id)
    text = root.find("TEXT").text or ""
    spans = []
    tags = root.find("TAGS")
    for number, tag in enumerate(tags if tags is not None else (), start=1):
        attributes = dict(tag.attrib)
        where = f"tag #{number} <{tag.tag}>"
        if "element" in attributes:
            raise InputError(f"{where}: an attribute named 'element' (the name pseudo keeps the element name under)", source, doc_id)
        start, end, label = attributes.pop("start", None), attributes.pop("end", None), attributes.pop("TYPE", None)
        if not all(value and value.isascii() and value.isdecimal() for value in (start, end)):
            raise InputError(f"{where}: 'start' and 'end' must be whole numbers", source, doc_id)
        if not label:
            raise InputError(f"{where}: no TYPE attribute", source, doc_id)
        spans.append(Span(int(start), int(end), label, {"element": tag.tag, **attributes}))
    document = Document(doc_id, text, tuple(spans)).validated(source)
    return document, Layout(root.tag)


def _escaped(value: str) -> str:
    """Safe in an attribute and in element text; line ends as references survive a parser unchanged."""
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    )  # fmt: skip


def _text(text: str) -> str:
    """CDATA as MEDDOCAN writes it; a CR (from a character reference) only survives escaped."""
    if "\r" in text:
        return _escaped(text).replace("&#10;", "\n").replace("&#9;", "\t")
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def write(document: Document, handle: TextIO, layout: Layout | None) -> None:
    """The MEDDOCAN layout: CDATA text, one tag per line in text order, new tags numbered after the others."""
    bad = _NOT_XML.search(document.text)
    if bad:
        raise InputError(f"character at offset {bad.start()} cannot be written in XML 1.0", document_id=document.id)
    taken = {str(s.attrs.get("id")) for s in document.spans if s.attrs.get("id")}
    prefix = next((i.rstrip("0123456789") for i in sorted(taken) if i.rstrip("0123456789") != i), "T")
    numbers = [int(i[len(prefix) :]) for i in taken if i.startswith(prefix) and i[len(prefix) :].isdigit()]
    fresh = max(numbers, default=0)
    handle.write("<?xml version='1.0' encoding='UTF-8'?>\n")
    root = layout.root if layout else DEFAULT_ROOT
    handle.write(f"<{root}>\n  <TEXT>{_text(document.text)}</TEXT>\n  <TAGS>\n")
    for span in document.spans:
        attributes = {k: str(v) for k, v in span.attrs.items() if k != "element"}
        if "id" not in attributes:
            fresh += 1
            attributes["id"] = f"{prefix}{fresh}"
        attributes.update(start=str(span.start), end=str(span.end), text=document.text[span.start : span.end], TYPE=span.label)
        ordered = [k for k in _FIRST if k in attributes] + [k for k in attributes if k not in _FIRST]
        written = " ".join(f'{k}="{_escaped(attributes[k])}"' for k in ordered)
        handle.write(f"    <{span.attrs.get('element', DEFAULT_ELEMENT)} {written}/>\n")
    handle.write(f"  </TAGS>\n</{root}>\n")
