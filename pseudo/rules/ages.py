"""Ages: moved by the scope's age shift, children kept, the words around the number kept.

The Clock service decides (keep under `keep_under`, cap at `cap`, else the scope's shift), so a
birth date and a personnummer move with the age. The pack's unit words (settings.ages.units) say
whether a number counts years, months, weeks or days, so "15 meses" is a child's age and kept,
and "45 años y 3 meses" moves its years only. Numbers written in words are read and written by
the language module when it can ("sesenta y tres años").
"""

from __future__ import annotations

from typing import Any, Mapping

import regex

from pseudo.lists.pack import LocalePack
from pseudo.model import Target
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Option, Rule, Surrogate
from pseudo.services.clock import age_numbers, age_units

_WORD = regex.compile(r"\p{L}+\.?")

OPTIONS = {
    "shift": Option(2, "largest shift in years, either way; never 0", int, minimum=1),
    "keep_under": Option(14, "ages under this are kept: a child's age carries too much", int, minimum=0),
    "cap": Option(None, "ages at or above this are written as this number (e.g. 90)", (int, type(None))),
}


class AgeRule(Rule):
    name = "ages"
    labels = ("AGE",)
    options = OPTIONS
    requires = ("clock",)

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED when the value is a number with a unit of age ("39 años" tagged as a date)."""
        units = age_units(pack)
        has_unit = any(word.casefold() in units or word.rstrip(".").casefold() in units for word in _WORD.findall(text))
        return LISTED if label in self.labels and has_unit and age_numbers(text, pack) else NOT_RECOGNISED

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        text, kept, fallback = ctx.services.clock.age_text(target.text, ctx.pack)
        return Surrogate(text, kept=kept, fallback=fallback)
