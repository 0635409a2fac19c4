"""Command line of the evaluation toolkit: `pseudo judge build|score`, `pseudo judge leftovers build|score`,
`pseudo audit`, `pseudo tells [--reader]`.

Exit codes as for `pseudo apply` (0 done, 1 bad input, 2 bad usage), and 4 when the audit fails.
"""

from __future__ import annotations

import json
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional

import typer

from pseudo.api import SHORT_KEY_BYTES, config_from, load_key
from pseudo.console import EXIT_ERROR, say
from pseudo.errors import LocaleError, PseudoError
from pseudo.io.atomic import atomic_writer
from pseudo.lists.pack import LocalePack, load_pack
from pseudo.model import Document

# Each command imports the toolkit modules it uses: every `pseudo apply` loads this file, and
# importing them all up front cost it about a tenth of a second.

EXIT_AUDIT_FAILED = 4

judge_app = typer.Typer(
    no_args_is_help=True,
    help="Blind judgment studies: can readers tell pseudonymised records from real ones?",
)

FORMAT = typer.Option("auto", "--format", "-f", help="Format of both inputs (detected if auto).")
CONFIG = typer.Option(None, "--config", "-c", help="The configuration used to pseudonymise (labels, strategies, scope).")
TAGSET = typer.Option(None, "--tagset", "-t", help="Tagset of the input labels (detected if omitted).")
JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")

leftovers_app = typer.Typer(
    no_args_is_help=True,
    help="The leftover hunt: can readers find original values left untagged among the surrogates?",
)
judge_app.add_typer(leftovers_app, name="leftovers")


@contextmanager
def _reported() -> Iterator[None]:
    """Errors of the library become one line on stderr and exit code 1; they never carry span text."""
    try:
        yield
    except PseudoError as error:
        say(f"pseudo: error: {error}")
        raise typer.Exit(EXIT_ERROR) from None


def _pairing(originals: str, pseudonymised: str, fmt: str):
    from pseudo.evaluation.corpus import pair_documents, read_corpus

    pairing = pair_documents(read_corpus(originals, fmt), read_corpus(pseudonymised, fmt))
    for side, ids in (("originals", pairing.only_original), ("pseudonymised corpus", pairing.only_output)):
        if ids:
            listed = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
            say(f"pseudo: warning: {len(ids)} document(s) only in the {side}: {listed}")
    return pairing


@judge_app.command("build")
def build(
    originals: str = typer.Argument(..., help="The original tagged corpus."),
    pseudonymised: str = typer.Argument(..., help="Its pseudonymised version, with the same document ids."),
    out: Path = typer.Option(..., "--out", "-o", help="Kit folder: judge.html, sheet.csv and key.json go there."),
    n: Optional[int] = typer.Option(None, "--n", help="Records to draw; every paired document when omitted."),
    share_pseudo: float = typer.Option(0.5, "--share-pseudo", min=0.0, max=1.0, help="Chance that a record is shown pseudonymised."),
    window: int = typer.Option(20, "--window", min=1, help="Lines per record at most: the densest run of PHI is shown."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the draw; a random one is chosen and kept in key.json."),
    min_spans: int = typer.Option(1, "--min-spans", min=0, help="Draw only documents with at least this many tagged spans."),
    format: str = FORMAT,
    force: bool = typer.Option(False, "--force", help="Replace an existing kit as a whole (its key, and so its answers, are lost)."),
) -> None:
    """Build a blind judgment kit: a page and a sheet for evaluators, and the key for you."""
    from pseudo.config import Config
    from pseudo.evaluation.corpus import with_dates
    from pseudo.evaluation.kit import check_target, draw_records, kit_id, write_kit

    with _reported():
        check_target(out, force)
        pairing = _pairing(originals, pseudonymised, format)
        if not pairing.pairs:
            raise PseudoError("no document id occurs in both inputs")
        seed = secrets.randbelow(2**32) if seed is None else seed
        records = draw_records(with_dates(pairing.pairs, Config()), n, share_pseudo, window, seed, min_spans)
        write_kit(records, out, seed, share_pseudo, window, force)
    typer.echo(f"kit {kit_id(records)} of {len(records)} record(s) written to {out}/ (judge.html, sheet.csv, key.json; seed {seed})")
    say(f"pseudo: keep {out / 'key.json'} away from the evaluators: it says which records are pseudonymised")


@judge_app.command("score")
def score_command(
    key: str = typer.Argument(..., help="The kit's key.json."),
    answers: List[str] = typer.Argument(..., help="One answer file (CSV or JSON) per evaluator."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write an HTML report with a chart here."),
    json_output: bool = JSON,
) -> None:
    """Score evaluators' answers: precision, recall, accuracy, intervals, tests and agreement."""
    from pseudo.evaluation.report import html_report
    from pseudo.evaluation.scoring import score, text_table

    with _reported():
        result = score(key, answers)
        if report:
            with atomic_writer(report) as handle:
                handle.write(html_report(result))
    for name, figures in result.items():
        if name != "agreement" and figures["problems"]:
            found = ", ".join(f"{len(ids)} {problem}" for problem, ids in figures["problems"].items())
            say(f"pseudo: warning: {name}: {found} record(s); see the listing")
    typer.echo(json.dumps(result, ensure_ascii=False, indent=1) if json_output else text_table(result))


@leftovers_app.command("build")
def leftovers_build(
    originals: str = typer.Argument(..., help="The original tagged corpus."),
    out: Path = typer.Option(..., "--out", "-o", help="Kit folder: sheet.txt, brief.md and key.json go there."),
    drop: float = typer.Option(0.1, "--drop", min=0.0, max=1.0, help="Share of each record's identifying tags left out (one at least)."),
    n: int = typer.Option(20, "--n", min=1, help="Records to draw (every document when there are fewer)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the draw; a random one is chosen and kept in key.json."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", help="Locale of documents whose meta does not say."),
    kind_of_text: Optional[str] = typer.Option(None, "--kind-of-text", help="Fills {KIND OF TEXT} in the brief (default: clinical records from the pack's country)."),
    config: Optional[str] = CONFIG,
    tagset: Optional[str] = TAGSET,
    key_file: Optional[str] = typer.Option(None, "--key-file", "-k", help="Secret key file (else $PSEUDO_KEY)."),
    format: str = FORMAT,
    force: bool = typer.Option(False, "--force", help="Replace an existing kit as a whole (its key, and so its guesses, are lost)."),
    propagate: bool = typer.Option(
        True, "--propagate/--no-propagate", help="Pseudonymise as `pseudo apply` does by default, untagged repetitions and dates included (default)."
    ),
) -> None:
    """Build a leftover-hunt kit: drop some tags, pseudonymise as `pseudo apply` does, write the
    records, the brief and the key (the dropped values that still stand)."""
    from pseudo.evaluation import leftovers as leftover
    from pseudo.evaluation.corpus import read_corpus
    from pseudo.evaluation.kit import check_target

    if drop <= 0:
        raise typer.BadParameter("must be above 0", param_hint="--drop")
    with _reported():
        check_target(out, force, leftover.FILES)
        configured = config_from(config)
        key = load_key(key_file)
        documents = read_corpus(originals, format)
        if not documents:
            raise PseudoError("the input holds no document")
        seed = secrets.randbelow(2**32) if seed is None else seed
        records = leftover.build(documents, configured, key.keyring, n, drop, seed, locale, tagset, propagate)
        drawn = {r.document_id for r in records}
        code = leftover.locale_of([d for d in documents if d.id in drawn], configured, locale)
        identity = leftover.write_kit(records, out, seed, drop, code, kind_of_text, force)
    standing, caught = sum(len(r.dropped) for r in records), sum(r.caught for r in records)
    typer.echo(
        f"kit {identity} of {len(records)} record(s), {standing + caught} tag(s) dropped, {caught} of them caught by the defaults, "
        f"{standing} left standing, written to {out}/ (sheet.txt, brief.md, key.json; seed {seed})"
    )
    say(f"pseudo: keep {out / 'key.json'} away from the readers: it holds the dropped original values and re-identifies")
    if key.fresh:
        say("pseudo: no key given (--key-file or $PSEUDO_KEY): used a fresh random key; this kit cannot be reproduced")
    if key.short:
        say(f"pseudo: warning: the key has fewer than {SHORT_KEY_BYTES} bytes: one who guesses it can undo every surrogate; use a long random key")


@leftovers_app.command("score")
def leftovers_score(
    key: str = typer.Argument(..., help="The kit's key.json."),
    guesses: List[str] = typer.Argument(..., help="One guess file per reader: the brief's CSV, or a plain list."),
    json_output: bool = JSON,
) -> None:
    """Score readers' guesses: recall (dropped values found) and precision (guesses that are dropped values)."""
    from pseudo.evaluation import leftovers as leftover

    with _reported():
        result = leftover.score(key, guesses)
    for name, figures in result["readers"].items():
        if figures["unknown_records"] or figures["unreadable_lines"]:
            say(f"pseudo: warning: {name}: guesses naming no record of the kit or lines read as no guess; see the listing")
    typer.echo(json.dumps(result, ensure_ascii=False, indent=1) if json_output else leftover.text_table(result))


def audit(
    originals: str = typer.Argument(..., help="The original tagged corpus."),
    pseudonymised: str = typer.Argument(..., help="Its pseudonymised version, with the same document ids."),
    json_output: bool = JSON,
    min_length: int = typer.Option(3, "--min-length", help="Shorter original values are checked only in their own place."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", help="Locale of documents whose meta does not say (date words, values kept on purpose)."),
    config: Optional[str] = CONFIG,
    tagset: Optional[str] = TAGSET,
    format: str = FORMAT,
) -> None:
    """Check a pseudonymised corpus against its original; exit 4 on any leak. Prints ids and offsets only."""
    from pseudo.evaluation import audit as auditing

    with _reported():
        pairing = _pairing(originals, pseudonymised, format)
        findings = auditing.Audit(config_from(config), tagset, min_length, locale).run(pairing)
    result = auditing.summary(findings, len(pairing.pairs))
    if json_output:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        for finding in findings:
            typer.echo(finding.line())
        counts = ", ".join(f"{kind} {n}" for kind, n in result["counts"].items())
        verdict = "passed" if result["passed"] else "FAILED"
        typer.echo(f"audit {verdict}: {result['documents_paired']} document pair(s); {counts}")
    if not result["passed"]:
        raise typer.Exit(EXIT_AUDIT_FAILED)


def tells(
    pseudonymised: str = typer.Argument(..., help="A tagged corpus: pseudonymised, or original to see false alarms."),
    json_output: bool = JSON,
    locale: Optional[str] = typer.Option(None, "--locale", "-l", help="Locale of documents whose meta does not say."),
    originals: Optional[str] = typer.Option(None, "--originals", help="The originals: enables the unshifted-date check and counts every tell on them too."),
    reader: bool = typer.Option(False, "--reader", help="With --originals: the statistical reader's AUC per label family instead of the counts (needs scikit-learn)."),
    unpaired: bool = typer.Option(False, "--unpaired", help="With --reader: compare the two corpora as wholes, not pairing documents by id."),
    config: Optional[str] = CONFIG,
    tagset: Optional[str] = TAGSET,
    format: str = FORMAT,
) -> None:
    """Count, per document, what gives a pseudonymised record away; or, with --reader, how well a classifier tells surrogates from originals."""
    from pseudo.evaluation import reader as reading
    from pseudo.evaluation import tells as telling
    from pseudo.evaluation.corpus import label_map, read_corpus

    missing: set[str] = set()
    if (reader or unpaired) and not originals:
        raise typer.BadParameter("needs --originals", param_hint="--reader" if reader else "--unpaired")
    if unpaired and not reader:
        raise typer.BadParameter("needs --reader", param_hint="--unpaired")
    with _reported():
        configured = config_from(config)

    def pack_for(document: Document) -> LocalePack | None:
        code = document.meta.get("locale") or locale or configured.locale  # as apply and audit choose
        if not code or code in missing:
            return None
        try:
            return load_pack(str(code))
        except LocaleError as error:
            missing.add(code)
            say(f"pseudo: warning: {error}; list-based checks skipped for its documents")
            return None

    if reader:
        with _reported():
            sk = reading.sklearn_or_exit()
            if unpaired:
                before, after = read_corpus(originals, format), read_corpus(pseudonymised, format)
            else:
                pairs = _pairing(originals, pseudonymised, format).pairs
                before, after = [p.original for p in pairs], [p.output for p in pairs]
            labels = label_map([*before, *after], configured, tagset)
            values = reading.collect(before, labels, pack_for, False), reading.collect(after, labels, pack_for, True)
            result = reading.read(*values, paired=not unpaired, sk=sk)
        typer.echo(json.dumps(result, ensure_ascii=False, indent=1) if json_output else reading.text_table(result))
        return
    with _reported():
        documents = read_corpus(pseudonymised, format)
        by_id = {d.id: d for d in read_corpus(originals, format)} if originals else None
        labels = label_map(documents, configured, tagset)
        result = telling.read_corpus(documents, labels, pack_for, by_id)
    if result["documents_without_original"]:
        say(f"pseudo: warning: {result['documents_without_original']} document(s) have no original: their dates were not compared")
    if result["documents_without_locale"]:
        say(f"pseudo: warning: {result['documents_without_locale']} document(s) without a locale pack: only checks that need no list ran")
    typer.echo(json.dumps(result, ensure_ascii=False, indent=1) if json_output else telling.text_table(result))
