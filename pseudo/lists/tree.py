"""A location hierarchy (continent > country > region > municipality > locality), from id/parent rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from pseudo.folds import loose


@dataclass(frozen=True, slots=True)
class Place:
    id: str
    parent_id: str | None
    kind: str
    name: str
    extra: Mapping[str, str] = field(default_factory=dict)
    weight: int = field(init=False, repr=False, compare=False)  # the population, at least 1: read once, sorted by often

    def __post_init__(self) -> None:
        try:
            weight = max(1, int(self.extra.get("population") or 1))
        except ValueError:
            weight = 1
        object.__setattr__(self, "weight", weight)


class LocationTree:
    def __init__(self, places: Iterable[Place]):
        self.places: dict[str, Place] = {}
        self.children: dict[str | None, list[Place]] = {}
        self.by_name: dict[str, list[Place]] = {}
        self._by_loose_name: dict[str, list[Place]] = {}
        self._descendants: dict[tuple[str, str], tuple[Place, ...]] = {}
        self._of_kind: dict[str, tuple[Place, ...]] = {}
        for place in places:
            self.places[place.id] = place
            self.children.setdefault(place.parent_id, []).append(place)
            aliases = [a for a in place.extra.get("aliases", "").split("|") if a]  # other names ("Alacant")
            for name in dict.fromkeys([place.name, *aliases]):
                self.by_name.setdefault(name.casefold(), []).append(place)
                self._by_loose_name.setdefault(loose(name), []).append(place)

    def __len__(self) -> int:
        return len(self.places)

    def parent(self, place: Place) -> Place | None:
        return self.places.get(place.parent_id) if place.parent_id else None

    def ancestor(self, place: Place, kind: str) -> Place | None:
        current: Place | None = place
        while current is not None and current.kind != kind:
            current = self.parent(current)
        return current

    def lookup(self, name: str) -> list[Place]:
        """Places of that name or alias, case-blind; accents that were left out are forgiven."""
        return self.by_name.get(name.casefold()) or self._by_loose_name.get(loose(name), [])

    def descendants(self, place: Place, kind: str) -> list[Place]:
        """Every place of a kind under a place, in a stable order (walked once per place and kind)."""
        key = (place.id, kind)
        if key not in self._descendants:
            found: list[Place] = []
            stack = [place]
            while stack:
                current = stack.pop()
                for child in self.children.get(current.id, []):
                    if child.kind == kind:
                        found.append(child)
                    stack.append(child)
            self._descendants[key] = tuple(sorted(found, key=lambda p: p.id))
        return list(self._descendants[key])

    def of_kind(self, kind: str) -> list[Place]:
        """Every place of a kind, by id (gathered once per kind)."""
        if kind not in self._of_kind:
            self._of_kind[kind] = tuple(sorted((p for p in self.places.values() if p.kind == kind), key=lambda p: p.id))
        return list(self._of_kind[kind])
