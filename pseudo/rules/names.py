"""Names: gender-aware surrogates drawn from the census names of the locale, at their frequency
(the 100 most common alone had read as "generic names typical of surrogate lists").

The rule is thin: the Person service (pseudo.services.person) reads each name in its slot,
decides its gender and draws its surrogate once per scope, so the kinship and e-mail rules that
ask the same service give one person one surrogate everywhere. A span whose every word is a common
word of the language and in no name list ("Mujer" tagged as a name) stays as written, a fallback.
"""

from __future__ import annotations

from pseudo.labels import NAME_LABELS
from pseudo.model import Target
from pseudo.rules.base import Context, Option, Rule, Surrogate


class NameRule(Rule):
    name = "names"
    labels = NAME_LABELS
    needs = ("first_names_female", "first_names_male", "last_names")
    requires = ("person",)
    options = {
        "pool": Option(
            None, "first names are drawn from the N most common of the required gender; none: every listed one, at census frequency", int, minimum=2
        ),
        "surname_pool": Option(None, "surnames are drawn from the N most common; none: every listed one, at census frequency", int, minimum=2),
        "neutral_ratio": Option(
            3.0, "a name whose share in one list is within this factor of the other is gender-neutral", (int, float), minimum=1
        ),
        "fuzzy_cutoff": Option(85, "minimum similarity (0-100) for the spell-checked fallback", (int, float), minimum=0),
    }

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        text, fallback = ctx.services.person.name(target, ctx.document)
        return Surrogate(text, kept=ctx.services.person.common_words_only(target.text), fallback=fallback)  # "Mujer" stays
