"""i2b2-style XML as MEDDOCAN ships it: read, written back in the same layout, tags updated."""

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import PseudoError
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
        ("<MEDDOCAN><TEXT>Ana</TEXT><TEXT>Rivera</TEXT></MEDDOCAN>", "2 <TEXT> elements"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS/><TAGS><NAME start="0" end="6" TYPE="A"/></TAGS></MEDDOCAN>', "2 <TAGS> elements"),
        ("<MEDDOCAN><TEXT>Ana <b>Rivera</b></TEXT></MEDDOCAN>", "<TEXT> holds elements"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="0" end="\u00b2" TYPE="A"/></TAGS></MEDDOCAN>', "whole numbers"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="\u0660" end="6" TYPE="A"/></TAGS></MEDDOCAN>', "whole numbers"),
        ('<MEDDOCAN><TEXT>Rivera</TEXT><TAGS><NAME start="0" end="6" TYPE="A" element="X"/></TAGS></MEDDOCAN>', "an attribute named 'element'"),
        ('<m:MEDDOCAN xmlns:m="urn:x"><TEXT>Rivera</TEXT></m:MEDDOCAN>', "namespaces are not supported"),
        ('<MEDDOCAN xmlns="urn:x"><TEXT>Rivera</TEXT></MEDDOCAN>', "namespaces are not supported"),
        ('<MEDDOCAN><TEXT>x</TEXT><TAGS><NAME start="0" end="1" TYPE="A">Rivera</NAME></TAGS></MEDDOCAN>', "text outside <TEXT>"),
        ("<MEDDOCAN>Rivera<TEXT>x</TEXT></MEDDOCAN>", "text outside <TEXT>"),
        ('<MEDDOCAN><TEXT>x</TEXT><TAGS><NAME start="0" end="1" TYPE="A"><NOTE/></NAME></TAGS></MEDDOCAN>', "tag #1 holds elements"),
        ('<MEDDOCAN source="Rivera"><TEXT>x</TEXT></MEDDOCAN>', "attributes on the root"),
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


def test_several_documents_cannot_be_written_to_one_file(tmp_path):
    batch = read_input(write(tmp_path, MEDDOCAN))
    out = tmp_path / "out.xml"
    with pytest.raises(PseudoError, match="one document per file, not 2"):
        write_output([Document("a", "x"), Document("b", "y")], str(out), batch)
    assert not out.exists()


def test_a_file_whose_document_was_skipped_is_not_written(tmp_path):
    source = write(tmp_path, MEDDOCAN.replace('TYPE="NOMBRE_SUJETO_ASISTENCIA"', 'TYPE="NOT_A_LABEL"', 1))
    out = tmp_path / "out.xml"
    arguments = ["apply", source, "--out", str(out), "--locale", "es", "--tagset", "meddocan", "--on-error", "skip"]
    result = CliRunner().invoke(app, arguments, env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 3 and "nothing written" in result.stderr and not out.exists()
