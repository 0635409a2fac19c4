"""Ages: one keyed shift per scope, children kept, the words around the number kept."""

from __future__ import annotations

from typing import Any, Mapping

import regex

from pseudo.keyed import KeyedStream
from pseudo.rules.base import Context, Option, Rule, Surrogate, Target
from pseudo.scope import ScopeState

_NUMBER = regex.compile(r"\d+")

OPTIONS = {
    "shift": Option(2, "largest shift in years, either way; never 0", int, minimum=1),
    "keep_under": Option(14, "ages under this are kept: a child's age carries too much", int, minimum=0),
    "cap": Option(None, "ages at or above this are written as this number (e.g. 90)", (int, type(None))),
}


def age_shift(scope: ScopeState, options: Mapping[str, Any]) -> int:
    """The scope's age shift, nonzero, also used to keep birth dates coherent with ages."""

    def draw(stream: KeyedStream) -> int:
        size = options["shift"]
        value = stream.between(-size, size - 1)
        return value if value < 0 else value + 1

    return scope.derived(f"age-shift:{options['shift']}", draw)  # type: ignore[return-value]


class AgeRule(Rule):
    name = "ages"
    labels = ("AGE",)
    options = OPTIONS

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        match = _NUMBER.search(target.text)
        if match is None:
            return Surrogate(_shape_surrogate(target.text, ctx), fallback="age without a number")
        age = int(match.group())
        keep_under, cap = ctx.options["keep_under"], ctx.options["cap"]
        if age < keep_under:
            return Surrogate(target.text, kept=True)
        if cap is not None and age >= cap:
            new = cap
        else:
            new = max(keep_under, age + age_shift(ctx.scope, ctx.options))
            if cap is not None:
                new = min(new, cap)
            if new == age:  # clamped back onto itself: move away from the threshold
                new = age + 1 if cap is None or age + 1 <= cap else age - 1
        if new == age:
            return Surrogate(target.text, kept=True)
        digits = str(new).zfill(len(match.group())) if match.group().startswith("0") else str(new)
        return Surrogate(target.text[: match.start()] + digits + target.text[match.end() :])


def _shape_surrogate(text: str, ctx: Context) -> str:
    from pseudo.rules.ids import shape_surrogate

    return shape_surrogate(text, ctx.stream("age-shape", text))
