"""Ages: one keyed shift per scope, children kept, the words around the number kept.

The pack's unit words (settings.ages.units) say whether a number counts years, months, weeks or
days, so "15 meses" is a child's age and kept, and "45 años y 3 meses" moves its years only. Numbers
written in words are read and written by the language module when it can ("sesenta y tres años").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import regex

from pseudo.keyed import KeyedStream
from pseudo.rules.base import Context, Option, Rule, Surrogate, Target

if TYPE_CHECKING:
    from pseudo.scope import ScopeState

_NUMBER = regex.compile(r"\d+")

OPTIONS = {
    "shift": Option(2, "largest shift in years, either way; never 0", int, minimum=1),
    "keep_under": Option(14, "ages under this are kept: a child's age carries too much", int, minimum=0),
    "cap": Option(None, "ages at or above this are written as this number (e.g. 90)", (int, type(None))),
}


def age_shift(scope: "ScopeState", options: Mapping[str, Any]) -> int:
    """The scope's age shift, nonzero, also used to keep birth dates coherent with ages."""

    def draw(stream: KeyedStream) -> int:
        size = options["shift"]
        value = stream.between(-size, size - 1)
        return value if value < 0 else value + 1

    return scope.derived(f"age-shift:{options['shift']}", draw)  # type: ignore[return-value]


def patient_age_shift(ctx: Context, options: Mapping[str, Any]) -> int:
    """The shift the patient's written age actually gets in this document: none for a child
    whose age is kept (or whose ages the config does not replace), less where a threshold or cap
    clamps it, else the scope's shift. Birth dates move back by this, so "born ... aged ..."
    still adds up."""
    ages = [t for t in ctx.targets if t.label == "AGE"]
    if ages and not any(t.span.start in ctx.replaced for t in ages):
        return 0
    for target in [t for t in ages if t.role == "patient"] or ages:
        numbers = _numbers(target.text, ctx)
        if not numbers:
            continue
        if sum(n.value / PER_YEAR[n.unit] for n in numbers) < options["keep_under"]:
            return 0
        years = next((n.value for n in numbers if n.unit == "year"), None)
        if years is not None:
            shifted = AgeRule.shifted(years, age_shift(ctx.scope, options), options["keep_under"], options["cap"])
            return shifted - years
    return age_shift(ctx.scope, options)


PER_YEAR = {"year": 1, "month": 12, "week": 52, "day": 365}
_NEXT_WORD = regex.compile(r"\s*(\p{L}+\.?)")


@dataclass(frozen=True)
class Number:
    start: int
    end: int
    value: int
    in_words: bool
    unit: str = "year"


def _units(ctx: Context) -> Mapping[str, str]:
    """The pack's words for units of age ('años': year, 'meses': month): settings.ages.units."""
    raw = (ctx.pack.settings.get("ages") or {}).get("units", {}) if ctx.pack else {}
    return {str(word).casefold(): unit for word, unit in raw.items() if unit in PER_YEAR}


def _numbers(text: str, ctx: Context) -> list[Number]:
    """Digits and, where the language module reads them, numbers in words; each with its unit.

    A number takes the unit word right after it; one in digits without ('4 y 6 meses') takes the
    next unit found, and otherwise counts in years; one in words without is no age ("una").
    """
    found = [(m.start(), m.end(), int(m.group()), False) for m in _NUMBER.finditer(text)]
    read = getattr(ctx.pack.morphology, "read_numbers", None) if ctx.pack and ctx.pack.morphology else None
    if read is not None:
        found += [(start, end, value, True) for start, end, value in read(text)]
    units = _units(ctx)
    numbers: list[Number] = []
    for start, end, value, in_words in sorted(found):
        word = _NEXT_WORD.match(text, end)
        unit = None
        if word is not None:
            unit = units.get(word.group(1).casefold()) or units.get(word.group(1).rstrip(".").casefold())
        if in_words and not unit:  # "una mujer de 45 años": an article, not an age
            continue
        numbers.append(Number(start, end, value, in_words, unit or ""))
    resolved: list[Number] = []
    for index, number in enumerate(numbers):
        unit = number.unit or next((n.unit for n in numbers[index + 1 :] if n.unit), "year")
        resolved.append(Number(number.start, number.end, number.value, number.in_words, unit))
    return resolved


class AgeRule(Rule):
    name = "ages"
    labels = ("AGE",)
    options = OPTIONS

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        numbers = _numbers(target.text, ctx)
        if not numbers:  # "adolescente", "recién nacido": a stage of life, not an age to shift
            return Surrogate(target.text, kept=True, fallback="age without a number: kept")
        keep_under, cap = ctx.options["keep_under"], ctx.options["cap"]
        years = sum(n.value / PER_YEAR[n.unit] for n in numbers)
        if years < keep_under:
            return Surrogate(target.text, kept=True)
        shift = age_shift(ctx.scope, ctx.options)
        moved = [n for n in numbers if n.unit == "year"] or numbers[:1]
        new_values: dict[int, int] = {}
        for number in moved:
            if number.unit == "year":
                new_values[number.start] = self.shifted(number.value, shift, keep_under, cap)
            else:  # an adult's age in months or days: the same shift, in that unit
                new_values[number.start] = max(1, number.value + shift * PER_YEAR[number.unit])
        if all(new_values[n.start] == n.value for n in moved):
            return Surrogate(target.text, kept=True)
        write = getattr(ctx.pack.morphology, "write_number", None) if ctx.pack and ctx.pack.morphology else None
        out, cursor = [], 0
        for number in moved:
            original = target.text[number.start : number.end]
            value = new_values[number.start]
            if number.in_words and write is not None:
                digits = write(value)
            else:
                digits = str(value).zfill(len(original)) if original.startswith("0") else str(value)
            out += [target.text[cursor : number.start], digits]
            cursor = number.end
        out.append(target.text[cursor:])
        return Surrogate("".join(out))

    @staticmethod
    def shifted(age: int, shift: int, keep_under: int, cap: int | None) -> int:
        if cap is not None and age >= cap:
            return cap
        new = max(keep_under, age + shift)
        if cap is not None:
            new = min(new, cap)
        if new == age:  # clamped back onto itself: move away from the threshold
            new = age + 1 if cap is None or age + 1 <= cap else age - 1
        return new
