"""The library API behind the command line."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from pseudo.audit import Overrides
from pseudo.config import Config, load_config
from pseudo.engine import Failure, Settings, Summary
from pseudo.errors import ConfigError, InputError
from pseudo.executors import CHUNK, Dask, Executor, InProcess, LocalProcesses, fixed_tagset, units_by_scope
from pseudo.io import Batch, read_input, write_output
from pseudo.keyed import Keyring
from pseudo.model import Document, Result

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


def pseudonymise(
    documents: Sequence[Document],
    settings: Settings,
    skip_errors: bool = False,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Run:
    """Every document through the engine; failures are collected only when skipping.

    With jobs > 1 (0: every CPU), whole scopes go to worker processes, never more than the CPUs
    this process may use; another executor (pseudo.executors.Dask) may be given instead. Every
    choice depends only on the key and the scope's own documents, so the output is identical to a
    single process's. Override rows read by `read_overrides` that replaced no span, or that put an
    original back, are listed by line in the run."""
    run = Run()
    jobs = min(jobs or available_cpus(), available_cpus())
    executor = executor or (LocalProcesses(jobs) if jobs > 1 else InProcess())
    with _fewer_collections():
        for outcome in progress(_outcomes(documents, settings, skip_errors, executor)):
            if isinstance(outcome, Failure):
                run.summary.failures.append(outcome)
            else:
                run.results.append(outcome)
                run.summary.add(outcome)
    if isinstance(settings.overrides, Overrides):
        run.unmatched_overrides = settings.overrides.unmatched(run.results)
        run.original_overrides = settings.overrides.restoring(run.results)
    return run


def _outcomes(documents: Sequence[Document], settings: Settings, skip_errors: bool, executor: Executor) -> Iterator[Result | Failure]:
    """In input order. One unit of everything in this process, unless the work can be shared:
    then units of whole scopes, their outcomes put back in input order."""
    if isinstance(executor, InProcess) or settings.config.scope == "corpus" or len(documents) <= CHUNK:
        yield from InProcess().run(settings, [documents], skip_errors)
        return
    fixed = fixed_tagset(settings, documents)
    chunks = units_by_scope(fixed, documents, skip_errors)
    outcomes = executor.run(fixed, ([documents[i] for i in chunk] for chunk in chunks), skip_errors)
    by_index = dict(zip((i for chunk in chunks for i in chunk), outcomes))
    for index in range(len(documents)):
        yield by_index[index]


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


__all__ = ["Dask", "Executor", "InProcess", "LocalProcesses", "KeySource", "Run", "Settings", "load_key", "pseudonymise", "read_documents", "write_output", "config_from", "InputError"]
