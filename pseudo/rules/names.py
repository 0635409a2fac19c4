"""Names: gender-aware surrogates drawn from the most common census names of the locale.

Gender comes, in this order, from a kinship word or title right before the person ("bror
Madeleine", "la Dra."), from the census lists (a name in both lists takes the gender where it
is relatively more frequent; a balanced one is gender-neutral), from the closest spelling in
the lists (a spell-checked fallback), and otherwise is taken as neutral. Every part of a double
name is replaced with the same gender, each word by one word; particles stay, and a surname after
them comes from the surnames the census lists after the same particles ("de la Fuente" -> "de la
Torre"). Genitives and casing are carried over, and a name written without the accents of its
listed spelling gets a surrogate without accents. The consistency key is the base form without
case or accents, so "Anna" and "Annas", "García" and "Garcia" share one surrogate.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import regex

from pseudo.casing import match_case
from pseudo.labels import NAME_LABELS
from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack, remembered
from pseudo.lists.weighted import ACCENTS, WeightedList, loose
from pseudo.rules.base import Context, Option, Rule, Surrogate, Target, normalise

_TOKEN = regex.compile(r"\p{L}[\p{L}\p{M}]*(?:['’]\p{L}[\p{L}\p{M}]*)*['’]?")
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
            found = _where(self.last, lambda item: item.casefold().startswith(prefix) and " " not in item[len(prefix) :])
            self._after[lead, size] = WeightedList(tuple(i[len(prefix) :] for i in found.items), found.weights).top(size)
        return self._after[lead, size]

    def is_first(self, word: str) -> bool:
        return word in self.female or word in self.male

    def first_share(self, word: str) -> float:
        return max(self.female.share(word), self.male.share(word))


def _where(source: WeightedList, keep: Callable[[str], bool]) -> WeightedList:
    kept = [(item, weight) for item, weight in zip(source.items, source.weights) if keep(item)]
    return WeightedList(tuple(i for i, _ in kept), tuple(w for _, w in kept))


def name_lists(pack: LocalePack, neutral_ratio: float) -> NameLists:
    shared = (pack.settings.get("names") or {}).get("shared_name_ratio")
    return pack.cached(
        f"names:{neutral_ratio}",
        lambda: NameLists(
            pack.weighted("first_names_female"),
            pack.weighted("first_names_male"),
            pack.weighted("last_names"),
            neutral_ratio,
            None if shared is None else float(shared),
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


def title_words(pack: LocalePack) -> frozenset[str]:
    def make() -> frozenset[str]:
        if not pack.has("titles"):
            return frozenset()
        return frozenset(t["word"].casefold().rstrip(".") for t in pack.vocabulary("titles").get("titles", []))

    return pack.cached("title-words", make)


@dataclass
class Person:
    """Adjacent name spans (a first name next to a last name) read as one person."""

    targets: list[Target]
    cue: str | None


def _people(ctx: Context) -> dict[int, Person]:
    """Every name span of the document by start offset, grouped into people, computed once."""
    if "people" in ctx.cache:
        return ctx.cache["people"]
    pattern = gender_cues(ctx.pack)
    by_start: dict[int, Person] = {}
    current: Person | None = None
    previous_end = -1
    for target in (t for t in ctx.targets if t.label in NAME_LABELS):
        span = target.span
        if current is not None and ctx.document.text[previous_end : span.start].strip(" \t-") == "":
            current.targets.append(target)
        else:
            current = Person([target], cue_gender(pattern, ctx.text_before(span, 40)))
        by_start[span.start] = current
        previous_end = span.end
    _spread_cues(ctx, by_start)
    ctx.cache["people"] = by_start
    return by_start


def _spread_cues(ctx: Context, by_start: dict[int, Person]) -> None:
    """A name without a cue takes the one gender its cued mentions agree on ("Bror Madeleine ...
    Madeleine ringde"), so one person keeps one surrogate."""
    people = list({id(person): person for person in by_start.values()}.values())  # a run of N names is one person N times
    cued: dict[str, set[str]] = {}
    for person in people:
        if person.cue:
            for target in person.targets:
                cued.setdefault(target.text.casefold(), set()).add(person.cue)
    for person in people:
        if person.cue is None:
            genders = set().union(*(cued.get(t.text.casefold(), set()) for t in person.targets))
            if len(genders) == 1:
                person.cue = genders.pop()


class NameRule(Rule):
    name = "names"
    labels = NAME_LABELS
    needs = ("first_names_female", "first_names_male", "last_names")
    options = {
        "pool": Option(100, "first names are drawn from the N most common of the required gender", int, minimum=2),
        "surname_pool": Option(100, "surnames are drawn from the N most common", int, minimum=2),
        "neutral_ratio": Option(
            3.0, "a name whose share in one list is within this factor of the other is gender-neutral", (int, float), minimum=1
        ),
        "fuzzy_cutoff": Option(85, "minimum similarity (0-100) for the spell-checked fallback", (int, float), minimum=0),
    }

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        lists = name_lists(ctx.pack, float(ctx.options["neutral_ratio"]))
        person = _people(ctx).get(target.span.start) or Person([target], None)
        classes = _classify(target, lists, title_words(ctx.pack), particles(ctx.pack))
        gender, fallback = self._gender(person, ctx, lists)
        morphology = ctx.pack.morphology
        split = getattr(morphology, "split_inflection", None)
        inflect = getattr(morphology, "inflect", None)

        pieces: list[str] = []
        cursor = 0
        changed = False
        lead: list[str] = []  # the particles right before a word ("de la")
        for match, kind in zip(_TOKEN.finditer(target.text), classes):
            pieces.append(target.text[cursor : match.start()])
            word = match.group()
            cursor = match.end()
            if kind in ("title", "particle"):
                pieces.append(word)
                lead = lead + [word.casefold()] if kind == "particle" else []
                continue
            base, marker = split(word, lists.weight) if split else (word, "")
            if kind == "initial":
                new = self._initial(base, target, ctx, lists, gender, alone=not {"first", "last"} & set(classes))
            else:
                family = "last" if kind == "last" else gender
                size = ctx.options["surname_pool"] if kind == "last" else ctx.options["pool"]
                pool = lists.pool(family, size)
                if kind == "last" and lead and len(lists.after_particles(" ".join(lead), size)) >= 2:
                    pool = lists.after_particles(" ".join(lead), size)
                new = ctx.consistent(f"name:{family}", normalise(base), pool.draw)
                if written_without_accents(base, lists):
                    new = strip_accents(new)
            lead = []
            new = inflect(new, marker) if inflect and marker else new + marker
            pieces.append(match_case(word, new))
            changed = True
        pieces.append(target.text[cursor:])
        if not changed:
            surname = ctx.consistent("name:last", normalise(target.text), lists.pool("last", ctx.options["surname_pool"]).draw)
            return Surrogate(surname, fallback="no name token in span")
        return Surrogate("".join(pieces), fallback=fallback)

    def _gender(self, person: Person, ctx: Context, lists: NameLists) -> tuple[str, str | None]:
        if person.cue:
            return person.cue, None
        titles, known_particles = title_words(ctx.pack), particles(ctx.pack)
        has_first = False
        for member in person.targets:
            for match, kind in zip(_TOKEN.finditer(member.text), _classify(member, lists, titles, known_particles)):
                if kind != "first":
                    continue
                has_first = True
                word = match.group().rstrip("'’")
                split = getattr(ctx.pack.morphology, "split_inflection", None)
                found = lists.gender(split(word, lists.weight)[0] if split else word)
                if found:
                    return found, None
                near = closest(match.group(), {"female": lists.female, "male": lists.male}, float(ctx.options["fuzzy_cutoff"]))
                if near:
                    return lists.gender(near[1]) or near[0], "gender from the closest listed spelling"
        if not has_first:  # surnames only: no first name needs a gender
            return "neutral", None
        return "neutral", "gender unknown: neutral surrogate"

    def _initial(self, letter: str, target: Target, ctx: Context, lists: NameLists, gender: str, alone: bool) -> str:
        """An initial follows the surrogate of the full name it abbreviates elsewhere in the
        document, drawn with that person's gender; alone in its span, it never keeps its letter."""
        wanted = letter.casefold()
        full_names = {
            (match.group(), other.span.start)
            for other in ctx.targets
            if other.label in ("FIRST_NAME", "PERSON") and other.span != target.span
            for match in _TOKEN.finditer(other.text)
            if len(match.group()) > 1 and match.group()[0].casefold() == wanted and lists.is_first(match.group())
        }
        if len({name for name, _ in full_names}) == 1:
            name, start = min(full_names, key=lambda item: item[1])
            person = _people(ctx).get(start) or Person([target], None)
            family = self._gender(person, ctx, lists)[0]
            initial = ctx.consistent(f"name:{family}", normalise(name), lists.pool(family, ctx.options["pool"]).draw)[0]
            if not alone or initial.casefold() != wanted:
                return initial
        pool = lists.pool(gender, ctx.options["pool"])
        return ctx.consistent("name:initial", wanted, lambda stream: pool.draw(stream)[0])


def written_without_accents(word: str, lists: NameLists) -> bool:
    """'Garcia' for García: the writer left accents out, so the surrogate leaves them out too."""
    for source in (lists.last, lists.female, lists.male):
        spelled = source.canonical(word)
        if spelled is not None:
            return spelled.casefold() != word.casefold() and loose(spelled) == loose(word)
    return False


def strip_accents(text: str) -> str:
    """Without the accents `loose` forgives, case and other letters (ñ, ü) kept."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in ACCENTS))


def particles(pack: LocalePack) -> frozenset[str]:
    """Words kept inside names ("de la", "von"): closed-class, from the pack's settings."""
    return pack.cached(
        "name-particles", lambda: frozenset(p.casefold() for p in (pack.settings.get("names") or {}).get("particles", ()))
    )


def _classify(target: Target, lists: NameLists, titles: frozenset[str], known_particles: frozenset[str]) -> tuple[str, ...]:
    """title, particle, initial, first or last, for each word of a name span; a spelling and
    label read once per pack (titles and particles are the pack's too)."""
    key = (target.text, target.label)
    return remembered(lists.classified, key, lambda: tuple(_classify_words(target, lists, titles, known_particles)))


def _classify_words(target: Target, lists: NameLists, titles: frozenset[str], known_particles: frozenset[str]) -> list[str]:
    words = [m.group() for m in _TOKEN.finditer(target.text)]
    classes: list[str] = []
    comma = target.text.find(",")
    for index, word in enumerate(words):
        folded = word.casefold()
        if not classes or all(c == "title" for c in classes):
            if folded.rstrip(".") in titles:
                classes.append("title")
                continue
        if folded in known_particles and index < len(words) - 1:  # "de la Fuente", "von Essen"
            classes.append("particle")
        elif len(word) == 1:
            classes.append("initial")
        elif target.label == "FIRST_NAME":
            classes.append("first")
        elif target.label == "LAST_NAME":
            classes.append("last")
        else:
            classes.append(_person_word_class(word, index, words, classes, comma, target.text, lists))
    return classes


def _person_word_class(
    word: str, index: int, words: list[str], classes: list[str], comma: int, text: str, lists: NameLists
) -> str:
    """Within a full name: 'Apellidos, Nombre' order after a comma, else lists and position decide."""
    if comma >= 0:
        position = _nth_word_start(text, index)
        return "first" if position > comma else "last"
    first, last = lists.first_share(word), lists.last.share(word)
    if index == 0 and len(words) > 1:
        return "last" if last > 10 * first else "first"
    if index == len(words) - 1:  # last word: a surname, unless only first names came before ("Carmen Inés")
        only_first = all(c == "first" for c in classes if c in ("first", "last"))
        return "first" if first > 10 * last and only_first else "last"
    if first or last:
        return "first" if first > last else "last"
    previous = [c for c in classes if c in ("first", "last")]
    return previous[-1] if previous else "first"


def _nth_word_start(text: str, index: int) -> int:
    for number, match in enumerate(_TOKEN.finditer(text)):
        if number == index:
            return match.start()
    return len(text)
