"""Atomic output: one-line errors for paths that cannot be written, no leftovers, ordinary file
modes, and a transaction that makes the output and its audit file appear together or not at all."""

import errno
import json
import os
import stat

import pytest
from conftest import make_doc
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.errors import PseudoError
from pseudo.io import atomic
from pseudo.io.atomic import atomic_writer, transaction

SECRET = "Andersson"


def invoke(*args):
    return CliRunner().invoke(app, list(args), env={"PSEUDO_KEY": "atomic-key"})


def source(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps([make_doc(f"Anna {SECRET} ringde.", [(SECRET, "LAST_NAME")], "a", locale="tiny")]))
    return str(path)


def leftovers(folder):
    return [p.name for p in folder.rglob("*") if p.name.endswith(".tmp")]


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.mark.parametrize(
    "out, reason",
    [
        ("file.json/out.json", "Not a directory"),  # under an existing file
        ("folder", "Is a directory"),  # --out names a folder
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_exit_1(tmp_path, out, reason):
    (tmp_path / "file.json").write_text("")
    (tmp_path / "folder").mkdir()
    target = tmp_path / out
    result = invoke("apply", source(tmp_path), "--out", str(target))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"pseudo: error: {target}: cannot write ({reason})"
    assert "Traceback" not in result.output and not leftovers(tmp_path)


def test_a_refused_rename_leaves_no_temporary_file(tmp_path, monkeypatch):
    def refuse(*args):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PseudoError, match=r"out.txt: cannot write \(Permission denied\)"):
        with atomic_writer(tmp_path / "out.txt") as handle:
            handle.write("x")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    with pytest.raises(PseudoError, match=r"cannot write \(No space left on device\)"):
        with atomic_writer(tmp_path / "out.txt") as handle:
            handle.write("x")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert list(tmp_path.iterdir()) == []


def test_outputs_get_an_ordinary_mode_and_the_audit_file_0600(tmp_path, umask_022):
    out, audit = tmp_path / "out.json", tmp_path / "audit.csv"
    assert invoke("apply", source(tmp_path), "--out", str(out), "--audit", str(audit)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert stat.S_IMODE(audit.stat().st_mode) == 0o600
    os.umask(0o027)
    with atomic_writer(tmp_path / "other.txt") as handle:
        handle.write("x")
    assert stat.S_IMODE((tmp_path / "other.txt").stat().st_mode) == 0o640


def test_no_output_appears_when_the_audit_file_cannot_be_written(tmp_path):
    (tmp_path / "blocker").write_text("")
    out, audit = tmp_path / "out.json", tmp_path / "blocker" / "audit.csv"
    result = invoke("apply", source(tmp_path), "--out", str(out), "--audit", str(audit))
    assert result.exit_code == 1 and f"{audit}: cannot write" in result.stderr
    assert not out.exists() and not leftovers(tmp_path)


def test_nothing_reaches_stdout_when_the_audit_file_cannot_be_written(tmp_path):
    (tmp_path / "blocker").write_text("")
    result = invoke("apply", source(tmp_path), "--audit", str(tmp_path / "blocker" / "audit.csv"))
    assert result.exit_code == 1 and result.stdout == ""


def test_a_transaction_takes_back_what_it_renamed_when_a_later_rename_fails(tmp_path, monkeypatch):
    previous = tmp_path / "kept.txt"
    previous.write_text("old")
    real = os.replace

    def second_fails(source, target):
        if str(target).endswith("b.txt"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(source, target)

    monkeypatch.setattr(atomic.os, "replace", second_fails)
    with pytest.raises(PseudoError, match=r"b.txt: cannot write \(Input/output error\)"):
        with transaction():
            for name in ("a.txt", "b.txt"):
                with atomic_writer(tmp_path / name) as handle:
                    handle.write("new")
            assert not (tmp_path / "a.txt").exists()  # staged, not yet in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]


def test_an_error_inside_a_transaction_writes_nothing(tmp_path):
    with pytest.raises(RuntimeError):
        with transaction():
            with atomic_writer(tmp_path / "a.txt") as handle:
                handle.write("x")
            raise RuntimeError("later step failed")
    assert list(tmp_path.iterdir()) == []
