"""The audit file (it re-identifies: written only when asked, mode 0600) and reviewer overrides."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Iterable, Mapping

from pseudo.errors import InputError
from pseudo.io.atomic import atomic_writer
from pseudo.model import Result
from pseudo.rules.base import normalise

COLUMNS = ("document_id", "scope", "start", "end", "new_start", "new_end", "label", "strategy", "original", "surrogate", "manual_surrogate")


def write_audit(results: Iterable[Result], path: str | Path) -> None:
    with atomic_writer(path, mode=0o600, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for result in results:
            for r in result.replacements:
                original = result.source.text[r.span.start : r.span.end]
                writer.writerow(
                    (result.source.id, r.scope, r.span.start, r.span.end, r.new_start, r.new_end, r.label, r.strategy, original, r.surrogate, "")
                )


def read_overrides(path: str | Path) -> Mapping[tuple[str, str, str], str]:
    """(scope, canonical label, normalised original) -> the reviewer's surrogate."""
    try:
        handle = open(path, encoding="utf-8", newline="")
    except OSError as error:
        raise InputError(f"cannot read overrides ({error.strerror})", str(path)) from None
    overrides: dict[tuple[str, str, str], str] = {}
    with handle:
        reader = csv.DictReader(handle)
        missing = {"scope", "label", "original", "manual_surrogate"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"overrides file lacks column(s) {', '.join(sorted(missing))}", str(path))
        for line, row in enumerate(reader, start=2):
            manual = row["manual_surrogate"]
            if not manual:
                continue
            key = (row["scope"], row["label"], normalise(row["original"]))
            if overrides.get(key, manual) != manual:
                raise InputError(f"line {line}: two different manual surrogates for one value in one scope", str(path))
            overrides[key] = manual
    return overrides
