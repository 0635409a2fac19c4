"""The library API behind the command line."""

from __future__ import annotations

import gc
import hashlib
import os
from array import array
from contextlib import contextmanager
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, Mapping, Sequence

from pseudo.audit import OverrideUse, Overrides, audit_writer
from pseudo.config import Config, load_config
from pseudo.engine import Engine, Failure, OverrideKey, Settings, Summary
from pseudo.errors import ConfigError, InputError, PseudoError
from pseudo.executors import CHUNK, Dask, Executor, InProcess, LocalProcesses, fixed_tagset, pseudonymise_bag, units_by_scope
from pseudo.io import Batch, read_input, transaction, write_output
from pseudo.io.streams import Input, Layout, Output, Place
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


@dataclass
class Index:
    """What one cheap first pass over a streamed input learns, in memory that grows only by 8
    bytes a document (the digest of its id, checked for repeats): never the documents themselves."""

    documents: int = 0
    labels: set[str] = field(default_factory=set)
    failures: list[Failure] = field(default_factory=list)  # documents that could not be read
    untagged: list[str] = field(default_factory=list)  # ids of documents without a span
    cut: list[str] = field(default_factory=list)  # "id start-end" of spans that stop short of their word's end
    scope_error: PseudoError | None = None  # the first document without its scope id
    scattered: dict[str, list[tuple[int, Place]]] | None = None  # scope -> (position, place), when scopes are not contiguous


def cut_words(document: Document) -> list[str]:
    """Where a document's spans stop short of their word's end, as "id start-end" (never the words)."""
    return [f"{document.id} {s.start}-{s.end}" for s in document.cut_words()]


def index_input(source: Input, settings: Settings, skip_errors: bool = False) -> Index:
    """The first pass: every document read and checked as `read_documents` checks it, with the
    same errors; and, when a scope's documents do not follow one another, where each scope's are."""
    engine = Engine(settings)
    index = Index()
    digests = [array("Q") for _ in range(ID_BUCKETS)]
    scopes_seen: set[str] = set()  # subject scope only: a document scope is one document
    last: str | None = None
    contiguous = True
    for _, position, document, _ in _documents(source.scan(), index.failures):
        digest = _digest(document.id)
        digests[digest % ID_BUCKETS].append(digest)
        index.labels.update(span.label for span in document.spans)
        if not document.spans:
            index.untagged.append(document.id)
        index.cut.extend(cut_words(document))
        scope = _scope_of(engine, document, position, index)
        if settings.config.scope == "subject" and scope != last:
            contiguous = contiguous and scope not in scopes_seen
            scopes_seen.add(scope)
        last = scope
        index.documents += 1
    if index.failures and not skip_errors:
        raise index.failures[0].error
    repeated = _first_repeated(source, digests)
    if repeated is not None:
        raise InputError(f"document id {repeated!r} occurs twice", source.origin)
    if not contiguous:  # a second cheap pass notes where each scope's documents are
        index.scattered = {}
        for place, position, document, _ in _documents(source.scan(), []):
            index.scattered.setdefault(_scope_of(engine, document, position, index), []).append((position, place))
    return index


ID_BUCKETS = 256  # the digests are checked a bucket at a time, so the check's own memory stays small


def _digest(document_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(document_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


def _first_repeated(source: Input, digests: list[array]) -> str | None:
    """The first id (in input order) that occurs twice. Ids are kept as 64-bit digests; only when
    a digest repeats does a second pass compare the ids themselves, those of that digest alone."""
    twice: set[int] = set()
    for bucket in digests:
        seen: set[int] = set()
        for digest in bucket:
            if digest in seen:
                twice.add(digest)
            seen.add(digest)
    ids: set[str] = set()
    for _, _, document, _ in _documents(source.scan() if twice else (), []):
        if _digest(document.id) in twice:
            if document.id in ids:
                return document.id
            ids.add(document.id)
    return None


def _documents(items: Iterable[tuple[Place, Document | InputError, Layout]], failures: list[Failure]) -> Iterator[tuple[Place, int, Document, Layout]]:
    """The documents of an input's scan with their places and positions; those that cannot be
    read go to `failures`."""
    position = 0
    for place, item, layout in items:
        if isinstance(item, InputError):
            failures.append(Failure(item.document_id or "?", item))
            continue
        yield place, position, item, layout
        position += 1


def _scope_of(engine: Engine, document: Document, position: int, index: Index) -> str:
    """The engine's scope id; a document without one is noted, and fails alone in its unit as
    it would in one process."""
    try:
        return engine.scope_id(document)
    except PseudoError as error:
        index.scope_error = index.scope_error or error
        return f"unscoped:{position}"


def stream(
    source: Input,
    output: Output,
    settings: Settings,
    index: Index,
    skip_errors: bool = False,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
    jobs: int = 1,
    executor: Executor | None = None,
    audit: str | None = None,
) -> Run:
    """Pseudonymise an input indexed by `index_input` into an output, document by document, and
    its audit file beside it when asked: the same bytes as `pseudonymise` and `write_output`
    (and `write_audit`) give, in memory that does not grow with the corpus (when scopes are
    scattered over the input, with how far apart a scope's documents lie). The outputs appear
    when the run is done, together when inside a `transaction`. The run's summary counts the
    documents and its override lines are filled; its results stay empty, since each is written
    and let go."""
    if settings.config.scope == "corpus":
        raise ConfigError("scope 'corpus' gathers every document first: it cannot be streamed")
    if index.scope_error is not None and not skip_errors:
        raise index.scope_error
    run = Run()
    run.summary.failures.extend(index.failures)
    jobs = min(jobs or available_cpus(), available_cpus())
    executor = executor or (LocalProcesses(jobs) if jobs > 1 else InProcess())
    fixed = replace(settings, tagset=Engine(settings).tagset_for_labels(index.labels).name)
    used = OverrideUse(settings.overrides) if isinstance(settings.overrides, Overrides) else None
    order: deque[int] = deque()
    layouts: dict[str, Layout] = {}  # of the documents read and not yet written
    units = _streamed_units(source, index, fixed, order, layouts)
    with transaction(), _fewer_collections(), output.opened() as write, _audit(audit, settings.overrides) as add:
        for outcome in progress(_in_order(executor.run(fixed, units, skip_errors), order)):
            if isinstance(outcome, Failure):
                layouts.pop(outcome.document_id, None)
                run.summary.failures.append(outcome)
                continue
            run.summary.add(outcome)
            write(outcome.document, layouts.pop(outcome.document.id, None))
            add(outcome)
            if used is not None:
                used.add(outcome)
    if used is not None:
        run.unmatched_overrides, run.original_overrides = used.unmatched(), used.restoring()
    return run


@contextmanager
def _audit(path: str | None, overrides: Mapping[OverrideKey, str]) -> Iterator[Callable[[Result], None]]:
    if path is None:
        yield lambda result: None
        return
    with audit_writer(path, overrides) as add:
        yield add


def _streamed_units(source: Input, index: Index, settings: Settings, order: deque[int], layouts: dict[str, Layout]) -> Iterator[list[Document]]:
    """Units of whole scopes, about CHUNK documents each, their positions noted in `order` and
    their layouts in `layouts` as they go out: in input order when scopes are contiguous, else
    scope by scope, each scope's documents read again where the first pass found them."""
    engine = Engine(settings)
    unit: list[Document] = []
    last: str | None = None
    if index.scattered is None:
        for _, position, document, layout in _documents(source.scan(), []):
            scope = _scope_of(engine, document, position, Index())
            if scope != last and len(unit) >= CHUNK:
                yield unit
                unit = []
            unit.append(document)
            order.append(position)
            if layout is not None:
                layouts[document.id] = layout
            last = scope
    else:
        for members in index.scattered.values():
            if len(unit) >= CHUNK:
                yield unit
                unit = []
            for (position, _), (document, layout) in zip(members, source.at(place for _, place in members)):
                unit.append(document)
                order.append(position)
                if layout is not None:
                    layouts[document.id] = layout
    if unit:
        yield unit


def _in_order(outcomes: Iterable[Result | Failure], order: deque[int]) -> Iterator[Result | Failure]:
    """Outcomes given in unit order put back in input order, held only until their turn."""
    waiting: dict[int, Result | Failure] = {}
    turn = 0
    for outcome in outcomes:
        waiting[order.popleft()] = outcome
        while turn in waiting:
            yield waiting.pop(turn)
            turn += 1


def read_documents(source: str, fmt: str = "auto", skip_errors: bool = False, spool: BinaryIO | None = None) -> tuple[Batch, list[Failure]]:
    """Read an input (stdin from `spool` when it was copied aside); a document that cannot be read
    fails the run, or is listed when skipping. A repeated document id fails the run either way:
    outputs, scopes and audits go by id."""
    batch = read_input(source, fmt, spool)
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


__all__ = ["Dask", "Executor", "InProcess", "LocalProcesses", "pseudonymise_bag", "index_input", "stream", "KeySource", "Run", "Settings", "load_key", "pseudonymise", "read_documents", "write_output", "config_from", "InputError"]
