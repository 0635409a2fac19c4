"""Untagged dates follow the clock, untagged e-mail addresses their person (on with propagation,
the default).

An address no one tagged whose local part holds a word of a tagged name ("tcaveroescribano@"
beside "Teresa Cavero Escribano") is that person's: left standing among the addresses rebuilt
from surrogate names, it was the first leftover readers found (`named_addresses`).

Every tagged date of a scope moves by one offset, so a date the annotators missed would stand
unshifted among the surrogates, months away from the dates around it: it betrays the shift and
itself. An untagged date is therefore added as a span of the scope's date label and moved by the
same offset, but only where it is plainly a date, since clinical text writes scores, fractions,
doses, ranges, blood pressures and settings like dates ("1/2 NS", "4/5 strength", "120/80",
"2-3", "PSV 10/5", "10/10 pain"). A candidate needs a day and a month written with separators
(never a year, month or weekday alone, nor 20120315) and must be:

(a) written in a layout the scope's own tagged dates use (m/d, m/d/yy, "d de mes de yyyy", ISO),
    or a full date written with a four-digit year or a month name;
(b) a whole token: not inside a run of digits, slashes, dots or hyphens, not followed by a unit
    or "%"; a year-less one also neither a proper fraction or score with a usual denominator
    (1/2, 3/4, 4/5, 3/10) nor beside one of the pack's `dates.score_words` ("pain", "PSV");
(c) in original time within the span of the scope's tagged full dates widened by MARGIN, or,
    year-less (or full in a scope that tags no full date), within the arc of the calendar its
    tagged day-and-month dates cover (across New Year) widened by YEARLESS_MARGIN.

A date written with its month's name and a four-digit year, with or without its day ("abril de
2003"), is plainly a date: it follows the clock whenever it falls, in a scope that has tagged full
dates (so the clock has moved some). So is a two-digit year after an apostrophe that no day can be
("s/p mi '92"), with no word after it on its line and no day or month before it, in a scope that
tags such years ("cabg '96"): a history year
left standing among moved ones was a leftover readers found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from typing import Iterable, Sequence

import regex

from pseudo.datetext import LEAP_YEAR, DateText, DateWords, Expression, Slot, find_dates, full_date, grammar
from pseudo.folds import ascii_fold
from pseudo.rules.contacts import AN_ADDRESS

# A stay's notes cite its days and the months around it (admission, prior procedures, follow-up):
# half a year either side of the tagged dates keeps those and leaves a distant history alone.
MARGIN = timedelta(days=183)
# A date written without its year names a day the reader places in the stay's own weeks; a
# year-less pair more than a month outside the tagged days is likelier a ratio or a setting.
YEARLESS_MARGIN = 31
DAYS_IN_YEAR = 366  # day of the year counted in a leap year, so 29/2 has one
# Proper fractions and scores use these denominators: 1/2, 2/3, 3/4, 4/5, 3/10.
DENOMINATORS = frozenset({2, 3, 4, 5, 10})
# Symbols of measures that follow a number pair in any language (closed class, compiled by hand).
UNITS = ("%", "mg", "mcg", "µg", "g", "kg", "ml", "l", "cc", "mmhg", "mm", "cm", "u", "ui", "iu", "meq", "mmol", "h", "hr", "hrs", "min", "x")
_UNIT = regex.compile(rf"[^\S\n]*(?:%|(?i:{'|'.join(regex.escape(u) for u in UNITS if u != '%')})(?![\p{{L}}\p{{N}}]))")
_BEFORE = regex.compile(r"[\p{L}\p{N}/.\-+]")  # a date inside such a run is part of something else
_AFTER = regex.compile(r"[\p{L}\p{N}]|[/\-]|[.,]\d")
_NUMBERS = regex.compile(r"\d+")
_WORD = regex.compile(r"\p{L}+")
NEIGHBOURHOOD = 3  # words either side searched for a score word
REACH = 40  # characters either side those words are looked for in, within the clause
_CLAUSE_END = regex.compile(r"[;!?\n]|\.(?!\d)")
_CLAUSE_START = regex.compile(r"(?r)[;!?\n]|\.(?!\d)")  # the same, searched backwards


Layout = tuple[object, ...]


def layout(part: DateText) -> Layout:
    """How a date is written, values aside: its separators and connectors, which fields in which
    order, a month in digits or by name, the year's width ("3/14" and "12/1" share one)."""
    out: list[object] = []
    for piece in part.pieces:
        if isinstance(piece, str):
            out.append(" ".join(piece.casefold().split()) or " ")
        else:
            out.append(_slot(piece))
    return tuple(out)


def _slot(slot: Slot) -> tuple[str, ...]:
    if slot.field == "year":
        return ("year", str(len(slot.write(LEAP_YEAR))))
    if slot.field == "month":
        return ("month", "number" if slot.write(1).isdigit() else "name")
    return (slot.field,)


def _day_of_year(month: int, day: int) -> int:
    return date(LEAP_YEAR, month, day).timetuple().tm_yday


@dataclass
class DateProfile:
    """What a scope's tagged dates say: the label they carry, their layouts and their times."""

    label: str | None = None
    apostrophe_years: bool = False  # a tagged date is a two-digit year after an apostrophe ("'96")
    layouts: set[Layout] = field(default_factory=set)
    full: list[date] = field(default_factory=list)
    days: set[int] = field(default_factory=set)  # days of the year of the tagged dates with a day and a month

    def add(self, label: str, expressions: Iterable[Expression]) -> None:
        """A tagged date's expressions; the label is the first tagged date's with a day and a month."""
        for part in (p for e in expressions for p in e.parts):
            if not {"day", "month"} <= part.dated:
                continue
            self.label = self.label or label
            self.layouts.add(layout(part))
            self.days.add(_day_of_year(part.values["month"], part.values["day"]))
            when = full_date(part)
            if when is not None:
                self.full.append(when)

    def add_year(self, text: str) -> None:
        """A tagged date's text, with the character before it: a year written after an apostrophe
        makes the scope's untagged ones years."""
        self.apostrophe_years = self.apostrophe_years or bool(_APOSTROPHE_YEAR.fullmatch(text.strip()))

    def separators(self) -> frozenset[str]:
        """The characters the scope's tagged numeric dates write between two numbers."""
        return frozenset(
            piece for layout in self.layouts for before, piece, after in zip(layout, layout[1:], layout[2:])
            if isinstance(piece, str) and len(piece) == 1 and before != ("month", "name") != after
        )  # fmt: skip

    def in_time(self, part: DateText) -> bool:
        """(c): a full date within the tagged full dates' span widened by MARGIN; a year-less one,
        or a full one in a scope that tags none ("8/16/2017" among a note's "8/17", "8/26": the
        leftover stood months away from its shifted neighbours, PhysioNet leftover round 10),
        within the arc of the calendar the tagged days cover, widened by YEARLESS_MARGIN."""
        when = full_date(part)
        if when is not None and self.full:
            return min(self.full) - MARGIN <= when <= max(self.full) + MARGIN
        if not self.days:
            return False
        days = sorted(self.days)
        gaps = [((days[(i + 1) % len(days)] - d) % DAYS_IN_YEAR or DAYS_IN_YEAR, d) for i, d in enumerate(days)]
        gap, last = max(gaps)  # the longest stretch no tagged day falls in ends the arc
        first = (last + gap) % DAYS_IN_YEAR
        covered = DAYS_IN_YEAR - gap
        if covered + 2 * YEARLESS_MARGIN >= DAYS_IN_YEAR:
            return True
        day = _day_of_year(part.values["month"], part.values["day"])
        return (day - first + YEARLESS_MARGIN) % DAYS_IN_YEAR <= covered + 2 * YEARLESS_MARGIN


def followed_dates(
    text: str, words: DateWords, profile: DateProfile, taken: Sequence[tuple[int, int]], score_words: frozenset[str]
) -> list[tuple[int, int]]:
    """Offsets of the untagged dates of a text that follow the clock (the module docstring)."""
    if not profile.layouts:
        return []
    found = []
    windows = _windows(text, words, profile.separators())
    for expression in (e for start, end in windows for e in find_dates(text, words, start, end)):
        start, end = expression.start, expression.end
        if any(start < e and s < end for s, e in taken):
            continue
        if _whole(text, start, end) and all(_accepted(text, part, expression, profile, score_words) for part in expression.parts):
            found.append((start, end))
    for year in _APOSTROPHE_YEAR.finditer(text) if profile.apostrophe_years else ():  # "s/p mi '92", where the scope tags "'96"
        if int(year["y"]) <= LAST_DAY or _AFTER_A_DAY.search(text, max(0, year.start() - NAME_REACH), year.start()):
            continue  # a date's year ("Mar 3 '92", "4/5 '92"): the year alone would half-move it
        if _month_names(words).search(text, max(0, year.start() - NAME_REACH), year.start()):
            continue
        if not _UNIT.match(text, year.end()) and not any(year.start() < e and s < year.end() for s, e in taken):
            found.append(year.span())
    return sorted(found)


# A two-digit year after an apostrophe ("cabg '96") that no day can be (32-99), with no word after
# it on its line ("'90 lbs", "'88 bpm" are measures) and no day or month before it: the dates rule
# moves it as a year alone. One before the apostrophe ("77'") may be feet ("ambulated 50'").
_APOSTROPHE_YEAR = regex.compile(r"(?<![\p{L}\p{N}'’/.\-])['’](?P<y>\d{2})(?![\p{L}\p{N}'’]|[/.\-]\d)(?=[^\S\n]*(?:[^\p{L}\s]|\n|$))")
_AFTER_A_DAY = regex.compile(r"(?<![\p{L}\d])\d{1,2}[,\s]*$|\d[/.\-]\d{1,2}[,\s]*$")  # a day or a month in figures right before ("x3" is a count)
LAST_DAY = 31

# Where a date (a) may accept can stand: two numbers joined by a separator the scope's numeric
# dates use (not a decimal), a full numeric date with a four-digit year, or a month name with a
# number near it. Reading only around these is several times faster than reading the whole text.
_FULL = r"\d{1,2}[-/. ]\d{1,2}[-/. ]\d{4}|\d{4}[-/. ]\d{1,2}[-/. ]\d{1,2}"
_DIGIT = regex.compile(r"\d")
NAME_REACH = 12  # characters from a month name to its day or year
LEAD, TRAIL = 12, 20  # characters read before and after such a place: a weekday, the rest of the date


@cache
def _month_names(words: DateWords) -> regex.Pattern:
    return regex.compile(grammar(words).months.pattern())


@cache
def _numbers_joined(separators: frozenset[str]) -> regex.Pattern:
    joined = rf"\d{{1,4}}[{''.join(regex.escape(s) for s in sorted(separators))}]\d{{1,2}}|" if separators else ""
    return regex.compile(rf"(?<![\d.,])(?:{joined}{_FULL})(?![.,]\d)")


def _windows(text: str, words: DateWords, separators: frozenset[str]) -> list[tuple[int, int]]:
    """Stretches of the text, merged where they overlap, around every place a date may stand."""
    places = [m.span() for m in _numbers_joined(separators).finditer(text)]
    places += [
        m.span() for m in _month_names(words).finditer(text)
        if _DIGIT.search(text, max(0, m.start() - NAME_REACH), min(len(text), m.end() + NAME_REACH))
    ]  # fmt: skip
    windows: list[tuple[int, int]] = []
    for start, end in sorted(places):
        start, end = max(0, start - LEAD), min(len(text), end + TRAIL)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


def _whole(text: str, start: int, end: int) -> bool:
    """(b): not inside a longer run of digits, letters, slashes, dots or hyphens, no unit after."""
    if start and _BEFORE.match(text, start - 1):
        return False
    return not _AFTER.match(text, end) and not _UNIT.match(text, end)


def _named(part: DateText) -> bool:
    """A date written with its month's name and a four-digit year ("abril de 2003", "3 de abril de
    2003"): plainly a date, whenever it falls. Left standing years before the tagged dates, such a
    date of a record's history contradicted the moved header and gave itself away (leftover round 23)."""
    shown = [_slot(p) for p in part.pieces if isinstance(p, Slot)]
    return ("month", "name") in shown and ("year", "4") in shown


def _accepted(text: str, part: DateText, expression: Expression, profile: DateProfile, score_words: frozenset[str]) -> bool:
    """(a), the year-less part of (b), and (c) for one date of an expression; a named date with
    its four-digit year (`_named`) needs none of them."""
    if _named(part) and profile.full:
        return True
    if not {"day", "month"} <= part.dated:
        return False
    written = frozenset(f for piece in expression.parts for f in piece.shown)
    shown = [_slot(p) for e in expression.parts for p in e.pieces if isinstance(p, Slot)]
    plain = part.dated == {"day", "month", "year"} and (("year", "4") in shown or ("month", "name") in shown)
    if layout(part) not in profile.layouts and not plain:
        return False
    if "year" not in written and _score(text, part, score_words):
        return False
    return profile.in_time(part)


def _score(text: str, part: DateText, score_words: frozenset[str]) -> bool:
    """A year-less pair of numbers that reads as a fraction or a score (1/2, 3/4, 10/10), or with
    a score word among the words around it in its clause ("3/10 back pain", "PSV 10/5")."""
    numbers = [int(n) for n in _NUMBERS.findall(text, part.start, part.end)]
    if len(numbers) == 2 and numbers[0] <= numbers[1] and numbers[1] in DENOMINATORS:
        return True
    if not score_words:
        return False
    clause = _CLAUSE_START.search(text, max(0, part.start - REACH), part.start)
    stop = _CLAUSE_END.search(text, part.end, min(len(text), part.end + REACH))
    before = _WORD.findall(text, clause.end() if clause else max(0, part.start - REACH), part.start)[-NEIGHBOURHOOD:]
    after = _WORD.findall(text, part.end, stop.start() if stop else min(len(text), part.end + REACH))[:NEIGHBOURHOOD]
    return any(w.casefold() in score_words for w in (*before, *after))


_ADDRESS = regex.compile(r"(?<![\w.+-])" + AN_ADDRESS.pattern)  # not the tail of a longer address


def address_at(text: str, start: int) -> int | None:
    """The length of the e-mail address written at `start`, or None."""
    match = _ADDRESS.match(text, start)
    return match.end() - start if match else None


def named_addresses(text: str, name_words: frozenset[str], taken: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The offsets of the addresses outside `taken` whose local part, folded to its letters, holds
    one of `name_words` (folded tagged name words)."""
    found = []
    for match in _ADDRESS.finditer(text):
        start, end = match.span()
        letters = "".join(c for c in ascii_fold(match.group().partition("@")[0]).casefold() if c.isalpha())
        if not any(start < e and s < end for s, e in taken) and any(word in letters for word in name_words):
            found.append((start, end))
    return found
