"""Date expressions in free text: found with their format, written back with new values.

Pure and locale-driven. CLDR (through babel) gives the month and weekday names; a pack's
`settings.dates` gives the words written around dates (see `DateWords`). `find_dates` returns
every expression of a text as a template, so a moved date comes out with the original
separators, zero padding, year width, name style, case and word order. Nothing here draws
random values or knows how far a date moves: that is the date rule's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from string import Template
from typing import Callable, Iterable, Mapping, Sequence

import regex
from babel import Locale, UnknownLocaleError
from babel.dates import get_day_names, get_month_names

from pseudo.casing import match_case
from pseudo.errors import LocaleError
from pseudo.folds import plain
from pseudo.lists.pack import LocalePack
from pseudo.lists.settings import DateSettings

BIRTH_WINDOW = 40  # characters before a date searched for a birth cue
_SINCE_LAST_DIGIT = regex.compile(r"\D*\Z")
CENTURY_PIVOT = 30  # a 2-digit year up to this is 20yy, above it 19yy ("f. 12/03/45" is 1945); leap days and weekdays care
DATE_FIELDS = ("day", "month", "year")
LEAP_YEAR = 2020  # stands in for an unknown year: leap (29/2 is valid) and with an ISO week 53


@dataclass(frozen=True)
class DateWords:
    """What one locale writes around dates, from the pack's `settings.dates` (pseudo.lists.settings).

    order             DMY, MDY or YMD (default DMY): how to read an ambiguous numeric date such
                      as 03/04/2012. A date led by a 4-digit year is always year-month-day and
                      YMD locales read a short date such as 25/3 as day/month, so the order only
                      decides between day/month and month/day.
    week_words        words before an ISO week number: [v., v, vecka]
    day_words         words before a bare day of the month: [día]
    connectors        words between day, month and year: [de, del] ("12 de enero de 2016"), [of]
    range_words       words joining the ends of a range, besides a dash: [till], [al], [to]
    time_words        words before a clock time, so "kl. 14.30" is not read as 14 March: [kl, kl.]
    ordinal_suffixes  the suffix after a day number per CLDR ordinal category, rewritten for
                      the new day: {one: ":a", other: ":e"}, {one: st, two: nd, few: rd, other: th}

    Words match case-insensitively as whole words. Without a pack: English names, DMY, no words.
    """

    language: str = "en"
    order: str = "DMY"
    week_words: tuple[str, ...] = ()
    day_words: tuple[str, ...] = ()
    connectors: tuple[str, ...] = ()
    range_words: tuple[str, ...] = ()
    time_words: tuple[str, ...] = ()
    ordinal_suffixes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, language: str, settings: DateSettings, order: str | None = None) -> "DateWords":
        """Read a pack's `settings.dates`, already checked; `order` (the rule option) wins over the pack's order."""
        return cls(
            language,
            order or settings.order,
            settings.week_words,
            settings.day_words,
            settings.connectors,
            settings.range_words,
            settings.time_words,
            tuple(settings.ordinal_suffixes.items()),
        )


# -- names ---------------------------------------------------------------------------------


def _fold(text: str) -> str:
    return plain(text).casefold()


Written = dict[tuple[str, str], tuple[str, ...]]  # (width, context) -> names


@dataclass(frozen=True, eq=False)
class Names:
    """Month or weekday names of one language in every form clinical text uses.

    Read: CLDR wide and abbreviated names (format and stand-alone), with or without the dot of
    an abbreviation, without accents, and the first three letters of the wide name when those
    are unique. Write: the same width and context, the dot as in the original.
    """

    first: int  # the value of the first name: 1 for January, 0 for Monday
    written: Written
    forms: Mapping[str, tuple[int, str, str]]  # folded form -> (position, width, context)
    alternatives: frozenset[str]  # every form as written, for the pattern

    @classmethod
    def build(cls, first: int, written: Written) -> "Names":
        forms: dict[str, tuple[int, str, str]] = {}
        alternatives: set[str] = set()
        for (width, context), names in written.items():
            wide = written[("wide", context)]
            for position, name in enumerate(names):
                for form in _forms(name, wide[position]):
                    forms.setdefault(_fold(form), (position, width, context))
                    alternatives.add(form.casefold())
        return cls(first, written, forms, frozenset(alternatives))

    def pattern(self, group: str | None = None) -> str:
        """The names as a case-insensitive whole word; captured as `group` when given."""
        alternatives = sorted(self.alternatives, key=len, reverse=True)
        words = "|".join(regex.escape(a) for a in alternatives)
        opening = f"(?P<{group}>" if group else "(?:"
        return rf"(?<!\p{{L}}){opening}(?i:{words}))(?!\p{{L}})"

    def read(self, text: str) -> tuple[int, Callable[[int], str]] | None:
        """The value of a written name and a writer that writes another value the same way."""
        found = self.forms.get(_fold(text))
        if found is None:
            return None
        position, width, context = found
        dotted = text.endswith(".")
        name = self.written[(width, context)][position]
        unaccented = plain(text) == text and plain(name) != name  # written without the accents CLDR has

        def write(value: int) -> str:
            wide = self.written[("wide", context)][value - self.first]
            word = self.written[(width, context)][value - self.first].rstrip(".")
            if dotted and len(word) < len(wide):
                word += "."
            return match_case(text, plain(word) if unaccented else word)

        return position + self.first, write


def _forms(name: str, wide: str) -> set[str]:
    bare = name.rstrip(".")
    forms = {name, bare}
    if len(bare) < len(wide):
        forms.add(bare + ".")
    return forms | {plain(form) for form in forms}


def _with_prefixes(written: Written) -> Written:
    """Add three-letter prefixes of the wide names ("sep", "tor") when they tell the names apart."""
    for context in ("format", "stand-alone"):
        prefixes = tuple(name[:3] for name in written[("wide", context)])
        if len({_fold(p) for p in prefixes}) == len(prefixes):
            written[("prefix", context)] = prefixes
    return written


@cache
def month_names(language: str) -> Names:
    return Names.build(1, _with_prefixes(_cldr(get_month_names, language, range(1, 13))))


@cache
def weekday_names(language: str) -> Names:
    return Names.build(0, _with_prefixes(_cldr(get_day_names, language, range(7))))


def _cldr(getter: Callable[..., Mapping[int, str]], language: str, keys: range) -> Written:
    try:
        return {
            (width, context): tuple(getter(width, context, locale=language)[key] for key in keys)
            for width in ("wide", "abbreviated")
            for context in ("format", "stand-alone")
        }
    except (UnknownLocaleError, ValueError):
        raise LocaleError(f"language {language!r} is not known to CLDR: no month or weekday names") from None


# -- templates -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slot:
    """A place in a template: which value goes there and how it is written."""

    field: str  # day, month, year, week or weekday
    write: Callable[[int], str]


Piece = str | Slot


def render(pieces: Sequence[Piece], values: Mapping[str, int]) -> str:
    return "".join(piece if isinstance(piece, str) else piece.write(values[piece.field]) for piece in pieces)


@dataclass(frozen=True)
class DateText:
    """One written date, possibly partial: its place, its template and what it says.

    `values` may hold fields that are not written (a range end inherits the month and year of
    the other end); `shown` are those the template writes.
    """

    start: int
    end: int
    pieces: tuple[Piece, ...]
    values: Mapping[str, int]
    kind: str

    @property
    def shown(self) -> frozenset[str]:
        return frozenset(piece.field for piece in self.pieces if isinstance(piece, Slot))

    @property
    def dated(self) -> frozenset[str]:
        """The date fields known (day, month, year), written or inherited."""
        return frozenset(self.values) & frozenset(DATE_FIELDS)


@dataclass(frozen=True)
class Expression:
    """A date, or a range of two dates with the text joining them."""

    parts: tuple[DateText, ...]
    joiners: tuple[str, ...] = ()

    @property
    def start(self) -> int:
        return self.parts[0].start

    @property
    def end(self) -> int:
        return self.parts[-1].end

    @property
    def inherited(self) -> frozenset[str]:
        return frozenset().union(*(frozenset(p.values) - p.shown for p in self.parts))

    def render(self, new: Sequence[Mapping[str, int]]) -> str:
        """The expression with new values. When range ends that share a written month or year
        no longer agree on it (30 mars-2 april), both ends are written in full."""
        templates = [part.pieces for part in self.parts]
        first, last = self.parts[0].values, self.parts[-1].values
        if any(_agree(first, last, name) and not _agree(new[0], new[-1], name) for name in self.inherited):
            templates = [_union(self.parts)] * len(self.parts)
        text = render(templates[0], new[0])
        for joiner, pieces, values in zip(self.joiners, templates[1:], new[1:]):
            text += joiner + render(pieces, values)
        return text


def _agree(first: Mapping[str, int], second: Mapping[str, int], name: str) -> bool:
    return first.get(name) == second.get(name)


def _union(parts: Sequence[DateText]) -> tuple[Piece, ...]:
    """The first end's template, then each field only a later end writes, with the text before it."""
    pieces = list(parts[0].pieces)
    shown = set(parts[0].shown)
    for part in parts[1:]:
        before = ""
        for piece in part.pieces:
            if isinstance(piece, str):
                before = piece
                continue
            if piece.field not in shown and piece.field != "weekday":
                pieces += [before, piece]
                shown.add(piece.field)
            before = ""
    return tuple(pieces)


# -- grammar -------------------------------------------------------------------------------

_H = r"[^\S\n]"  # a space that does not end the line

# Candidate patterns, the preferred first when two read the same text. `$`-names are filled
# per locale (an X-name is the same without capturing, for lookarounds). Groups: d day, m month,
# y year, a/b day and month in the locale's order, mon month name, wd weekday name, w week
# number, ord ordinal suffix, s a separator that must repeat.
_PATTERNS: tuple[tuple[str, str], ...] = (
    ("compact", r"(?<!\d)(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?!\d)"),
    ("compact", r"(?<!\d)$COMPACT6(?!\d)"),
    ("numeric", r"(?<!\d)(?P<y>\d{4})(?P<s>[-/. ])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?!\d)"),
    (
        "numeric",
        r"(?<!\d)(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?:(?P=s)|$H+(?P=s)$H*|$H*-$H*|$H+(?=\d{4}))"  # "12/04 /2011" too
        r"(?P<y>\d{4}|\d{2})(?!\d|[-/.]\d)",
    ),
    ("numeric", r"(?<!\d)(?P<a>\d{1,2})$H(?P<b>\d{1,2})$H(?P<y>\d{4})(?!\d)"),
    ("named", r"$DAY\.?$JOIN$MON(?:$JOIN(?P<y>\d{4})|$H*[-/.']$H*(?P<y>\d{2}))?(?!\d)"),
    ("named", r"$MONTH_YY$MON$H+(?P<y>0\d|3[2-9]|[4-9]\d)(?!\d|[-/.:,]?$H*\d|$JOIN\d{4})"),  # "junio 04" where the day leads: June 2004
    ("named", r"$MON(?:$H+|$H*\.$H*)$DAY(?:,?$H+(?P<y>\d{4})(?!\d))?"),
    ("named", r"$MON(?P<s>[-/])(?P<d>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})(?!\d)"),
    ("named", r"$MON(?:$JOIN(?P<y>\d{4})(?!\d)|$H*[-/.']$H*(?P<y>\d{2})(?![-/.]?\d))"),
    ("month-year", r"(?<![\d.\-/])(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?!\d|(?P=s)\d)"),
    ("month-year", r"(?<!\d)(?P<m>\d{1,2})[-/.](?P<y>\d{4})(?!\d|[-/.]\d)"),
    ("month-year", r"(?<![\d.\-/])(?P<m>\d{1,2})/(?P<y>3[2-9]|[4-9]\d)(?!\d|[-/.]\d)"),  # 8/87: no day is 87
    ("day-month", r"$NOT_TIME(?<!\d)(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?!\d|(?P=s)\d|$JOIN$MONX)"),
    ("range-day", r"$DAY\.?(?=$DASH\d{1,2}(?:$ORDX)?\.?$JOIN$MONX)"),
    ("range-day", r"(?<=$MONX(?:$H+|$H*\.$H*)\d{1,2}(?:$ORDX)?$DASH)$DAY(?:,?$H+(?P<y>\d{4})(?!\d))?"),
    ("week", r"(?<=(?<![\p{L}\p{N}])$WEEK$H*)(?P<w>\d{1,2})(?!\d)(?:(?:,$H*|$H+)(?P<y>\d{4})(?![-/.]?\d))?"),
    ("day", r"(?<=(?<![\p{L}\p{N}])$DAYWORD$H*)$DAY"),
    ("year", r"(?<![\p{L}\p{N}])(?P<y>[12]\d{3})(?!\p{N})"),
    ("month", r"$MON"),
    ("weekday", r"$WD"),
)
_COMPACT6 = {
    "YMD": r"(?P<y>\d{2})(?P<m>\d{2})(?P<d>\d{2})",
    "DMY": r"(?P<d>\d{2})(?P<m>\d{2})(?P<y>\d{2})",
    "MDY": r"(?P<m>\d{2})(?P<d>\d{2})(?P<y>\d{2})",
}
_PADDED_BY_DEFAULT = ("compact", "numeric")  # 10/11/2012 keeps two digits: 05/12/2012


def _alternatives(words: Iterable[str]) -> str:
    """Any of the words, case-insensitive, not followed by a letter ("v12" is week 12); never
    matches when empty."""
    ordered = sorted(set(words), key=len, reverse=True)
    if not ordered:
        return "(?!)"
    return r"(?:(?i:" + "|".join(regex.escape(word) for word in ordered) + r")(?!\p{L}))"


@dataclass(frozen=True, eq=False)
class Grammar:
    words: DateWords
    months: Names
    weekdays: Names
    patterns: tuple[tuple[str, regex.Pattern], ...]
    range_joiner: regex.Pattern
    ordinal_category: Callable[[int], str]


@cache
def grammar(words: DateWords) -> Grammar:
    """The locale's patterns, compiled once per DateWords."""
    months = month_names(words.language)
    ordinals = _alternatives(suffix for _, suffix in words.ordinal_suffixes)
    dash = rf"(?:{_H}*[-–—]{_H}*|{_H}+{_alternatives(words.range_words)}{_H}+)"
    fill = {
        "H": _H,
        "MON": months.pattern("mon"),
        "MONX": months.pattern(),
        "WD": weekday_names(words.language).pattern("wd"),
        "ORDX": ordinals,
        "DAY": rf"(?<!\d)(?P<d>\d{{1,2}})(?!\d)(?P<ord>{ordinals})?",
        "JOIN": rf"(?:{_H}*[-/.,]?{_H}*)(?:{_alternatives(words.connectors)}{_H}+)?",
        "DASH": dash,
        "WEEK": _alternatives(words.week_words),
        "DAYWORD": _alternatives(words.day_words),
        "NOT_TIME": rf"(?<!(?<![\p{{L}}\p{{N}}]){_alternatives(words.time_words)}{_H}*)" if words.time_words else "",
        "COMPACT6": _COMPACT6[words.order],
        "MONTH_YY": "(?!)" if words.order == "MDY" else "",
    }
    patterns = tuple(
        (kind, regex.compile(Template(source).substitute(fill)))
        for kind, source in _PATTERNS
        if not ("$WEEK" in source and not words.week_words) and not ("$DAYWORD" in source and not words.day_words)
    )
    locale = Locale.parse(words.language)
    return Grammar(words, months, weekday_names(words.language), patterns, regex.compile(dash), locale.ordinal_form)


# -- reading -------------------------------------------------------------------------------


def _year(digits: str) -> int:
    value = int(digits)
    if len(digits) == 4:
        return value
    return value + (2000 if value <= CENTURY_PIVOT else 1900)


def _write_year(width: int) -> Callable[[int], str]:
    return lambda year: f"{year % 100:02d}" if width == 2 else str(year)


def _write_number(width: int) -> Callable[[int], str]:
    return lambda value: str(value).zfill(width)


def _padding(digits: Sequence[str], default: int) -> int:
    """2 when a number of the date is zero-padded, 1 when one is a single digit, else `default`."""
    if any(len(d) == 2 and d.startswith("0") for d in digits):
        return 2
    if any(len(d) == 1 for d in digits):
        return 1
    return default


def full_date(part: "DateText") -> date | None:
    """The calendar date a written date names, when it names day, month and year."""
    if part.dated != frozenset(DATE_FIELDS):
        return None
    return date(part.values["year"], part.values["month"], part.values["day"])


def is_valid(values: Mapping[str, int]) -> bool:
    """Whether the known fields can belong to one real date (a year-less 29/2 can)."""
    day, month, year = values.get("day"), values.get("month"), values.get("year")
    if year is not None and not 1000 <= year <= 2999:
        return False
    if "week" in values:
        try:
            date.fromisocalendar(year or LEAP_YEAR, values["week"], 1)
        except ValueError:
            return False
        return True
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None:
        try:
            date(year or LEAP_YEAR, month or 1, day)
        except ValueError:
            return False
    return True


def _numbers(match: regex.Match, order: str) -> list[tuple[str, str]]:
    """(field, group) for the numeric groups of a match; a/b become day and month in `order`."""
    groups = match.groupdict()
    named = {"d": "day", "m": "month", "y": "year", "w": "week"}
    pairs = [(named[group], group) for group in named if groups.get(group) is not None]
    if groups.get("a") is not None:
        first, second = ("month", "day") if order == "MDY" else ("day", "month")
        pairs += [(first, "a"), (second, "b")]
    return pairs


def _read(match: regex.Match, kind: str, g: Grammar) -> DateText | None:
    """A DateText from a match, or None when the numbers do not make a date (32/13)."""
    numbers = _numbers(match, g.words.order)
    readings = [numbers, _swapped(numbers)] if match.groupdict().get("a") is not None else [numbers]
    for numbers in readings:
        found = _template(match, kind, numbers, g)
        if found is not None and is_valid(found.values):
            return found
    return None


def _swapped(numbers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Day and month the other way round: 25/03/2012 in an MDY text can only be 25 March."""
    other = {"a": "b", "b": "a"}
    return [(field, other.get(group, group)) for field, group in numbers]


def _template(match: regex.Match, kind: str, numbers: list[tuple[str, str]], g: Grammar) -> DateText | None:
    values: dict[str, int] = {}
    slots: list[tuple[int, int, Slot]] = []
    day_month = [match.group(group) for field, group in numbers if field in ("day", "month")]
    width = _padding(day_month, 2 if kind in _PADDED_BY_DEFAULT else 1)
    for field, group in numbers:
        digits = match.group(group)
        if field == "year":
            values[field] = _year(digits)
            write = _write_year(len(digits))
        else:
            values[field] = int(digits)
            write = _write_number(width if field != "week" else _padding([digits], 1))
        slots.append((*match.span(group), Slot(field, write)))
    for group, names, field in (("mon", g.months, "month"), ("wd", g.weekdays, "weekday")):
        if match.groupdict().get(group) is not None:
            read = names.read(match.group(group))
            if read is None:
                return None
            values[field], write = read
            slots.append((*match.span(group), Slot(field, write)))
    if match.groupdict().get("ord") is not None:
        slots.append((*match.span("ord"), Slot("day", _write_ordinal(match.group("ord"), g))))
    return DateText(match.start(), match.end(), _pieces(match, slots), values, kind)


def _write_ordinal(written: str, g: Grammar) -> Callable[[int], str]:
    suffixes = dict(g.words.ordinal_suffixes)
    return lambda day: match_case(written, suffixes.get(g.ordinal_category(day), suffixes.get("other", written)))


def _pieces(match: regex.Match, slots: list[tuple[int, int, Slot]]) -> tuple[Piece, ...]:
    pieces: list[Piece] = []
    cursor = match.start()
    for start, end, slot in sorted(slots, key=lambda item: item[0]):
        if start > cursor:
            pieces.append(match.string[cursor:start])
        pieces.append(slot)
        cursor = end
    if match.end() > cursor:
        pieces.append(match.string[cursor : match.end()])
    return tuple(pieces)


# -- finding -------------------------------------------------------------------------------

_WEEKDAY_GAP = regex.compile(r"[^\S\n]*[,(]?[^\S\n]*")
_LIST_GAP = regex.compile(r"[\s,]*")
_CLOCK = regex.compile(r"(?P<h>\d{1,2})\.(?P<min>\d{2})")


def find_dates(text: str, words: DateWords, start: int = 0, end: int | None = None) -> list[Expression]:
    """The date expressions within text[start:end], in order; offsets are into `text`, and the
    text around the window is seen as context (a week word before a span, for instance). The
    engine, the date rule, the clock and the sweep read the same spans: each is parsed once."""
    return list(_found_dates(text, words, start, end))


@lru_cache(maxsize=2048)  # a str caches its hash, and a hit on the same document's text compares by identity
def _found_dates(text: str, words: DateWords, start: int, end: int | None) -> tuple[Expression, ...]:
    g = grammar(words)
    atoms = _atoms(text, g, start, len(text) if end is None else end)
    atoms = _with_weekdays(text, _without_clock_times(text, atoms))
    return tuple(_ranges(text, atoms, g))


# Every pattern starts its match where a run of digits or of letters begins: a number behind
# (?<!\d) or a lookbehind ending in a space or a word, a month or weekday name behind (?<!\p{L}).
# Matching only there finds what an overlapped scan of every position finds, with far fewer tries.
_DIGIT_RUN = regex.compile(r"(?<!\d)\d")
_LETTER_RUN = regex.compile(r"(?<!\p{L})\p{L}")
_STARTS_WITH_NAME = frozenset({"month", "weekday"})  # "named" starts either way; the rest with a digit


def _atoms(text: str, g: Grammar, start: int, end: int) -> list[DateText]:
    """The dates of text[start:end], left to right: at each place where a date can start and that
    no chosen date covers, the longest match, then the preferred pattern, whose numbers make a
    date (not 32/13); no overlaps."""
    digits = {m.start() for m in _DIGIT_RUN.finditer(text, start, end)}
    letters = {m.start() for m in _LETTER_RUN.finditer(text, start, end)}
    named = bool(digits and letters)  # a "named" date holds a number and a month name
    chosen: list[DateText] = []
    for position in sorted(digits | letters):
        if chosen and position < chosen[-1].end:
            continue
        found = []
        for priority, (kind, pattern) in enumerate(g.patterns):
            fits = named if kind == "named" else (kind in _STARTS_WITH_NAME) == (position in letters)
            if not fits:
                continue
            match = pattern.match(text, position, end)
            if match is not None:
                found.append((position - match.end(), priority, match, kind))
        for _, _, match, kind in sorted(found, key=lambda c: c[:2]):
            atom = _read(match, kind, g)
            if atom is not None:
                chosen.append(atom)
                break
    return chosen


def _without_clock_times(text: str, atoms: list[DateText]) -> list[DateText]:
    """Drop "14.30" right after a full date: it is the time of day, not 14 March."""
    kept: list[DateText] = []
    for atom in atoms:
        clock = _CLOCK.fullmatch(text, atom.start, atom.end)
        previous = kept[-1] if kept else None
        after_date = previous and previous.dated == frozenset(DATE_FIELDS) and _LIST_GAP.fullmatch(text, previous.end, atom.start)
        if atom.kind == "day-month" and clock and after_date and int(clock["h"]) < 24 and int(clock["min"]) < 60:
            continue
        kept.append(atom)
    return kept


def _with_weekdays(text: str, atoms: list[DateText]) -> list[DateText]:
    """A weekday name next to a date becomes part of it, to be recomputed for the new date."""
    merged: list[DateText] = []
    for atom in atoms:
        previous = merged[-1] if merged else None
        if previous is not None and _weekday_of(text, previous, atom):
            merged[-1] = _merge(text, previous, atom)
        else:
            merged.append(atom)
    return merged


def _weekday_of(text: str, first: DateText, second: DateText) -> bool:
    kinds = {first.kind, second.kind}
    date_part = second if first.kind == "weekday" else first
    return (
        "weekday" in kinds
        and len(kinds) == 2
        and "day" in date_part.values
        and "weekday" not in date_part.values
        and _WEEKDAY_GAP.fullmatch(text, first.end, second.start) is not None
    )


def _merge(text: str, first: DateText, second: DateText) -> DateText:
    gap = text[first.end : second.start]
    pieces = first.pieces + ((gap,) if gap else ()) + second.pieces
    kind = second.kind if first.kind == "weekday" else first.kind
    return DateText(first.start, second.end, pieces, {**first.values, **second.values}, kind)


def _ranges(text: str, atoms: list[DateText], g: Grammar) -> list[Expression]:
    """Pair dates joined by a dash or a range word; an end lacking the month or year takes it
    from the other end (3-5 mars 2012, March 3-5, 2012, 22/5-25/5 2012)."""
    expressions: list[Expression] = []
    index = 0
    while index < len(atoms):
        pair = _range(text, atoms[index : index + 2], g)
        expressions.append(pair or Expression((atoms[index],)))
        index += 2 if pair else 1
    return expressions


def _range(text: str, pair: list[DateText], g: Grammar) -> Expression | None:
    if len(pair) < 2 or not g.range_joiner.fullmatch(text, pair[0].end, pair[1].start):
        return None
    linked = _link(pair[0], pair[1])
    return Expression(linked, (text[pair[0].end : pair[1].start],)) if linked else None


def _link(first: DateText, second: DateText) -> tuple[DateText, DateText] | None:
    first, second = _inherit(first, second), _inherit(second, first)
    if not first.dated or first.dated != second.dated:
        return None
    return _in_order(first, second)


def _in_order(first: DateText, second: DateText) -> tuple[DateText, DateText]:
    """An inherited year that would make the range run backwards belongs to the next or the
    previous year: Dec 28 - Jan 3, 2013 starts in 2012."""
    if _key(first) <= _key(second) or "year" not in first.values:
        return first, second
    if "year" not in first.shown:
        earlier = _with(first, year=first.values["year"] - 1)
        return (earlier, second) if is_valid(earlier.values) else (first, second)
    if "year" not in second.shown:
        later = _with(second, year=second.values["year"] + 1)
        return (first, later) if is_valid(later.values) else (first, second)
    return first, second


def _key(part: DateText) -> tuple[int, ...]:
    return tuple(part.values.get(name, 0) for name in ("year", "month", "day"))


def _with(part: DateText, **values: int) -> DateText:
    return DateText(part.start, part.end, part.pieces, {**part.values, **values}, part.kind)


def _inherit(part: DateText, other: DateText) -> DateText:
    values = dict(part.values)
    if "day" in values and "month" not in values and "month" in other.values:
        values["month"] = other.values["month"]
    if "month" in values and "year" not in values and "year" in other.values:
        values["year"] = other.values["year"]
    if values == part.values or not is_valid(values):
        return part
    return _with(part, **values)


# -- a pack's date words -------------------------------------------------------------------


def date_words(pack: LocalePack | None, order: str | None) -> DateWords:
    """The locale's date words; English CLDR names and no words without a pack."""
    if pack is None:
        return DateWords.from_settings("en", DateSettings(), order)
    return pack.cached(f"date-words:{order}", lambda: DateWords.from_settings(pack.language, pack.settings.dates, order))


def _birth_cue_pattern(pack: LocalePack) -> regex.Pattern | None:
    def make() -> regex.Pattern | None:
        cues = pack.settings.dates.birth_cues
        if not cues:
            return None
        alternatives = "|".join(regex.escape(cue) for cue in sorted(cues, key=len, reverse=True))
        return regex.compile(rf"(?<![\p{{L}}\p{{N}}])(?i:{alternatives})(?![\p{{L}}\p{{N}}])")

    return pack.cached("birth-cues", make)


def is_birth_date(text: str, start: int, first_date: int, pack: LocalePack | None) -> bool:
    """Whether a birth cue stands in the 40 characters before a date span (`start`) or inside it
    before its first date, with no digit after the cue; shared by the date rule and `pseudo audit`."""
    pattern = _birth_cue_pattern(pack) if pack else None
    if pattern is None:
        return False
    before = text[max(0, start - BIRTH_WINDOW) : first_date]
    before = _SINCE_LAST_DIGIT.search(before).group()  # "född 1946, inlagd 2016": the cue is 1946's
    return pattern.search(before) is not None
