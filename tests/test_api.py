"""The library API: several processes give one process's output; an input names each document once."""

import json

import pytest
from conftest import make_doc

from pseudo.api import pseudonymise, read_documents
from pseudo.executors import CHUNK, InProcess, LocalProcesses
from pseudo.config import parse_config
from pseudo.engine import Settings
from pseudo.errors import InputError
from pseudo.evaluation.corpus import read_corpus
from pseudo.io.native import document_to_dict
from pseudo.keyed import Keyring
from pseudo.model import Document, Span

INDEXED = {"strategies": {"FIRST_NAME": {"strategy": "tag", "indexed": True}}}


def named(doc_id: str, name: str, **meta) -> Document:
    return Document(doc_id, f"{name} kom.", (Span(0, len(name), "FIRST_NAME"),), meta)


def outputs(documents, config, jobs):
    settings = Settings(config=parse_config(config), keyring=Keyring(b"api-key"))
    return [document_to_dict(r.document) for r in pseudonymise(documents, settings, jobs=jobs).results]


def filler(count):
    return [named(f"f{i}", "Karin", subject=f"s{i}") for i in range(count)]


def test_one_document_id_is_one_scope_in_every_process():
    """Two documents with one id share the document scope: their tag indexes count on."""
    documents = [named("x", "Anna"), *filler(CHUNK + 5), named("x", "Maria")]
    single = outputs(documents, INDEXED, jobs=1)
    assert single[-1]["text"] == "[FIRST_NAME-2] kom."
    assert outputs(documents, INDEXED, jobs=2) == single


def test_subjects_1_and_text_1_are_one_scope_in_every_process():
    config = {**INDEXED, "scope": "subject"}
    documents = [named("a", "Anna", subject=1), *filler(CHUNK + 5), named("b", "Maria", subject="1")]
    single = outputs(documents, config, jobs=1)
    assert single[-1]["text"] == "[FIRST_NAME-2] kom."
    assert outputs(documents, config, jobs=2) == single


def dated(doc_id: str, day: int) -> Document:
    text = f"Anna kom {day}/3/2012, åter 2012-03-{day + 7}. Anna ringde."
    spans = (Span(0, 4, "FIRST_NAME", {"id": "T1"}), Span(9, 18 if day > 9 else 17, "DATE"), Span(text.index("2012-"), text.index(". "), "DATE"))
    return Document(doc_id, text, spans, {"subject": doc_id})


@pytest.mark.parametrize("start_methods", [["fork", "spawn"], ["spawn"]], ids=["fork", "spawn-only"])
def test_worker_results_are_the_results_of_one_process(monkeypatch, start_methods):
    """Workers send back the output text and plain rows; the parent rebuilds the same Results
    around its own documents (tagged spans by index, spans --propagate added by their fields),
    whether workers inherit the documents (fork) or receive them."""
    monkeypatch.setattr("pseudo.executors.multiprocessing.get_all_start_methods", lambda: start_methods)
    documents = [dated(f"d{i}", 1 + i % 20) for i in range(CHUNK + 10)]
    settings = Settings(config=parse_config(INDEXED), keyring=Keyring(b"api-key"), propagate=True)
    single = pseudonymise(documents, settings).results
    parallel = pseudonymise(documents, settings, jobs=2).results
    assert parallel == single
    assert all(p.source is d for p, d in zip(parallel, documents))
    assert parallel[0].document.spans[0].attrs == {"id": "T1"}
    assert [r.propagated for r in parallel[0].replacements] == [False, False, False, True]
    assert parallel[0].replacements[0].span is documents[0].spans[0]


def test_a_document_without_its_subject_fails_as_in_one_process():
    documents = [*filler(CHUNK + 5), named("lost", "Anna")]
    settings = Settings(config=parse_config({**INDEXED, "scope": "subject"}), keyring=Keyring(b"k"))
    with pytest.raises(InputError, match="'lost'"):
        pseudonymise(documents, settings, jobs=2)
    skipped = pseudonymise(documents, settings, skip_errors=True, jobs=2)
    assert [f.document_id for f in skipped.summary.failures] == ["lost"]
    assert len(skipped.results) == CHUNK + 5


@pytest.mark.parametrize("reader", [lambda path: read_documents(path)[0].documents, read_corpus])
def test_a_repeated_document_id_is_refused_by_name(tmp_path, reader):
    path = tmp_path / "in.json"
    path.write_text(json.dumps([make_doc("Anna", [("Anna", "FIRST_NAME")], "a"), make_doc("Bo", [], "b"), make_doc("Eva", [], "a")]))
    with pytest.raises(InputError, match=r"in\.json: document id 'a' occurs twice"):
        reader(str(path))


def test_a_repeated_id_is_refused_even_when_skipping(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(make_doc("x", [], "a")) + "\n" for _ in range(2)))
    with pytest.raises(InputError, match="'a' occurs twice"):
        read_documents(str(path), skip_errors=True)


def test_a_run_collects_garbage_less_often_and_restores_the_thresholds():
    import gc

    before = gc.get_threshold()
    during = []

    def watch(outcomes):
        for outcome in outcomes:
            during.append(gc.get_threshold()[0])
            yield outcome

    try:
        gc.set_threshold(700, 10, 10)
        pseudonymise([named("a", "Anna")], Settings(config=parse_config(INDEXED), keyring=Keyring(b"k")), progress=watch)
        assert during == [10_000] and gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)


class Recording:
    """An executor that runs in this process and records the units it was given."""

    def __init__(self):
        self.units = []

    def run(self, settings, units, skip_errors):
        units = [list(unit) for unit in units]
        self.units.extend(units)
        return InProcess().run(settings, units, skip_errors)


def test_an_executor_gets_units_of_whole_scopes_and_gives_one_process_output():
    config = {**INDEXED, "scope": "subject"}
    documents = [named("a", "Anna", subject=1), *filler(CHUNK + 5), named("b", "Maria", subject="1")]
    executor = Recording()
    settings = Settings(config=parse_config(config), keyring=Keyring(b"api-key"))
    shared = [document_to_dict(r.document) for r in pseudonymise(documents, settings, executor=executor).results]
    assert shared == outputs(documents, config, jobs=1)
    assert len(executor.units) == 2 and [d.id for d in executor.units[0][:2]] == ["a", "b"]


def test_local_processes_read_a_stream_of_units_a_window_at_a_time():
    """Units are taken as workers need them: the first outcome comes before the stream is read whole."""
    taken = []

    def units():
        for number in range(40):
            taken.append(number)
            yield [named(f"u{number}", "Anna")]

    settings = Settings(config=parse_config(INDEXED), keyring=Keyring(b"api-key"))
    outcomes = LocalProcesses(2).run(settings, units(), False)
    first = next(outcomes)
    assert first.document.text == "[FIRST_NAME-1] kom." and len(taken) < 40
    assert len(list(outcomes)) == 39
