"""BRAT standoff folders: offsets as brat counts them, ids and other lines kept, output kept inside --out."""

import os

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError
from pseudo.io import detect_format, read_input, write_output

SECRET = "Rivera"


def pair(folder, name, text: bytes, ann: bytes):
    (folder / f"{name}.txt").write_bytes(text)
    (folder / f"{name}.ann").write_bytes(ann)


def span_texts(document):
    return [document.text[s.start : s.end] for s in document.spans]


def test_a_folder_with_ann_files_is_brat(tmp_path):
    pair(tmp_path, "a", b"x", b"")
    assert detect_format(str(tmp_path)) == "brat"


def test_bom_and_crlf_count_as_brat_counts_them(tmp_path):
    text = "\ufeffNombre: Ana.\r\nApellidos: Rivera.\r\n".encode()
    # brat reads the BOM as character 0 and keeps each CR: "Rivera" starts at 26, not 24
    pair(tmp_path, "d", text, b"T1\tNOMBRE_SUJETO_ASISTENCIA 9 12\tAna\nT2\tNOMBRE_SUJETO_ASISTENCIA 26 32\tRivera\n")
    batch = read_input(str(tmp_path))
    assert span_texts(batch.documents[0]) == ["Ana", "Rivera"]
    out = tmp_path.parent / "out"
    write_output(batch.documents, str(out), batch)
    assert (out / "d.txt").read_bytes() == text


def test_unchanged_documents_are_written_back_byte_for_byte(tmp_path):
    pair(
        tmp_path,
        "d",
        "Ana Rivera y su madre.\n".encode(),
        b"T2\tNOMBRE_SUJETO_ASISTENCIA 4 10\tRivera\nT1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n"
        b"R1\tParent Arg1:T1 Arg2:T2\nA1\tNegated T1\nE1\tEvent:T1\n\nT3\tFAMILIARES_SUJETO_ASISTENCIA 16 21\tmadre",
    )
    batch = read_input(str(tmp_path))
    write_output(batch.documents, str(tmp_path / "out"), batch)
    for name in ("d.txt", "d.ann"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / name).read_bytes()


def test_discontinuous_spans_become_fragments_and_are_written_back(tmp_path):
    pair(tmp_path, "d", b"Ana y Rivera", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3;6 12\tAna Rivera\n")
    batch = read_input(str(tmp_path))
    assert span_texts(batch.documents[0]) == ["Ana", "Rivera"]
    write_output(batch.documents, str(tmp_path / "out"), batch)
    assert (tmp_path / "out" / "d.ann").read_text() == "T1\tNOMBRE_SUJETO_ASISTENCIA 0 3;6 12\tAna Rivera\n"


def test_space_separated_ann_files_are_read_and_written_in_kind(tmp_path):
    pair(tmp_path, "d", b"Ilker Koopal", b"T1 Name 0 12 Ilker Koopal\n")
    batch = read_input(str(tmp_path))
    assert span_texts(batch.documents[0]) == ["Ilker Koopal"]
    write_output(batch.documents, str(tmp_path / "out"), batch)
    assert (tmp_path / "out" / "d.ann").read_bytes() == b"T1 Name 0 12 Ilker Koopal\n"


@pytest.mark.parametrize(
    "ann, message",
    [
        (f"T1\tNOMBRE 0 3\t{SECRET}\n", "T1 text does not match the .txt at 0-3"),
        ("T1\tNOMBRE 0 99\tx\n", "line 1: T1 span 0-99 is outside the text"),
        ("T1\tNOMBRE 0 3\n", "line 1: expected"),
        (f"#1\tAnnotatorNotes T1\t{SECRET} is the patient\n", "line 1: an annotator note (#)"),
        (f"N1\tReference T1 Wikidata:Q1\t{SECRET}\n", "line 1: a normalisation (N)"),
        ("X1\tsomething\n", "line 1: not a brat annotation line"),
        ("T1\tA 0 3\tAna\nT1\tB 4 10\tRivera\n", "line 2: annotation id T1 is used twice"),
    ],
)
def test_bad_annotations_fail_that_document_clearly_and_never_quote_it(tmp_path, ann, message):
    pair(tmp_path, "d", f"Ana {SECRET}".encode(), ann.encode())
    batch = read_input(str(tmp_path))
    assert not batch.documents
    error = str(batch.errors[0])
    assert message in error and "d.ann" in error and "'d'" in error and SECRET not in error


def test_an_ann_without_its_txt_is_an_error(tmp_path):
    (tmp_path / "lonely.ann").write_text("")
    pair(tmp_path, "d", b"x", b"")
    batch = read_input(str(tmp_path))
    assert [d.id for d in batch.documents] == ["d"]
    assert "an .ann file without its .txt" in str(batch.errors[0])


def test_subfolders_are_kept_and_output_never_leaves_out(tmp_path):
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    pair(source / "sub", "d", b"Ana", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n")
    batch = read_input(str(source))
    out = tmp_path / "out"
    write_output(batch.documents, str(out), batch)
    assert (out / "sub" / "d.ann").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out2 = tmp_path / "out2"
    out2.mkdir()
    os.symlink(elsewhere, out2 / "sub")  # a link inside --out must not carry files out of it
    with pytest.raises(InputError, match="leaves the output folder"):
        write_output(batch.documents, str(out2), batch)
    assert not any(elsewhere.iterdir())


def test_the_input_folder_is_never_the_output(tmp_path):
    pair(tmp_path, "d", b"Ana", b"")
    batch = read_input(str(tmp_path))
    with pytest.raises(InputError, match="is the input folder"):
        write_output(batch.documents, str(tmp_path), batch)


def test_apply_rewrites_offsets_texts_and_adds_propagated_spans_with_new_ids(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    text = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\nRivera Bueno firma.\n"
    pair(source, "d", text.encode(), b"T1\tNOMBRE_SUJETO_ASISTENCIA 8 15\tErnesto\nT2\tNOMBRE_SUJETO_ASISTENCIA 28 40\tRivera Bueno\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["apply", str(source), "--out", str(out), "--locale", "es", "--propagate"], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 0, result.output
    new_text = (out / "d.txt").read_text()
    lines = (out / "d.ann").read_text().splitlines()
    assert [line.split("\t")[0] for line in lines] == ["T1", "T2", "T3"]
    for line in lines:
        tid, middle, surface = line.split("\t")
        label, start, end = middle.split(" ")
        assert new_text[int(start) : int(end)] == surface and label == "NOMBRE_SUJETO_ASISTENCIA"
    assert "Rivera" not in new_text and "Ernesto" not in new_text
    assert new_text.startswith("Nombre: ") and new_text.endswith(" firma.\n")


def test_a_folder_needs_out(tmp_path):
    pair(tmp_path, "d", b"Ana", b"")
    result = CliRunner().invoke(app, ["apply", str(tmp_path), "--locale", "es"], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 1 and "needs --out" in result.output
