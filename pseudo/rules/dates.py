"""Dates: every date of a scope moves by one keyed offset, written back in its own format.

The offset is a nonzero whole number of `unit`s in [min, max], drawn once per scope from the
key, so intervals between dates of a patient survive. The default, whole weeks, also keeps
weekdays and weekends. Parsing and writing live in pseudo.datetext; this module decides how far
each kind of date moves:

- a full date moves by the offset (months and years clamp the day: 31 Jan + 1 month = 29 Feb);
- month + year by the offset in whole months, a year alone by whole years (at least one, same
  direction), so a partial date is never left as it was;
- day + month takes its year from the nearest full date of the document (else a leap year, so
  29/2 stays valid) and moves by the full offset; a bare day ("el día 16") takes its month too;
- an ISO week number moves by the offset in whole weeks (by the calendar for months and years);
  a weekday next to a date is recomputed, a weekday alone moves by the offset in days;
- a birth date (a `birth_cues` word in the 40 characters before it, with no other number in
  between) also moves by minus the scope's age shift in years, so "70 years old, born 1946,
  admitted 2016" stays coherent once the age rule has moved the age;
- when the result would still read as the original, the date moves one more step of its own
  precision (a week, a month or a year) in the same direction.

The pack's `settings.dates` keys are described in pseudo.datetext.DateWords; `birth_cues` is
the list of words that mark a birth date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Mapping

import regex
from dateutil.relativedelta import relativedelta

from pseudo.datetext import (
    LEAP_YEAR,
    DateWords,
    Expression,
    find_dates,
    full_date,
    is_valid,
)
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack
from pseudo.model import Span
from pseudo.rules.ages import OPTIONS as AGE_OPTIONS
from pseudo.rules.ages import patient_age_shift
from pseudo.rules.base import Context, Option, Rule, Surrogate, Target, normalise
from pseudo.rules.ids import shape_surrogate

UNITS = ("days", "weeks", "months", "years")
DAYS_PER_UNIT = {"days": 1.0, "weeks": 7.0, "months": 365.2425 / 12, "years": 365.2425}
MAX_YEARS = 500  # a larger offset could leave the calendar (years 1-9999)
BIRTH_WINDOW = 40  # characters before a date searched for a birth cue
_SINCE_LAST_DIGIT = regex.compile(r"\D*\Z")

OPTIONS = {
    "unit": Option("weeks", "unit of the date offset; whole weeks keep weekdays and weekends", str, UNITS),
    "min": Option(1, "smallest offset, in units (either direction)", int, minimum=1),
    "max": Option(52, "largest offset, in units (either direction)", int, minimum=1),
    "direction": Option("both", "move dates into the past, the future or either", str, ("both", "past", "future")),
    "order": Option(
        None, "DMY, MDY or YMD for ambiguous numeric dates; default: the locale's", (str, type(None)), ("DMY", "MDY", "YMD")
    ),
}


def date_offset(ctx: Context, options: Mapping[str, Any]) -> int:
    """The scope's offset in units: nonzero, in [min, max] either way (or the chosen way)."""
    low, high, direction = options["min"], options["max"], options["direction"]

    def draw(stream: KeyedStream) -> int:
        size = high - low + 1
        pick = stream.below(size * (2 if direction == "both" else 1))
        magnitude = low + pick % size
        forward = direction == "future" or (direction == "both" and pick >= size)
        return magnitude if forward else -magnitude

    name = f"date-shift:{options['unit']}:{low}:{high}:{direction}"
    return ctx.scope.derived(name, draw)  # type: ignore[return-value]


@dataclass(frozen=True)
class Move:
    """How far one expression moves: the offset, minus the age shift for a birth date, and
    `nudge` extra steps of its own precision when the output would equal the input."""

    unit: str
    count: int
    birth_years: int = 0
    nudge: int = 0

    @property
    def sign(self) -> int:
        return 1 if self.count > 0 else -1

    def whole(self, unit: str) -> int:
        """The offset in whole `unit`s, at least one, in the same direction."""
        return round(self.count * DAYS_PER_UNIT[self.unit] / DAYS_PER_UNIT[unit]) or self.sign

    def day(self, day: date) -> date:
        if self.unit in ("days", "weeks"):  # plain arithmetic; relativedelta only where months have lengths
            moved = day + timedelta(**{self.unit: self.count})
        else:
            moved = day + relativedelta(**{self.unit: self.count})
        if self.birth_years or self.nudge:
            moved += relativedelta(years=self.birth_years, weeks=self.nudge * self.sign)
        return moved

    def months(self) -> int:
        return self.whole("months") + 12 * self.birth_years + self.nudge * self.sign

    def years(self) -> int:
        return self.whole("years") + self.birth_years + self.nudge * self.sign

    def monday(self, monday: date) -> date:
        """A week number moves by whole weeks, or by the calendar offset for months and years."""
        if self.unit in ("months", "years"):
            moved = monday + relativedelta(**{self.unit: self.count})
        else:
            moved = monday + timedelta(weeks=self.whole("weeks"))
        return moved + timedelta(weeks=self.nudge * self.sign)

    def weekday(self, weekday: int) -> int:
        """A weekday without a date moves by the offset in days; months and years keep it."""
        days = self.count * int(DAYS_PER_UNIT[self.unit]) if self.unit in ("days", "weeks") else 0
        return (weekday + days) % 7


def shifted(values: Mapping[str, int], move: Move, context: date | None) -> dict[str, int]:
    """New values for one written date; `context` is the nearest full date of the document."""
    if "week" in values:
        return _shift_week(values, move, context)
    if "day" in values:
        return _shift_day(values, move, context)
    if "month" in values:
        year = values.get("year") or (context.year if context else LEAP_YEAR)
        moved = date(year, values["month"], 1) + relativedelta(months=move.months())
        return {"month": moved.month, "year": moved.year}
    if "year" in values:
        return {"year": values["year"] + move.years()}
    return {"weekday": move.weekday(values["weekday"])}


def _anchor(values: Mapping[str, int], context: date | None) -> date:
    """The date a written (possibly partial) date stands for, missing parts from the context."""
    year = values.get("year")
    month = values.get("month")
    if year is None and context is not None:
        guess = {**values, "year": context.year, "month": month or context.month}
        if is_valid(guess):
            return date(guess["year"], guess["month"], guess["day"])
    return date(year or LEAP_YEAR, month or 1, values["day"])


def _shift_day(values: Mapping[str, int], move: Move, context: date | None) -> dict[str, int]:
    old = _anchor(values, context)
    new = move.day(old)
    weekday = new.weekday()
    if "weekday" in values and "year" not in values:  # the year is assumed: keep the written relation
        weekday = (values["weekday"] + (new - old).days) % 7
    return {"day": new.day, "month": new.month, "year": new.year, "weekday": weekday}


def _shift_week(values: Mapping[str, int], move: Move, context: date | None) -> dict[str, int]:
    year = values.get("year") or (context.isocalendar().year if context else LEAP_YEAR)
    if not is_valid({"week": values["week"], "year": year}):
        year = LEAP_YEAR
    new = move.monday(date.fromisocalendar(year, values["week"], 1)).isocalendar()
    return {"week": new.week, "year": new.year}


class DateRule(Rule):
    name = "dates"
    labels = ("DATE",)
    options = OPTIONS
    own_casing = True  # month and weekday names are cased like the original's, word by word

    @staticmethod
    def validate_options(options: Mapping[str, Any]) -> str | None:
        if options["min"] > options["max"]:
            return f"min ({options['min']}) is larger than max ({options['max']})"
        if options["max"] * DAYS_PER_UNIT[options["unit"]] > MAX_YEARS * DAYS_PER_UNIT["years"]:
            return f"max is more than {MAX_YEARS} years"
        return None

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        options = _with_defaults(ctx.options, OPTIONS)
        words = date_words(ctx.pack, options["order"])
        span = target.span
        expressions = _expressions(ctx, words, span)
        if not expressions:
            return _unparsed(target, ctx)
        move = Move(options["unit"], date_offset(ctx, options), _birth_years(target, ctx, expressions[0].start))
        complete = all("year" in part.values for expression in expressions for part in expression.parts)
        context = None if complete else _nearest_full_date(ctx, words, span.start)
        text = target.text
        for expression in reversed(expressions):
            new = _rendered(expression, move, context, ctx.document.text)
            text = text[: expression.start - span.start] + new + text[expression.end - span.start :]
        return Surrogate(text, kept=text == target.text)



def _expressions(ctx: Context, words: DateWords, span: Span) -> list[Expression]:
    """The date expressions of a span, read once per document."""
    parsed = ctx.cache.setdefault("expressions", {})
    if span.start not in parsed:
        parsed[span.start] = find_dates(ctx.document.text, words, span.start, span.end)
    return parsed[span.start]


def _nearest_full_date(ctx: Context, words: DateWords, position: int) -> date | None:
    """Where a partial date finds its year: the nearest full date among the document's tagged
    dates, else among every date written in it."""

    def full(expressions: list[Expression]) -> list[tuple[int, date]]:
        return [(part.start, day) for e in expressions for part in e.parts if (day := full_date(part)) is not None]

    found = [item for t in ctx.targets if t.label == "DATE" for item in full(_expressions(ctx, words, t.span))]
    if not found:
        if "untagged-dates" not in ctx.cache:
            ctx.cache["untagged-dates"] = full(find_dates(ctx.document.text, words))
        found = ctx.cache["untagged-dates"]
    return min(found, key=lambda item: abs(item[0] - position))[1] if found else None


def date_words(pack: LocalePack | None, order: str | None) -> DateWords:
    """The locale's date words; English CLDR names and no words without a pack."""
    if pack is None:
        return DateWords.from_settings("en", {}, order)
    return pack.cached(f"date-words:{order}", lambda: DateWords.from_settings(pack.language, pack.settings.get("dates"), order))


def _rendered(expression: Expression, move: Move, context: date | None, text: str) -> str:
    """The expression moved; moved one more step when it would read as before. A weekday
    alone may stay: whole-week offsets keep it and it identifies nothing by itself."""
    original = text[expression.start : expression.end]
    for nudge in (0, 1):
        step = Move(move.unit, move.count, move.birth_years, nudge)
        new = expression.render([shifted(part.values, step, context) for part in expression.parts])
        if new != original or all(set(part.values) == {"weekday"} for part in expression.parts):
            return new
    raise AssertionError("unreachable: one more step always changes a date")


def _with_defaults(options: Mapping[str, Any], declared: Mapping[str, Option]) -> dict[str, Any]:
    return {**{name: option.default for name, option in declared.items()}, **options}


def moved_birth_date(born: date, ctx: Context) -> date:
    """A birth date written inside another value (a personnummer) moves like a birth date in
    the text: by the scope's date offset, and back by the age shift, so implied ages agree."""
    options = _with_defaults(ctx.all_options.get("dates", {}), OPTIONS)
    age_options = _with_defaults(ctx.all_options.get("ages", {}), AGE_OPTIONS)
    return Move(options["unit"], date_offset(ctx, options), -patient_age_shift(ctx, age_options)).day(born)


def _birth_cue_pattern(pack: LocalePack) -> regex.Pattern | None:
    def make() -> regex.Pattern | None:
        cues = [str(cue) for cue in (pack.settings.get("dates") or {}).get("birth_cues") or ()]
        if not cues:
            return None
        alternatives = "|".join(regex.escape(cue) for cue in sorted(cues, key=len, reverse=True))
        return regex.compile(rf"(?<![\p{{L}}\p{{N}}])(?i:{alternatives})(?![\p{{L}}\p{{N}}])")

    return pack.cached("birth-cues", make)


def is_birth_date(text: str, start: int, first_date: int, pack: LocalePack | None) -> bool:
    """Whether a birth cue stands in the 40 characters before a date span (`start`) or inside it
    before its first date, with no digit after the cue; shared with `pseudo audit`."""
    pattern = _birth_cue_pattern(pack) if pack else None
    if pattern is None:
        return False
    before = text[max(0, start - BIRTH_WINDOW) : first_date]
    before = _SINCE_LAST_DIGIT.search(before).group()  # "född 1946, inlagd 2016": the cue is 1946's
    return pattern.search(before) is not None


def _birth_years(target: Target, ctx: Context, first_date: int) -> int:
    """Minus the scope's age shift when a birth cue precedes the date, else 0."""
    if not is_birth_date(ctx.document.text, target.span.start, first_date, ctx.pack):
        return 0
    return -patient_age_shift(ctx, _with_defaults(ctx.all_options.get("ages", {}), AGE_OPTIONS))


def _unparsed(target: Target, ctx: Context) -> Surrogate:
    """No date in the span: digits and letters redrawn in place, never the original."""
    if not any(char.isalnum() for char in target.text):
        return Surrogate(f"[{target.label}]", fallback="unparsed date")
    text = ctx.consistent("unparsed-date", normalise(target.text), lambda stream: shape_surrogate(target.text, stream))
    return Surrogate(text, fallback="unparsed date")
