"""Swedish: the genitive of names, and Swedish identity numbers.

The genitive adds -s ("Annas"), except after s, x and z, where nothing ("Lars", "Max") or an
apostrophe ("Lars'") is written.

Personnummer and samordningsnummer (the day plus 60) are ÅÅMMDD-NNNN, ÅÅMMDD+NNNN (100 years
or older), ÅÅÅÅMMDDNNNN or ÅÅÅÅMMDD-NNNN; the last digit is a Luhn check over the ten digits
ÅÅMMDDNNN, and the ninth is odd for men, even for women. A surrogate keeps the shape, the kind
and the parity of the sex digit, and its birth date moves with the scope: by the date shift, and
back by the age shift in years, so the age it implies moves as the ages in the text do. A number
is read as one when its first six digits are a date; its own check digit is not required (typed
numbers are often wrong), the surrogate's always is right.

An organisationsnummer is ten digits, NNNNNN-NNNN (or with the century-like prefix 16), whose
third digit is 2 or more, so it never reads as a birth date, and whose last is a Luhn check. A
surrogate keeps the first digit (the legal form: 5 for an aktiebolag) and the layout, draws the
rest with a third digit of 2 or more, and gets its check digit. `ID_CHECKS` answers whether a
number's check digit is right (for `pseudo tells`).
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Callable

import regex

from pseudo.datetext import CENTURY_PIVOT
from pseudo.keyed import KeyedStream
from pseudo.digits import replace_digits
from pseudo.rules.ids import check_like, luhn_check_digit, luhn_valid

if TYPE_CHECKING:
    from pseudo.model import Target
    from pseudo.rules.base import Context

GENITIVE_SILENT = ("s", "x", "z")
APOSTROPHES = ("'", "’")
GENITIVE_DOMINANCE = 20  # "Annas" is read as Anna's when Anna is this many times more common

COORDINATION_DAY = 60  # samordningsnummer: the day of birth plus 60

_NUMBER = regex.compile(r"(?P<century>\d{2})?(?P<date>\d{6})\s?(?P<sign>[-+]?)\s?(?P<serial>\d{3})(?P<check>\d)")
_ORGANISATION = regex.compile(r"(?P<prefix>16)?(?P<number>\d\d[2-9]\d{3})\s?-?\s?(?P<serial>\d{4})")
ORGANISATION_THIRD_DIGITS = "23456789"


def split_inflection(word: str, known: Callable[[str], int]) -> tuple[str, str]:
    """(base, genitive marker): 'Annas' -> ('Anna', 's'), "Lars'" -> ('Lars', "'"), 'Lars' -> ('Lars', '').

    `known` weighs a spelling in the lists (0: absent). A census lists rare names such as
    "Annas" too, so a final s is the genitive when the base is far more common than the word.
    """
    if word.endswith(APOSTROPHES) and len(word) > 2:
        return word[:-1], word[-1]
    if word.endswith(("s", "S")) and len(word) > 2 and known(word[:-1]) > GENITIVE_DOMINANCE * known(word):
        return word[:-1], word[-1]
    return word, ""


def inflect(surrogate: str, marker: str) -> str:
    """Put the original's genitive on the surrogate, by the surrogate's own ending."""
    if not marker:
        return surrogate
    silent = surrogate.casefold().endswith(GENITIVE_SILENT)
    if marker in APOSTROPHES:
        return surrogate + marker if silent else surrogate + "s"
    return surrogate if silent else surrogate + ("S" if marker.isupper() else "s")


def _birth_date(century: str | None, date: str, sign: str) -> datetime.date | None:
    yy, month, day = int(date[:2]), int(date[2:4]), int(date[4:6])
    if day > COORDINATION_DAY:
        day -= COORDINATION_DAY
    if century:
        year = int(century) * 100 + yy
    else:
        year = (1900 if yy > CENTURY_PIVOT else 2000) + yy - (100 if sign == "+" else 0)
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def personnummer(text: str, target: "Target", ctx: "Context", stream: KeyedStream, labelled: bool = False) -> str | None:
    """A personnummer or samordningsnummer for one, its Luhn digit right where the original's was
    (wrong where it was wrong: an invented number), or None when the text is neither."""
    match = _NUMBER.fullmatch(text.strip())
    if match is None:
        return None
    century, date, sign, serial = match.group("century", "date", "sign", "serial")
    born = _birth_date(century, date, sign)
    if born is None:
        return None
    moved = ctx.services.clock.birth_date(born, ctx.document, ctx.pack)
    day = moved.day + (COORDINATION_DAY if int(date[4:6]) > COORDINATION_DAY else 0)
    new_date = f"{moved.year % 100:02d}{moved.month:02d}{day:02d}"
    sex = ctx.services.person.sex_near(target.span.start, ctx.document) if ctx.pack and ctx.pack.has("first_names_female") else None
    sex_parity = {"female": 0, "male": 1}.get(sex or "", int(serial[2]) % 2)  # the record's person, where it says
    new_serial = f"{stream.below(100):02d}{stream.choice([d for d in range(10) if d % 2 == sex_parity])}"
    digits = (f"{moved.year // 100:02d}" if century else "") + new_date + new_serial
    return replace_digits(text, digits + check_like(luhn_check_digit(new_date + new_serial), personnummer_valid(text), stream))


def personnummer_valid(text: str) -> bool | None:
    """Whether the Luhn digit of a personnummer or samordningsnummer is right; None for any other text."""
    match = _NUMBER.fullmatch(text.strip())
    if match is None or _birth_date(*match.group("century", "date", "sign")) is None:
        return None
    return luhn_valid(match["date"] + match["serial"] + match["check"])


def organisationsnummer(text: str, target: "Target", ctx: "Context", stream: KeyedStream, labelled: bool = False) -> str | None:
    """An organisationsnummer of the same legal form and layout, valid where the original was, or
    None for any other text."""
    match = _ORGANISATION.fullmatch(text.strip())
    if match is None:
        return None
    first = match["number"][0]
    drawn = first + stream.digit() + stream.choice(ORGANISATION_THIRD_DIGITS) + "".join(stream.digit() for _ in range(6))
    return replace_digits(text, (match["prefix"] or "") + drawn + check_like(luhn_check_digit(drawn), organisationsnummer_valid(text), stream))


def organisationsnummer_valid(text: str) -> bool | None:
    """Whether an organisationsnummer's Luhn digit is right; None for any other text."""
    match = _ORGANISATION.fullmatch(text.strip())
    return None if match is None else luhn_valid(match["number"] + match["serial"])


ID_SCHEMES = (personnummer, organisationsnummer)
ID_CHECKS = (personnummer_valid, organisationsnummer_valid)
