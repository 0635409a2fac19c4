"""Numeric dates, read well enough to compare them: the checker needs no full date grammar.

Written dates ("3 de marzo de 2001") are not read; a date whose year is missing or written
with two digits is left alone rather than guessed.
"""

from __future__ import annotations

import datetime as dt

import regex

_ISO = regex.compile(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})")
_COMPACT = regex.compile(r"((?:1[89]|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])")
_SEPARATED = regex.compile(r"(\d{1,2})([-./])(\d{1,2})\2(\d{4})")

# Date-like strings, with or without a year, as a reader would notice them in running text.
DATE_LIKE = regex.compile(
    r"(?<![\w/]|\d[.,])(?:"
    r"\d{4}-\d{1,2}-\d{1,2}"
    r"|(?:1[89]|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"|\d{1,2}([./-])\d{1,2}\1\d{2,4}"
    r"|(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])"
    r")(?![\w/]|[.,]\d)"
)


def day_first(order: object) -> bool:
    """Is 3/4/2012 the 3rd of April? Yes unless the pack's `settings.dates.order` is month-first
    ("MDY", "m/d/y"); a year-first order (ISO) says nothing about slashed dates, read day-first."""
    letters = [c for c in str(order or "DMY").upper() if c in "DMY"]
    return letters[:2] != ["M", "D"]


def parse_date(text: str, dayfirst: bool = True) -> dt.date | None:
    """A full numeric date: ISO (2012-03-11), compact (20120311) or separated (11/3/2012)."""
    text = text.strip()
    if match := _ISO.fullmatch(text) or _COMPACT.fullmatch(text):
        year, month, day = (int(g) for g in match.groups())
    elif match := _SEPARATED.fullmatch(text):
        first, _, second, year_text = match.groups()
        day, month = (int(first), int(second)) if dayfirst else (int(second), int(first))
        year = int(year_text)
    else:
        return None
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None
