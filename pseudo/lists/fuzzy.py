"""Spell-checked lookup: the closest list entry to an unknown spelling, frequency breaking ties."""

from __future__ import annotations

from rapidfuzz import fuzz, process, utils

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
        for entry, score, position in process.extract(
            query,
            weighted.items,
            scorer=fuzz.ratio,
            processor=utils.default_process,
            score_cutoff=cutoff,
            limit=5,
        ):
            ranking = (score, weighted.share(entry), name, entry)
            if best is None or ranking[:2] > best[:2]:
                best = ranking
    return None if best is None else (best[2], best[3])
