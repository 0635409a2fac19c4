"""The command line: a thin layer that parses options, calls the API and maps errors to exit codes.

Exit codes: 0 done; 1 bad input, configuration or locale, or an output that cannot be written
(nothing written); 2 bad usage (also an output path naming a file the run reads); 3 done, but
documents were skipped under --on-error skip (they are listed on stderr); 128 + n stopped by
signal n (SIGINT, SIGTERM, SIGHUP), temporary files removed.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Iterable, Iterator, Optional

import typer

from pseudo import __version__
from pseudo.api import SHORT_KEY_BYTES, Dask, Run, config_from, cut_words, index_input, load_key, pseudonymise, read_documents, stream
from pseudo.audit import read_overrides, write_audit
from pseudo.console import EXIT_ERROR, say
from pseudo.engine import Settings
from pseudo.errors import InputError, PseudoError
from pseudo.evaluation.cli import audit, judge_app, tells
from pseudo.io import FORMATS, STDIO, Batch, check_output, spooled_stdin, streams, transaction, write_output
from pseudo.io.streams import BratInput

EXIT_SKIPPED = 3

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    help="Replace tagged sensitive spans with realistic surrogates of the same kind.",
)


class OnError(str, Enum):
    fail = "fail"
    skip = "skip"


FormatName = Enum("FormatName", {name: name for name in ("auto", *FORMATS)}, type=str)


def _fail(error: PseudoError) -> None:
    say(f"pseudo: error: {error}")
    raise typer.Exit(EXIT_ERROR)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pseudo {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """pseudo: gazetteer-driven pseudonymisation of tagged clinical text."""


def _progress(total: int) -> callable:
    def wrap(items: Iterable) -> Iterable:
        if total < 2 or not sys.stderr.isatty():
            yield from items
            return
        with typer.progressbar(items, length=total, label="pseudonymising", file=sys.stderr) as bar:
            yield from bar

    return wrap


@app.command()
def apply(
    input: str = typer.Argument(..., help="Tagged input: a file, a folder (BRAT) or - for stdin."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Output file or folder; stdout when omitted."),
    format: FormatName = typer.Option("auto", "--format", "-f", help="Input format (auto: by extension or content)."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", help="Locale of documents whose meta does not say."),
    tagset: Optional[str] = typer.Option(None, "--tagset", "-t", help="Tagset of the input labels (detected if omitted)."),
    config: Optional[str] = typer.Option(None, "--config", "-c", help="YAML configuration file."),
    key_file: Optional[str] = typer.Option(None, "--key-file", "-k", help="Secret key file (else $PSEUDO_KEY)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Reroll: other surrogates from the same key."),
    audit: Optional[str] = typer.Option(None, "--audit", help="Write original -> surrogate CSV here (re-identifies!)."),
    overrides: Optional[str] = typer.Option(None, "--overrides", help="Reviewed audit CSV: manual_surrogate wins."),
    allow_original_overrides: bool = typer.Option(
        False, "--allow-original-overrides", help="Apply override rows whose manual_surrogate is an original value."
    ),
    propagate: bool = typer.Option(
        True, "--propagate/--no-propagate", help="Also replace untagged repetitions of tagged names, places and e-mail local parts, and move untagged dates by the scope's offset (default)."
    ),
    on_error: OnError = typer.Option(OnError.fail, "--on-error", help="fail: stop, write nothing; skip: list and go on."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, help="Worker processes, at most one per CPU; 0: every CPU (same output as one)."),
    dask: Optional[str] = typer.Option(
        None, "--dask", help="Run on the Dask cluster of this scheduler address instead of --jobs (pip install \"pseudo[dask]\"; same output)."
    ),
    allow_untagged: bool = typer.Option(False, "--allow-untagged", help="Copy an input none of whose documents has a span."),
) -> None:
    """Pseudonymise a tagged corpus: every span gets a surrogate, offsets are updated.

    Streaming: JSON Lines (a file, or stdin) written as JSON Lines (a file, or stdout) and brat folders are read twice, never whole: a first pass checks every document (the errors of a whole read) and notes where each scope's documents are, the second pseudonymises and writes them one by one, so memory does not grow with the number of documents (a subject's documents scattered over the input wait for their turn). The output and the --audit file appear only when the run completes; stdin and stdout pass through an unnamed temporary file. Other formats and scope 'corpus' are read whole. The output is the same either way.
    """
    skip = on_error is OnError.skip
    fmt = format.value
    if input != STDIO and Path(input).is_dir() and not out and (fmt == "auto" or FORMATS[fmt].directory):
        raise typer.BadParameter("a folder input needs --out FOLDER", param_hint="--out")
    read = {"input": input, "--config file": config, "--overrides file": overrides, "--key-file": key_file}
    _refuse_overwriting({"--out": out, "--audit": audit}, read)
    destination = out or STDIO
    try:
        settings_config = config_from(config)
        key = load_key(key_file, seed)
        spool = spooled_stdin(input, fmt, destination) if settings_config.scope != "corpus" else None
        streamed = streams(input, fmt, destination, spool) if settings_config.scope != "corpus" else None
        if streamed:  # a first pass checks and indexes, the second reads, pseudonymises and writes document by document
            index = index_input(streamed[0], Settings(config=settings_config), skip)
            batch, failures = Batch(streamed[0].format, origin=input), []
            if isinstance(streamed[0], BratInput):
                batch.ignored = streamed[0].listing.collection.ignored
            bare, count, cut = index.untagged, index.documents, index.cut
        else:
            batch, failures = read_documents(input, fmt, skip, spool)
            bare, count = [d.id for d in batch.documents if not d.spans], len(batch.documents)
            cut = [where for d in batch.documents for where in cut_words(d)]
        _check_destination(destination, batch)
        untagged = _untagged(bare, count, input, allow_untagged)
        settings = Settings(
            config=settings_config,
            keyring=key.keyring,
            locale=locale,
            tagset=tagset,
            overrides=read_overrides(overrides) if overrides else {},
            propagate=propagate,
        )
        if streamed:
            with transaction(), _executor(dask) as executor:  # the output and its audit file appear together or not at all
                run = stream(*streamed, settings, index, skip, _progress(index.documents), jobs, executor, audit)
                _refuse_original_overrides(run, overrides, allow_original_overrides)
        else:
            with _executor(dask) as executor:
                run = pseudonymise(batch.documents, settings, skip, _progress(len(batch.documents)), jobs, executor)
            _refuse_original_overrides(run, overrides, allow_original_overrides)
        run.summary.failures[:0] = failures
        documents = [r.document for r in run.results]
        nothing = batch.single and not documents
        if not nothing and not streamed:
            with transaction():  # the output and its audit file appear together or not at all
                write_output(documents, destination, batch)
                if audit:
                    write_audit(run.results, audit, settings.overrides)
    except PseudoError as error:
        _fail(error)
    if key.fresh:
        say("pseudo: no key given (--key-file or $PSEUDO_KEY): used a fresh random key; this output cannot be reproduced")
    if key.short:
        say(f"pseudo: warning: the key has fewer than {SHORT_KEY_BYTES} bytes: one who guesses it can undo every surrogate; use a long random key")
    if audit and not nothing:
        say(f"pseudo: warning: {audit} maps surrogates back to originals; it re-identifies, keep it as safe as the input")
    if run.original_overrides:
        lines = ", ".join(map(str, run.original_overrides))
        say(f"pseudo: warning: {len(run.original_overrides)} override row(s) (lines {lines}) put an original value back (--allow-original-overrides)")
    if run.unmatched_overrides:
        lines = ", ".join(map(str, run.unmatched_overrides))
        say(f"pseudo: warning: {len(run.unmatched_overrides)} override row(s) (lines {lines}) matched no span")
    if untagged:
        say(f"pseudo: warning: {len(untagged)} document(s) have no tagged span: {_listed(untagged)}")
    if cut:
        say(f"pseudo: warning: {len(cut)} span(s) stop one or two letters short of their word's end (offsets off by one?): {_listed(cut)}")
    if batch.ignored:
        say(f"pseudo: not copied (not brat text, annotation or configuration): {', '.join(batch.ignored)}")
    for failure in run.summary.failures:
        say(f"pseudo: skipped: {failure.error}")
    if nothing:
        say("pseudo: nothing written: the input's only document was skipped" + (" (no audit file either)" if audit else ""))
    say(f"pseudo: {run.summary.line()}")
    if run.summary.failures:
        raise typer.Exit(EXIT_SKIPPED)


def _refuse_original_overrides(run: Run, overrides: str | None, allowed: bool) -> None:
    if run.original_overrides and not allowed:
        raise InputError(
            f"line(s) {', '.join(map(str, run.original_overrides))}: the manual surrogate is an original value of its "
            "scope; correct it, or pass --allow-original-overrides to apply it anyway",
            overrides,
        )


@contextmanager
def _executor(dask: str | None) -> Iterator[Dask | None]:
    """The Dask cluster's executor when --dask names a scheduler, disconnected at the end; else none (--jobs decides)."""
    if dask is None:
        yield None
        return
    executor = Dask(dask)
    try:
        yield executor
    finally:
        executor.close()


def _refuse_overwriting(outputs: dict[str, str | None], inputs: dict[str, str | None]) -> None:
    """An output that names a file the run reads, or another output, would silently replace it."""
    roles = {"--out": "output", "--audit": "audit file"}
    named = [(option, path) for option, path in outputs.items() if path and path != STDIO]
    for number, (option, path) in enumerate(named):
        others = [*inputs.items(), *((roles[o], p) for o, p in named[:number])]
        for what, other in others:
            if other and other != STDIO and _same_file(path, other):
                raise typer.BadParameter(f"the {roles[option]} cannot be the {what}", param_hint=option)


def _same_file(path: str, other: str) -> bool:
    """The same file also through links (the same inode); a folder input is the folder writer's to check."""
    if os.path.isdir(other):
        return False
    if os.path.exists(path) and os.path.exists(other):
        return os.path.samefile(path, other)
    return os.path.realpath(path) == os.path.realpath(other)


def _untagged(untagged: list[str], documents: int, source: str, allowed: bool) -> list[str]:
    """Ids of the documents without spans, given. When no document has one, the format was likely
    misread (or the .ann files are missing) and the output would be the input: refused unless allowed."""
    if untagged and len(untagged) == documents and not allowed:
        raise InputError(
            f"no document has a tagged span ({len(untagged)} document(s): {_listed(untagged)}); "
            "check --format, or pass --allow-untagged to copy them unchanged",
            source,
        )
    return untagged


def _listed(ids: list[str], shown: int = 10) -> str:
    return ", ".join(ids[:shown]) + (" ..." if len(ids) > shown else "")


def _check_destination(destination: str, batch: Batch) -> None:
    """A bad --out is a usage error, found before the documents are processed."""
    try:
        check_output(destination, batch)
    except PseudoError as error:
        raise typer.BadParameter(str(error), param_hint="--out") from None


@app.command()
def locales() -> None:
    """List the installed locale packs, their lists, sizes and sources."""
    from pseudo.lists.pack import available_packs, load_pack

    packs = available_packs()
    if not packs:
        typer.echo("no locale packs installed")
        return
    for code in packs:
        pack = load_pack(code)
        typer.echo(f"{code}\t{pack.manifest.get('name', code)}\tversion {pack.manifest.get('version', '?')}")
        for name, entry in pack.lists.items():
            typer.echo(f"  {name:<28} {pack.size(name):>8}  {entry.get('source', '?')} ({entry.get('licence', '?')})")


@app.command()
def labels() -> None:
    """List the tagsets, each label's canonical label, and the rule that replaces it."""
    from pseudo.labels import tagsets
    from pseudo.registry import rule_for_label

    for tagset in tagsets().values():
        typer.echo(f"{tagset.name}: {tagset.description}")
        for label, mapping in tagset.labels.items():
            rule = rule_for_label(mapping.label)
            notes = ", ".join(
                f"{k} {v}" for k, v in (("role", mapping.role), ("kind", mapping.kind), ("strategy", mapping.strategy)) if v
            )
            if mapping.may_be:
                notes = ", ".join([*filter(None, [notes]), "may be " + " or ".join(m.label for m in mapping.may_be)])
            typer.echo(f"  {label:<34} -> {mapping.label:<16} rule {rule.name}" + (f" ({notes})" if notes else ""))


app.add_typer(judge_app, name="judge")
app.command()(audit)
app.command()(tells)


STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(BaseException):
    """Raised where the program is when a stopping signal arrives, so that, as for any failure,
    temporary files are removed and staged outputs taken back on the way out."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop_handler(owner: int) -> callable:
    def stop(signum: int, frame: object) -> None:
        if os.getpid() != owner:  # a forked --jobs worker: it holds no output, it just ends
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        for stopping in STOPPING_SIGNALS:  # a second signal must not cut the clean-up short
            signal.signal(stopping, signal.SIG_IGN)
        raise Stopped(signum)

    return stop


def main() -> None:
    """Unexpected exceptions are reported by type and place only: their text may carry span text.
    SIGINT, SIGTERM and SIGHUP end the run cleanly, with the shell's exit status 128 + signal."""
    for stopping in STOPPING_SIGNALS:
        if signal.getsignal(stopping) is not signal.SIG_IGN:  # nohup's SIGHUP stays ignored
            signal.signal(stopping, _stop_handler(os.getpid()))
    try:
        app()
    except Stopped as stopped:
        say(f"pseudo: stopped by {signal.Signals(stopped.signum).name}; its temporary files are removed")
        sys.exit(128 + stopped.signum)
    except Exception as error:  # noqa: BLE001 - last line of defence for privacy
        if os.environ.get("PSEUDO_DEBUG"):
            raise
        frame = traceback.extract_tb(error.__traceback__)[-1]
        say(
            f"pseudo: internal error {type(error).__name__} at {Path(frame.filename).name}:{frame.lineno} "
            "(message withheld: it may contain document text; set PSEUDO_DEBUG=1 to see it)"
        )
        sys.exit(EXIT_ERROR)


if __name__ == "__main__":
    main()
