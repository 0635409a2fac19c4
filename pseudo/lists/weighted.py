"""Weighted lists with cumulative weights, drawn by bisection (never by repeating items)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from operator import itemgetter
from typing import Iterable, Mapping

from rapidfuzz.utils import default_process

from pseudo.folds import loose, normalise
from pseudo.keyed import KeyedStream

STARTING_KEPT = 1024  # first words whose items a list keeps (see WeightedList.starting)


@dataclass(frozen=True)
class WeightedList:
    """Items in descending weight, as census lists come; weights are counts."""

    items: tuple[str, ...]
    weights: tuple[int, ...]

    @classmethod
    def heaviest_first(cls, weights: Mapping[str, int]) -> "WeightedList":
        """Items by descending weight, ties in name order: two stable sorts rather than a key per item."""
        return cls.heaviest_first_of(sorted(weights.items(), key=itemgetter(0)))

    @classmethod
    def heaviest_first_of(cls, in_name_order: list[tuple[str, int]]) -> "WeightedList":
        """`heaviest_first` of (item, weight) pairs already in name order: one stable sort."""
        ordered = sorted(in_name_order, key=itemgetter(1), reverse=True)
        return cls(tuple(map(itemgetter(0), ordered)), tuple(map(itemgetter(1), ordered)))

    @cached_property
    def cumulative(self) -> tuple[int, ...]:
        if self.weights and min(self.weights) >= 1:  # no weight to raise to 1: summed in C
            return tuple(accumulate(self.weights))
        return tuple(accumulate(max(1, w) for w in self.weights))

    @cached_property
    def normalised(self) -> tuple[str, ...]:
        """The items as scopes compare values (`pseudo.folds.normalise`), worked out once."""
        return tuple(map(normalise, self.items))

    @cached_property
    def _index(self) -> dict[str, int]:
        return _first_positions(map(str.casefold, self.items))

    @cached_property
    def _loose_index(self) -> dict[str, int]:
        return _first_positions(map(loose.__wrapped__, self.items))  # not through loose's cache: the list would fill it

    def _find(self, item: str) -> int | None:
        """Case-blind, then also blind to left-out accents; the exact spelling wins when both exist."""
        position = self._index.get(item.casefold())
        return self._loose_index.get(loose(item)) if position is None else position

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: str) -> bool:
        return self._find(item) is not None

    def weight(self, item: str) -> int:
        position = self._find(item)
        return 0 if position is None else self.weights[position]

    def rank(self, item: str) -> int | None:
        """0-based rank, or None when absent."""
        return self._find(item)

    def canonical(self, item: str) -> str | None:
        """The list's own spelling of an item matched without regard to case or left-out accents."""
        position = self._find(item)
        return None if position is None else self.items[position]

    @cached_property
    def _tops(self) -> dict[int, "WeightedList"]:
        return {}

    @cached_property
    def processed(self) -> tuple[str, ...]:
        """The items as rapidfuzz compares them (lower case, no punctuation), prepared once."""
        return tuple(default_process(item) for item in self.items)

    @cached_property
    def nearest(self) -> dict:
        """Answers of spell-checked lookups in this list (pseudo.lists.fuzzy), kept with it."""
        return {}

    @cached_property
    def _starting(self) -> dict[str, "WeightedList"]:
        return {}

    def starting(self, word: str) -> "WeightedList":
        """The items that start with a word and a space, case-blind ("Hospital ..."), in order; kept
        (up to STARTING_KEPT words, then made anew), as the list is searched once per unit."""
        key = word.casefold() + " "
        found = self._starting.get(key)
        if found is None:
            if len(self._starting) >= STARTING_KEPT:
                self._starting.clear()
            kept = [(item, weight) for item, weight in zip(self.items, self.weights) if item.casefold().startswith(key)]
            found = self._starting[key] = WeightedList(tuple(i for i, _ in kept), tuple(w for _, w in kept))
        return found

    def top(self, n: int) -> "WeightedList":
        """The n heaviest items; kept, so their running totals are summed once."""
        if n >= len(self.items):
            return self
        if n not in self._tops:
            self._tops[n] = WeightedList(self.items[:n], self.weights[:n])
        return self._tops[n]

    def share(self, item: str) -> float:
        """The item's weight as a share of the whole list: compares lists of different sizes."""
        return self.weight(item) / self.cumulative[-1] if self.items else 0.0

    def draw(self, stream: KeyedStream) -> str:
        """An item in proportion to its weight."""
        return self.items[stream.weighted_index(self.cumulative)]

    def uniform(self, stream: KeyedStream) -> str:
        return stream.choice(self.items)


def _first_positions(keys: Iterable[str]) -> dict[str, int]:
    """Each key's first position: built from the end, so that the first occurrence is written last."""
    keys = list(keys)
    return dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
