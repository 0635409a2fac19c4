"""The audit file (it re-identifies: written only when asked, mode 0600) and reviewer overrides."""

from __future__ import annotations

import csv
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from pseudo.engine import OverrideKey
from pseudo.errors import InputError
from pseudo.io.atomic import atomic_writer
from pseudo.labels import CANONICAL_LABELS
from pseudo.model import Replacement, Result
from pseudo.folds import normalise
from pseudo.scope import original_values

COLUMNS = ("document_id", "scope", "start", "end", "new_start", "new_end", "label", "strategy", "original", "surrogate", "manual_surrogate")
SCOPE_KINDS = ("document:", "subject:", "corpus")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula (OWASP)
QUOTE = "'"


def neutralised(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula gets a leading quote, which makes it
    text; so does one that already starts with a quote, so that reading strips exactly one and
    every value comes back as it was."""
    if isinstance(cell, str) and cell.startswith((*FORMULA_STARTS, QUOTE)):
        return QUOTE + cell
    return cell


def restored(cell: str) -> str:
    """The value of a cell `neutralised` wrote: the quote it added is dropped where it stands
    before a formula start or another quote; any other leading quote is the value's own."""
    if cell.startswith(QUOTE) and cell[1:2] and cell[1] in (*FORMULA_STARTS, QUOTE):
        return cell[1:]
    return cell


class Overrides(Mapping[OverrideKey, str]):
    """(scope, canonical label, normalised original) -> the reviewer's surrogate, with the lines of
    the file each came from, so that rows no span used can be named by line, never by text."""

    def __init__(self, surrogates: Mapping[OverrideKey, str] | None = None, lines: Mapping[OverrideKey, list[int]] | None = None):
        self._surrogates = dict(surrogates or {})
        self.lines = dict(lines or {})

    def __getitem__(self, key: OverrideKey) -> str:
        return self._surrogates[key]

    def __iter__(self) -> Iterator[OverrideKey]:
        return iter(self._surrogates)

    def __len__(self) -> int:
        return len(self._surrogates)

    def unmatched(self, results: Iterable[Result]) -> list[int]:
        """Lines of the rows that replaced no span: a label, a scope or an original that differs
        from the run's (a spreadsheet dropping a leading 0 or "+") would otherwise go unnoticed."""
        return OverrideUse(self, results).unmatched()

    def restoring(self, results: Iterable[Result]) -> list[int]:
        """Lines of the applied rows whose manual surrogate is an original value of its scope (its
        own, another, or a word of one), by the rule every drawn surrogate obeys: such a row would
        put an original back into the output."""
        return OverrideUse(self, results).restoring()


class OverrideUse:
    """What a run did with the override rows, gathered result by result so that a streamed run
    need not keep its results: the keys the rows name that replaced a span, and the originals of
    the scopes the rows name (no other scope's)."""

    def __init__(self, overrides: Overrides, results: Iterable[Result] = ()):
        self.overrides = overrides
        self.applied: set[OverrideKey] = set()
        self.originals: dict[str, set[str]] = {key[0]: set() for key in overrides}
        for result in results:
            self.add(result)

    def add(self, result: Result) -> None:
        for r in result.replacements:
            if r.scope in self.originals:
                self.originals[r.scope].update(original_values(result.source.text[r.span.start : r.span.end]))
                if r.strategy == "surrogate":
                    self.applied.add(_key(result, r))

    def unmatched(self) -> list[int]:
        return sorted(line for key, lines in self.overrides.lines.items() if key not in self.applied for line in lines)

    def restoring(self) -> list[int]:
        return sorted(
            line
            for key, lines in self.overrides.lines.items()
            if key in self.applied and normalise(self.overrides[key]) in self.originals[key[0]]
            for line in lines
        )


def _key(result: Result, replacement: Replacement) -> OverrideKey:
    original = result.source.text[replacement.span.start : replacement.span.end]
    return (replacement.scope, replacement.label, normalise(original))


def write_audit(results: Iterable[Result], path: str | Path, overrides: Mapping[OverrideKey, str] | None = None) -> None:
    """One row per span; `manual_surrogate` holds the override that replaced it, so writing the
    audit of a reviewed run again keeps the reviewer's work."""
    with audit_writer(path, overrides) as add:
        for result in results:
            add(result)


@contextmanager
def audit_writer(path: str | Path, overrides: Mapping[OverrideKey, str] | None = None) -> Iterator[Callable[[Result], None]]:
    """The audit file written result by result as `write_audit` writes it, for a streamed run."""
    overrides = overrides or {}
    with atomic_writer(path, mode=0o600, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)

        def add(result: Result) -> None:
            for r in result.replacements:
                original = result.source.text[r.span.start : r.span.end]
                manual = overrides.get(_key(result, r), "") if r.strategy == "surrogate" else ""
                row = (result.source.id, r.scope, r.span.start, r.span.end, r.new_start, r.new_end, r.label, r.strategy, original, r.surrogate, manual)
                writer.writerow(map(neutralised, row))

        yield add


def read_overrides(path: str | Path) -> Overrides:
    """The rows with a manual surrogate, cells read back as `neutralised` wrote them; a row naming
    no canonical label or no scope, or a manual surrogate of several lines, is an error that
    names its line (never its text)."""
    try:
        handle = open(path, encoding="utf-8-sig", newline="")
    except OSError as error:
        raise InputError(f"cannot read overrides ({error.strerror})", str(path)) from None
    surrogates: dict[OverrideKey, str] = {}
    lines: dict[OverrideKey, list[int]] = {}
    try:
        line = 0  # the last row read: the header is 1, then each row's number in a spreadsheet
        with handle:
            reader = csv.DictReader(handle)
            missing = {"scope", "label", "original", "manual_surrogate"} - set(reader.fieldnames or ())
            if missing:
                raise InputError(f"overrides file lacks column(s) {', '.join(sorted(missing))}", str(path))
            line = 1
            for line, cells in enumerate(reader, start=2):
                row = {column: restored(cells[column] or "") for column in ("scope", "label", "original", "manual_surrogate")}
                manual = row["manual_surrogate"]
                if not manual:
                    continue
                if "\n" in manual or "\r" in manual:
                    raise InputError(f"line {line}: the manual surrogate holds a line break; a surrogate is one line", str(path))
                if row["label"] not in CANONICAL_LABELS:
                    raise InputError(f"line {line}: the label is not a canonical label (pseudo labels lists them)", str(path))
                if not row["scope"].startswith(SCOPE_KINDS):
                    raise InputError(f"line {line}: the scope is not a scope id (document:ID, subject:ID or corpus)", str(path))
                key = (row["scope"], row["label"], normalise(row["original"]))
                if surrogates.get(key, manual) != manual:
                    raise InputError(f"line {line}: two different manual surrogates for one value in one scope", str(path))
                surrogates[key] = manual
                lines.setdefault(key, []).append(line)
    except UnicodeDecodeError as error:
        raise InputError(f"not valid UTF-8 (byte {error.start}); save the file as UTF-8 CSV", str(path)) from None
    except csv.Error as error:  # its message names a limit or a quote character, never a cell's text
        limit = f"a cell longer than the CSV field limit ({csv.field_size_limit()} characters)"
        problem = limit if "field limit" in str(error) else f"not readable as CSV ({error})"
        raise InputError(f"line {line + 1}: {problem}", str(path)) from None
    return Overrides(surrogates, lines)
