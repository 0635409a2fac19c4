"""Hostile input and output paths: special files, links, paths that name an input, signals,
broken inputs that must end in one line, and audit cells a spreadsheet would run."""

import csv
import functools
import json
import os
import signal
import stat
import subprocess
import sys

import pytest
from conftest import make_doc
from typer.testing import CliRunner

from pseudo.audit import read_overrides
from pseudo.cli import app
from pseudo.folds import normalise

SECRET = "Andersson"
KEY = "hostile-key"


def invoke(*args):
    return CliRunner().invoke(app, list(args), env={"PSEUDO_KEY": KEY})


def pseudo(*args, **kwargs):
    """The real command in its own process: for stdout, signals and exit codes as a shell sees them."""
    env = {**os.environ, "PSEUDO_KEY": KEY}
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "pseudo", *args], stderr=subprocess.PIPE, text=True, env=env, **kwargs)


def source(tmp_path, name="in.json"):
    path = tmp_path / name
    path.write_text(json.dumps([make_doc(f"Anna {SECRET} ringde.", [(SECRET, "LAST_NAME")], "a", locale="tiny")]))
    return str(path)


def flat(output):
    """A usage error's text without the box and line breaks it is drawn in."""
    return " ".join(output.replace("│", " ").split())


def leftovers(folder):
    return [p.name for p in folder.rglob("*") if p.name.endswith(".tmp")]


def device(tmp_path, name, minor):
    """A character device like /dev/null (minor 3) or /dev/full (7), made in tmp_path so that a
    writer that renames over it cannot replace the machine's own."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "w"):
            pass
    except OSError:
        pytest.skip("cannot make or open a device file here (needs root and a filesystem without nodev)")
    return path


# --- output to special files and links -----------------------------------------------------


def test_a_fifo_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there: the writer does not block
    try:
        result = invoke("apply", source(tmp_path), "--out", str(fifo))
        received = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    [document] = json.loads(received)
    assert document["id"] == "a" and SECRET not in document["text"]
    assert not leftovers(tmp_path)


def test_a_device_is_written_into_not_replaced(tmp_path):
    null = device(tmp_path, "null", 3)
    result = invoke("apply", source(tmp_path), "--out", str(null), "--audit", str(tmp_path / "audit.csv"))
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.lstat(null).st_mode) and (tmp_path / "audit.csv").exists()


def test_a_full_device_is_one_line_exit_1_and_stays_a_device(tmp_path):
    full = device(tmp_path, "full", 7)
    result = invoke("apply", source(tmp_path), "--out", str(full))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"pseudo: error: {full}: cannot write (No space left on device)"
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_an_audit_on_a_full_device_leaves_no_output(tmp_path):
    full = device(tmp_path, "full", 7)
    out = tmp_path / "out.json"
    result = invoke("apply", source(tmp_path), "--out", str(out), "--audit", str(full))
    assert result.exit_code == 1 and f"{full}: cannot write (No space left on device)" in result.stderr
    assert not out.exists() and not leftovers(tmp_path)


def test_a_symlink_is_followed_the_file_it_names_replaced_and_the_link_kept(tmp_path):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "out.json"
    real.write_text("old")
    link = tmp_path / "out.json"
    link.symlink_to(real)
    result = invoke("apply", source(tmp_path), "--out", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text())[0]["id"] == "a"
    assert not leftovers(tmp_path)


def test_a_dangling_symlink_makes_the_file_it_names(tmp_path):
    link = tmp_path / "audit.csv"
    link.symlink_to(tmp_path / "kept" / "audit.csv")
    result = invoke("apply", source(tmp_path), "--out", str(tmp_path / "out.json"), "--audit", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and stat.S_IMODE((tmp_path / "kept" / "audit.csv").stat().st_mode) == 0o600


def test_a_symlinked_output_folder_is_filled_and_the_link_kept(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text(f"Anna {SECRET} ringde.\n")
    (corpus / "a.ann").write_text(f"T1\tLAST_NAME 5 14\t{SECRET}\n")
    (tmp_path / "real").mkdir()
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "real")
    result = invoke("apply", str(corpus), "--out", str(link), "--locale", "tiny")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and (tmp_path / "real" / "a.txt").exists()


def test_stdout_on_a_full_device_is_one_line_exit_1(tmp_path):
    with open("/dev/full", "w") as full:
        result = pseudo("apply", source(tmp_path), stdout=full)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "pseudo: error: stdout: cannot write (No space left on device)"
    assert "internal error" not in result.stderr and "Exception" not in result.stderr


# --- outputs that would replace what the run reads --------------------------------------


@pytest.mark.parametrize(
    "option, names, message",
    [
        ("--out", "in.json", "the output cannot be the input"),
        ("--audit", "in.json", "the audit file cannot be the input"),
        ("--audit", "pseudo.yaml", "the audit file cannot be the --config file"),
        ("--out", "reviewed.csv", "the output cannot be the --overrides file"),
        ("--audit", "reviewed.csv", "the audit file cannot be the --overrides file"),
        ("--audit", "key", "the audit file cannot be the --key-file"),
        ("--audit", "out.json", "the audit file cannot be the output"),
    ],
)
@pytest.mark.parametrize("through", ["path", "symlink", "hard link", "relative path"])
def test_an_output_naming_a_file_the_run_reads_is_refused_exit_2(tmp_path, monkeypatch, option, names, message, through):
    monkeypatch.chdir(tmp_path)
    source(tmp_path)
    (tmp_path / "pseudo.yaml").write_text("scope: document\n")
    (tmp_path / "reviewed.csv").write_text("scope,label,original,manual_surrogate\n")
    (tmp_path / "key").write_text("a key\n")
    (tmp_path / "out.json").write_text("an earlier output\n")  # that a hard link can name it
    target = tmp_path / names
    alias = {"path": str(target), "relative path": f"./sub/../{names}", "symlink": str(tmp_path / "alias"), "hard link": str(tmp_path / "alias")}[through]
    (tmp_path / "sub").mkdir()
    if through == "symlink":
        os.symlink(target, alias)
    elif through == "hard link":
        os.link(target, alias)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    args = {"--out": str(tmp_path / "out.json"), option: alias}
    result = invoke(
        "apply", str(tmp_path / "in.json"), "--config", "pseudo.yaml", "--overrides", "reviewed.csv", "--key-file", "key",
        *(item for pair in args.items() for item in pair),
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: {message}" in flat(result.output)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


# --- stopped by a signal while writing ---------------------------------------------------

# Runs `pseudo` with a hook that, once the Nth file is written (a temporary file or a file of
# a temporary folder, holding the pseudonymised text or the originals), says so on stderr and
# waits to be stopped: the test sends the signal only then, so nothing depends on timing.
STOPPED_WHILE_WRITING = """
import os, sys, time
from pseudo.cli import main
from pseudo.io import brat

def wait_after(real, calls):
    count = 0
    def hooked(*args, **kwargs):
        nonlocal count
        result = real(*args, **kwargs)
        count += 1
        if count == calls:
            sys.stderr.write("written\\n")
            sys.stderr.flush()
            while True:
                time.sleep(0.05)
        return result
    return hooked

where, calls = sys.argv.pop(1), int(sys.argv.pop(1))
if where == "fsync":
    os.fsync = wait_after(os.fsync, calls)
else:
    brat._write_file = wait_after(brat._write_file, calls)
main()
"""


def brat_corpus(tmp_path, documents=4):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for number in range(documents):
        (corpus / f"d{number}.txt").write_text(f"Anna {SECRET} ringde.\n")
        (corpus / f"d{number}.ann").write_text(f"T1\tLAST_NAME 5 14\t{SECRET}\n")
    return str(corpus)


@pytest.mark.parametrize(
    "signal_name, where, calls, outputs",
    [
        ("SIGTERM", "fsync", 1, ["out.json", "audit.csv"]),  # the output's temporary file is written
        ("SIGTERM", "fsync", 2, ["out.json", "audit.csv"]),  # and the audit's, with the originals
        ("SIGHUP", "fsync", 2, ["out.json", "audit.csv"]),
        ("SIGINT", "fsync", 2, ["out.json", "audit.csv"]),
        ("SIGTERM", "brat", 5, ["outdir", "audit.csv"]),  # a temporary folder, half filled
    ],
)
def test_a_signal_while_writing_removes_the_temporaries_and_exits_non_zero(tmp_path, signal_name, where, calls, outputs):
    out, audit = (str(tmp_path / name) for name in outputs)
    given = brat_corpus(tmp_path) if where == "brat" else source(tmp_path)
    command = [sys.executable, "-c", STOPPED_WHILE_WRITING, where, str(calls), "apply", given, "-o", out, "--audit", audit, "-l", "tiny"]
    env = {**os.environ, "PSEUDO_KEY": KEY}
    # A shell without job control starts background jobs with SIGINT ignored, and a child inherits
    # that: the child gets the default action back, so the test does not hang under `pytest &`.
    restore = functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL)
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=restore) as process:
        assert process.stderr.readline() == "written\n"
        assert leftovers(tmp_path)  # the hook stopped it half way
        process.send_signal(getattr(signal, signal_name))
        _, stderr = process.communicate(timeout=60)
    number = getattr(signal, signal_name)
    assert process.returncode == 128 + number, stderr
    assert stderr.strip() == f"pseudo: stopped by {signal_name}; its temporary files are removed"
    assert not leftovers(tmp_path) and not any(os.path.exists(path) for path in (out, audit))


# --- broken inputs end in one line, exit 1 -----------------------------------------------


def nested(depth):
    return json.dumps({"id": "a", "text": "x", "spans": [], "meta": {"deep": None}}).replace("null", "[" * depth + "]" * depth)


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_json_nested_too_deeply_is_one_line_exit_1(tmp_path, name):
    path = tmp_path / name
    path.write_text(nested(100_000) + "\n")
    result = invoke("apply", str(path))
    assert result.exit_code == 1, result.output
    where = f"{path}: line 1: " if name.endswith(".jsonl") else f"{path}: "
    assert result.stderr.strip() == f"pseudo: error: {where}JSON nested too deeply to read"


def test_json_on_stdin_nested_too_deeply_is_one_line_exit_1():
    result = CliRunner().invoke(app, ["apply", "-"], input=nested(100_000), env={"PSEUDO_KEY": KEY})
    assert result.exit_code == 1 and result.stderr.strip() == "pseudo: error: -: JSON nested too deeply to read"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"locale: sv\nscope: \xe9\n", "not valid UTF-8 (byte 18); save it as UTF-8"),
        (b"labels: " + b"[" * 100_000, "not valid YAML (nested too deeply)"),
    ],
)
def test_a_config_that_cannot_be_read_is_one_line_exit_1(tmp_path, content, message):
    config = tmp_path / "pseudo.yaml"
    config.write_bytes(content)
    result = invoke("apply", source(tmp_path), "--config", str(config))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"pseudo: error: {config}: {message}"


def test_an_overrides_cell_beyond_the_csv_field_limit_is_one_line_exit_1(tmp_path):
    reviewed = tmp_path / "reviewed.csv"
    reviewed.write_text("scope,label,original,manual_surrogate\ndocument:a,LAST_NAME,Andersson,Berg\n" + f"corpus,LAST_NAME,{'x' * 200_000},Berg\n")
    result = invoke("apply", source(tmp_path), "--overrides", str(reviewed))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"pseudo: error: {reviewed}: line 3: a cell longer than the CSV field limit (131072 characters)"


# --- audit cells a spreadsheet would run as formulas -------------------------------------

RISKY = ["=cmd|' /C calc'!A0", "+46 8 123 45 67", "-5", "@SUM(A1)", "=1", "+2", "'=1+1", "'s-Hertogenbosch"]  # spans never start with whitespace: tab and CR cells are tested through manual surrogates
FORMULA_ID = "=HYPERLINK(1)"


def risky_source(tmp_path):
    text = " ; ".join(RISKY)
    path = tmp_path / "risky.json"
    path.write_text(json.dumps([make_doc(text, [(value, "ID") for value in RISKY], FORMULA_ID)]))
    return str(path)


def raw_rows(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_raw_rows(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_audit_cells_that_start_a_formula_or_a_quote_get_one_leading_quote(tmp_path):
    audit = tmp_path / "audit.csv"
    result = invoke("apply", risky_source(tmp_path), "--audit", str(audit))
    assert result.exit_code == 0, result.output
    rows = raw_rows(audit)
    assert [row["original"] for row in rows] == ["'" + value for value in RISKY]
    assert all(row["document_id"] == "'" + FORMULA_ID for row in rows)
    assert all(row["surrogate"][0] == "'" and row["surrogate"][1] in "=+-@\t\r'" for row in rows)
    assert all(row["scope"] == f"document:{FORMULA_ID}" for row in rows)  # starts with a letter: as it is


def test_overrides_read_the_neutralised_cells_back_losslessly(tmp_path):
    audit, again = tmp_path / "audit.csv", tmp_path / "again.csv"
    source = risky_source(tmp_path)
    assert invoke("apply", source, "--audit", str(audit)).exit_code == 0
    rows = raw_rows(audit)
    # as a reviewer types them: a quote before a formula start or a quote is pseudo's, any other stays
    manual = ["'=2+2", "'+47 1", "'-6", "'@X", "'\t=3", "''=4", "''=5", "'s-Gravenhage"]
    meant = ["=2+2", "+47 1", "-6", "@X", "\t=3", "'=4", "'=5", "'s-Gravenhage"]
    for row, cell in zip(rows, manual):
        row["manual_surrogate"] = cell
    write_raw_rows(audit, rows)
    result = invoke("apply", source, "--overrides", str(audit), "--audit", str(again))
    assert result.exit_code == 0, result.output
    [document] = json.loads(result.stdout)
    assert [document["text"][s["start"] : s["end"]] for s in document["spans"]] == meant
    written_again = [*manual[:-1], "''s-Gravenhage"]  # its own quote, doubled: it reads back the same
    assert [row["manual_surrogate"] for row in raw_rows(again)] == written_again
    assert read_overrides(again) == read_overrides(audit)
    assert {original for _, _, original in read_overrides(again)} == {normalise(value) for value in RISKY}


@pytest.mark.parametrize("line_break", ["\n", "\r\n", "\r"])
def test_a_manual_surrogate_with_a_line_break_is_refused_by_line(tmp_path, line_break):
    audit = tmp_path / "audit.csv"
    assert invoke("apply", source(tmp_path), "--audit", str(audit)).exit_code == 0
    rows = raw_rows(audit)
    rows[0]["manual_surrogate"] = f"Berg{line_break}=cmd"
    write_raw_rows(audit, rows)
    result = invoke("apply", source(tmp_path), "--overrides", str(audit))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"pseudo: error: {audit}: line 2: the manual surrogate holds a line break; a surrogate is one line"


# --- overrides that would put an original back -------------------------------------------


def two_names(tmp_path):
    path = tmp_path / "names.json"
    text = f"Eva Lind ringde om {SECRET}."
    path.write_text(json.dumps([make_doc(text, [("Eva Lind", "PERSON"), (SECRET, "LAST_NAME")], "a", locale="tiny")]))
    return str(path)


def reviewed_with(tmp_path, source, **manual):
    audit = tmp_path / "audit.csv"
    assert invoke("apply", source, "--audit", str(audit)).exit_code == 0
    rows = raw_rows(audit)
    for row in rows:
        row["manual_surrogate"] = manual.get(row["original"], "")
    write_raw_rows(audit, rows)
    return str(audit)


@pytest.mark.parametrize(
    "manual, line",
    [
        ({SECRET: SECRET}, 3),  # its own original
        ({SECRET: SECRET.upper()}, 3),  # the same value, as the scope compares values
        ({SECRET: "Eva Lind"}, 3),  # another original of the scope
        ({SECRET: "Lind"}, 3),  # a word of one
        ({"Eva Lind": "Eva Lind", SECRET: "Lind"}, "2, 3"),
    ],
)
def test_an_override_that_puts_an_original_back_is_refused_by_line(tmp_path, manual, line):
    source = two_names(tmp_path)
    reviewed = reviewed_with(tmp_path, source, **manual)
    out = tmp_path / "out.json"
    result = invoke("apply", source, "--overrides", reviewed, "--out", str(out))
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == (
        f"pseudo: error: {reviewed}: line(s) {line}: the manual surrogate is an original value of its scope; "
        "correct it, or pass --allow-original-overrides to apply it anyway"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "manual, line, output_ends, flagged",
    [
        ({SECRET: SECRET}, 3, f" ringde om {SECRET}.", "\tleak\t"),  # its own original: a leak, exit 4
        ({SECRET: "Eva Lind"}, 3, " ringde om Eva Lind.", "\tcollision\t"),  # another's: listed as a collision
    ],
)
def test_an_override_that_puts_an_original_back_is_applied_when_allowed_and_the_leak_audit_flags_it(
    tmp_path, manual, line, output_ends, flagged
):
    source = two_names(tmp_path)
    reviewed = reviewed_with(tmp_path, source, **manual)
    out = tmp_path / "out.json"
    result = invoke("apply", source, "--overrides", reviewed, "--out", str(out), "--allow-original-overrides")
    assert result.exit_code == 0, result.output
    assert f"warning: 1 override row(s) (lines {line}) put an original value back (--allow-original-overrides)" in result.stderr
    assert json.loads(out.read_text())[0]["text"].endswith(output_ends)
    audit = invoke("audit", source, str(out), "--locale", "tiny")
    assert flagged in audit.stdout and audit.exit_code == (4 if "leak" in flagged else 0), audit.output
