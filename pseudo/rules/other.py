"""SEX is kept on purpose (the language gives it away anyway); OTHER is tagged for review by default."""

from __future__ import annotations

from pseudo.model import Target
from pseudo.rules.base import Context, Rule, Surrogate
from pseudo.rules.ids import as_date, is_whole_date, plain_words


class SexRule(Rule):
    name = "sex"
    labels = ("SEX",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        return Surrogate(target.text, kept=True)


class OtherRule(Rule):
    """No list can hold what OTHER means; when a surrogate is asked for, the span is read as what
    it looks like: a date moves as a date, a name becomes a name, digits are redrawn and common
    words stay (pseudo.rules.ids.plain_words), never random letters."""

    name = "other"
    labels = ("OTHER",)
    default_strategy = "tag"
    requires = ("clock",)

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        if not any(c.isalnum() for c in target.text):
            return Surrogate(f"[{target.label}]", fallback="OTHER span without letters or digits")
        if is_whole_date(target, ctx):
            return as_date(target, ctx, "OTHER span that is a date, moved as a date")
        text, reason = plain_words(target, ctx, "other")
        return Surrogate(text, kept=text == target.text, fallback=reason)
