"""Inline tags: anything tag-like outside a proper pair is an error (never text that goes out
unreplaced); a byte-order mark and empty pairs survive the round trip."""

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError
from pseudo.io import read_input, write_output

SECRET = "Anna"


def invoke(*args):
    return CliRunner().invoke(app, list(args), env={"PSEUDO_KEY": "inline-key"})


@pytest.mark.parametrize(
    "text, where, what",
    [
        (f"Pat.\n<First_Name>{SECRET}</FirstName> kom", "line 2, column 17", "does not match"),
        (f"Pat. <First_Name>{SECRET} kom", "line 1, column 6", "never closed"),
        (f'Pat. <First_Name id="1">{SECRET}</First_Name>', "line 1, column 6", "opens no pair"),
        (f"Pat. {SECRET}</First_Name> kom", "line 1, column 10", "opens no pair"),
        ("Pat. <First_Name/> kom", "line 1, column 6", "opens no pair"),
        (f"<First_Name>{SECRET}</First_Name> och <Last_Name>Berg</Last_Name> <Age>", "line 1, column 63", "never closed"),
        (f"<First_Name>{SECRET} <Age>52</Age></First_Name>", "line 1, column 18", "do not nest"),
        (f"<{SECRET} Berg> kom", "line 1, column 1", "opens no pair"),
    ],
)
def test_a_badly_tagged_value_is_an_error_naming_the_place_not_the_text(tmp_path, text, where, what):
    path = tmp_path / "letter.inline.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_input(str(path))
    message = str(error.value)
    assert str(path) in message and where in message and what in message
    assert SECRET not in message.replace(str(path), "")


def test_apply_refuses_a_badly_tagged_file_and_writes_nothing(tmp_path):
    path = tmp_path / "letter.inline.txt"
    path.write_text(f"Pat. <First_Name>{SECRET}</FirstName> kom\n", encoding="utf-8")
    out = tmp_path / "out.inline.txt"
    result = invoke("apply", str(path), "--locale", "sv", "--out", str(out))
    assert result.exit_code == 1 and "line 1, column 22" in result.stderr
    assert SECRET not in result.stderr.replace(str(tmp_path), "") and not out.exists()


def test_a_bom_and_empty_pairs_survive_the_round_trip(tmp_path):
    data = "\ufeffPat. <First_Name>Anna</First_Name> <Last_Name></Last_Name>kom, CRP <5.\r\n".encode()
    path = tmp_path / "letter.inline.txt"
    path.write_bytes(data)
    batch = read_input(str(path))
    (document,) = batch.documents
    assert document.text == "Pat. Anna <Last_Name></Last_Name>kom, CRP <5.\r\n"  # an empty pair tags nothing
    assert [(s.start, s.end, s.label) for s in document.spans] == [(5, 9, "First_Name")]
    out = tmp_path / "out.inline.txt"
    write_output(batch.documents, str(out), batch)
    assert out.read_bytes() == data


def test_a_letter_label_need_not_be_ascii(tmp_path):
    path = tmp_path / "a.tagged"
    path.write_text("Bor i <Ort>Möja</Ort>, <Årtal>1999</Årtal>.", encoding="utf-8")
    (document,) = read_input(str(path)).documents
    assert [s.label for s in document.spans] == ["Ort", "Årtal"]
