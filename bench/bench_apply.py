"""Throughput and peak memory of `pseudo` against Presidio's anonymizer with Faker operators.

Both are fed the same documents and the same spans; each runs in its own process so that peak
RSS is its own. This prints figures; it asserts nothing.

    pip install ".[bench]"
    python bench/bench_apply.py                       # MEDDOCAN train from shared/ beside the checkout, unseen and cycled
    python bench/bench_apply.py --jobs 2 4 0 --dask   # also --jobs 2, 4 and every CPU, and a 2-worker Dask LocalCluster
    python bench/bench_apply.py --corpus docs.jsonl --locale sv --n 10000
    python bench/bench_apply.py --by-rule            # where pseudo's time goes, rule family by rule family
    python bench/bench_apply.py --adjacent-names     # one document of 8k, 16k, 32k names in a row (no corpus)
    python bench/bench_apply.py --memory 10000 100000  # peak RSS of `pseudo apply` streaming N cycled documents

Each system runs on the corpus's texts once each with fresh ids (unseen: nothing learnt from an
earlier document helps), then on the corpus cycled to --n documents. Only the work is timed: the
corpus is read, Presidio's engine and Faker are set up, pseudo loads its locale pack (on one
document, and for --dask on every worker) before the clock starts. Peak MB is the measuring
process's maximum resident set; worker MB the largest of its worker processes' (--jobs, --dask).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import multiprocessing
import os
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MEDDOCAN = Path("shared", "corpora", "meddocan", "train")  # looked for beside the checkout and its parent folders, as the tests do

# Faker stand-ins for each canonical label: what a Presidio user would write.
FAKER_FOR = {
    "FIRST_NAME": "first_name", "LAST_NAME": "last_name", "PERSON": "name", "DATE": "date",
    "PHONE": "phone_number", "FAX": "phone_number", "EMAIL": "email", "URL": "url", "IP": "ipv4",
    "ID": "ssn", "ADDRESS": "address", "STREET": "street_address", "POSTCODE": "postcode",
    "PLACE": "city", "REGION": "state", "COUNTRY": "country", "HEALTHCARE_UNIT": "company",
    "ORGANISATION": "company", "PROFESSION": "job", "KINSHIP": "word", "SEX": "word", "OTHER": "word",
    "AGE": "random_int",
}  # fmt: skip
FAKER_LOCALE = {"es": "es_ES", "sv": "sv_SE", "en": "en_US"}


def load(corpus: str, fmt: str, n: int, locale: str | None, tagset: str | None):
    """n documents, cycling through the corpus with fresh ids, and their canonical labels."""
    from pseudo.config import Config
    from pseudo.engine import Engine, Settings
    from pseudo.io import read_input
    from pseudo.model import Document

    batch = read_input(corpus, fmt)
    if not batch.documents:
        sys.exit(f"bench_apply: no documents in {corpus}")
    docs = []
    for i in range(n):
        source = batch.documents[i % len(batch.documents)]
        meta = dict(source.meta)
        if locale:
            meta["locale"] = locale
        docs.append(Document(f"{source.id}#{i}", source.text, source.spans, meta))
    labels = Engine(Settings(config=Config(tagset=tagset))).label_map(docs[: len(batch.documents)])
    return docs, {label: mapping.label for label, mapping in labels.items()}


def run_pseudo(args, queue, n: int, jobs: int = 1) -> None:
    from pseudo.api import pseudonymise
    from pseudo.config import Config
    from pseudo.engine import Settings
    from pseudo.keyed import Keyring

    docs, _ = load(args.corpus, args.format, n, args.locale, args.tagset)
    settings = Settings(config=Config(tagset=args.tagset), keyring=Keyring(b"bench"))
    pseudonymise(docs[:1], settings)  # loads the locale pack: setup, as Presidio's engine is
    started = time.perf_counter()
    run = pseudonymise(docs, settings, jobs=jobs)
    elapsed = time.perf_counter() - started
    spans = sum(len(r.replacements) for r in run.results)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 if jobs != 1 else None
    queue.put((f"pseudo -j {jobs if jobs else 'all'}", len(run.results), spans, elapsed, _peak_mb(), workers))


DASK_WORKERS = 2


def run_dask(args, queue, n: int) -> None:
    """pseudo on a LocalCluster of DASK_WORKERS single-threaded worker processes, started (and
    every worker's locale pack loaded) before the clock starts."""
    from distributed import Client, LocalCluster

    from pseudo.api import Dask, pseudonymise
    from pseudo.config import Config
    from pseudo.engine import Settings
    from pseudo.executors import CHUNK
    from pseudo.keyed import Keyring

    docs, _ = load(args.corpus, args.format, n, args.locale, args.tagset)
    settings = Settings(config=Config(tagset=args.tagset), keyring=Keyring(b"bench"))
    quiet = {"silence_logs": logging.ERROR}  # not the nanny's shutdown warnings on a loaded machine
    with LocalCluster(n_workers=DASK_WORKERS, threads_per_worker=1, processes=True, dashboard_address=None, **quiet) as cluster, Client(cluster) as client:
        executor = Dask(client)
        warm = [replace(doc, id=f"warm-up#{i}") for i, doc in enumerate(docs[: 2 * DASK_WORKERS * CHUNK])]
        pseudonymise(warm, settings, executor=executor)
        started = time.perf_counter()
        run = pseudonymise(docs, settings, executor=executor)
        elapsed = time.perf_counter() - started
        workers = max(client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss).values()) / 1024
    spans = sum(len(r.replacements) for r in run.results)
    queue.put((f"pseudo dask x{DASK_WORKERS}", len(run.results), spans, elapsed, _peak_mb(), workers))


def run_by_rule(args, queue) -> None:
    """pseudo on one process, with the time inside each rule family summed: where to optimise."""
    import pseudo.engine
    from pseudo.api import pseudonymise
    from pseudo.config import Config
    from pseudo.engine import Settings
    from pseudo.keyed import Keyring

    docs, _ = load(args.corpus, args.format, args.n, args.locale, args.tagset)
    settings = Settings(config=Config(tagset=args.tagset), keyring=Keyring(b"bench"))
    pseudonymise(docs[:1], settings)
    seconds: dict[str, float] = {}
    spans: dict[str, int] = {}
    inner = pseudo.engine._replace  # the engine's one call into a rule; wrapped here only

    def timed(rule, target, ctx, document):
        started = time.perf_counter()
        try:
            return inner(rule, target, ctx, document)
        finally:
            seconds[rule.name] = seconds.get(rule.name, 0.0) + time.perf_counter() - started
            spans[rule.name] = spans.get(rule.name, 0) + 1

    pseudo.engine._replace = timed
    started = time.perf_counter()
    pseudonymise(docs, settings)
    queue.put((time.perf_counter() - started, seconds, spans))


def print_by_rule(total: float, seconds: dict[str, float], spans: dict[str, int]) -> None:
    print(f"{'rule':<16}{'spans':>9}{'seconds':>10}{'us/span':>10}{'share':>8}")
    for name in sorted(seconds, key=seconds.get, reverse=True):
        print(f"{name:<16}{spans[name]:>9}{seconds[name]:>10.2f}{seconds[name] / spans[name] * 1e6:>10.1f}{seconds[name] / total:>8.0%}")
    outside = total - sum(seconds.values())
    print(f"{'outside rules':<16}{'':>9}{outside:>10.2f}{'':>10}{outside / total:>8.0%}")
    print("outside rules: reading tagsets and scopes, collecting originals, casing, rebuilding texts and offsets")


ADJACENT_NAMES = (8_000, 16_000, 32_000)


def run_adjacent_names() -> None:
    """Seconds for one Swedish document of N first-name spans separated by single spaces: the
    names rule reads such a run as one person, and its time must grow linearly with N."""
    from pseudo.api import pseudonymise
    from pseudo.config import Config
    from pseudo.engine import Settings
    from pseudo.keyed import Keyring
    from pseudo.model import Document, Span

    words = ("Anna", "Erik", "Karin", "Lars", "Maria", "Madeleine")
    settings = Settings(config=Config(), keyring=Keyring(b"bench"))
    pseudonymise([Document("warm-up", "Anna", (Span(0, 4, "FIRST_NAME"),), {"locale": "sv"})], settings)
    print(f"{'names':>8}{'seconds':>10}{'us/name':>10}")
    for count in ADJACENT_NAMES:
        run = [words[i % len(words)] for i in range(count)]
        starts = [0]
        for word in run[:-1]:
            starts.append(starts[-1] + len(word) + 1)
        spans = tuple(Span(start, start + len(word), "FIRST_NAME") for start, word in zip(starts, run))
        document = Document(f"adjacent-{count}", " ".join(run), spans, {"locale": "sv"})
        started = time.perf_counter()
        pseudonymise([document], settings)
        elapsed = time.perf_counter() - started
        print(f"{count:>8}{elapsed:>10.2f}{elapsed / count * 1e6:>10.1f}")


def run_presidio(args, queue, n: int) -> None:
    from faker import Faker
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import OperatorConfig, RecognizerResult

    docs, canonical = load(args.corpus, args.format, n, args.locale, args.tagset)
    fake = Faker(FAKER_LOCALE.get(args.locale or "", "en_US"))
    fake.seed_instance(1)
    operators = {
        label: OperatorConfig("custom", {"lambda": lambda _, method=getattr(fake, FAKER_FOR[label]): str(method())})
        for label in set(canonical.values())
    }
    engine = AnonymizerEngine()
    started = time.perf_counter()
    spans = 0
    for doc in docs:
        results = [RecognizerResult(canonical[s.label], s.start, s.end, 1.0) for s in doc.spans]
        engine.anonymize(text=doc.text, analyzer_results=results, operators=operators)
        spans += len(results)
    elapsed = time.perf_counter() - started
    queue.put(("presidio+faker", len(docs), spans, elapsed, _peak_mb(), None))


def run_memory(args, sizes: list[int]) -> None:
    """Peak RSS of `pseudo apply in.jsonl -o out.jsonl` (streamed, one process) on N documents
    cycled from the corpus with fresh ids, each run in its own process: memory must not grow with N.
    With --every S, a long run also prints, every S seconds, the documents written so far and the
    peak so far (its first pass, which reads every document, is then behind it)."""
    import subprocess
    import tempfile

    from pseudo.io.native import document_to_dict

    from pseudo.io import read_input

    originals = read_input(args.corpus, args.format).documents
    print(f"corpus: {args.corpus} ({len(originals)} documents cycled, locale {args.locale})", flush=True)
    print(f"{'documents':>10}{'seconds':>10}{'docs/s':>10}{'peak MB':>10}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            source, out = Path(folder, "in.jsonl"), Path(folder, "out.jsonl")
            with source.open("w", encoding="utf-8") as handle:
                for i in range(size):
                    document = originals[i % len(originals)]
                    raw = document_to_dict(document)
                    raw["id"] = f"{document.id}#{i}"
                    raw["meta"] = {**raw.get("meta", {}), "locale": args.locale}
                    handle.write(json.dumps(raw, ensure_ascii=False) + "\n")
            command = [sys.executable, "-m", "pseudo", "apply", str(source), "-o", str(out)]
            if args.tagset:
                command += ["--tagset", args.tagset]
            started = time.perf_counter()
            child = subprocess.Popen(command, env={**os.environ, "PSEUDO_KEY": "bench-key-0123456789"}, stderr=subprocess.DEVNULL)
            progress = _Progress(child.pid, Path(folder))
            while True:
                pid, status, usage = os.wait4(child.pid, os.WNOHANG if args.every else 0)
                if pid:
                    break
                time.sleep(args.every)
                written, peak = progress.sample()
                print(f"{'':>10}{time.perf_counter() - started:>10.0f}{'':>10}{peak:>10.0f}  so far, {written} documents written", flush=True)
            elapsed = time.perf_counter() - started
            if status:
                sys.exit(f"bench_apply: pseudo apply failed on {size} documents (status {status})")
            print(f"{size:>10}{elapsed:>10.1f}{size / elapsed:>10.0f}{usage.ru_maxrss / 1024:>10.0f}", flush=True)
            out.unlink()


class _Progress:
    """A running `pseudo apply`: the lines of its temporary output so far, and its peak RSS so far."""

    def __init__(self, pid: int, folder: Path):
        self.pid, self.folder = pid, folder
        self.offset, self.lines = 0, 0

    def sample(self) -> tuple[int, float]:
        for partial in self.folder.glob(".out.jsonl.*.tmp"):
            try:
                with partial.open("rb") as handle:
                    handle.seek(self.offset)
                    while chunk := handle.read(1 << 24):
                        self.lines += chunk.count(b"\n")
                        self.offset += len(chunk)
            except FileNotFoundError:
                pass  # renamed to the output between the listing and the opening: the run has just finished
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            status = ""  # the process has just ended
        peak = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
        return self.lines, peak / 1024


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def default_corpus() -> Path | None:
    return next((folder / MEDDOCAN for folder in REPO.parents if (folder / MEDDOCAN).is_dir()), None)


def check(args: argparse.Namespace) -> None:
    """What the child processes need, checked here so that a fresh machine gets one line, not a traceback."""
    if args.corpus is None:
        found = default_corpus()
        if found is None:
            sys.exit(f"bench_apply: no corpus given and no {MEDDOCAN} beside {REPO} or its parent folders: pass --corpus FILE_OR_FOLDER (any input pseudo apply reads)")
        args.corpus = str(found)
    elif not Path(args.corpus).exists():
        sys.exit(f"bench_apply: --corpus {args.corpus}: no such file or folder")
    from pseudo.errors import PseudoError

    try:
        load(args.corpus, args.format, 1, args.locale, args.tagset)
    except PseudoError as error:
        sys.exit(f"bench_apply: {error}")
    missing = [name for name in ("presidio_anonymizer", "faker") if importlib.util.find_spec(name) is None]
    if missing and not (args.by_rule or args.memory):
        sys.exit(f"bench_apply: {', '.join(missing)} not installed: pip install \".[bench]\"")
    if args.dask and importlib.util.find_spec("distributed") is None:
        sys.exit('bench_apply: --dask needs Dask\'s distributed scheduler: pip install ".[dask]"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", help="a tagged input; default: MEDDOCAN train in shared/corpora beside the checkout")
    parser.add_argument("--format", default="auto")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--locale", default="es")
    parser.add_argument("--tagset", default=None)
    parser.add_argument("--jobs", type=int, nargs="*", default=[os.cpu_count() or 1], metavar="N", help="also time pseudo with N processes (0: every CPU); several may be given")
    parser.add_argument("--dask", action="store_true", help=f"also time pseudo on a {DASK_WORKERS}-worker Dask LocalCluster (pip install \".[dask]\")")
    parser.add_argument("--by-rule", action="store_true", help="instead: time spent in each rule family of pseudo (one process)")
    parser.add_argument("--adjacent-names", action="store_true", help="instead: time pseudo on 8k, 16k and 32k adjacent name spans")
    parser.add_argument("--memory", type=int, nargs="+", metavar="N", help="instead: peak RSS of pseudo apply streaming N cycled documents")
    parser.add_argument("--every", type=float, default=0, metavar="S", help="with --memory: also print progress and the peak so far every S seconds")
    args = parser.parse_args()
    if args.adjacent_names:
        run_adjacent_names()
        return
    check(args)
    if args.memory:
        run_memory(args, args.memory)
        return
    context = multiprocessing.get_context("spawn")
    if args.by_rule:
        queue = context.Queue()
        process = context.Process(target=run_by_rule, args=(args, queue))
        process.start()
        process.join()
        if process.exitcode != 0:
            sys.exit(f"run_by_rule failed (exit code {process.exitcode})")
        print(f"corpus: {args.corpus} ({args.n} documents, locale {args.locale})")
        print_by_rule(*queue.get())
        return
    runs = [(run_pseudo, (1,)), *((run_pseudo, (jobs,)) for jobs in dict.fromkeys(args.jobs) if jobs != 1)]
    if args.dask:
        runs.append((run_dask, ()))
    runs.append((run_presidio, ()))
    from pseudo.io import read_input

    unseen = len(read_input(args.corpus, args.format).documents)
    print(f"corpus: {args.corpus}, locale {args.locale}; cores: {os.cpu_count()}, usable by this process: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'}")
    for texts, n in (("unseen", unseen), ("cycled", args.n)):
        rows = []
        for target, extra in runs:
            queue = context.Queue()
            process = context.Process(target=target, args=(args, queue, n, *extra))
            process.start()
            process.join()
            if process.exitcode != 0:
                sys.exit(f"{target.__name__} failed (exit code {process.exitcode})")
            rows.append(queue.get())
        print()
        print(f"{texts}: {n} documents" + (" (each text once, fresh ids)" if texts == "unseen" else " (the corpus cycled, fresh ids)"))
        print(f"{'system':<18}{'docs':>8}{'spans':>9}{'seconds':>10}{'docs/s':>10}{'spans/s':>11}{'peak MB':>10}{'worker MB':>11}{'/ presidio':>12}")
        theirs = rows[-1][1] / rows[-1][3]
        for name, docs, spans, seconds, peak, workers in rows:
            shown = f"{workers:>11.0f}" if workers is not None else f"{'':>11}"
            print(f"{name:<18}{docs:>8}{spans:>9}{seconds:>10.2f}{docs / seconds:>10.0f}{spans / seconds:>11.0f}{peak:>10.0f}{shown}{docs / seconds / theirs:>11.2f}x")
    print("--jobs N is capped at the CPUs this process may use and at the units of work (64 documents of whole scopes)")


if __name__ == "__main__":
    main()
