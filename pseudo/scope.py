"""Per-scope memory: the keyed surrogates already drawn, so one value keeps one surrogate."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

import regex

from pseudo.errors import PseudoError
from pseudo.folds import normalise
from pseudo.keyed import KeyedStream, Keyring

MAX_ATTEMPTS = 64  # draws per relaxation step before a surrogate may be shared
LONGEST_VALUE = 8  # words of the longest original value searched for inside a surrogate
RUN_WIDE = "\x00run"  # the stream scope of run-wide draws: no scope id holds a NUL
_TOKEN = regex.compile(r"[\p{L}\p{N}]+")


@lru_cache(maxsize=1 << 16)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(text))


def original_values(text: str) -> set[str]:
    """An original value, normalised, whole and word by word: what no surrogate of its scope may be."""
    return {normalise(text), *words_of(text)}


def nested(original: str, candidate: str) -> bool:
    """One value inside the other as whole words: "Alicante" in "San Juan de Alicante" (or the
    reverse) would leave the original readable in its surrogate."""
    a, b = _tokens(original), _tokens(candidate)
    if not a or not b:
        return False
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


@lru_cache(maxsize=1 << 16)
def words_of(text: str) -> tuple[str, ...]:
    """A value as its folded words: what "holds an original value" compares."""
    return tuple(normalise(token) for token in _TOKEN.findall(text))


def carries(candidate: tuple[str, ...], values: set[tuple[str, ...]], own: tuple[str, ...] = ()) -> bool:
    """Whether a run of a candidate's words is one of the values, unless `own` holds that run
    too. One definition for the engine's draws and the audit's collisions."""
    for size in range(1, min(len(candidate), LONGEST_VALUE) + 1):
        for start in range(len(candidate) - size + 1):
            run = candidate[start : start + size]
            if run in values and not _holds(own, run):
                return True
    return False


def _holds(words: tuple[str, ...], run: tuple[str, ...]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


class ScopeState:
    """A document, a subject or the whole corpus.

    Every choice is derived from the key, the scope id and the value; the memory here only
    remembers those choices and resolves collisions, in a deterministic order.
    """

    def __init__(self, scope_id: str, keyring: Keyring):
        self.id = scope_id
        self.keyring = keyring
        self.originals: set[str] = set()
        self.values: set[tuple[str, ...]] = set()  # every original value as its folded words
        self.notes: list[str] = []  # fallbacks taken for the span being replaced (the engine reads them)
        self.name_words: set[str] = set()  # capitalised words of people's names, never a word of any surrogate
        self._memo: dict[tuple[str, str, str], str] = {}
        self._used: dict[tuple[str, str], set[str]] = {}
        self._tags: dict[str, dict[str, int]] = {}
        self._derived: dict[str, object] = {}
        self._services: dict[str, object] = {}

    def add_originals(self, texts: Iterable[str], closed_class: frozenset[str] = frozenset()) -> None:
        """Remember original values, whole and word by word: no surrogate may equal one, nor hold
        one as a run of its words (closed-class words such as kinship terms and values shorter
        than three characters identify nobody and are left out of that search)."""
        for text in texts:
            self.originals.update(original_values(text))
            words = words_of(text)
            if len(text.strip()) >= 3 and words and not all(w in closed_class for w in words):
                self.values.add(words)

    def keep(self, text: str) -> None:
        """A value a rule left as written on purpose (a kept province, a sex): it shows anyway, so
        another surrogate may hold it ("salud.madrid.org" beside a kept "Madrid")."""
        self.values.discard(words_of(text))
        self.originals.discard(normalise(text))

    def carries_original(self, candidate: str, own: str) -> bool:
        """Whether a candidate holds an original value of the scope as a run of whole words,
        other than one its own original holds too (a unit's type word, a kept particle)."""
        return carries(words_of(candidate), self.values, words_of(own))

    def add_names(self, texts: Iterable[str]) -> None:
        """Remember the capitalised words of people's names ("Miguel", not "de"): a street, a
        hospital or a town drawn later must not carry one, or the name would seem to survive."""
        for text in texts:
            self.name_words.update(normalise(t) for t in _tokens(text) if len(t) > 2 and t[0].isupper())

    def _carries_name(self, candidate: str) -> bool:
        return any(word in self.name_words for word in words_of(candidate))

    def consistent(
        self,
        rule: str,
        family: str,
        key: str,
        draw: Callable[[KeyedStream], str],
        *,
        one_to_one: bool,
        shares_words: bool = False,
        run_wide: bool = False,
    ) -> str:
        memo_key = (rule, family, key)
        stream_scope = RUN_WIDE if run_wide else self.id
        if memo_key in self._memo:
            return self._memo[memo_key]
        used = self._used.setdefault((rule, family), set())
        original = normalise(key)
        chosen = None
        # Relax in steps: first share a surrogate with another value, and only as a last resort
        # take a value that is another original of the scope; never the value's own, whole or
        # (unless the rule keeps some words on purpose, as a unit's type word) as words inside it.
        for attempt in range(3 * MAX_ATTEMPTS):
            candidate = draw(self.keyring.stream(stream_scope, rule, family, key, attempt))
            folded = normalise(candidate)
            if folded == original or (not shares_words and nested(original, folded)):
                continue
            phase = attempt // MAX_ATTEMPTS
            if phase < 2 and (folded in self.originals or self._carries_name(candidate) or self.carries_original(candidate, key)):
                continue
            if phase < 1 and one_to_one and folded in used:
                continue
            if phase == 1 and one_to_one and folded in used:
                self.notes.append(f"{rule}: the pool for {family} is exhausted in this scope: a surrogate is shared")
            elif phase == 2:
                self.notes.append(f"{rule}: the pool for {family} is exhausted in this scope: another original is reused")
            chosen = candidate
            break
        if chosen is None:
            raise PseudoError(f"{rule}: the pool for {family} has no value other than the original")
        used.add(normalise(chosen))
        self._memo[memo_key] = chosen
        return chosen

    def remembered(self, rule: str, family: str, key: str) -> str | None:
        """The surrogate `consistent` chose for a value, None before: a rule need not prepare a
        pool it will not draw from."""
        return self._memo.get((rule, family, key))

    def remember(self, rule: str, family: str, key: str, surrogate: str) -> None:
        """Record a surrogate another value's draw decided ("Hospital Son Dureta" for "Hospital
        Universitario Son Dureta": one unit written two ways), for `remembered` to give back."""
        self._memo.setdefault((rule, family, key), surrogate)

    def is_taken(self, rule: str, family: str, value: str) -> bool:
        """Whether a family has given this surrogate (normalised) already."""
        return normalise(value) in self._used.get((rule, family), ())

    def taken(self, rule: str, family: str) -> frozenset[str]:
        """The (normalised) surrogates a family has given so far: a draw may leave them out."""
        return frozenset(self._used.get((rule, family), ()))

    def tag_index(self, label: str, key: str) -> int:
        """1, 2, 3 ... per distinct value of a label, in order of first appearance in the scope."""
        indexes = self._tags.setdefault(label, {})
        return indexes.setdefault(key, len(indexes) + 1)

    def service(self, name: str, make: Callable[[], object]) -> object:
        """A per-scope service (the person, address or clock of pseudo.services), made on first use."""
        if name not in self._services:
            self._services[name] = make()
        return self._services[name]

    def derived(self, name: str, make: Callable[[KeyedStream], object]) -> object:
        """A scope-wide keyed value such as the date shift: the same for every document of the scope."""
        if name not in self._derived:
            self._derived[name] = make(self.keyring.stream(self.id, "scope", name))
        return self._derived[name]
