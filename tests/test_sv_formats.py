"""The Stockholm corpus formats: inline tags and CoNLL token files (BIO, BIOES), read and written."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError
from pseudo.io import conll, inline
from pseudo.model import Document, Span

INLINE = "Närstående Mamma <First_Name>Madeleine</First_Name> tfn: <Phone_Number>0652 7256</Phone_Number>, CRP <5.\n"


def test_inline_tags_become_spans_over_the_plain_text():
    document, _ = inline.read(INLINE, "letter.inline.txt")
    assert document.id == "letter"
    assert document.text == "Närstående Mamma Madeleine tfn: 0652 7256, CRP <5.\n"
    assert [(s.label, document.span_text(s)) for s in document.spans] == [
        ("First_Name", "Madeleine"), ("Phone_Number", "0652 7256")]  # fmt: skip
    assert inline.render(document) == INLINE


def test_nested_inline_tags_are_refused_without_their_text():
    with pytest.raises(InputError) as error:
        inline.read("<Location>bor <First_Name>Anna</First_Name></Location>", "x.tagged")
    assert "Anna" not in str(error.value) and "do not nest" in str(error.value)


CONLL = "Mamma O\nMadeleine B-First_Name\nringde O\n\nHon O\nbor O\npå O\nMöja B-Location\n. O\n"


def test_conll_text_is_rebuilt_with_single_spaces_and_newlines():
    [document], layout = conll.read(CONLL, "notes.conll")
    assert layout.scheme == "BIO" and document.id == "notes"
    assert document.text == "Mamma Madeleine ringde\nHon bor på Möja ."
    assert [(s.start, s.end, s.label) for s in document.spans] == [(6, 15, "First_Name"), (34, 38, "Location")]


@pytest.mark.parametrize("scheme, tags", [
    ("BIO", ["B-Location", "I-Location", "O"]), ("BIOES", ["B-Location", "E-Location", "O"]),
])  # fmt: skip
def test_a_surrogate_of_several_words_is_written_as_several_tokens(scheme, tags):
    document = Document("d", "Västra Frölunda nu", (Span(0, 15, "Location"),))
    written = []
    conll.write([document], _Collect(written), conll.Layout(scheme))
    assert [line.split(" ")[1] for line in "".join(written).splitlines() if line] == tags


def test_bioes_single_tokens_and_documents_are_read():
    text = "-DOCSTART- O\n\nAnna S-First_Name\nkom O\n\n-DOCSTART- O\n\nLars S-First_Name\n"
    documents, layout = conll.read(text, "two.bioes")
    assert layout.scheme == "BIOES" and [d.id for d in documents] == ["two-1", "two-2"]
    assert all(len(d.spans) == 1 for d in documents)


def test_a_bad_tag_is_an_input_error():
    with pytest.raises(InputError):
        conll.read("Anna X-Name\n", "bad.conll")


class _Collect:
    def __init__(self, into):
        self.into = into

    def write(self, text):
        self.into.append(text)

    def writelines(self, lines):
        self.into.extend(lines)


def invoke(*args):
    return CliRunner().invoke(app, list(args), env={"PSEUDO_KEY": "format-key"})


def test_pseudo_apply_keeps_inline_tags_on_the_surrogates(tmp_path):
    source = tmp_path / "letter.inline.txt"
    source.write_text(INLINE, encoding="utf-8")
    out = tmp_path / "out.inline.txt"
    result = invoke("apply", str(source), "--locale", "sv", "--out", str(out))
    assert result.exit_code == 0, result.output
    document, _ = inline.read(out.read_text(encoding="utf-8"), str(out))
    assert [s.label for s in document.spans] == ["First_Name", "Phone_Number"]
    assert "Madeleine" not in document.text and "0652 7256" not in document.text
    assert document.text.endswith(", CRP <5.\n")


@pytest.mark.parametrize("suffix, text", [
    (".bio", CONLL), (".bioes", CONLL.replace("B-First_Name", "S-First_Name").replace("B-Location", "S-Location")),
])  # fmt: skip
def test_pseudo_apply_writes_conll_in_the_scheme_it_read(tmp_path, suffix, text):
    source = tmp_path / f"notes{suffix}"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / f"out{suffix}"
    result = invoke("apply", str(source), "--locale", "sv", "--format", "conll", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = [line.split(" ") for line in out.read_text(encoding="utf-8").splitlines() if line]
    tags = [tag for _, tag in lines]
    assert tags[0] == "O" and tags[1].endswith("First_Name") and "Madeleine" not in [t for t, _ in lines]
    assert any(t.endswith("Location") for t in tags)
    if suffix == ".bioes":
        assert tags[1] == "S-First_Name"
