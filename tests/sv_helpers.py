"""Helpers for the Swedish pack tests: the built pack's lists, read once."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

SV = Path(__file__).resolve().parents[1] / "locales" / "sv"


@cache
def rows(file: str) -> tuple[dict[str, str], ...]:
    with open(SV / file, encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


@cache
def names(file: str) -> frozenset[str]:
    return frozenset(r["name"] for r in rows(file))


@cache
def places() -> dict[str, dict[str, str]]:
    return {r["id"]: r for r in rows("locations.tsv")}


def ancestor(place_id: str, kind: str) -> str | None:
    tree = places()
    current = tree.get(place_id)
    while current is not None and current["kind"] != kind:
        current = tree.get(current["parent_id"])
    return current["id"] if current else None


def of_name(name: str, kind: str | None = None) -> list[dict[str, str]]:
    return [p for p in places().values() if p["name"] == name and (kind is None or p["kind"] == kind)]
