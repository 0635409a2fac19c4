"""Defects a hostile-input audit found, each held to its fix: untagged input, runs of adjacent
names, --jobs, the tells locale, whitespace spans, short keys, repeated JSON keys and option checks."""

from __future__ import annotations

import concurrent.futures
import json
from pathlib import Path

import pytest
from conftest import make_doc
from typer.testing import CliRunner

from pseudo import api, executors
from pseudo.cli import app
from pseudo.model import Span
from pseudo.services import person as names
from pseudo.model import Target

REPOSITORY = Path(__file__).resolve().parents[1]
RELATIVES = str(REPOSITORY / "examples" / "sv-relatives.json")
KEY = "hostile-input-test-key"


def invoke(*arguments: str, key: str = KEY):
    return CliRunner().invoke(app, list(arguments), env={"PSEUDO_KEY": key})


def write_json(path: Path, value) -> str:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


def tagged(doc_id: str) -> dict:
    return make_doc("Anna Andersson ringde.", [("Anna", "FIRST_NAME"), ("Andersson", "LAST_NAME")], doc_id, locale="tiny")


def untagged(doc_id: str) -> dict:
    return make_doc("Anna Andersson ringde.", [], doc_id, locale="tiny")


# -- documents without spans -------------------------------------------------------------------


def test_a_format_that_finds_no_tags_fails_and_writes_nothing(tmp_path):
    out = tmp_path / "out.txt"
    result = invoke("apply", RELATIVES, "-f", "inline", "--out", str(out))
    assert result.exit_code == 1
    assert "no document has a tagged span" in result.stderr and "sv-relatives" in result.stderr
    assert "--allow-untagged" in result.stderr
    assert not out.exists()


def test_allow_untagged_copies_an_untagged_input_and_says_so(tmp_path):
    out = tmp_path / "out.txt"
    result = invoke("apply", RELATIVES, "-f", "inline", "--out", str(out), "--allow-untagged")
    assert result.exit_code == 0
    assert "1 document(s) have no tagged span" in result.stderr and "sv-relatives" in result.stderr
    assert out.read_text(encoding="utf-8") == Path(RELATIVES).read_text(encoding="utf-8")


def test_a_brat_text_without_annotations_is_named_on_stderr(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("Anna ringde.\n", encoding="utf-8")
    (corpus / "a.ann").write_text("T1\tFIRST_NAME 0 4\tAnna\n", encoding="utf-8")
    (corpus / "b.txt").write_text("Anna ringde.\n", encoding="utf-8")
    result = invoke("apply", str(corpus), "--out", str(tmp_path / "out"), "--locale", "tiny")
    assert result.exit_code == 0
    assert "1 document(s) have no tagged span" in result.stderr and ": b" in result.stderr


def test_spans_that_stop_short_of_their_words_end_are_named_by_offsets_on_both_paths(tmp_path):
    """"Anna Anderss" of "Anna Andersson" (offsets off by two) would glue the surrogate to "on"; the
    run says where, never the words. Text glued in the source ("Anderssonringde") is no warning."""
    short = make_doc("Anna Andersson ringde.", [("Anna Anderss", "PERSON")], "short", locale="tiny")
    glued = make_doc("Anna Anderssonringde.", [("Anna Andersson", "PERSON")], "glued", locale="tiny")
    documents = [short, glued]
    for name in ("in.json", "in.jsonl"):  # a whole read and a stream
        path = tmp_path / name
        text = json.dumps(documents, ensure_ascii=False) if name.endswith(".json") else "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents)
        path.write_text(text, encoding="utf-8")
        result = invoke("apply", str(path), "--out", str(tmp_path / f"out-{name}"))
        assert result.exit_code == 0, result.stderr
        warning = next(line for line in result.stderr.splitlines() if "short of their word" in line)
        assert warning.endswith(": short 0-12") and "Anders" not in warning, warning


def test_untagged_documents_are_counted_and_their_ids_abbreviated(tmp_path):
    documents = [tagged("t")] + [untagged(f"u{n:02d}") for n in range(15)]
    result = invoke("apply", write_json(tmp_path / "in.json", documents), "--out", str(tmp_path / "out.json"))
    assert result.exit_code == 0
    warning = next(line for line in result.stderr.splitlines() if "no tagged span" in line)
    assert warning.startswith("pseudo: warning: 15 document(s) have no tagged span")
    assert "u09" in warning and "u10" not in warning and "..." in warning


# -- runs of adjacent names --------------------------------------------------------------------


class CountedTargets(list):
    """A person's targets that count how often they are walked."""

    walks = 0

    def __iter__(self):
        CountedTargets.walks += 1
        return super().__iter__()


def adjacent_run(words: list[str], cues: list[str | None]) -> dict[int, names.Person]:
    """by_start as _people builds it: each person once per name of its run."""
    by_start, start = {}, 0
    for run, cue in zip(words, cues):
        targets = []
        for word in run.split():
            targets.append(Target(Span(start, start + len(word), "FIRST_NAME"), word, "FIRST_NAME"))
            start += len(word) + 1
        person = names.Person(targets, cue)
        by_start.update((t.span.start, person) for t in targets)
    return by_start


def test_a_run_of_adjacent_names_is_walked_once_not_once_per_name():
    run = adjacent_run(["Anna " * 500], [None])
    person = next(iter(run.values()))
    person.targets = CountedTargets(person.targets)
    CountedTargets.walks = 0
    names._spread_cues(run)
    assert CountedTargets.walks <= 2


def quadratic_spread_cues(by_start: dict[int, names.Person]) -> None:
    """The algorithm before it was made linear, kept to check the new one gives the same cues."""
    cued: dict[str, set[str]] = {}
    for person in by_start.values():
        if person.cue:
            for target in person.targets:
                cued.setdefault(target.text.casefold(), set()).add(person.cue)
    for person in by_start.values():
        if person.cue is None:
            genders = set().union(*(cued.get(t.text.casefold(), set()) for t in person.targets))
            if len(genders) == 1:
                person.cue = genders.pop()


@pytest.mark.parametrize(
    "words, cues",
    [
        (["Madeleine", "Madeleine", "Madeleine Kim"], ["male", None, None]),
        (["Kim Anna", "Anna", "Kim"], ["female", "male", None]),
        (["Anna Erik Anna", "Erik", "Lars Lars"], [None, "male", None]),
        (["Kim", "Kim", "Kim Lars Kim"], ["female", "female", None]),
    ],
)
def test_spreading_cues_gives_what_the_quadratic_algorithm_gave(words, cues):
    old, new = adjacent_run(words, cues), adjacent_run(words, cues)
    quadratic_spread_cues(old)
    names._spread_cues(new)
    assert [p.cue for p in old.values()] == [p.cue for p in new.values()]


# -- --jobs ------------------------------------------------------------------------------------


class RecordedPool(concurrent.futures.ThreadPoolExecutor):
    """Stands in for the process pool: records how many workers were asked for."""

    asked: list[int] = []

    def __init__(self, max_workers, mp_context=None, initializer=None, initargs=()):
        RecordedPool.asked.append(max_workers)
        super().__init__(max_workers, initializer=initializer, initargs=initargs)


@pytest.fixture
def recorded_pool(monkeypatch):
    RecordedPool.asked = []
    monkeypatch.setattr(executors, "ProcessPoolExecutor", RecordedPool)
    monkeypatch.setattr(api, "available_cpus", lambda: 3)
    return RecordedPool.asked


def test_jobs_are_capped_at_the_cpus(tmp_path, recorded_pool):
    source = write_json(tmp_path / "in.json", [tagged(f"d{n}") for n in range(300)])  # 5 chunks of work
    result = invoke("apply", source, "--out", str(tmp_path / "out.json"), "-j", "1000")
    assert result.exit_code == 0, result.stderr
    assert recorded_pool == [3]


def test_jobs_are_capped_at_the_units_of_work(tmp_path, recorded_pool):
    source = write_json(tmp_path / "in.json", [tagged(f"d{n}") for n in range(100)])  # 2 chunks of work
    result = invoke("apply", source, "--out", str(tmp_path / "out.json"), "-j", "1000")
    assert result.exit_code == 0, result.stderr
    assert recorded_pool == [2]


def test_jobs_zero_means_every_cpu(tmp_path, recorded_pool):
    source = write_json(tmp_path / "in.json", [tagged(f"d{n}") for n in range(300)])
    result = invoke("apply", source, "--out", str(tmp_path / "out.json"), "-j", "0")
    assert result.exit_code == 0, result.stderr
    assert recorded_pool == [3]


def test_available_cpus_counts_the_cpus_this_process_may_use():
    assert 1 <= api.available_cpus()


# -- pseudo tells --config ---------------------------------------------------------------------


def test_tells_takes_the_locale_from_the_config(tmp_path):
    relatives = json.loads(Path(RELATIVES).read_text(encoding="utf-8"))
    del relatives["meta"]
    source = write_json(tmp_path / "in.json", relatives)
    config = tmp_path / "config.yaml"
    config.write_text("locale: sv\n", encoding="utf-8")
    by_option = invoke("tells", source, "--json", "--locale", "sv")
    by_config = invoke("tells", source, "--json", "--config", str(config))
    assert by_option.exit_code == by_config.exit_code == 0
    assert json.loads(by_config.stdout) == json.loads(by_option.stdout)
    assert json.loads(by_config.stdout)["documents_without_locale"] == 0


# -- whitespace spans --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "start, end, problem",
    [(7, 8, "is only whitespace"), (7, 12, "starts or ends with whitespace"), (8, 13, "starts or ends with whitespace")],
)
def test_a_span_of_or_around_whitespace_is_refused(tmp_path, start, end, problem):
    document = make_doc("Patient Anna kom.", [(start, end, "FIRST_NAME")], "ws", locale="tiny")
    out = tmp_path / "out.json"
    result = invoke("apply", write_json(tmp_path / "in.json", document), "--out", str(out))
    assert result.exit_code == 1
    assert f"document 'ws': span {start}-{end} {problem}" in result.stderr
    assert "Anna" not in result.stderr and not out.exists()


def test_a_whitespace_span_is_refused_in_every_format(tmp_path):
    source = tmp_path / "in.inline.txt"
    source.write_text("Patienten<First_Name> </First_Name>kom.", encoding="utf-8")
    result = invoke("apply", str(source))
    assert result.exit_code == 1 and "span 9-10 is only whitespace" in result.stderr


# -- keys, JSON keys and options -----------------------------------------------------------------


def test_a_short_key_is_warned_about(tmp_path):
    source = write_json(tmp_path / "in.json", tagged("a"))
    short = invoke("apply", source, key="a")
    assert short.exit_code == 0 and "key" in short.stderr and "16 bytes" in short.stderr
    assert "16 bytes" not in invoke("apply", source, key="x" * 16).stderr


@pytest.mark.parametrize(
    "raw, where",
    [
        ('{"id": "a", "text": "Anna", "text": "Bertil", "spans": []}', "key 'text'"),
        ('[{"id": "a", "text": "Anna", "spans": [{"start": 0, "end": 4, "label": "X", "label": "FIRST_NAME"}]}]',
         "key 'spans[0].label'"),
        ('{"id": "a", "text": "Anna", "meta": {"m": {"k": 1, "k": 2}}}', "key 'meta.m.k'"),
    ],
)  # fmt: skip
def test_a_repeated_json_key_is_refused_by_its_path(tmp_path, raw, where):
    source = tmp_path / "in.json"
    source.write_text(raw, encoding="utf-8")
    result = invoke("apply", str(source))
    assert result.exit_code == 1
    assert where in result.stderr and "occurs twice" in result.stderr
    assert "Bertil" not in result.stderr


def test_a_repeated_json_key_is_refused_in_json_lines(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "Anna", "spans": []}\n{"id": "b", "id": "c", "text": "x"}\n', encoding="utf-8")
    result = invoke("apply", str(source))
    assert result.exit_code == 1 and "line 2: key 'id' occurs twice" in result.stderr


@pytest.mark.parametrize("option", [["--window", "0"], ["--share-pseudo", "2"], ["--share-pseudo", "-0.1"]])
def test_judge_build_options_out_of_range_are_usage_errors(tmp_path, option):
    source = write_json(tmp_path / "in.json", [tagged("a")])
    assert invoke("apply", source, "--out", str(tmp_path / "out.json")).exit_code == 0
    result = invoke("judge", "build", source, str(tmp_path / "out.json"), "--out", str(tmp_path / "kit"), *option)
    assert result.exit_code == 2
    assert not (tmp_path / "kit").exists()


def test_propagate_is_a_flag_pair():
    help_text = invoke("apply", "--help").stdout
    assert "--propagate" in help_text and "--no-propagate" in help_text


def test_no_propagate_is_accepted(tmp_path):
    source = write_json(tmp_path / "in.json", tagged("a"))
    assert invoke("apply", source, "--no-propagate").exit_code == 0
