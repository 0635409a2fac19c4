"""CoNLL token files: the file's shape survives the round trip; what cannot be written back
faithfully (extra columns, mixed separators) is refused, never cut down."""

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError
from pseudo.io import read_input, write_output

SECRET = "Madeleine"


def round_trip(tmp_path, data: bytes, name="in.conll") -> bytes:
    path = tmp_path / name
    path.write_bytes(data)
    batch = read_input(str(path))
    out = tmp_path / f"out-{name}"
    write_output(batch.documents, str(out), batch)
    return out.read_bytes()


@pytest.mark.parametrize(
    "data",
    [
        b"-DOCSTART- -X- -X- O\n\nMamma O\nMadeleine B-First_Name\n\nHon O\n",  # one document, CoNLL-2003 head
        b"Mamma\tO\nMadeleine\tB-First_Name\nringde\tO\n\n\nHon\tO\n",  # tabs, two blank lines
        "\ufeffMamma O\r\nMadeleine S-First_Name\r\n\r\n".encode(),  # BOM, CRLF, BIOES
        b"-DOCSTART-\tO\n\nAnna B-First_Name\n\n-DOCSTART-\tO\n\nLars B-First_Name\nkom O",  # no final newline
        "Mamma O\nMade\u2028leine B-First_Name\nx\x0cy O\n".encode(),  # separators inside tokens
    ],
)
def test_an_unchanged_file_is_written_back_byte_for_byte(tmp_path, data):
    assert round_trip(tmp_path, data) == data


def test_a_line_separator_inside_a_token_does_not_split_it(tmp_path):
    path = tmp_path / "in.conll"
    path.write_bytes("Made\u2028leine B-First_Name\n".encode())
    (document,) = read_input(str(path)).documents
    assert document.text == "Made\u2028leine" and len(document.spans) == 1


@pytest.mark.parametrize(
    "data, message",
    [
        (f"Mamma NN O\n{SECRET} PM B-First_Name\n", "line 1: expected two columns"),  # POS column
        (f"Mamma\tmamma\tO\n{SECRET}\t{SECRET}\tB-First_Name\n", "line 1: expected two columns"),  # lemma column
        (f"Mamma\tO\n{SECRET} B-First_Name\n", "line 2: a space between the columns, where earlier lines have a tab"),
        (f"Mamma O\n{SECRET}  B-First_Name\n", "line 2: expected two columns"),
        (f"Mamma O\n{SECRET} Berg\tB-First_Name\n", "line 2: a tab between the columns"),
    ],
)
def test_what_cannot_be_written_back_is_refused_without_its_text(tmp_path, data, message):
    path = tmp_path / "in.conll"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_input(str(path))
    assert message in str(error.value) and SECRET not in str(error.value)


def test_apply_keeps_the_docstart_line_and_tabs_of_a_one_document_file(tmp_path):
    path = tmp_path / "notes.conll"
    path.write_text(f"-DOCSTART- -X- -X- O\n\nMamma\tO\n{SECRET}\tB-First_Name\nringde\tO\n", encoding="utf-8")
    out = tmp_path / "out.conll"
    result = CliRunner().invoke(app, ["apply", str(path), "--locale", "sv", "--out", str(out)], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").split("\n")
    assert lines[:3] == ["-DOCSTART- -X- -X- O", "", "Mamma\tO"]
    assert lines[3].endswith("\tB-First_Name") and SECRET not in lines[3] and lines[-2:] == ["ringde\tO", ""]
