"""Streaming JSON Lines: the same bytes as reading the whole file, a scope at a time."""

import csv
import json
from dataclasses import replace

import pytest
from conftest import make_doc

from pseudo.api import index_input, pseudonymise, read_documents, stream
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.errors import InputError
from pseudo.executors import CHUNK
from pseudo.io import write_output
from pseudo.io.streams import JsonlInput, JsonlOutput
from pseudo.keyed import Keyring


def note(doc_id: str, name: str, day: int, subject: str | None = None) -> dict:
    text = f"{name} Berg kom {day}/3/2012 till Lund."
    meta = {"locale": "sv", **({"subject": subject} if subject else {})}
    return make_doc(text, [(name, "FIRST_NAME"), ("Berg", "LAST_NAME"), (f"{day}/3/2012", "DATE"), ("Lund", "PLACE")], doc_id, **meta)


def whole(source, destination, settings, skip=False, jobs=1):
    batch, failures = read_documents(str(source), skip_errors=skip)
    run = pseudonymise(batch.documents, settings, skip, jobs=jobs)
    write_output([r.document for r in run.results], str(destination), batch)
    return failures + run.summary.failures


def streamed(source, destination, settings, skip=False, jobs=1, executor=None):
    found = JsonlInput(str(source))
    index = index_input(found, settings, skip)
    return stream(found, JsonlOutput(str(destination)), settings, index, skip, jobs=jobs, executor=executor).summary.failures


def settings_for(scope: str) -> Settings:
    return Settings(config=parse_config({"scope": scope}), keyring=Keyring(b"stream-key"))


NAMES = ("Anna", "Karin", "Maria", "Lars", "Erik")


def corpus(scope: str, scattered: bool) -> list[dict]:
    count = 2 * CHUNK + 7
    subject = (lambda i: f"s{i % 9}") if scattered else (lambda i: f"s{i // 5}")
    return [note(f"d{i}", NAMES[i % 5], 1 + i % 27, subject(i) if scope == "subject" else None) for i in range(count)]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("scope,scattered", [("document", False), ("subject", False), ("subject", True)])
def test_a_streamed_file_has_the_bytes_of_a_file_read_whole(tmp_path, scope, scattered, jobs):
    source = tmp_path / "in.jsonl"
    source.write_text("\ufeff" + "".join(json.dumps(d, ensure_ascii=False) + "\r\n" for d in corpus(scope, scattered)), encoding="utf-8")
    whole(source, tmp_path / "whole.jsonl", settings_for(scope))
    streamed(source, tmp_path / "streamed.jsonl", settings_for(scope), jobs=jobs)
    assert (tmp_path / "streamed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    if scattered:
        assert index_input(JsonlInput(str(source)), settings_for(scope)).scattered is not None


def test_unreadable_lines_and_documents_without_a_subject_fail_as_when_read_whole(tmp_path):
    documents = corpus("subject", False)
    del documents[3]["meta"]["subject"]
    lines = [json.dumps(d) for d in documents]
    lines.insert(10, "{broken")
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    settings = settings_for("subject")
    with pytest.raises(InputError, match="line 11: invalid JSON"):
        index_input(JsonlInput(str(source)), settings)
    expected = whole(source, tmp_path / "whole.jsonl", settings, skip=True)
    failures = streamed(source, tmp_path / "streamed.jsonl", settings, skip=True)
    assert [str(f.error) for f in failures] == [str(f.error) for f in expected] and len(failures) == 2
    assert (tmp_path / "streamed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    with pytest.raises(InputError, match="meta.subject is missing"):
        found = JsonlInput(str(source))
        stream(found, JsonlOutput(str(tmp_path / "failed.jsonl")), settings, index_input(found, settings, True))
    assert not (tmp_path / "failed.jsonl").exists()


def test_a_repeated_id_is_refused_by_the_first_pass(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(note("a", "Anna", 3)) + "\n" for _ in range(2)))
    with pytest.raises(InputError, match="'a' occurs twice"):
        index_input(JsonlInput(str(source)), settings_for("document"), True)


@pytest.mark.parametrize("repeat", [False, True])
def test_ids_that_share_a_digest_are_compared_whole(tmp_path, monkeypatch, repeat):
    """Ids are kept as 64-bit digests; were every digest the same, the ids themselves decide."""
    monkeypatch.setattr("pseudo.api._digest", lambda document_id: 7)
    ids = ["a", "b", "c", "b", "a"] if repeat else ["a", "b", "c"]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(note(i, "Anna", 3)) + "\n" for i in ids))
    if repeat:
        with pytest.raises(InputError, match="'b' occurs twice"):
            index_input(JsonlInput(str(source)), settings_for("document"))
    else:
        assert index_input(JsonlInput(str(source)), settings_for("document")).documents == 3


def test_the_command_line_streams_json_lines_without_reading_the_file_whole(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pseudo.cli import app

    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in corpus("document", False)))
    whole(source, tmp_path / "whole.jsonl", Settings(keyring=Keyring(b"stream-key")))
    monkeypatch.setattr("pseudo.cli.read_documents", lambda *args: pytest.fail("the file was read whole"))
    monkeypatch.setenv("PSEUDO_KEY", "stream-key")
    result = CliRunner().invoke(app, ["apply", str(source), "--out", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


# --- brat folders, file by file ----------------------------------------------------------


def brat_folder(folder, count=2 * CHUNK + 7):
    """Pairs in two subfolders, CRLF and LF .ann files, a configuration file and an ignored file."""
    folder.mkdir()
    (folder / "annotation.conf").write_text("[entities]\nFIRST_NAME\n")
    (folder / "README").write_text("notes\n")
    for i in range(count):
        document = note(f"d{i}", NAMES[i % 5], 1 + i % 27)
        path = folder / ("a" if i % 2 else "b") / f"d{i:03}"
        path.parent.mkdir(exist_ok=True)
        path.with_suffix(".txt").write_text(document["text"], encoding="utf-8")
        end = "\r\n" if i % 3 else "\n"
        rows = [f"T{n}\t{s['label']} {s['start']} {s['end']}\t{document['text'][s['start']:s['end']]}" for n, s in enumerate(document["spans"], 1)]
        path.with_suffix(".ann").write_bytes("".join(row + end for row in rows).encode())
    return folder


def tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def cli(*args, input=None):
    from typer.testing import CliRunner

    from pseudo.cli import app

    return CliRunner().invoke(app, ["apply", *args], input=input, env={"PSEUDO_KEY": "stream-key-0123456789"})


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_brat_folder_is_streamed_file_by_file_into_the_bytes_of_one_read_whole(tmp_path, monkeypatch, jobs):
    source = brat_folder(tmp_path / "in")
    (source / "b" / "d000.ann").write_text("T1\tFIRST_NAME 0 4\tNope\n")  # fails to read: skipped
    (source / "orphan.ann").write_text("")
    whole(source, tmp_path / "whole", Settings(keyring=Keyring(b"stream-key-0123456789"), locale="sv", propagate=True), skip=True)
    monkeypatch.setattr("pseudo.cli.read_documents", lambda *args: pytest.fail("the folder was read whole"))
    result = cli(str(source), "--out", str(tmp_path / "out"), "--on-error", "skip", "--jobs", jobs, "-l", "sv")
    assert result.exit_code == 3, result.output
    assert "document 'orphan': an .ann file without its .txt" in result.stderr and "document 'b/d000'" in result.stderr
    assert "not copied (not brat text, annotation or configuration): README" in result.stderr
    assert tree(tmp_path / "out") == tree(tmp_path / "whole") and len(tree(tmp_path / "out")) == 2 * (2 * CHUNK + 6) + 1


def test_a_brat_output_folder_failing_half_way_leaves_nothing(tmp_path, monkeypatch):
    from pseudo.io import brat

    source = brat_folder(tmp_path / "in", count=5)
    written, real = [], brat.write_document

    def fails_third(folder, document, layout):
        if len(written) == 2:
            raise InputError("a line break inside a span cannot be written in brat", document_id=document.id)
        written.append(document.id)
        real(folder, document, layout)

    monkeypatch.setattr(brat, "write_document", fails_third)
    result = cli(str(source), "--out", str(tmp_path / "out"), "--audit", str(tmp_path / "audit.csv"), "-l", "sv")
    assert result.exit_code == 1, result.output
    assert len(written) == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["in"]


# --- stdin ----------------------------------------------------------------------------------


@pytest.mark.parametrize("scope,scattered", [("document", False), ("subject", False), ("subject", True)])
@pytest.mark.parametrize("to_file", [False, True])
def test_json_lines_on_stdin_are_streamed_to_the_bytes_of_a_file_read_whole(tmp_path, monkeypatch, scope, scattered, to_file):
    lines = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in corpus(scope, scattered))
    (tmp_path / "in.jsonl").write_text(lines, encoding="utf-8")
    (tmp_path / "pseudo.yaml").write_text(f"scope: {scope}\n")
    whole(tmp_path / "in.jsonl", tmp_path / "whole.jsonl", replace(settings_for(scope), keyring=Keyring(b"stream-key-0123456789"), propagate=True))
    monkeypatch.setattr("pseudo.cli.read_documents", lambda *args: pytest.fail("stdin was read whole"))
    out = ["--out", str(tmp_path / "out.jsonl")] if to_file else []
    result = cli("-", "--config", str(tmp_path / "pseudo.yaml"), *out, input=lines.encode())
    assert result.exit_code == 0, result.output
    written = (tmp_path / "out.jsonl").read_bytes() if to_file else result.stdout_bytes
    assert written == (tmp_path / "whole.jsonl").read_bytes()


@pytest.mark.parametrize(
    "given, written",
    [
        (lambda docs: json.dumps(docs), "["),  # a JSON list, written back as one
        (lambda docs: json.dumps(docs[0]), "{"),  # one object on one line, written back on one line
        (lambda docs: json.dumps(docs[0], indent=1) + "\n" + json.dumps(docs[1]), "-: invalid JSON at line 30, column 1"),
        (lambda docs: json.dumps(docs[0]) + "\n[]", "-: invalid JSON at line 2, column 1"),  # not every line an object
    ],
)
def test_stdin_that_is_not_a_json_lines_stream_is_read_whole_as_before(given, written):
    result = cli("-", input=given(corpus("document", False)[:3]).encode())
    if written.startswith("-:"):
        assert result.exit_code == 1 and result.stderr.strip() == f"pseudo: error: {written}"
    else:
        lines = result.stdout.splitlines()
        assert result.exit_code == 0 and lines[0].startswith(written) and (len(lines) == 1) == (written == "{")


def test_a_failing_stream_to_stdout_prints_nothing(tmp_path):
    lines = [json.dumps(d) for d in corpus("subject", False)]
    broken = json.loads(lines[-1])
    del broken["meta"]["subject"]
    lines[-1] = json.dumps(broken)
    (tmp_path / "pseudo.yaml").write_text("scope: subject\n")
    result = cli("-", "--config", str(tmp_path / "pseudo.yaml"), input="\n".join(lines).encode())
    assert result.exit_code == 1 and "meta.subject is missing" in result.stderr
    assert result.stdout_bytes == b""


# --- the audit file and reviewer overrides -----------------------------------------------


@pytest.mark.parametrize("source_kind", ["jsonl", "brat"])
def test_a_streamed_audit_file_has_the_bytes_of_one_written_after_the_run(tmp_path, monkeypatch, source_kind):
    from pseudo.audit import write_audit

    if source_kind == "brat":
        source = brat_folder(tmp_path / "in")
        out = tmp_path / "out"
    else:
        source = tmp_path / "in.jsonl"
        source.write_text("".join(json.dumps(d) + "\n" for d in corpus("document", False)))
        out = tmp_path / "out.jsonl"
    settings = Settings(keyring=Keyring(b"stream-key-0123456789"), locale="sv", propagate=True)
    batch, _ = read_documents(str(source))
    write_audit(pseudonymise(batch.documents, settings).results, tmp_path / "whole.csv")
    monkeypatch.setattr("pseudo.cli.read_documents", lambda *args: pytest.fail("the input was read whole"))
    result = cli(str(source), "--out", str(out), "--audit", str(tmp_path / "audit.csv"), "-l", "sv")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "audit.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert (tmp_path / "audit.csv").stat().st_mode & 0o777 == 0o600


def test_streamed_overrides_are_applied_and_checked_as_when_read_whole(tmp_path, monkeypatch):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in corpus("document", False)))
    assert cli(str(source), "--out", str(tmp_path / "first.jsonl"), "--audit", str(tmp_path / "audit.csv")).exit_code == 0
    with open(tmp_path / "audit.csv", newline="") as handle:
        header, first, second, *_ = csv.reader(handle)
    first[-1], second[-1] = "Ingrid", second[-2]  # a new name; the surrogate written back
    nowhere = ["x", "document:nowhere", "0", "4", "0", "4", "LAST_NAME", "surrogate", "Berg", "Ek", "Ek"]
    restoring = [*first[:-1], "Lund"]  # an original of the scope put back
    for name, rows in (("reviewed.csv", [header, first, second, nowhere]), ("restoring.csv", [header, restoring])):
        with open(tmp_path / name, "w", newline="") as handle:
            csv.writer(handle).writerows(rows)
    results = {}
    for streamed_run in (True, False):
        out = tmp_path / f"out-{streamed_run}.jsonl" if streamed_run else tmp_path / f"out-{streamed_run}.json"
        given = source if streamed_run else tmp_path / "in.json"
        if not streamed_run:
            given.write_text(json.dumps(corpus("document", False)))
        with monkeypatch.context() as patched:
            if streamed_run:
                patched.setattr("pseudo.cli.read_documents", lambda *args: pytest.fail("the input was read whole"))
            result = cli(str(given), "--out", str(out), "--overrides", str(tmp_path / "reviewed.csv"))
        assert result.exit_code == 0, result.output
        assert "1 override row(s) (lines 4) matched no span" in result.stderr
        refused = cli(str(given), "--out", str(tmp_path / "refused.jsonl"), "--overrides", str(tmp_path / "restoring.csv"))
        assert refused.exit_code == 1 and "line(s) 2: the manual surrogate is an original value" in refused.stderr
        assert not (tmp_path / "refused.jsonl").exists()
        results[streamed_run] = [json.loads(line) for line in out.read_text().splitlines()] if streamed_run else json.loads(out.read_text())
    assert results[True] == results[False] and "Ingrid" in results[True][0]["text"]
