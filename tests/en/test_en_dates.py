"""US dates through the real pack: every US layout moves by the scope's one offset and keeps its
layout; a two-digit year stays two digits; whole-week offsets keep the weekday."""

from __future__ import annotations

import datetime as dt

import regex
from en_helpers import run_many

ORIGINAL = dt.date(2012, 3, 3)  # a Saturday
LAYOUTS = [  # (as written, pattern of the layout, how to read the surrogate back)
    ("3/3/12", r"(\d{1,2})/(\d{1,2})/(\d\d)", lambda m: dt.date(2000 + int(m[3]), int(m[1]), int(m[2]))),
    ("03/03/2012", r"(\d\d)/(\d\d)/(\d{4})", lambda m: dt.date(int(m[3]), int(m[1]), int(m[2]))),
    ("2012-03-03", r"(\d{4})-(\d\d)-(\d\d)", lambda m: dt.date(int(m[1]), int(m[2]), int(m[3]))),
    ("March 3rd, 2012", r"([A-Z][a-z]+) (\d{1,2})(st|nd|rd|th), (\d{4})", lambda m: _named(m[1], m[2], m[4], m[3])),
    ("Saturday, March 3, 2012", r"([A-Z][a-z]+day), ([A-Z][a-z]+) (\d{1,2}), (\d{4})", lambda m: _weekday(m[1], _named(m[2], m[3], m[4]))),
    ("Sat 3/3/12", r"([A-Z][a-z]{2}) (\d{1,2})/(\d{1,2})/(\d\d)", lambda m: _weekday(m[1], dt.date(2000 + int(m[4]), int(m[2]), int(m[3])))),
]


def _named(month: str, day: str, year: str, suffix: str | None = None) -> dt.date:
    date = dt.datetime.strptime(f"{month} {day} {year}", "%B %d %Y").date()
    if suffix is not None:
        assert suffix == {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(date.day, "th")
    return date


def _weekday(word: str, date: dt.date) -> dt.date:
    assert date.strftime("%A").startswith(word), (word, date)  # the weekday written is the new date's
    return date


def test_us_layouts_move_together_and_keep_their_layout_and_weekday():
    text = "Seen " + "; ".join(written for written, _, _ in LAYOUTS) + "."
    for drawn in run_many(text, [(written, "DATE") for written, _, _ in LAYOUTS]):
        dates = set()
        for (written, pattern, read), new in zip(LAYOUTS, drawn):
            found = regex.fullmatch(pattern, new)
            assert found and new != written, (written, new)
            dates.add(read(found))
        assert len(dates) == 1, drawn  # one clock per scope
        [date] = dates
        assert date != ORIGINAL and (date - ORIGINAL).days % 7 == 0 and date.weekday() == ORIGINAL.weekday()


def test_a_two_digit_year_across_a_century_stays_two_digits():
    text = "Admitted 12/28/99, discharged 1/2/00."
    for admitted, discharged in run_many(text, [("12/28/99", "DATE"), ("1/2/00", "DATE")]):
        first, second = (regex.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d\d)", d) for d in (admitted, discharged))
        assert first and second, (admitted, discharged)
        start = dt.date(1900 + int(first[3]) if int(first[3]) > 50 else 2000 + int(first[3]), int(first[1]), int(first[2]))
        end = dt.date(1900 + int(second[3]) if int(second[3]) > 50 else 2000 + int(second[3]), int(second[1]), int(second[2]))
        assert (end - start).days == 5  # the stay keeps its length across the turn of the century
