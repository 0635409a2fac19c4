"""The census name lists of a pack, read for gender, frequency and word class.

Gender comes from the lists (a name in both takes the gender where it is relatively more
frequent; a balanced one is gender-neutral) and from the kinship words and titles of the pack;
the pools hold one-word names of one list gender, most common first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import regex

from pseudo.folds import loose
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList

_CUE_GAP = r"[\s:,]{0,3}$"


@dataclass(frozen=True)
class NameLists:
    female: WeightedList
    male: WeightedList
    last: WeightedList
    neutral_ratio: float
    shared_ratio: float | None = None  # pack setting names.shared_name_ratio

    def gender(self, name: str) -> str | None:
        """The list gender of a name, or None when it is in neither first-name list."""
        f, m = self.female.share(name), self.male.share(name)
        if not (f or m):
            return None
        if min(f, m) > 0 and max(f, m) / min(f, m) <= self.neutral_ratio:
            return "neutral"
        return "female" if f > m else "male"

    @cached_property
    def neutral(self) -> WeightedList:
        """Names about as common for women as for men, most common first."""
        found = []
        for name, count in zip(self.female.items, self.female.weights):
            if self.gender(name) == "neutral":
                found.append((count + self.male.weight(name), name))
        found.sort(key=lambda item: (-item[0], item[1]))
        return WeightedList(tuple(n for _, n in found), tuple(c for c, _ in found))

    def shared(self, name: str) -> bool:
        """Common both as a given name and as a surname (within shared_ratio of each other).

        Such names belong to naming systems whose surnames are given names; drawn beside a
        surname of another system they make an implausible pair, so they stay out of the pools.
        """
        if self.shared_ratio is None:
            return False
        given, family = self.female.weight(name) + self.male.weight(name), self.last.weight(name)
        return min(given, family) > 0 and min(given, family) >= self.shared_ratio * max(given, family)

    @cached_property
    def _pools(self) -> dict[str, WeightedList]:
        """Surrogate pools: one-word names only (a word is replaced by one word); a gendered pool
        holds only names of that list gender, none shared."""

        def keep(source: WeightedList, gender: str | None) -> WeightedList:
            kept = [
                (name, weight)
                for name, weight in zip(source.items, source.weights)
                if " " not in name and (gender is None or self.gender(name) == gender) and not self.shared(name)
            ]
            return WeightedList(tuple(n for n, _ in kept), tuple(w for _, w in kept))

        return {
            "female": keep(self.female, "female"),
            "male": keep(self.male, "male"),
            "neutral": keep(self.neutral, None),
            "last": keep(self.last, None),
        }

    def pool(self, kind: str, size: int) -> WeightedList:
        source = self._pools[kind]
        return source.top(size) if len(source) else self._pools["female"].top(size)

    def weight(self, word: str) -> int:
        """Bearers of a spelling as a first name or a surname (0: in no list)."""
        return self.female.weight(word) + self.male.weight(word) + self.last.weight(word)

    @cached_property
    def _after(self) -> dict[tuple[str, int], WeightedList]:
        return {}

    @cached_property
    def classified(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """Word classes of name spans already read, by text and label (see `_classify`)."""
        return {}

    def after_particles(self, lead: str, size: int) -> WeightedList:
        """Surnames the census lists after these particles ('de la' -> Fuente, Torre, Cruz ...)."""
        if (lead, size) not in self._after:
            prefix = lead + " "
            found = _where(self._spaced, lambda item: item.casefold().startswith(prefix) and " " not in item[len(prefix) :])
            self._after[lead, size] = WeightedList(tuple(i[len(prefix) :] for i in found.items), found.weights).top(size)
        return self._after[lead, size]

    @cached_property
    def _spaced(self) -> WeightedList:
        """The surnames of more than one word, in list order: the only ones that follow particles."""
        return _where(self.last, lambda item: " " in item)

    def is_first(self, word: str) -> bool:
        return word in self.female or word in self.male

    def first_share(self, word: str) -> float:
        return max(self.female.share(word), self.male.share(word))


def _where(source: WeightedList, keep: Callable[[str], bool]) -> WeightedList:
    kept = [(item, weight) for item, weight in zip(source.items, source.weights) if keep(item)]
    return WeightedList(tuple(i for i, _ in kept), tuple(w for _, w in kept))


def name_lists(pack: LocalePack, neutral_ratio: float) -> NameLists:
    shared = pack.settings.names.shared_name_ratio
    return pack.cached(
        f"names:{neutral_ratio}",
        lambda: NameLists(
            pack.weighted("first_names_female"),
            pack.weighted("first_names_male"),
            pack.weighted("last_names"),
            neutral_ratio,
            shared,
        ),
    )


def gender_cues(pack: LocalePack) -> regex.Pattern | None:
    """Kinship words and titles that fix the gender of the name after them, as one pattern."""

    def make() -> regex.Pattern | None:
        phrases: dict[str, str] = {}
        if pack.has("kinship"):
            for term in pack.vocabulary("kinship").get("terms", []):
                if term.get("gender") in ("female", "male"):
                    for word in [term["word"], *term.get("forms", [])]:
                        phrases[word.casefold()] = term["gender"]
        if pack.has("titles"):
            for title in pack.vocabulary("titles").get("titles", []):
                if title.get("gender") in ("female", "male"):
                    phrases[title["word"].casefold()] = title["gender"]
        if not phrases:
            return None
        ordered = sorted(phrases, key=len, reverse=True)
        groups = "|".join(f"(?P<{phrases[p]}{i}>{regex.escape(p)})" for i, p in enumerate(ordered))
        return regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}])(?:{groups}){_CUE_GAP}")

    return pack.cached("gender-cues", make)


def cue_gender(pattern: regex.Pattern | None, before: str) -> str | None:
    if pattern is None:
        return None
    match = pattern.search(before)
    if match is None:
        return None
    return "female" if match.lastgroup.startswith("female") else "male"  # the one named group that matched


def record_sex(pack: LocalePack, sex_values: list[str], text: str) -> tuple[str, str] | None:
    """The patient's sex a record states, and how: ("female"/"male", "field") when every SEX
    value of the record reads as one sex in the pack's `sex` words ("Mujer", "H"); else ("...",
    "text") when its phrases of running text say so ("la paciente"): a sex whose phrases outnumber
    the other's twice, a masculine generic ("el paciente") counting only where nothing says
    female; None where the record does not tell or the pack has no `sex` words."""
    if not pack.has("sex"):
        return None
    words = pack.vocabulary("sex").get("words") or []
    field = {w["word"].casefold(): w["sex"] for w in words if w["in"] == "field"}
    said = {field.get(v.strip().casefold()) for v in sex_values} - {None}
    if len(said) == 1:
        return said.pop(), "field"

    def make() -> regex.Pattern | None:
        phrases = sorted((w for w in words if w["in"] == "text"), key=lambda w: -len(w["word"]))
        if not phrases:
            return None
        groups = "|".join(
            f"(?P<{w['sex']}{'_generic' if w.get('generic') else ''}{i}>{regex.escape(w['word'])})" for i, w in enumerate(phrases)
        )
        return regex.compile(rf"(?i)(?<![\p{{L}}\p{{N}}])(?:{groups})(?![\p{{L}}\p{{N}}])")

    pattern = pack.cached("sex-phrases", make)
    if pattern is None:
        return None
    counts = {"female": 0, "male": 0, "generic": 0}
    for match in pattern.finditer(text):
        group = match.lastgroup.rstrip("0123456789")
        counts["generic" if group.endswith("_generic") else group] += 1
    if counts["female"] > 2 * counts["male"]:
        return "female", "text"
    if counts["female"] == 0 and counts["male"] + counts["generic"] > 0:
        return "male", "text"
    return None


def title_words(pack: LocalePack) -> frozenset[str]:
    def make() -> frozenset[str]:
        if not pack.has("titles"):
            return frozenset()
        return frozenset(t["word"].casefold().rstrip(".") for t in pack.vocabulary("titles").get("titles", []))

    return pack.cached("title-words", make)


def written_without_accents(word: str, lists: NameLists) -> bool:
    """'Garcia' for García: the writer left accents out, so the surrogate leaves them out too."""
    for source in (lists.last, lists.female, lists.male):
        spelled = source.canonical(word)
        if spelled is not None:
            return spelled.casefold() != word.casefold() and loose(spelled) == loose(word)
    return False


def field_slot(pack: LocalePack, before: str) -> str | None:
    """'first' or 'last' when the text right before a name is a field label of the pack that
    holds given names ("Nombre:") or surnames ("Apellidos:"); None otherwise."""

    def make() -> regex.Pattern | None:
        settings = pack.settings.names
        groups = [
            f"(?P<{slot}>{'|'.join(regex.escape(f) for f in sorted(fields, key=len, reverse=True))})"
            for slot, fields in (("first", settings.given_name_fields), ("last", settings.surname_fields))
            if fields
        ]
        if not groups:
            return None
        return regex.compile(rf"(?i)(?<![\p{{L}}])(?:{'|'.join(groups)})\s*:\s*$")

    pattern = pack.cached("name-field-slots", make)
    if pattern is None or ":" not in before:  # every field label ends in a colon
        return None
    match = pattern.search(before)
    return match.lastgroup if match else None
