"""Kinship words: another relative of the same gender, generation and number ("abuela" never
becomes "nieta"; "padres" may become "tíos"). Terms are closed-class vocabulary in the pack's
`kinship` list, each with gender, generation, number and, where a language inflects them, form.
"""

from __future__ import annotations

from typing import Any

import regex

from pseudo.casing import match_case
from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList
from pseudo.rules.base import Context, Rule, Surrogate, Target

MATCHED = ("gender", "generation", "number", "form")
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}]*")


def kinship_terms(pack: LocalePack) -> dict[str, dict[str, Any]]:
    """Every spelling (word and listed forms) -> its term."""

    def make() -> dict[str, dict[str, Any]]:
        terms: dict[str, dict[str, Any]] = {}
        for term in pack.vocabulary("kinship").get("terms", []):
            for spelling in [term["word"], *term.get("forms", [])]:
                terms.setdefault(spelling.casefold(), term)
        return terms

    return pack.cached("kinship-terms", make)


def _alternatives(pack: LocalePack, term: dict[str, Any]) -> list[str]:
    signature = tuple(term.get(k) for k in MATCHED)
    return sorted(
        {
            t["word"]
            for t in pack.vocabulary("kinship").get("terms", [])
            if tuple(t.get(k) for k in MATCHED) == signature and t["word"].casefold() != term["word"].casefold()
        }
    )


class KinshipRule(Rule):
    name = "kinship"
    labels = ("KINSHIP",)
    needs = ("kinship",)
    own_casing = True

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        terms = kinship_terms(ctx.pack)
        pieces, cursor, fallback, changed = [], 0, None, False
        for match in _WORD.finditer(target.text):
            word = match.group()
            term = terms.get(word.casefold())
            if term is None:
                spellings = ctx.pack.cached("kinship-spellings", lambda: WeightedList(tuple(terms), (1,) * len(terms)))
                near = closest(word, {"kinship": spellings}, 85)
                term = terms[near[1]] if near else None
                fallback = fallback or (near and "kinship word matched to the closest listed spelling")
            if term is None:
                continue
            options = _alternatives(ctx.pack, term)
            if not options:
                continue
            pieces.append(target.text[cursor : match.start()])
            new = ctx.consistent("kinship", term["word"].casefold(), lambda stream: stream.choice(options), one_to_one=False)
            pieces.append(match_case(word, new))
            cursor = match.end()
            changed = True
        pieces.append(target.text[cursor:])
        if not changed:
            return Surrogate(f"[{target.label}]", fallback="no replaceable kinship word")
        return Surrogate("".join(pieces), fallback=fallback or None)


