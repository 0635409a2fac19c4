"""bench/bench_apply.py on a fresh machine: a missing corpus is one line, not a child's traceback."""

import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_apply.py"


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    checkout = tmp_path / "checkout"  # no shared/ beside it nor beside its parents
    (checkout / "bench").mkdir(parents=True)
    shutil.copy(BENCH, checkout / "bench")
    return subprocess.run([sys.executable, str(checkout / "bench" / "bench_apply.py"), *args], capture_output=True, text=True, cwd=tmp_path)


def test_no_default_corpus_says_where_it_looked_and_what_to_pass(tmp_path):
    result = run(tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert str(tmp_path / "checkout") in result.stderr and "shared/corpora/meddocan/train" in result.stderr and "--corpus" in result.stderr


def test_a_missing_corpus_is_named(tmp_path):
    result = run(tmp_path, "--corpus", "nowhere.jsonl")
    assert result.returncode == 1 and result.stderr == "bench_apply: --corpus nowhere.jsonl: no such file or folder\n"


def test_an_unusable_corpus_is_one_line(tmp_path):
    corpus = tmp_path / "in.json"
    corpus.write_text('{"id": "a", "text": "Anna", "spans": [{"start": 0, "end": 4, "label": "NOT_A_LABEL"}]}')
    result = run(tmp_path, "--corpus", str(corpus))
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "NOT_A_LABEL belong to no tagset" in result.stderr


def test_by_rule_prints_the_time_of_each_rule_family_without_presidio(tmp_path):
    corpus = tmp_path / "in.jsonl"
    corpus.write_text(
        '{"id": "a", "text": "Kom 2012-03-11, id 19121212-1212.", "spans": [{"start": 4, "end": 14, "label": "DATE"}, {"start": 19, "end": 32, "label": "ID"}]}\n'
    )
    result = run(tmp_path, "--by-rule", "--corpus", str(corpus), "--locale", "", "--n", "30")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()[2:] if line.startswith(("dates", "ids"))}
    assert rows["dates"][0] == rows["ids"][0] == "30"
    assert "outside rules" in result.stdout


def test_memory_prints_a_row_per_size_and_with_every_the_peak_so_far(tmp_path):
    corpus = tmp_path / "in.jsonl"
    corpus.write_text('{"id": "a", "text": "Kom 2012-03-11.", "spans": [{"start": 4, "end": 14, "label": "DATE"}]}\n')
    result = run(tmp_path, "--memory", "2", "5", "--every", "0.05", "--corpus", str(corpus), "--locale", "")
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[2:]]
    assert [row[0] for row in rows if "so far" not in " ".join(row)] == ["2", "5"]
    assert all(float(row[-1]) > 0 for row in rows if "so far" not in " ".join(row))
