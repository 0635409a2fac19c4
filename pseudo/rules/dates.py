"""Dates: every date of a scope moves by one keyed offset, written back in its own format.

The offset is a nonzero whole number of `unit`s in [min, max], drawn once per scope from the
key, so intervals between dates of a patient survive. The default, whole weeks, also keeps
weekdays and weekends. Parsing and writing live in pseudo.datetext; this module decides how far
each kind of date moves:

- a full date moves by the offset (months and years clamp the day: 31 Jan + 1 month = 29 Feb);
- month + year by the offset in whole months, a year alone by whole years (at least one, same
  direction), so a partial date is never left as it was; a two-digit year alone ("'92") is a year
  where the tagset's kind says the label holds years (`kind: year`) or the number is no day; a
  year tagged apart from the month right before it ("nov." "2016") moves with that month;
- day + month takes its year from the nearest full date of the document (else a leap year, so
  29/2 stays valid) and moves by the full offset; a bare day ("el día 16") takes its month too;
- an ISO week number moves by the offset in whole weeks (by the calendar for months and years);
  a weekday next to a date is recomputed, a weekday alone moves by the offset in days;
- a birth date (a `birth_cues` word in the 40 characters before it, with no other number in
  between) also moves by minus the scope's age shift in years, so "70 years old, born 1946,
  admitted 2016" stays coherent once the age rule has moved the age;
- when the result would still read as the original, the date moves one more step of its own
  precision (a week, a month or a year) in the same direction.

The pack's `settings.dates` keys are declared in pseudo.lists.settings.DateSettings; `birth_cues` is
the list of words that mark a birth date.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from typing import Any, Mapping

import regex
from dateutil.relativedelta import relativedelta

from pseudo.datetext import (
    CENTURY_PIVOT,
    date_words,
    is_birth_date,
    LEAP_YEAR,
    DateWords,
    Expression,
    find_dates,
    full_date,
    is_valid,
    month_names,
)
from pseudo.casing import match_case
from pseudo.folds import normalise
from pseudo.keyed import KeyedStream
from pseudo.model import Span, Target
from pseudo.lists.pack import LocalePack
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Option, Rule, Surrogate
from pseudo.services.clock import DAYS_PER_UNIT, Move

UNITS = ("days", "weeks", "months", "years")
_TOKEN = regex.compile(r"(?P<digits>\d+)|(?P<word>\p{L}+)")
MAX_YEARS = 500  # a larger offset could leave the calendar (years 1-9999)

OPTIONS = {
    "unit": Option("weeks", "unit of the date offset; whole weeks keep weekdays and weekends", str, UNITS),
    "min": Option(1, "smallest offset, in units (either direction)", int, minimum=1),
    "max": Option(52, "largest offset, in units (either direction)", int, minimum=1),
    "direction": Option("both", "move dates into the past, the future or either", str, ("both", "past", "future")),
    "order": Option(
        None, "DMY, MDY or YMD for ambiguous numeric dates; default: the locale's", (str, type(None)), ("DMY", "MDY", "YMD")
    ),
}


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
    requires = ("clock",)
    own_casing = True  # month and weekday names are cased like the original's, word by word

    @staticmethod
    def validate_options(options: Mapping[str, Any]) -> str | None:
        if options["min"] > options["max"]:
            return f"min ({options['min']}) is larger than max ({options['max']})"
        if options["max"] * DAYS_PER_UNIT[options["unit"]] > MAX_YEARS * DAYS_PER_UNIT["years"]:
            return f"max is more than {MAX_YEARS} years"
        return None

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED when the date grammar reads the value (a year alone too), so a date-tagged value
        it cannot read may go to the rule of what it looks like ("País: Colombia" tagged as a date)."""
        if label not in self.labels:
            return NOT_RECOGNISED
        readable = _YEAR.fullmatch(text.strip()) or find_dates(text, date_words(pack, None))
        return LISTED if readable else NOT_RECOGNISED

    def replace(self, target: Target, ctx: Context) -> Surrogate:
        options = _with_defaults(ctx.options, OPTIONS)
        words = date_words(ctx.pack, options["order"])
        span = target.span
        year = _YEAR.fullmatch(target.text)
        if year and (len(year["y"]) == 4 or target.kind == "year" or int(year["y"]) > 31):
            month = _month_before(target, ctx, words)
            if month is not None or len(year["y"]) == 2:
                return _year_alone(target, year, month, ctx)
        expressions = _expressions(ctx, words, span)
        numeric = _NUMERIC_DATE.search(target.text)
        if not expressions or (numeric and not any(e.start - span.start <= numeric.start() and numeric.end() <= e.end - span.start for e in expressions)):
            return _unparsed(target, ctx)  # "23/010/1990": the year alone read would leave "23/010/" as it was
        birth = is_birth_date(ctx.document.text, span.start, expressions[0].start, ctx.pack)
        born = full_date(expressions[0].parts[0]) if birth else None
        move = ctx.services.clock.move(birth, ctx.document, ctx.pack, born)
        complete = all("year" in part.values for expression in expressions for part in expression.parts)
        context = None if complete else _nearest_full_date(ctx, words, span.start)
        text = target.text
        for expression in reversed(expressions):
            new = _rendered(expression, move, context, ctx.document.text)
            text = text[: expression.start - span.start] + new + text[expression.end - span.start :]
        return Surrogate(text, kept=text == target.text)



_YEAR = regex.compile(r"(?P<before>['’]?)(?P<y>\d{4}|\d{2})(?P<after>['’]?)")  # "1992", "92", "'92", "74'"
_NUMERIC_DATE = regex.compile(r"(?<!\d)\d{1,4}([/.-])\d{1,4}\1\d{1,4}(?!\d)")  # day, month and year in figures
_BETWEEN_MONTH_AND_YEAR = regex.compile(r"[^\S\n]*,?[^\S\n]*")


def _month_before(target: Target, ctx: Context, words: DateWords) -> int | None:
    """The month of a DATE span that is a month alone, right before a year tagged apart (PhysioNet
    tags "nov." and "2016" as two phrases): the year then moves with it as one date."""
    for other in ctx.document.labelled("DATE"):
        if other.span.end <= target.span.start and _BETWEEN_MONTH_AND_YEAR.fullmatch(ctx.document.text, other.span.end, target.span.start):
            parts = [part for expression in _expressions(ctx, words, other.span) for part in expression.parts]
            if len(parts) == 1 and set(parts[0].values) == {"month"}:
                return parts[0].values["month"]
    return None


def _year_alone(target: Target, found: regex.Match, month: int | None, ctx: Context) -> Surrogate:
    """A year alone moved by whole years (at least one), written in its own width; a two-digit one
    is a year where the tagset's kind says the label holds years or no day is that large ("92" ->
    "91", never a day). After a month tagged apart it moves with that month ("nov. 2016" by a
    month may stay 2016), so the two still name one date."""
    digits = found["y"]
    year = int(digits) if len(digits) == 4 else int(digits) + (2000 if int(digits) <= CENTURY_PIVOT else 1900)
    birth = is_birth_date(ctx.document.text, target.span.start, target.span.start, ctx.pack)
    move = ctx.services.clock.move(birth, ctx.document, ctx.pack)
    for nudge in (0, 1):  # as the month's own rendering: one more step where it would read as before
        step = replace(move, nudge=nudge)
        if month is not None:
            moved = shifted({"month": month, "year": year}, step, None)
            if moved["month"] != month:
                break
        else:
            moved = shifted({"year": year}, step, None)
            if moved["year"] % 100 != year % 100:
                break
    new = str(moved["year"]) if len(digits) == 4 else f"{moved['year'] % 100:02d}"
    text = f"{found['before']}{new}{found['after']}"
    return Surrogate(text, kept=text == target.text)


def _expressions(ctx: Context, words: DateWords, span: Span) -> list[Expression]:
    """The date expressions of a span, read once per document."""
    parsed = ctx.memo.setdefault("expressions", {})
    if span.start not in parsed:
        parsed[span.start] = find_dates(ctx.document.text, words, span.start, span.end)
    return parsed[span.start]


def _nearest_full_date(ctx: Context, words: DateWords, position: int) -> date | None:
    """Where a partial date finds its year: the nearest full date among the document's tagged
    dates, else among every date written in it."""

    def full(expressions: list[Expression]) -> list[tuple[int, date]]:
        return [(part.start, day) for e in expressions for part in e.parts if (day := full_date(part)) is not None]

    found = [item for t in ctx.document.labelled("DATE") for item in full(_expressions(ctx, words, t.span))]
    if not found:
        if "untagged-dates" not in ctx.memo:
            ctx.memo["untagged-dates"] = full(find_dates(ctx.document.text, words))
        found = ctx.memo["untagged-dates"]
    return min(found, key=lambda item: abs(item[0] - position))[1] if found else None


def _rendered(expression: Expression, move: Move, context: date | None, text: str) -> str:
    """The expression moved; moved one more step when it would read as before. A weekday
    alone may stay: whole-week offsets keep it and it identifies nothing by itself."""
    original = text[expression.start : expression.end]
    for nudge in (0, 1):
        step = replace(move, nudge=nudge)
        new = expression.render([shifted(part.values, step, context) for part in expression.parts])
        if new != original or all(set(part.values) == {"weekday"} for part in expression.parts):
            return new
    raise AssertionError("unreachable: one more step always changes a date")


def _with_defaults(options: Mapping[str, Any], declared: Mapping[str, Option]) -> dict[str, Any]:
    return {**{name: option.default for name, option in declared.items()}, **options}


def _unparsed(target: Target, ctx: Context) -> Surrogate:
    """No date the grammar reads ("22 november" in Spanish, a misspelt month, "igår"): a date of
    the same shape from the clock, never the original and never random letters. Three numbers
    written as a numeric date are day, month and year in the locale's order, each in its own width
    ("23/010/1990", "0/10/2017": slips the grammar refuses still move as dates, so a birth date
    and the age agree). Otherwise a number of one or two digits up to 31 is the day, a number of
    four digits (or a second short one) the year, the first word that is not a connector the
    month, written as the locale writes a month and drawn (it could not be read); then the date
    moves by the scope's offset."""
    if not any(char.isalnum() for char in target.text):
        return Surrogate(f"[{target.label}]", fallback="unparsed date")
    text = ctx.consistent("unparsed-date", normalise(target.text), lambda stream: _same_shape_date(target, ctx, stream))
    return Surrogate(text, fallback="unparsed date, replaced by a date of the same shape")


def _same_shape_date(target: Target, ctx: Context, stream: KeyedStream) -> str:
    words = date_words(ctx.pack, _with_defaults(ctx.options, OPTIONS)["order"])
    keep = {w.casefold() for w in (*words.connectors, *words.range_words)}
    tokens = list(_TOKEN.finditer(target.text))
    numbers = [m for m in tokens if m["digits"]]
    numeric = _NUMERIC_DATE.search(target.text)
    in_date = [m for m in numbers if numeric and numeric.start() <= m.start() and m.end() <= numeric.end()]
    kept: list[regex.Match] = []
    if len(in_date) == 3:  # "23/010/1990", "0/10/2017": in the locale's order (a 4-digit year first: Y-M-D)
        roles = dict(zip("YMD" if len(in_date[0]["digits"]) == 4 else words.order, in_date))
        day, numbered, year = roles["D"], roles["M"], roles["Y"]
        kept = [m for m in tokens if m not in in_date]  # "a las 10h" beside it: as written
    else:
        day = next((m for m in numbers if len(m["digits"]) <= 2 and 1 <= int(m["digits"]) <= 31), None)
        year = next((m for m in numbers if len(m["digits"]) == 4), None) or next(
            (m for m in numbers if m is not day and len(m["digits"]) == 2), None
        )
        numbered = None
    named = [m for m in tokens if m["word"] and m["word"].casefold() not in keep]
    month = None if in_date and len(in_date) == 3 else (named or [m for m in tokens if m["word"]] or [None])[0]
    written_year = int(year["digits"]) if year and len(year["digits"]) == 4 else LEAP_YEAR
    start_month = int(numbered["digits"]) if numbered and 1 <= int(numbered["digits"]) <= 12 else stream.between(1, 12)
    start_day = min(max(int(day["digits"]), 1), 28) if day else 1
    start = date(written_year if 1000 <= written_year <= 8999 else LEAP_YEAR, start_month, start_day)
    birth = is_birth_date(ctx.document.text, target.span.start, target.span.start, ctx.pack)
    moved = ctx.services.clock.move(birth, ctx.document, ctx.pack).day(start)
    names = month_names(words.language).written[("wide", "format")]
    for nudge in range(40):  # a day more when the result would read as the original
        when = moved + timedelta(days=nudge)
        written = {
            day: str(when.day).zfill(len(day["digits"])) if day else "",
            year: (str(when.year) if len(year["digits"]) == 4 else f"{when.year % 100:02d}") if year else "",
            month: match_case(month.group(), names[when.month - 1]) if month else "",
            numbered: str(when.month).zfill(len(numbered["digits"])) if numbered else "",
            **{token: token.group() for token in kept},
        }
        out, cursor = [], 0
        for token in tokens:
            out.append(target.text[cursor : token.start()])
            cursor = token.end()
            if token in written:
                out.append(written[token])
            elif token["digits"]:
                out.append("".join(stream.digit() for _ in token.group()))
            else:
                out.append(token.group())  # a connector, or a further word of the original's own
        text = "".join(out) + target.text[cursor:]
        if normalise(text) != normalise(target.text):
            break
    return text
