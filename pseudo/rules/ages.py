"""Ages: moved by the scope's age shift, children kept, the words around the number kept.

The Clock service decides (keep under `keep_under`, cap at `cap`, else the scope's shift), so a
birth date and a personnummer move with the age. The pack's unit words (settings.ages.units) say
whether a number counts years, months, weeks or days, so "15 meses" is a child's age and kept,
and "45 años y 3 meses" moves its years only. Numbers written in words are read and written by
the language module when it can ("sesenta y tres años").
"""

from __future__ import annotations

from pseudo.casing import match_case
from pseudo.model import Target
from pseudo.rules.base import Context, Option, Rule, Surrogate
from pseudo.services.clock import PER_YEAR, age_numbers, in_years

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

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        numbers = age_numbers(target.text, ctx.pack)
        if not numbers:  # "adolescente", "recién nacido": a stage of life, not an age to shift
            return Surrogate(target.text, kept=True, fallback="age without a number: kept")
        clock = ctx.services.clock
        if clock.keeps(in_years(numbers)):
            return Surrogate(target.text, kept=True)
        moved = [n for n in numbers if n.unit == "year"] or numbers[:1]
        new_values: dict[int, int] = {}
        for number in moved:
            if number.unit == "year":
                new_values[number.start] = clock.shifted_age(number.value)
            else:  # an adult's age in months or days: the same shift, in that unit
                new_values[number.start] = max(1, number.value + clock.age_shift * PER_YEAR[number.unit])
        if all(new_values[n.start] == n.value for n in moved):
            return Surrogate(target.text, kept=True)
        write = getattr(ctx.pack.morphology, "write_number", None) if ctx.pack and ctx.pack.morphology else None
        out, cursor = [], 0
        for number in moved:
            original = target.text[number.start : number.end]
            value = new_values[number.start]
            if number.in_words and write is not None:
                digits = match_case(original, write(value))  # "Seventy-two-year-old" starting a sentence
            else:
                digits = str(value).zfill(len(original)) if original.startswith("0") else str(value)
            out += [target.text[cursor : number.start], digits]
            cursor = number.end
        out.append(target.text[cursor:])
        return Surrogate("".join(out))
