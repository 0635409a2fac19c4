"""The library API behind the command line."""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from pseudo.audit import Overrides
from pseudo.config import Config, load_config
from pseudo.engine import Engine, Failure, Settings, Summary
from pseudo.errors import ConfigError, InputError, PseudoError
from pseudo.io import Batch, read_input, write_output
from pseudo.keyed import Keyring
from pseudo.model import Document, Replacement, Result, Span

KEY_ENVIRONMENT = "PSEUDO_KEY"
SHORT_KEY_BYTES = 16  # below this a key could be guessed, and with it every surrogate undone


@dataclass(frozen=True)
class KeySource:
    keyring: Keyring
    fresh: bool = False  # a fresh random key: the run cannot be reproduced, and the user is told
    short: bool = False  # fewer than SHORT_KEY_BYTES bytes: the user is warned


def load_key(key_file: str | None = None, seed: int | None = None, environ=os.environ) -> KeySource:
    """The key from a file, else from $PSEUDO_KEY, else a fresh random one (the run is then not reproducible)."""
    if key_file:
        try:
            key = Path(key_file).read_bytes().strip()
        except OSError as error:
            raise ConfigError(f"{key_file}: cannot read the key file ({error.strerror})") from None
        if not key:
            raise ConfigError(f"{key_file}: the key file is empty")
        return KeySource(Keyring(key, seed), short=len(key) < SHORT_KEY_BYTES)
    if environ.get(KEY_ENVIRONMENT):
        key = environ[KEY_ENVIRONMENT].encode("utf-8")
        return KeySource(Keyring(key, seed), short=len(key) < SHORT_KEY_BYTES)
    return KeySource(Keyring.fresh() if seed is None else Keyring(os.urandom(32), seed), fresh=True)


@dataclass
class Run:
    results: list[Result] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)
    unmatched_overrides: list[int] = field(default_factory=list)  # lines of override rows no span used
    original_overrides: list[int] = field(default_factory=list)  # lines of applied rows that put an original back


CHUNK = 64  # documents (whole scopes) per task when several processes share the work


def pseudonymise(
    documents: Sequence[Document],
    settings: Settings,
    skip_errors: bool = False,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
    jobs: int = 1,
) -> Run:
    """Every document through the engine; failures are collected only when skipping.

    With jobs > 1 (0: every CPU), whole scopes go to worker processes, never more than the CPUs
    this process may use; every choice depends only on the key and the scope's own documents, so
    the output is identical to a single process's. Override rows read by `read_overrides` that
    replaced no span, or that put an original back, are listed by line in the run."""
    run = Run()
    jobs = min(jobs or available_cpus(), available_cpus())
    outcomes = _in_parallel(documents, settings, skip_errors, jobs) if jobs > 1 else Engine(settings).run(documents, skip_errors)
    with _fewer_collections():
        for outcome in progress(outcomes):
            if isinstance(outcome, Failure):
                run.summary.failures.append(outcome)
            else:
                run.results.append(outcome)
                run.summary.add(outcome)
    if isinstance(settings.overrides, Overrides):
        run.unmatched_overrides = settings.overrides.unmatched(run.results)
        run.original_overrides = settings.overrides.restoring(run.results)
    return run


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, as under a container's or taskset's limit),
    which can be fewer than the machine has: more workers would only take turns."""
    if hasattr(os, "process_cpu_count"):
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


YOUNG_OBJECTS_PER_COLLECTION = 10_000  # Python's default is 700


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """A run keeps every result until the output is written, and with Python's default
    thresholds a full collection walks that growing heap every ~70,000 new objects; every
    ~1,000,000 makes 10,000 documents about a tenth faster. Restored afterwards."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], YOUNG_OBJECTS_PER_COLLECTION), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _in_parallel(documents: Sequence[Document], settings: Settings, skip_errors: bool, jobs: int) -> Iterator[Result | Failure]:
    if settings.config.scope == "corpus" or len(documents) <= CHUNK:
        yield from Engine(settings).run(documents, skip_errors)
        return
    engine = Engine(settings)
    fixed = replace(settings, tagset=engine.tagset_for(documents).name)  # one tagset for all
    groups: dict[object, list[int]] = {}
    for index, document in enumerate(documents):
        groups.setdefault(_scope_of(engine, document, index, skip_errors), []).append(index)
    chunks: list[list[int]] = [[]]
    for members in groups.values():
        if len(chunks[-1]) >= CHUNK:
            chunks.append([])
        chunks[-1].extend(members)
    outcomes: dict[int, Result | Failure] = {}
    global _FORKED_WORK
    forking = "fork" in multiprocessing.get_all_start_methods()
    if forking:  # workers inherit the documents: only chunk indexes cross the process boundary
        _FORKED_WORK = (fixed, documents, skip_errors)
        tasks: list = [(None, chunk, skip_errors) for chunk in chunks]
    else:
        tasks = [(fixed, [documents[i] for i in chunk], skip_errors) for chunk in chunks]
    try:
        context = multiprocessing.get_context("fork") if forking else None
        with ProcessPoolExecutor(min(jobs, len(chunks)), mp_context=context) as pool:  # a worker per chunk at most
            for chunk, packed in zip(chunks, pool.map(_run_chunk, tasks)):
                outcomes.update((i, _unpacked(documents[i], p)) for i, p in zip(chunk, packed))
    finally:
        _FORKED_WORK = None
    for index in range(len(documents)):
        yield outcomes[index]


_FORKED_WORK: tuple[Settings, Sequence[Document], bool] | None = None

Packed = tuple[str, tuple[tuple, ...]]  # output text, replacements as plain tuples: they pickle fast


def _run_chunk(task: tuple) -> list[Packed | Failure]:
    settings, documents, skip_errors = task
    if settings is None:
        settings, everything, skip_errors = _FORKED_WORK
        documents = [everything[i] for i in documents]
    with _fewer_collections():
        return [_packed(outcome) for outcome in Engine(settings).run(documents, skip_errors)]


def _packed(outcome: Result | Failure) -> Packed | Failure:
    """A tagged span goes back as its index in the document (the parent holds the same spans);
    a span added by --propagate as its fields."""
    if isinstance(outcome, Failure):
        return outcome
    tagged = {id(span): index for index, span in enumerate(outcome.source.spans)}
    rows = tuple(
        (tagged.get(id(r.span), (r.span.start, r.span.end, r.span.label, r.span.attrs)), r.new_start, r.new_end,
         r.surrogate, r.label, r.rule, r.strategy, r.scope, r.fallback, r.propagated)
        for r in outcome.replacements
    )  # fmt: skip
    return outcome.document.text, rows


def _unpacked(source: Document, packed: Packed | Failure) -> Result | Failure:
    """The Result a worker made, rebuilt around the parent's own copy of the document."""
    if isinstance(packed, Failure):
        return packed
    text, rows = packed
    replacements = tuple(
        Replacement(source.spans[row[0]] if isinstance(row[0], int) else Span(*row[0]), *row[1:]) for row in rows
    )
    spans = tuple(Span(r.new_start, r.new_end, r.span.label, r.span.attrs) for r in replacements)
    return Result(source, Document(source.id, text, spans, source.meta), replacements)


def _scope_of(engine: Engine, document: Document, index: int, skip_errors: bool) -> object:
    """The engine's own scope id, so a process sees every document of a scope; a document
    without one fails here as in a single process, or goes alone to fail in its worker."""
    try:
        return engine.scope_id(document)
    except PseudoError:
        if not skip_errors:
            raise
        return index


def read_documents(source: str, fmt: str = "auto", skip_errors: bool = False) -> tuple[Batch, list[Failure]]:
    """Read an input; a document that cannot be read fails the run, or is listed when skipping.
    A repeated document id fails the run either way: outputs, scopes and audits go by id."""
    batch = read_input(source, fmt)
    if batch.errors and not skip_errors:
        raise batch.errors[0]
    seen: set[str] = set()
    for document in batch.documents:
        if document.id in seen:
            raise InputError(f"document id {document.id!r} occurs twice", source)
        seen.add(document.id)
    failures = [Failure(e.document_id or "?", e) for e in batch.errors]
    return batch, failures


def config_from(path: str | None) -> Config:
    return load_config(path) if path else Config()


__all__ = ["KeySource", "Run", "Settings", "load_key", "pseudonymise", "read_documents", "write_output", "config_from", "InputError"]
