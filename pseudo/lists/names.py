"""The census name lists of a pack, read for gender, frequency and word class.

Gender comes from the lists (a name in both takes the gender where it is relatively more
frequent; a balanced one is gender-neutral) and from the kinship words and titles of the pack;
the pools hold one-word names of one list gender, most common first. Where the lists carry the
mean age of each name's bearers (INE's do), a pool can also be the names most common at one age.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Callable, Iterable, Mapping

import regex

from pseudo.folds import loose
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList

_CUE_GAP = r"[\s:,]{0,3}$"
OUTWEIGHS_FIELD = 2  # phrases of running text marking one sex that outweigh a sex field saying the other
OLDEST = 100  # years: the span of ages over which a name's bearers are modelled (NameLists.pool_at)
ADULT_AGE = 18  # years: from this age a person is drawn among the adults' names (NameLists.pool_by_age)


@dataclass(frozen=True)
class NameLists:
    female: WeightedList
    male: WeightedList
    last: WeightedList
    neutral_ratio: float
    shared_ratio: float | None = None  # pack setting names.shared_name_ratio
    age_concentration: float | None = None  # pack setting names.age_concentration
    mean_ages: Callable[[str], Mapping[str, float]] | None = None  # a gender's names -> mean age of their bearers
    neutral_pool: str = "balanced"  # pack setting names.neutral_pool
    feminine_endings: Mapping[str, str] = field(default_factory=dict)  # pack setting names.feminine_surname_endings
    adults: Mapping[str, WeightedList] = field(default_factory=dict)  # gender -> pack setting names.adult_first_names

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
        """The pool of a person whose gender nothing tells (pack setting `names.neutral_pool`): the
        names about as common for women as for men ("balanced"), or every given name at its census
        weight, women's and men's bearers summed ("any": Spain's balanced names are mostly those of
        residents whose names carry no gender, "Jie", "Harpreet", and "Jean-Pierre Dupont" had
        become "Yao-Gica García")."""
        counts: dict[str, int] = {}
        for names in (self.female, self.male):
            for name, count in zip(names.items, names.weights):
                if self.neutral_pool == "any" or self.gender(name) == "neutral":
                    counts[name] = counts.get(name, 0) + count
        return WeightedList.heaviest_first(counts)

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

    def pool_by_age(self, kind: str, size: int, age: float | None) -> WeightedList:
        """The given names a person of that age (None: not told) is drawn from: those of the
        age where the lists carry mean ages (`pool_at`), else the adults' names (pack setting
        `names.adult_first_names`) for a grown-up or a person of no told age, else every name."""
        aged = self.pool_at(kind, size, age) if age is not None else None
        if aged is not None:
            return aged
        adults = self._adult_pools.get(kind)
        if adults is not None and len(adults) and (age is None or age >= ADULT_AGE):
            return adults.top(size)
        return self.pool(kind, size)

    @cached_property
    def _adult_pools(self) -> dict[str, WeightedList]:
        """The adults' names of each gender as the gendered pools keep them: one word, of that list
        gender, not shared with the surnames."""
        return {
            gender: kept_where(names, lambda name, gender=gender: " " not in name and self.gender(name) == gender and not self.shared(name))
            for gender, names in self.adults.items()
        }

    def surnames_for(self, gender: str | None, size: int) -> WeightedList:
        """The surname pool of a person of that gender: a man never draws a women's form of a name
        whose men's form is listed ("Petrova" beside "Petrov"; pack setting
        `names.feminine_surname_endings`)."""
        if gender != "male" or not self.feminine_endings:
            return self.pool("last", size)
        return self._mens_surnames.top(size)

    @cached_property
    def _mens_surnames(self) -> WeightedList:
        surnames = self._pools["last"]
        listed = set(surnames.items)

        def womens(name: str) -> bool:
            return any(name.endswith(end) and name[: -len(end)] + mens in listed for end, mens in self.feminine_endings.items())

        return kept_where(surnames, lambda name: not womens(name))

    @cached_property
    def _aged(self) -> dict[tuple[str, int, int], WeightedList]:
        return {}

    def pool_at(self, kind: str, size: int, age: float) -> WeightedList | None:
        """The `size` given names of a gender most common among people of an age (whole years);
        None where the lists carry no mean age (and for the neutral pool, which mixes two lists).

        A name's weight is its count times the density at that age of its bearers' ages, so
        count x P(age | name), which is proportional to P(name | age). INE publishes only the
        mean age of a name's bearers; their ages are taken to follow a beta distribution over
        0-OLDEST years with that mean and the pack's `age_concentration`, one for all names,
        which tools/build_locales.py derives from the spread of the population's ages. Bounded
        at both ends, it gives a name of mean age 6 no bearers of 30 and one of mean 80 none of
        20, while a name of mean 45 spreads widely, as names borne in many decades do."""
        if self.age_concentration is None or self.mean_ages is None or kind not in ("female", "male"):
            return None
        ages = self.mean_ages(kind)
        if not ages:
            return None
        key = (kind, size, round(age))
        if key not in self._aged:
            at = _age_fraction(key[2])
            log_at, log_rest, exp = math.log(at), math.log(1 - at), math.exp
            terms = self._beta_terms(kind)
            if size >= len(terms):  # every name enters: weighed in name order, so one sort by weight orders the pool
                densities, names = self._terms_by_name(kind)
                at_age = [exp(a_less * log_at + b_less * log_rest + norm) for a_less, b_less, norm in densities]
                weighed = [(n, w) for n, count, mean in names if (w := round(count * at_age[mean]))]
                self._aged[key] = WeightedList.heaviest_first_of(weighed)
            else:
                weights: dict[str, int] = {}
                heaviest: list[int] = []  # the `size` largest weights so far, smallest first
                for name, count, a_less, b_less, norm, most in terms:
                    if len(heaviest) == size and most < heaviest[0]:
                        break  # no name from here on can weigh enough at any age to enter the pool
                    weight = round(count * exp(a_less * log_at + b_less * log_rest + norm))
                    if weight:
                        weights[name] = weight
                        if len(heaviest) < size:
                            heapq.heappush(heaviest, weight)
                        elif weight > heaviest[0]:
                            heapq.heapreplace(heaviest, weight)
                self._aged[key] = WeightedList.heaviest_first(weights).top(size)
        return self._aged[key] or None

    def at_age(self, counted: Iterable[tuple[str, int, float]], age: float) -> dict[str, int] | None:
        """Each (name, bearers, mean age of the bearers) weighed as `pool_at` weighs a name at an
        age (the census pairs "María José", which carry their own mean age); None where the pack
        sets no age concentration."""
        if self.age_concentration is None:
            return None
        at = _age_fraction(round(age))
        log_at, log_rest = math.log(at), math.log(1 - at)
        densities: dict[float, float] = {}  # by mean age: thousands of names share a few hundred
        weights = {}
        for name, count, mean in counted:
            density = densities.get(mean)
            if density is None:
                a_less, b_less, norm = _density_terms(mean, self.age_concentration)
                density = densities[mean] = math.exp(a_less * log_at + b_less * log_rest + norm)
            if weight := round(count * density):
                weights[name] = weight
        return weights

    @cached_property
    def _terms(self) -> dict[str, tuple[tuple[str, int, float, float, float, int], ...]]:
        return {}

    def _beta_terms(self, kind: str) -> tuple[tuple[str, int, float, float, float, int], ...]:
        """Per name of a gender with a mean age: its count, the parts of its beta density that do
        not depend on the age (a - 1, b - 1, the log of the normalising constant), and the most it
        can weigh at any age asked for, heaviest first: `pool_at` stops where no name left can
        enter the pool. Worked out once, since every age reads them."""
        if kind in self._terms:
            return self._terms[kind]
        ages = self.mean_ages(kind)  # type: ignore[misc]
        low, high = 0.5 / OLDEST, 1 - 0.5 / OLDEST  # the ages pool_at reads, as fractions of OLDEST
        terms = []
        for name, count in zip(self._pools[kind].items, self._pools[kind].weights):
            if name in ages:
                a_less, b_less, norm = _density_terms(ages[name], self.age_concentration)  # type: ignore[arg-type]
                mode = a_less / (a_less + b_less) if a_less > 0 and b_less > 0 else low  # the density is unimodal, else monotone
                peak = max(math.exp(a_less * math.log(x) + b_less * math.log(1 - x) + norm) for x in (low, high, min(max(mode, low), high)))
                terms.append((name, count, a_less, b_less, norm, math.ceil(count * peak) + 1))
        terms.sort(key=lambda term: -term[5])
        self._terms[kind] = tuple(terms)
        return self._terms[kind]

    @cached_property
    def _by_name(self) -> dict[str, tuple[tuple[tuple[float, float, float], ...], tuple[tuple[str, int, int], ...]]]:
        return {}

    def _terms_by_name(self, kind: str) -> tuple[tuple[tuple[float, float, float], ...], tuple[tuple[str, int, int], ...]]:
        """`_beta_terms` without the bound, for a pool that takes every name: the density terms of
        each distinct mean age (a few hundred, for thousands of names), and each name in name order
        with its count and the index of its mean age's terms."""
        if kind not in self._by_name:
            terms: dict[tuple[float, float, float], int] = {}
            names = tuple((name, count, terms.setdefault((a_less, b_less, norm), len(terms))) for name, count, a_less, b_less, norm, _ in sorted(self._beta_terms(kind)))
            self._by_name[kind] = (tuple(terms), names)
        return self._by_name[kind]

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
            found = kept_where(self._spaced, lambda item: item.casefold().startswith(prefix) and " " not in item[len(prefix) :])
            self._after[lead, size] = WeightedList(tuple(i[len(prefix) :] for i in found.items), found.weights).top(size)
        return self._after[lead, size]

    @cached_property
    def _spaced(self) -> WeightedList:
        """The surnames of more than one word, in list order: the only ones that follow particles."""
        return kept_where(self.last, lambda item: " " in item)

    def is_first(self, word: str) -> bool:
        return word in self.female or word in self.male

    def first_share(self, word: str) -> float:
        return max(self.female.share(word), self.male.share(word))


def kept_where(source: WeightedList, keep: Callable[[str], bool]) -> WeightedList:
    """The items a test keeps, with their weights, in order."""
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
            pack.settings.names.age_concentration,
            lambda gender: pack.cached(f"mean-ages:{gender}", lambda: _mean_ages(pack, f"first_names_{gender}")),
            pack.settings.names.neutral_pool,
            pack.settings.names.feminine_surname_endings,
            _adult_names(pack),
        ),
    )


def _adult_names(pack: LocalePack) -> dict[str, WeightedList]:
    stem = pack.settings.names.adult_first_names
    return {gender: pack.weighted(f"{stem}_{gender}") for gender in ("female", "male") if stem and pack.has(f"{stem}_{gender}")}


def _age_fraction(years: float) -> float:
    """An age as a fraction of OLDEST, kept inside (0, 1), where the density is finite."""
    return min(max(years, 0.5), OLDEST - 0.5) / OLDEST


@cache
def _density_terms(mean_age: float, concentration: float) -> tuple[float, float, float]:
    """The parts of the beta density of bearers' ages that do not depend on the age: a - 1, b - 1
    and the log of the normalising constant, for a name of that mean age."""
    a, b = _beta_shape(mean_age / OLDEST, concentration)
    return a - 1, b - 1, math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)


def _beta_shape(mean: float, concentration: float) -> tuple[float, float]:
    """The (a, b) of the beta distribution of that mean (in (0, 1)) and concentration."""
    mean = min(max(mean, 0.001), 0.999)
    return mean * concentration, (1 - mean) * concentration


def _mean_ages(pack: LocalePack, name: str) -> dict[str, float]:
    """Name -> mean age of its bearers, from a first-name list's mean_age column ({} without one)."""
    rows = pack.rows(name)
    if not rows or "mean_age" not in rows[0]:
        return {}
    return {row["name"]: float(row["mean_age"]) for row in rows if row["mean_age"]}


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
    value of the record reads as one sex in the pack's `sex` words ("Mujer", "H"), "ambiguous
    field" where each is a value also written for the other sex ("M") and no phrase of the running
    text sides with it (the patient's given name may then say otherwise); where the fields
    disagree, the running text's sex as "text" where it would outweigh a field, as "ambiguous
    field" where one phrase marks it (the given name may say otherwise), None where none does;
    else ("...",
    "text") when its phrases of running text say so ("la paciente"): a sex whose phrases outnumber
    the other's twice, a masculine generic ("el paciente") counting only where nothing says
    female; None where the record does not tell or the pack has no `sex` words.

    Running text outweighs a field it contradicts with phrases that mark a sex (no generic):
    "Sexo: H" beside "la paciente" thirteen times is the header's slip, and a surrogate "Gregorio"
    for a patient who had a caesarean was the clue readers named, where they read the field's
    slip as the writer's."""
    if not pack.has("sex"):
        return None
    words = pack.vocabulary("sex").get("words") or []
    field = {w["word"].casefold(): w for w in words if w["in"] == "field"}
    entries = [entry for v in sex_values if (entry := field.get(v.strip().casefold()))]
    entries = [entry for entry in entries if not entry.get("ambiguous")] or entries  # "M" beside "masculino": the latter says it
    said = {entry["sex"] for entry in entries}
    written = _text_sex(pack, words, text)
    if len(said) == 1:
        stated = said.pop()
        if written is None or written[1] < OUTWEIGHS_FIELD or written[0] == stated:
            sided = written is not None and written[0] == stated
            return stated, "field" if sided or not all(entry.get("ambiguous") for entry in entries) else "ambiguous field"
    if len(said) > 1:  # fields that disagree: phrases that mark a sex decide, a generic "el paciente" nothing;
        if written is None or not written[1]:  # one phrase ("varón de 20 años" of a son) as the names let it
            return None
        return written[0], "text" if written[1] >= OUTWEIGHS_FIELD else "ambiguous field"
    return (written[0], "text") if written else None


def field_sex_of(pack: LocalePack, value: str) -> str | None:
    """The sex a sex field's value says in the pack's `sex` words ("H": male), or None."""
    if not pack.has("sex"):
        return None
    words = {w["word"].casefold(): w["sex"] for w in pack.vocabulary("sex").get("words") or [] if w["in"] == "field"}
    return words.get(value.strip().casefold())


def field_is_ambiguous(pack: LocalePack, value: str) -> bool:
    """Whether a sex field's value is one the pack's `sex` words mark as written for either sex ("M")."""
    if not pack.has("sex"):
        return False
    return any(w["in"] == "field" and w.get("ambiguous") and w["word"].casefold() == value.strip().casefold() for w in pack.vocabulary("sex").get("words") or [])


def field_in_sex(pack: LocalePack, value: str, sex: str) -> str | None:
    """A sex field's value written for `sex`: the value's `opposite` in the pack's `sex` words
    where the value says the other sex ("H" -> "m", to be cased as written); None where it says
    `sex` already, or the words do not tell."""
    if not pack.has("sex"):
        return None
    words = {w["word"].casefold(): w for w in pack.vocabulary("sex").get("words") or [] if w["in"] == "field"}
    entry = words.get(value.strip().casefold())
    if entry is None or entry["sex"] == sex or "opposite" not in entry:
        return None
    return entry["opposite"]


def running_text_sex(pack: LocalePack, text: str) -> tuple[str, int] | None:
    """The sex a record's running text gives its patient and how many phrases mark it (`_text_sex`)."""
    if not pack.has("sex"):
        return None
    return _text_sex(pack, pack.vocabulary("sex").get("words") or [], text)


def _text_sex(pack: LocalePack, words: list[dict], text: str) -> tuple[str, int] | None:
    """The sex a record's running text gives its patient (see `record_sex`), and how many phrases
    mark that sex (a masculine generic marks none); None where it does not tell."""

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
        return "female", counts["female"]
    if counts["female"] == 0 and counts["male"] + counts["generic"] > 0:
        return "male", counts["male"]
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
