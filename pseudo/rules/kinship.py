"""Kinship words: kept by default, since they identify nobody and carry the story ("su hija de
seis años"); with `words: swap`, another relative of the same gender, generation and number
("abuela" never becomes "nieta"; "padres" may become "tíos"). Terms are closed-class vocabulary in
the pack's `kinship` list, each with gender, generation, number and, where a language inflects
them, form; a term marked `keep` (a collective such as "family") stays in either mode. A
relative's name written inside the span ("madre Teresa") gets the Person service's surrogate of
that name, so a name never survives for having been tagged as kinship.
"""

from __future__ import annotations

from typing import Any, Mapping

import regex

from pseudo.casing import match_case
from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList
from pseudo.model import Target
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Option, Rule, Surrogate
from pseudo.lists.words import kinship_terms, particles

MATCHED = ("gender", "generation", "number", "form")
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}]*")


def _alternatives(pack: LocalePack, term: dict[str, Any]) -> list[str]:
    """Other words of the same gender, generation, number and form, gathered once per pack."""
    by_signature = pack.cached("kinship-by-signature", lambda: _by_signature(pack))
    word = term["word"].casefold()
    return [w for w in by_signature.get(tuple(term.get(k) for k in MATCHED), ()) if w.casefold() != word]


def _by_signature(pack: LocalePack) -> dict[tuple, list[str]]:
    grouped: dict[tuple, set[str]] = {}
    for t in pack.vocabulary("kinship").get("terms", []):
        if not t.get("keep"):  # a kept word ("familia", "rama") is no surrogate of another
            grouped.setdefault(tuple(t.get(k) for k in MATCHED), set()).add(t["word"])
    return {signature: sorted(words) for signature, words in grouped.items()}


class KinshipRule(Rule):
    name = "kinship"
    labels = ("KINSHIP",)
    needs = ("kinship",)
    requires = ("person", "clock")
    own_casing = True
    options = {
        "words": Option(
            "keep",
            "keep: kinship words stay as written (they identify nobody and carry the story); swap: another "
            "relative of the same gender, generation and number",
            str,
            ("keep", "swap"),
        ),
    }

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED when the value holds a kinship word of the pack ("tío paterno" tagged as a date)."""
        if label not in self.labels or not pack.has("kinship"):
            return NOT_RECOGNISED
        terms = kinship_terms(pack)
        return LISTED if any(word.casefold() in terms for word in _WORD.findall(text)) else NOT_RECOGNISED

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        terms = kinship_terms(ctx.pack)
        pieces, cursor, fallback, changed, kept = [], 0, None, False, False
        after_name = False  # a capitalised word right after a name is more of it ("Garrido Vadía")
        for match in _WORD.finditer(target.text):
            word = match.group()
            term = terms.get(word.casefold())
            new = None
            if term is None and word[:1].isupper():
                new = self._name(word, ctx, surname=after_name)
            elif term is None and len(word) > 2 and word.casefold() not in particles(ctx.pack):
                new = self._name(word, ctx, surname=False, given_only=True)
            after_name = new is not None
            if term is None and new is None:
                spellings = ctx.pack.cached("kinship-spellings", lambda: WeightedList(tuple(terms), (1,) * len(terms)))
                near = closest(word, {"kinship": spellings}, 85)
                term = terms[near[1]] if near else None
                fallback = fallback or (near and "kinship word matched to the closest listed spelling")
            if term is not None and (term.get("keep") or ctx.options["words"] == "keep"):
                kept = True
                continue
            if term is not None:
                options = _alternatives(ctx.pack, term)
                if options:
                    new = ctx.consistent(
                        "kinship", term["word"].casefold(), lambda stream: stream.choice(options), one_to_one=False
                    )
            if new is None:
                continue
            pieces.append(target.text[cursor : match.start()])
            pieces.append(match_case(word, new))
            cursor = match.end()
            changed = True
        pieces.append(target.text[cursor:])
        if not changed:
            if kept:
                return Surrogate(target.text, kept=True)
            text, kept_age, no_number = ctx.services.clock.age_text(target.text, ctx.pack)
            if no_number is None:  # a relative's age tagged as kinship ("62 años"): it moves as ages do
                return Surrogate(text, kept=kept_age, fallback="kinship span without a kinship word: moved as an age")
            return Surrogate(target.text, kept=True, fallback="kinship span without a kinship word or name: kept")
        return Surrogate("".join(pieces), fallback=fallback or None)

    @staticmethod
    def _name(word: str, ctx: Context, surname: bool, given_only: bool = False) -> str | None:
        """The Person service's surrogate for a name written in the span, or None for a word that
        is no name (see PersonService.word); without name lists, no word is read as a name."""
        if not all(ctx.pack.has(n) for n in ("first_names_female", "first_names_male", "last_names")):
            return None
        return ctx.services.person.word(word, surname=surname, document=ctx.document, given_only=given_only)
