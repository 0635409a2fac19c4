"""Spell-checked lookup: the closest list entry to an unknown spelling, frequency breaking ties."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from rapidfuzz import fuzz, process, utils

from pseudo.lists.pack import remembered
from pseudo.lists.weighted import WeightedList


def closest(value: str, lists: dict[str, WeightedList], cutoff: float = 85.0) -> tuple[str, str] | None:
    """(list name, entry) of the best match across several lists, or None below the cutoff.

    Scores are Levenshtein ratios on case-folded text; among equal scores the entry with the
    larger share of its list wins, so a common name beats a rare near-twin.
    """
    best: tuple[float, float, str, str] | None = None
    query = utils.default_process(value)
    if not query:
        return None
    for name, weighted in lists.items():
        for entry, score in _nearest(weighted, query, cutoff):
            ranking = (score, weighted.share(entry), name, entry)
            if best is None or ranking[:2] > best[:2]:
                best = ranking
    return None if best is None else (best[2], best[3])


def _nearest(weighted: WeightedList, query: str, cutoff: float) -> tuple[tuple[str, float], ...]:
    """The five best entries of one list at or above the cutoff, remembered per list."""

    def search() -> tuple[tuple[str, float], ...]:
        positions, choices = _within_reach(weighted, len(query), cutoff)
        found = process.extract(query, choices, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=5)
        return tuple((weighted.items[positions[index]], score) for _, score, index in found)

    return remembered(weighted.nearest, (query, cutoff), search)


def _within_reach(weighted: WeightedList, length: int, cutoff: float) -> tuple[tuple[int, ...], list[str]]:
    """The positions and prepared entries, in list order, whose length lets them reach the cutoff
    against a query of `length` characters: a ratio is at most 200 * shorter / (sum of lengths),
    so the others are never compared (a point of margin for rounding). Kept per length."""

    def make() -> tuple[tuple[int, ...], list[str]]:
        lengths, order = _by_length(weighted)
        reach = max(cutoff - 1, 0) / 200  # shortest/longest >= reach / (1 - reach)
        low = length * reach / (1 - reach) if reach < 1 else length
        high = length * (1 - reach) / reach if reach > 0 else float("inf")
        kept = tuple(sorted(order[bisect_left(lengths, low - 1e-9) : bisect_right(lengths, high + 1e-9)]))
        return kept, [weighted.processed[i] for i in kept]

    return remembered(weighted.nearest, ("within reach", length, cutoff), make)


def _by_length(weighted: WeightedList) -> tuple[list[int], list[int]]:
    """The entries' lengths in rising order, and their positions in that order."""

    def make() -> tuple[list[int], list[int]]:
        order = sorted(range(len(weighted.processed)), key=lambda i: len(weighted.processed[i]))
        return [len(weighted.processed[i]) for i in order], order

    return remembered(weighted.nearest, ("by length",), make)
