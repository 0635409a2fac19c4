"""The clock: one date offset and one age shift per scope, and what follows from them.

Dates, birth dates, ages and identifiers that embed a birth date (a personnummer) all ask the
clock, so no rule re-implements another's decision: an age is kept under `keep_under`, capped at
`cap`, otherwise moved by the scope's shift; a birth date moves by the date offset and back by the
shift the patient's written age actually got in that document, so "born ... aged ..." still adds
up. The clock is configured with the options of the dates and ages rules by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Mapping

import regex
from dateutil.relativedelta import relativedelta

from pseudo.casing import match_case
from pseudo.datetext import date_words, find_dates, full_date
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack
from pseudo.model import Tagged
from pseudo.scope import ScopeState

DAYS_PER_UNIT = {"days": 1.0, "weeks": 7.0, "months": 365.2425 / 12, "years": 365.2425}
PER_YEAR = {"year": 1, "month": 12, "week": 52, "day": 365}
_NUMBER = regex.compile(r"\d+")
_NEXT_WORD = regex.compile(r"(?:\s*|-)(\p{L}+\.?)")  # "72 años", "72-year-old"


@dataclass(frozen=True)
class Move:
    """How far one expression moves: the offset, minus the age shift for a birth date (and the
    days a child's written age and dates disagreed by), and `nudge` extra steps of its own
    precision when the output would equal the input."""

    unit: str
    count: int
    birth_years: int = 0
    nudge: int = 0
    birth_days: int = 0

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
        if self.birth_years or self.birth_days or self.nudge:
            moved += relativedelta(years=self.birth_years, days=self.birth_days, weeks=self.nudge * self.sign)
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


@dataclass(frozen=True)
class AgeNumber:
    """A number inside an age span, with its unit (year, month, week, day)."""

    start: int
    end: int
    value: int
    in_words: bool
    unit: str = "year"


def age_units(pack: LocalePack | None) -> Mapping[str, str]:
    """The pack's words for units of age ('años': year, 'meses': month): settings.ages.units."""
    raw = pack.settings.ages.units if pack else {}
    return {word.casefold(): unit for word, unit in raw.items()}


def age_numbers(text: str, pack: LocalePack | None) -> list[AgeNumber]:
    """Digits and, where the language module reads them, numbers in words; each with its unit.

    A number takes the unit word right after it; one in digits without ('4 y 6 meses') takes the
    next unit found, and otherwise counts in years; one in words without is no age ("una").
    """
    found = [(m.start(), m.end(), int(m.group()), False) for m in _NUMBER.finditer(text)]
    read = getattr(pack.morphology, "read_numbers", None) if pack and pack.morphology else None
    if read is not None:
        found += [(start, end, value, True) for start, end, value in read(text)]
    units = age_units(pack)
    numbers: list[AgeNumber] = []
    for start, end, value, in_words in sorted(found):
        word = _NEXT_WORD.match(text, end)
        unit = None
        if word is not None:
            unit = units.get(word.group(1).casefold()) or units.get(word.group(1).rstrip(".").casefold())
        if in_words and not unit:  # "una mujer de 45 años": an article, not an age
            continue
        numbers.append(AgeNumber(start, end, value, in_words, unit or ""))
    resolved: list[AgeNumber] = []
    for index, number in enumerate(numbers):
        unit = number.unit or next((n.unit for n in numbers[index + 1 :] if n.unit), "year")
        resolved.append(AgeNumber(number.start, number.end, number.value, number.in_words, unit))
    return resolved


def in_years(numbers: list[AgeNumber]) -> float:
    return sum(n.value / PER_YEAR[n.unit] for n in numbers)


DAYS_IN_A_MONTH = 31


def _born_window(unit: str, value: int, day: date) -> tuple[date, date]:
    """The earliest and latest birth dates that make one `value` months, weeks or days old on a day."""
    if unit == "month":
        latest = day - relativedelta(months=value)
        earliest = day - relativedelta(months=value + 1)
        for _ in range(DAYS_IN_A_MONTH):  # a short month clips: a few days on
            if _age_in(unit, earliest, day) == value:
                break
            earliest += timedelta(days=1)
        return min(earliest, latest), latest
    per = 7 if unit == "week" else 1
    latest = day - timedelta(days=per * value)
    return latest - timedelta(days=per - 1), latest


def _age_in(unit: str, born: date, day: date) -> int:
    """Whole months, weeks or days from a birth date to a day."""
    if unit == "month":
        gap = relativedelta(day, born)
        return 12 * gap.years + gap.months
    return (day - born).days // (7 if unit == "week" else 1)


class Clock:
    """The date offset and age shift of one scope (see the module docstring)."""

    def __init__(self, scope: ScopeState, dates: Mapping[str, Any], ages: Mapping[str, Any]):
        self._scope = scope
        self.dates = dates
        self.ages = ages

    @property
    def offset(self) -> int:
        """The scope's offset in date units: nonzero, in [min, max] either way (or the chosen way)."""
        low, high, direction = self.dates["min"], self.dates["max"], self.dates["direction"]

        def draw(stream: KeyedStream) -> int:
            size = high - low + 1
            pick = stream.below(size * (2 if direction == "both" else 1))
            magnitude = low + pick % size
            forward = direction == "future" or (direction == "both" and pick >= size)
            return magnitude if forward else -magnitude

        name = f"date-shift:{self.dates['unit']}:{low}:{high}:{direction}"
        return self._scope.derived(name, draw)  # type: ignore[return-value]

    @property
    def age_shift(self) -> int:
        """The scope's age shift in years, nonzero."""

        def draw(stream: KeyedStream) -> int:
            size = self.ages["shift"]
            value = stream.between(-size, size - 1)
            return value if value < 0 else value + 1

        return self._scope.derived(f"age-shift:{self.ages['shift']}", draw)  # type: ignore[return-value]

    def keeps(self, years: float) -> bool:
        """A child's age is kept: it carries too much."""
        return years < self.ages["keep_under"]

    def shifted_age(self, age: int) -> int:
        """An age in years moved by the scope's shift, clamped by keep_under and cap, never itself."""
        keep_under, cap = self.ages["keep_under"], self.ages["cap"]
        if cap is not None and age >= cap:
            return cap
        new = max(keep_under, age + self.age_shift)
        if cap is not None:
            new = min(new, cap)
        if new == age:  # clamped back onto itself: move away from the threshold
            new = age + 1 if cap is None or age + 1 <= cap else age - 1
        return new

    def patient_age_shift(self, document: Tagged, pack: LocalePack | None) -> int:
        """The shift the patient's written age actually gets in this document: none for a child
        whose age is kept (or whose ages the config does not replace), less where a threshold or
        cap clamps it, else the scope's shift."""
        ages = document.labelled("AGE")
        if ages and not any(t.span.start in document.replaced for t in ages):
            return 0
        for target in [t for t in ages if t.role == "patient"] or ages:
            numbers = age_numbers(target.text, pack)
            if not numbers:
                continue
            if self.keeps(in_years(numbers)):
                return 0
            years = next((n.value for n in numbers if n.unit == "year"), None)
            if years is not None:
                return self.shifted_age(years) - years
        return self.age_shift

    def patient_age(self, document: Tagged, pack: LocalePack | None) -> float | None:
        """The patient's age in years as the output writes it: the age the record states, moved
        as the ages rule moves it; None where no age gets a surrogate (none stated, or kept,
        redacted or tagged by the config: a name must not tell an age the output hides)."""
        ages = document.labelled("AGE")
        for target in [t for t in ages if t.role == "patient"] or ages:
            numbers = age_numbers(target.text, pack)
            if target.span.start not in document.replaced or not numbers:
                continue
            years = in_years(numbers)
            if self.keeps(years):
                return years
            whole = next((n.value for n in numbers if n.unit == "year"), None)
            return years + (self.age_shift if whole is None else self.shifted_age(whole) - whole)
        return None

    def move(self, birth: bool, document: Tagged, pack: LocalePack | None, born: date | None = None) -> Move:
        """How a date of this document moves: a birth date also back by the patient's age shift,
        and, when its day is known (`born`), by the years its written age and dates disagreed on."""
        if not birth:
            return Move(self.dates["unit"], self.offset)
        written = self._written_age(document, pack)
        if born is not None and (written is None or written[1] != "year") and self._a_child_on_its_dates(born, document, pack):
            return Move(self.dates["unit"], self.offset, birth_days=self._child_slip(born, written, document, pack))  # a child's age is kept
        slip = self.age_slip(born, document, pack) if born is not None else 0
        return Move(self.dates["unit"], self.offset, -self.patient_age_shift(document, pack) - slip)

    def _a_child_on_its_dates(self, born: date, document: Tagged, pack: LocalePack | None) -> bool:
        """Whether a record that writes no age makes its patient a child on its first date after
        the birth date: a newborn's "Fecha de nacimiento: 13/05/2017" beside "Fecha de Ingreso:
        13/05/2017" had become "14/01/2020" beside "14/01/2017", three years after its admission,
        since its birth date took the age shift no age of the record had stopped."""
        later = sorted(day for day in self._record_dates(document, pack) if day >= born)
        if born in later:
            later.remove(born)  # the birth date itself is no date of the record's
        return bool(later) and self.keeps(relativedelta(later[0], born).years)

    def birth_date(self, born: date, document: Tagged, pack: LocalePack | None) -> date:
        """A birth date written inside another value (a personnummer) moves like one in the text."""
        return self.move(True, document, pack, born).day(born)

    def age_slip(self, born: date, document: Tagged, pack: LocalePack | None) -> int:
        """Years by which the patient's written age exceeds their age on the record's dates, from a
        birth date: 0 when it holds on one of them. Records carry such slips ("Edad: 26" beside
        dates that make 24); readers take a surrogate record that keeps one for a made-up one, so
        the birth date absorbs it and the output's age, birth date and dates add up. The date
        nearest in age to the written one is the record's date; 0 without an age or such a date."""
        written = self._written_years(document, pack)
        if written is None:
            return 0
        ages = {relativedelta(day, born).years for day in self._record_dates(document, pack) if day > born}
        if not ages or written in ages:
            return 0
        nearest = min(ages, key=lambda years: (abs(written - years), years))
        return written - nearest

    def _child_slip(self, born: date, written: tuple[int, str] | None, document: Tagged, pack: LocalePack | None) -> int:
        """The days a child's birth date moves by beyond the clock, so that the age written in
        months, weeks or days (kept, as a child's is) holds on the record's date nearest to it in
        age: "Edad: 7 meses" beside a birth date 19 months before the admission was read as a
        made-up record. The birth date nearest the clock's that does, never after the record's
        first date after the birth; where that is the original, a day off inside the age's window
        (an age in days has none: the dates rule then moves it a week). 0 without such an age,
        where it already holds on a date, or where it is no kept child's age ("170 meses")."""
        if written is None or written[1] == "year" or not self.keeps(written[0] / PER_YEAR[written[1]]):
            return 0
        value, unit = written
        clock = Move(self.dates["unit"], self.offset)  # measured on the moved dates: a leap day may fall between them
        moved, later = clock.day(born), sorted(clock.day(day) for day in self._record_dates(document, pack) if day > born)
        if not later or any(_age_in(unit, moved, day) == value for day in later):
            return 0
        reference = min(later, key=lambda day: (abs(_age_in(unit, moved, day) - value), day))
        earliest, latest = _born_window(unit, value, reference)
        target = min(max(moved, earliest), latest, later[0])
        if target == born:
            target = target - timedelta(days=1) if target > earliest else target + timedelta(days=1) if target < min(latest, later[0]) else target
        return (target - moved).days

    def record_year(self, document: Tagged, pack: LocalePack | None) -> int | None:
        """The year of the record's latest full date as the output writes it, or None: an e-mail
        provider launched after it cannot hold the record's addresses ("@outlook.es" in 2006)."""
        days = self._record_dates(document, pack)
        return self.move(False, document, pack).day(max(days)).year if days else None

    def _record_dates(self, document: Tagged, pack: LocalePack | None) -> list[date]:
        """Every full date the record's tagged dates write, as written (find_dates caches the parse)."""
        words = date_words(pack, self.dates.get("order"))
        return [
            day
            for target in document.labelled("DATE")
            for expression in find_dates(document.text, words, target.span.start, target.span.end)
            for part in expression.parts
            if (day := full_date(part)) is not None
        ]

    def _written_years(self, document: Tagged, pack: LocalePack | None) -> int | None:
        """The patient's age in whole years as the record writes it (the age `patient_age_shift` reads)."""
        ages = document.labelled("AGE")
        for target in [t for t in ages if t.role == "patient"] or ages:
            years = next((n.value for n in age_numbers(target.text, pack) if n.unit == "year"), None)
            if years is not None:
                return years
        return None

    def _written_age(self, document: Tagged, pack: LocalePack | None) -> tuple[int, str] | None:
        """The patient's first written age number with its unit (year, month, week, day)."""
        ages = document.labelled("AGE")
        for target in [t for t in ages if t.role == "patient"] or ages:
            numbers = age_numbers(target.text, pack)
            if numbers:
                return numbers[0].value, numbers[0].unit
        return None

    def age_text(self, text: str, pack: LocalePack | None) -> tuple[str, bool, str | None]:
        """An age as written, moved by the scope's shift: (text, kept, fallback). A stage of life
        without a number ("adolescente") and a child's age are kept; the words around the numbers
        stay, numbers in words are written back in words where the language module can."""
        numbers = age_numbers(text, pack)
        if not numbers:
            return text, True, "age without a number: kept"
        if self.keeps(in_years(numbers)):
            return text, True, None
        moved = [n for n in numbers if n.unit == "year"] or numbers[:1]
        new_values: dict[int, int] = {}
        for number in moved:
            if number.unit == "year":
                new_values[number.start] = self.shifted_age(number.value)
            else:  # an adult's age in months or days: the same shift, in that unit
                new_values[number.start] = max(1, number.value + self.age_shift * PER_YEAR[number.unit])
        if all(new_values[n.start] == n.value for n in moved):
            return text, True, None
        write = getattr(pack.morphology, "write_number", None) if pack and pack.morphology else None
        out, cursor = [], 0
        for number in moved:
            original = text[number.start : number.end]
            value = new_values[number.start]
            if number.in_words and write is not None:
                digits = match_case(original, write(value))  # "Seventy-two-year-old" starting a sentence
            else:
                digits = str(value).zfill(len(original)) if original.startswith("0") else str(value)
            out += [text[cursor : number.start], digits]
            cursor = number.end
        out.append(text[cursor:])
        return "".join(out), False, None
