"""Spell-checked lookup: the closest list entry to an unknown spelling, frequency breaking ties."""

from __future__ import annotations

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
        found = process.extract(query, weighted.processed, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=5)
        return tuple((weighted.items[position], score) for _, score, position in found)

    return remembered(weighted.nearest, (query, cutoff), search)
