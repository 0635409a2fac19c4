"""Professions: another profession of the same grammatical gender ("enfermera" -> "abogada").

The gender is the listed one of the whole span, else of the first listed word in it ("ex
profesora de instituto"), else of the closest listed spelling; a profession found nowhere takes
the neutral pool. A form of address of the pack's titles tagged as a profession (Presidio's TITLE:
"Dr.", "Mrs.") is kept: it names no one, and the name after it agrees with it.
"""

from __future__ import annotations

from pseudo.lists.fuzzy import closest
from pseudo.lists.names import title_words
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList
from pseudo.model import Target
from pseudo.folds import normalise
from pseudo.rules.base import Context, Rule, Surrogate


def professions(pack: LocalePack) -> tuple[dict[str, str], dict[str, WeightedList]]:
    """name -> gender, and gender -> every profession of that gender."""

    def make() -> tuple[dict[str, str], dict[str, WeightedList]]:
        gender_of: dict[str, str] = {}
        by_gender: dict[str, list[str]] = {}
        for row in pack.rows("professions"):
            gender = row.get("gender") or "neutral"
            gender_of.setdefault(normalise(row["name"]), gender)  # looked up by the same key as a span
            by_gender.setdefault(gender, []).append(row["name"])
        pools = {g: WeightedList(tuple(sorted(set(n))), (1,) * len(set(n))) for g, n in by_gender.items()}
        return gender_of, pools

    return pack.cached("professions", make)


class ProfessionRule(Rule):
    name = "professions"
    labels = ("PROFESSION",)
    needs = ("professions",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if target.text.casefold().rstrip(".") in title_words(ctx.pack):
            return Surrogate(target.text, kept=True)
        gender_of, pools = professions(ctx.pack)
        key = normalise(target.text)
        gender, fallback = gender_of.get(key), None
        if gender is None:
            gender = next((gender_of[w] for w in key.split(" ") if w in gender_of), None)
            fallback = "gender from a word of the span" if gender else None
        if gender is None:
            everything = ctx.pack.cached(
                "profession-names", lambda: WeightedList(tuple(gender_of), (1,) * len(gender_of))
            )
            near = closest(target.text, {"professions": everything}, 85)
            gender = gender_of[near[1]] if near else "neutral"
            fallback = "profession matched to the closest listed spelling" if near else "profession in no list"
        pool = pools.get(gender) or pools.get("neutral") or next(iter(pools.values()))
        return Surrogate(ctx.consistent(f"profession:{gender}", key, pool.uniform), fallback=fallback)
