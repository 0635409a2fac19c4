"""BRAT standoff folders: offsets as brat counts them, ids and other lines kept, output kept inside --out."""

import errno
import os
from pathlib import Path, PurePosixPath

import pytest
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import InputError, PseudoError
from pseudo.io import detect_format, read_input, write_output
from pseudo.model import Document, Span

SECRET = "Rivera"


def pair(folder, name, text: bytes, ann: bytes):
    (folder / f"{name}.txt").write_bytes(text)
    (folder / f"{name}.ann").write_bytes(ann)


@pytest.fixture
def source(tmp_path):
    """The input folder; outputs go beside it (never inside it)."""
    folder = tmp_path / "in"
    folder.mkdir()
    return folder


def span_texts(document):
    return [document.text[s.start : s.end] for s in document.spans]


def test_a_folder_with_ann_files_is_brat(tmp_path):
    pair(tmp_path, "a", b"x", b"")
    assert detect_format(str(tmp_path)) == "brat"


def test_bom_and_crlf_count_as_brat_counts_them(tmp_path, source):
    text = "\ufeffNombre: Ana.\r\nApellidos: Rivera.\r\n".encode()
    # brat reads the BOM as character 0 and keeps each CR: "Rivera" starts at 26, not 24
    pair(source, "d", text, b"T1\tNOMBRE_SUJETO_ASISTENCIA 9 12\tAna\nT2\tNOMBRE_SUJETO_ASISTENCIA 26 32\tRivera\n")
    batch = read_input(str(source))
    assert span_texts(batch.documents[0]) == ["Ana", "Rivera"]
    out = tmp_path / "out"
    write_output(batch.documents, str(out), batch)
    assert (out / "d.txt").read_bytes() == text


def test_unchanged_documents_are_written_back_byte_for_byte(tmp_path, source):
    pair(
        source,
        "d",
        "Ana Rivera y su madre.\n".encode(),
        b"T2\tNOMBRE_SUJETO_ASISTENCIA 4 10\tRivera\nT1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n"
        b"R1\tParent Arg1:T1 Arg2:T2\nA1\tNegated T1\nE1\tEvent:T1\n\nT3\tFAMILIARES_SUJETO_ASISTENCIA 16 21\tmadre",
    )
    batch = read_input(str(source))
    write_output(batch.documents, str(tmp_path / "out"), batch)
    for name in ("d.txt", "d.ann"):
        assert (tmp_path / "out" / name).read_bytes() == (source / name).read_bytes()


def test_discontinuous_spans_become_fragments_and_are_written_back(tmp_path, source):
    pair(source, "d", b"Ana y Rivera", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3;6 12\tAna Rivera\n")
    batch = read_input(str(source))
    assert span_texts(batch.documents[0]) == ["Ana", "Rivera"]
    write_output(batch.documents, str(tmp_path / "out"), batch)
    assert (tmp_path / "out" / "d.ann").read_text() == "T1\tNOMBRE_SUJETO_ASISTENCIA 0 3;6 12\tAna Rivera\n"


def test_space_separated_ann_files_are_read_and_written_in_kind(tmp_path, source):
    pair(source, "d", b"Ilker Koopal", b"T1 Name 0 12 Ilker Koopal\n")
    batch = read_input(str(source))
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


def test_subfolders_are_kept_and_output_never_leaves_out(tmp_path, source):
    (source / "sub").mkdir()
    pair(source / "sub", "d", b"Ana", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n")
    batch = read_input(str(source))
    out = tmp_path / "out"
    write_output(batch.documents, str(out), batch)
    assert (out / "sub" / "d.ann").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out2 = tmp_path / "out2"
    out2.mkdir()
    os.symlink(elsewhere, out2 / "sub")  # an --out holding anything, a link included, is never written into
    with pytest.raises(PseudoError, match="exists and is not empty"):
        write_output(batch.documents, str(out2), batch)
    assert not any(elsewhere.iterdir())
    batch.layouts["sub/d"].path = PurePosixPath("../d")  # a name that would climb out of --out
    with pytest.raises(InputError, match="would leave the output folder"):
        write_output(batch.documents, str(tmp_path / "out3"), batch)
    assert not (tmp_path / "d.txt").exists() and not (tmp_path / "out3").exists()


@pytest.mark.parametrize("where, message", [
    (lambda tmp, source: source, "is the input folder"),
    (lambda tmp, source: source / "out", "lies inside the input folder"),
    (lambda tmp, source: source / "sub" / "deeper", "lies inside the input folder"),
    (lambda tmp, source: tmp, "holds the input folder"),
])  # fmt: skip
def test_the_output_folder_is_never_the_input_nor_inside_it_nor_around_it(tmp_path, source, where, message):
    pair(source, "d", b"Ana", b"")
    batch = read_input(str(source))
    out = where(tmp_path, source)
    with pytest.raises(InputError, match=message):
        write_output(batch.documents, str(out), batch)
    assert sorted(p.name for p in source.iterdir()) == ["d.ann", "d.txt"]


def test_a_failure_while_writing_leaves_no_output_folder(tmp_path, source, monkeypatch):
    for name in "abc":
        pair(source, name, b"Ana", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n")
    batch = read_input(str(source))
    written = []
    real = Path.write_text

    def failing(self, *args, **kwargs):
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", failing)
    with pytest.raises(PseudoError, match=r"out: cannot write \(No space left on device\)"):
        write_output(batch.documents, str(tmp_path / "out"), batch)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]  # no output, no temporary folder


def test_an_existing_empty_output_folder_is_replaced_a_full_one_refused(tmp_path, source):
    pair(source, "d", b"Ana", b"")
    batch = read_input(str(source))
    empty = tmp_path / "empty"
    empty.mkdir()
    write_output(batch.documents, str(empty), batch)
    assert sorted(p.name for p in empty.iterdir()) == ["d.ann", "d.txt"]
    with pytest.raises(PseudoError, match="exists and is not empty"):
        write_output(batch.documents, str(empty), batch)
    (tmp_path / "file").write_text("")
    with pytest.raises(PseudoError, match="is not a folder"):
        write_output(batch.documents, str(tmp_path / "file"), batch)


def test_each_ann_line_keeps_its_separator_and_line_end_and_a_bom(tmp_path, source):
    ann = (
        "\ufeffT1\tNOMBRE 0 3\tAna\r\n"
        "T2 NOMBRE 4 10 Rivera\n"
        "A1\tNegated T1\r\n"
        "\n"
        "T3\tNOMBRE 13 18\tmadre"
    ).encode()
    pair(source, "d", b"Ana Rivera y madre.", ann)
    batch = read_input(str(source))
    assert span_texts(batch.documents[0]) == ["Ana", "Rivera", "madre"]
    write_output(batch.documents, str(tmp_path / "out"), batch)
    assert (tmp_path / "out" / "d.ann").read_bytes() == ann


def test_new_lines_follow_the_last_annotation_line(tmp_path, source):
    pair(source, "d", b"Ana y Ana", b"T1 NOMBRE 0 3 Ana\r\nA1\tNegated T1")
    batch = read_input(str(source))
    (document,) = batch.documents
    added = Document(document.id, document.text, (*document.spans, Span(6, 9, "NOMBRE")))
    write_output([added], str(tmp_path / "out"), batch)
    assert (tmp_path / "out" / "d.ann").read_bytes() == b"T1 NOMBRE 0 3 Ana\r\nA1\tNegated T1\r\nT2 NOMBRE 6 9 Ana\r\n"


def test_brat_configuration_is_copied_and_other_files_are_named(tmp_path, source):
    pair(source, "d", b"Ana", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n")
    (source / "sub").mkdir()
    pair(source / "sub", "e", b"Ana", b"")
    for name in ("annotation.conf", "visual.conf", "sub/tools.conf", "kb_shortcuts.conf"):
        (source / name).write_text(f"[{name}]\n")
    (source / "notes.docx").write_bytes(b"Ana Rivera")
    (source / "sub" / ".stats_cache").write_bytes(b"x")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["apply", str(source), "--out", str(out), "--locale", "es"], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 0, result.output
    for name in ("annotation.conf", "visual.conf", "sub/tools.conf", "kb_shortcuts.conf"):
        assert (out / name).read_text() == f"[{name}]\n"
    assert not (out / "notes.docx").exists() and not (out / "sub" / ".stats_cache").exists()
    assert "not copied" in result.stderr and "notes.docx" in result.stderr and "sub/.stats_cache" in result.stderr
    assert "Ana" not in result.stderr


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
    assert result.exit_code == 2 and "needs --out" in result.output


@pytest.mark.parametrize("out, message", [("-", "needs a folder"), ("inside", "lies inside the input folder"), ("full", "not empty")])
def test_a_bad_output_folder_is_a_usage_error_found_before_any_work(tmp_path, source, out, message):
    pair(source, "d", b"Ana", b"")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    target = {"-": "-", "inside": str(source / "out"), "full": str(tmp_path / "full")}[out]
    result = CliRunner().invoke(app, ["apply", str(source), "--out", target, "--locale", "es"], env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 2 and message in result.output
    assert not (source / "out").exists() and sorted(p.name for p in (tmp_path / "full").iterdir()) == ["x"]


def test_no_output_folder_appears_when_the_audit_file_cannot_be_written(tmp_path, source):
    pair(source, "d", b"Ana", b"T1\tNOMBRE_SUJETO_ASISTENCIA 0 3\tAna\n")
    (tmp_path / "blocker").write_text("")
    out, audit = tmp_path / "out", tmp_path / "blocker" / "audit.csv"
    arguments = ["apply", str(source), "--out", str(out), "--locale", "es", "--audit", str(audit)]
    result = CliRunner().invoke(app, arguments, env={"PSEUDO_KEY": "k"})
    assert result.exit_code == 1 and "cannot write (Not a directory)" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "in"]
