"""Where the work runs. A unit of work is the documents of whole scopes; an executor turns units
into their outcomes, unit after unit in the order given. Every choice depends only on the key and
a scope's own documents, so every executor gives the same output as one process."""

from __future__ import annotations

import multiprocessing
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from itertools import chain, islice
from typing import Any, Iterable, Iterator, Protocol, Sequence

from pseudo.engine import Engine, Failure, Settings
from pseudo.errors import PseudoError
from pseudo.model import Document, Replacement, Result, Span

Unit = Sequence[Document]  # the documents of one or more whole scopes, in their input order
Outcome = Result | Failure

CHUNK = 64  # documents (whole scopes) per unit when several processes share the work
AHEAD = 4  # units in flight per worker: enough to keep workers busy, few enough to bound memory


class Executor(Protocol):
    def run(self, settings: Settings, units: Iterable[Unit], skip_errors: bool) -> Iterator[Outcome]:
        """Every unit's outcomes, one per document, units in the order given."""


class InProcess:
    """This process, one engine for every unit."""

    def run(self, settings: Settings, units: Iterable[Unit], skip_errors: bool) -> Iterator[Outcome]:
        engine = Engine(settings)
        for unit in units:
            yield from engine.run(unit, skip_errors)


class LocalProcesses:
    """Worker processes of this machine, never more than `jobs` nor than the units of work; a
    bounded window of units is in flight, so a stream of units is never read whole."""

    def __init__(self, jobs: int):
        self.jobs = jobs

    def run(self, settings: Settings, units: Iterable[Unit], skip_errors: bool) -> Iterator[Outcome]:
        units = iter(units)
        first = list(islice(units, self.jobs))
        if len(first) < 2:  # one unit: a pool would only add its start-up
            yield from InProcess().run(settings, first, skip_errors)
            return
        forking = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork") if forking else None
        workers = min(self.jobs, len(first))
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(settings, skip_errors)) as pool:
            yield from _windowed(chain(first, units), lambda unit: pool.submit(_run_unit, unit), AHEAD * workers)


class Dask:
    """The workers of a Dask distributed cluster (`pip install "pseudo[dask]"`): a Client, or the
    address of a scheduler to connect to. Units go to the cluster as tasks, a bounded window at a time."""

    def __init__(self, client: Any):
        self._owned = isinstance(client, str)
        self.client = _dask_client(client) if self._owned else client

    def close(self) -> None:
        """Disconnect, when the connection is this executor's own (made from an address)."""
        if self._owned:
            self.client.close()

    def run(self, settings: Settings, units: Iterable[Unit], skip_errors: bool) -> Iterator[Outcome]:
        [shared] = self.client.scatter([(settings, skip_errors)], broadcast=True, hash=False)
        window = AHEAD * max(1, len(self.client.scheduler_info().get("workers", {})))

        def submit(unit: Unit) -> Any:
            return self.client.submit(_run_on_dask, shared, list(unit), pure=False)

        yield from _windowed(units, submit, window)


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise PseudoError('--dask needs Dask\'s distributed scheduler: pip install "pseudo[dask]"') from None
    try:
        return Client(address, timeout=30)
    except OSError as error:
        raise PseudoError(f"--dask {address}: cannot reach the scheduler ({error})") from None


def _windowed(units: Iterable[Unit], submit: Any, window: int) -> Iterator[Outcome]:
    """Submit units ahead up to the window; each unit's packed outcomes are rebuilt around the
    parent's own documents, in order."""
    pending: deque = deque()
    for unit in units:
        pending.append((unit, submit(unit)))
        if len(pending) >= window:
            yield from _collected(*pending.popleft())
    while pending:
        yield from _collected(*pending.popleft())


def _collected(unit: Unit, future: Any) -> Iterator[Outcome]:
    for document, packed in zip(unit, future.result()):
        yield _unpacked(document, packed)


_WORKER: tuple[Engine, bool] | None = None


def _start(settings: Settings, skip_errors: bool) -> None:
    """A worker's one engine, made when the worker starts: settings cross the boundary once."""
    global _WORKER
    _WORKER = (Engine(settings), skip_errors)


def _run_unit(unit: Unit) -> list[Packed | Failure]:
    engine, skip_errors = _WORKER
    return [_packed(outcome) for outcome in engine.run(unit, skip_errors)]


def _run_on_dask(shared: tuple[Settings, bool], unit: Unit) -> list[Packed | Failure]:
    settings, skip_errors = shared
    return [_packed(outcome) for outcome in Engine(settings).run(unit, skip_errors)]


Packed = tuple[str, tuple[tuple, ...]]  # output text, replacements as plain tuples: they pickle fast


def _packed(outcome: Outcome) -> Packed | Failure:
    """A tagged span goes back as its index in the document (the parent holds the same spans);
    a span added by --propagate as its fields."""
    if isinstance(outcome, Failure):
        return outcome
    tagged = {id(span): index for index, span in enumerate(outcome.source.spans)}
    rows = tuple(
        (tagged.get(id(r.span), (r.span.start, r.span.end, r.span.label, r.span.attrs)), r.new_start, r.new_end,
         r.surrogate, r.label, r.rule, r.strategy, r.scope, r.fallback, r.propagated, r.routed_from, r.kept_as)
        for r in outcome.replacements
    )  # fmt: skip
    return outcome.document.text, rows


def _unpacked(source: Document, packed: Packed | Failure) -> Outcome:
    """The Result a worker made, rebuilt around the parent's own copy of the document."""
    if isinstance(packed, Failure):
        return packed
    text, rows = packed
    replacements = tuple(
        Replacement(source.spans[row[0]] if isinstance(row[0], int) else Span(*row[0]), *row[1:]) for row in rows
    )
    spans = tuple(Span(r.new_start, r.new_end, r.span.label, r.span.attrs) for r in replacements)
    return Result(source, Document(source.id, text, spans, source.meta), replacements)


def fixed_tagset(settings: Settings, documents: Sequence[Document]) -> Settings:
    """Settings naming the tagset the whole input is read with: units see only part of it."""
    return replace(settings, tagset=Engine(settings).tagset_for(documents).name)


def units_by_scope(settings: Settings, documents: Sequence[Document], skip_errors: bool) -> list[list[int]]:
    """The documents' indexes in units of whole scopes (about CHUNK documents each): a process
    sees every document of a scope. A document without a scope id fails here as in one process,
    or goes alone to fail in its unit."""
    engine = Engine(settings)
    groups: dict[object, list[int]] = {}
    for index, document in enumerate(documents):
        try:
            scope: object = engine.scope_id(document)
        except PseudoError:
            if not skip_errors:
                raise
            scope = index
        groups.setdefault(scope, []).append(index)
    chunks: list[list[int]] = [[]]
    for members in groups.values():
        if len(chunks[-1]) >= CHUNK:
            chunks.append([])
        chunks[-1].extend(members)
    return chunks


def pseudonymise_bag(bag: Any, settings: Settings, skip_errors: bool = False) -> Any:
    """A Dask bag of documents pseudonymised on its cluster: a bag of their outcomes (Result or
    Failure), partition by partition, in the bag's order. A partition is a unit of work, so every
    scope's documents must lie in one partition (always so in document scope; in subject scope,
    partition a grouped input at subject boundaries): a first cheap pass over the bag checks it
    and finds the tagset of the whole bag."""
    if settings.config.scope == "corpus":
        raise PseudoError("scope 'corpus' gathers every document first: it cannot be split into partitions")
    seen = bag.map_partitions(_labels_and_scopes, settings).compute()
    labels, scopes = set(), set()
    for partition_labels, partition_scopes in zip(seen[::2], seen[1::2]):
        if scopes & partition_scopes:
            raise PseudoError("a scope's documents lie in two partitions of the bag: keep each subject in one partition")
        labels |= partition_labels
        scopes |= partition_scopes
    fixed = replace(settings, tagset=Engine(settings).tagset_for_labels(labels).name)
    return bag.map_partitions(_run_partition, fixed, skip_errors)


def _labels_and_scopes(documents: Iterable[Document], settings: Settings) -> list[set[str]]:
    engine, labels, scopes = Engine(settings), set(), set()
    for document in documents:
        labels.update(span.label for span in document.spans)
        try:
            scopes.add(engine.scope_id(document))
        except PseudoError:
            pass  # fails in its partition, as in one process
    return [labels, scopes]


def _run_partition(documents: Iterable[Document], settings: Settings, skip_errors: bool) -> list[Outcome]:
    return list(Engine(settings).run(list(documents), skip_errors))
