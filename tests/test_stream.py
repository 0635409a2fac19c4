"""Streaming JSON Lines: the same bytes as reading the whole file, a scope at a time."""

import json

import pytest
from conftest import make_doc

from pseudo.api import index_jsonl, pseudonymise, read_documents, stream_jsonl_file
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.errors import InputError
from pseudo.executors import CHUNK
from pseudo.io import write_output
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


def streamed(source, destination, settings, skip=False, jobs=1):
    index = index_jsonl(str(source), settings, skip)
    return stream_jsonl_file(str(source), str(destination), settings, index, skip, jobs=jobs).summary.failures


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
        assert index_jsonl(str(source), settings_for(scope)).scattered is not None


def test_unreadable_lines_and_documents_without_a_subject_fail_as_when_read_whole(tmp_path):
    documents = corpus("subject", False)
    del documents[3]["meta"]["subject"]
    lines = [json.dumps(d) for d in documents]
    lines.insert(10, "{broken")
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    settings = settings_for("subject")
    with pytest.raises(InputError, match="line 11: invalid JSON"):
        index_jsonl(str(source), settings)
    expected = whole(source, tmp_path / "whole.jsonl", settings, skip=True)
    failures = streamed(source, tmp_path / "streamed.jsonl", settings, skip=True)
    assert [str(f.error) for f in failures] == [str(f.error) for f in expected] and len(failures) == 2
    assert (tmp_path / "streamed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    with pytest.raises(InputError, match="meta.subject is missing"):
        stream_jsonl_file(str(source), str(tmp_path / "failed.jsonl"), settings, index_jsonl(str(source), settings, True))
    assert not (tmp_path / "failed.jsonl").exists()


def test_a_repeated_id_is_refused_by_the_first_pass(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(note("a", "Anna", 3)) + "\n" for _ in range(2)))
    with pytest.raises(InputError, match="'a' occurs twice"):
        index_jsonl(str(source), settings_for("document"), True)


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
