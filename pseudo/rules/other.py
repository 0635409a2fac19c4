"""SEX is kept on purpose (the language gives it away anyway); OTHER is tagged for review by default."""

from __future__ import annotations

from pseudo.model import Target
from pseudo.folds import normalise
from pseudo.rules.base import Context, Rule, Surrogate
from pseudo.rules.ids import shape_surrogate


class SexRule(Rule):
    name = "sex"
    labels = ("SEX",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        return Surrogate(target.text, kept=True)


class OtherRule(Rule):
    """No list can hold what OTHER means; a same-shape string stands in when asked for."""

    name = "other"
    labels = ("OTHER",)
    default_strategy = "tag"

    def replace(self, target: Target, ctx: Context) -> str:
        return ctx.consistent("other", normalise(target.text), lambda s: shape_surrogate(target.text, s))
