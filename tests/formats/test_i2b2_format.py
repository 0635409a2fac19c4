"""i2b2-style XML as MEDDOCAN ships it: read, written back in the same layout, tags updated."""

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.io import read_input, write_output
from pseudo.model import Document, Span

MEDDOCAN = """<?xml version='1.0' encoding='UTF-8'?>
<MEDDOCAN>
  <TEXT><![CDATA[Nombre:  Ernesto.
Apellidos: Rivera Bueno & "hijos" <x>.
]]></TEXT>
  <TAGS>
    <NAME id="T21" start="9" end="16" text="Ernesto" TYPE="NOMBRE_SUJETO_ASISTENCIA" comment=""/>
    <NAME id="T20" start="29" end="41" text="Rivera Bueno" TYPE="NOMBRE_SUJETO_ASISTENCIA" comment=""/>
  </TAGS>
</MEDDOCAN>
"""


def write(tmp_path, content: str, name="S0004-1.xml"):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return str(path)


def test_read_keeps_label_element_id_and_comment(tmp_path):
    batch = read_input(write(tmp_path, MEDDOCAN))
    (document,) = batch.documents
    assert document.id == "S0004-1"
    assert [(s.label, s.attrs["element"], s.attrs["id"], document.text[s.start : s.end]) for s in document.spans] == [
        ("NOMBRE_SUJETO_ASISTENCIA", "NAME", "T21", "Ernesto"),
        ("NOMBRE_SUJETO_ASISTENCIA", "NAME", "T20", "Rivera Bueno"),
    ]


def test_an_unchanged_document_is_written_back_byte_for_byte(tmp_path):
    batch = read_input(write(tmp_path, MEDDOCAN))
    out = tmp_path / "out.xml"
    write_output(batch.documents, str(out), batch)
    assert out.read_text(encoding="utf-8") == MEDDOCAN


def test_cdata_end_and_new_tags_are_written_safely(tmp_path):
    text = 'a ]]> b "c" & d'
    document = Document("x", text, (Span(0, 1, "PAIS"), Span(6, 7, "PAIS", {"element": "LOCATION", "id": "T4"})))
    batch = read_input(write(tmp_path, MEDDOCAN))
    out = tmp_path / "x.xml"
    write_output([document], str(out), batch)
    again = read_input(str(out)).documents[0]
    assert again.text == text
    assert [(s.start, s.end, s.attrs["element"], s.attrs["id"]) for s in again.spans] == [
        (0, 1, "PHI", "T5"),  # a span the engine added gets an element and the next free id
        (6, 7, "LOCATION", "T4"),
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        ("<MEDDOCAN><TEXT>abc", "not well-formed XML at line 1"),
        ("<MEDDOCAN><TAGS/></MEDDOCAN>", "no <TEXT> element"),
        ("<MEDDOCAN><TEXT>Rivera</TEXT><NOTES>Rivera</NOTES></MEDDOCAN>", "unexpected element(s) NOTES"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="0" end="6" text="Rivera"/></TAGS></MEDDOCAN>', "no TYPE"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="0" end="x" TYPE="A"/></TAGS></MEDDOCAN>', "whole numbers"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="0" end="3" TYPE="A" text="Rivera"/></TAGS></MEDDOCAN>', "does not match"),
    ],
)
def test_bad_files_fail_clearly_without_quoting_text(tmp_path, content, message):
    batch = read_input(write(tmp_path, content))
    assert not batch.documents
    assert message in str(batch.errors[0]) and "Rivera" not in str(batch.errors[0])


def test_apply_updates_offsets_and_text_attributes(tmp_path):
    source = write(tmp_path, MEDDOCAN)
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(app, ["apply", source, "--out", str(out), "--locale", "es"], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 0, result.output
    (document,) = read_input(str(out)).documents  # reading checks every text attribute against the text
    assert "Ernesto" not in document.text and "Rivera" not in document.text
    assert document.text.endswith(' & "hijos" <x>.\n')
