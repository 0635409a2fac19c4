"""English (US): the genitive of names, numbers in words, and US identifier numbers.

The genitive is written 's ("Mary's"), or a bare apostrophe after a final s ("James'"); the
surrogate takes the original's apostrophe and the form its own ending calls for, so "Mary's" and
"Mary" share one surrogate.

Ages are often written in words ("seventy-two-year-old", "a forty five year old man");
`read_numbers` and `write_number` let the age rule shift them like digits.

Identifiers (Social Security Administration; CMS NPI standard; DEA registration format):
- SSN: AAA-GG-SSSS; never area 000, 666 or 900-999, group 00 or serial 0000. A surrogate keeps the
  layout and is drawn inside those rules.
- NPI: ten digits starting 1 or 2, the last a Luhn check over the prefix 80840 and the first nine.
- DEA number: two letters and seven digits; the registrant-type letter stays, the second letter
  (the registrant's surname initial) is drawn by the initials of the pack's surnames, and the
  last digit is the last digit of (d1 + d3 + d5) + 2 * (d2 + d4 + d6).
MRNs and account numbers need no scheme: every identifier gets digits redrawn in its own layout.
`ID_CHECKS` answers whether a number's check digit is right (for `pseudo tells`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import regex

from pseudo.digits import digits_of, replace_digits
from pseudo.keyed import KeyedStream
from pseudo.rules.ids import luhn_check_digit, luhn_valid

if TYPE_CHECKING:
    from pseudo.model import Target
    from pseudo.rules.base import Context

APOSTROPHES = ("'", "’")

# -- the genitive ------------------------------------------------------------------------------


def split_inflection(word: str, known: Callable[[str], int]) -> tuple[str, str]:
    """(base, genitive marker): "Mary's" -> ('Mary', "'s"), "James'" -> ('James', "'"), 'Mary' -> ('Mary', '')."""
    if len(word) > 3 and word[-2] in APOSTROPHES and word[-1] in "sS":
        return word[:-2], word[-2:]
    if len(word) > 2 and word[-1] in APOSTROPHES and word[-2] in "sS":
        return word[:-1], word[-1]
    return word, ""


def inflect(surrogate: str, marker: str) -> str:
    """The genitive on the surrogate with the original's apostrophe: 's, or a bare apostrophe where
    the original wrote one after s and the surrogate ends in s too."""
    if not marker:
        return surrogate
    apostrophe = marker[0]
    upper = marker[-1] == "S" or (len(marker) == 1 and surrogate.isupper())
    if len(marker) == 1 and surrogate.casefold().endswith("s"):
        return surrogate + apostrophe
    return surrogate + apostrophe + ("S" if upper else "s")


# -- numbers in words --------------------------------------------------------------------------

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}
_VALUES: dict[str, int] = {
    **{word: value for value, word in enumerate(_UNITS)},
    **{word: value + 10 for value, word in enumerate(_TEENS)},
    **{word: value * 10 for value, word in _TENS.items()},
}
_WORD = regex.compile(r"\p{L}+")


def read_numbers(text: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of each number written in words: 'seventy-two', 'forty five', 'one hundred and two'."""
    words = [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(text)]
    found: list[tuple[int, int, int]] = []
    index = 0

    def joined(i: int) -> bool:  # the next word follows with only a space or hyphen between
        return i < len(words) and regex.fullmatch(r"[\s-]+", text[words[i - 1][1] : words[i][0]]) is not None

    while index < len(words):
        start, end, word = words[index]
        if word not in _VALUES:
            index += 1
            continue
        value = _VALUES[word]
        index += 1
        if value < 10 and joined(index) and words[index][2] == "hundred":
            value, end = value * 100, words[index][1]
            index += 1
            if index + 1 < len(words) and words[index][2] == "and" and words[index + 1][2] in _VALUES:
                index += 1
            if joined(index) and words[index][2] in _VALUES and _VALUES[words[index][2]] < 100:
                value += _VALUES[words[index][2]]
                end = words[index][1]
                index += 1
        if value % 100 >= 20 and value % 10 == 0 and joined(index) and 0 < _VALUES.get(words[index][2], 0) < 10:
            value += _VALUES[words[index][2]]
            end = words[index][1]
            index += 1
        found.append((start, end, value))
    return found


def write_number(value: int) -> str:
    """The cardinal in words as US text writes an age: 'seventy-two', 'one hundred two'."""
    if not 0 <= value < 1000:
        return str(value)
    if value >= 100:
        hundreds, rest = divmod(value, 100)
        return f"{_UNITS[hundreds]} hundred" + (f" {write_number(rest)}" if rest else "")
    if value < 10:
        return _UNITS[value]
    if value < 20:
        return _TEENS[value - 10]
    tens, unit = divmod(value, 10)
    return _TENS[tens] if unit == 0 else f"{_TENS[tens]}-{_UNITS[unit]}"


# -- identifiers ---------------------------------------------------------------------------------

_SSN = regex.compile(r"(?P<area>\d{3})(?P<gap1>[\s-]?)(?P<group>\d{2})(?P<gap2>[\s-]?)(?P<serial>\d{4})")
_NPI = regex.compile(r"[12]\d{9}")
_DEA = regex.compile(r"(?P<type>[A-Za-z])(?P<initial>[A-Za-z9])(?P<gap>[\s-]?)(?P<number>\d{7})")
NPI_PREFIX = "80840"  # the card issuer prefix the NPI check digit is computed over


def _ssn_shape(match: regex.Match) -> bool:
    area, group, serial = match["area"], match["group"], match["serial"]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def ssn(text: str, target: "Target", ctx: "Context", stream: KeyedStream, labelled: bool = False) -> str | None:
    """123-45-6789 (or 123 45 6789; nine digits in one piece only after an SSN label): a number the
    SSA could issue, in the same layout."""
    match = _SSN.fullmatch(text.strip())
    if match is None or not (labelled or (match["gap1"] and match["gap1"] == match["gap2"])):
        return None
    area = stream.between(1, 899)
    while area == 666:
        area = stream.between(1, 899)
    digits = f"{area:03d}{stream.between(1, 99):02d}{stream.between(1, 9999):04d}"
    return replace_digits(text, digits)


def ssn_valid(text: str) -> bool | None:
    """Whether a dashed SSN could be issued (no check digit exists); None for any other text."""
    match = _SSN.fullmatch(text.strip())
    return None if match is None or not match["gap1"] else _ssn_shape(match)


def npi_check_digit(first_nine: str) -> str:
    return luhn_check_digit(NPI_PREFIX + first_nine)


def npi(text: str, target: "Target", ctx: "Context", stream: KeyedStream, labelled: bool = False) -> str | None:
    """A National Provider Identifier: ten digits whose check digit is right (or any ten digits
    starting 1 or 2 after an NPI label); the surrogate keeps the first digit and is valid."""
    digits = digits_of(text)
    if not _NPI.fullmatch(digits) or len(digits) != sum(c.isalnum() for c in text):
        return None
    if not (labelled or luhn_valid(NPI_PREFIX + digits)):
        return None
    body = digits[0] + "".join(stream.digit() for _ in range(8))
    return replace_digits(text, body + npi_check_digit(body))


def npi_valid(text: str) -> bool | None:
    digits = digits_of(text)
    if not _NPI.fullmatch(digits) or len(digits) != sum(c.isalnum() for c in text):
        return None
    return luhn_valid(NPI_PREFIX + digits)


def dea_check_digit(six: str) -> str:
    d = [int(c) for c in six]
    return str((d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10)


def _surname_initial(ctx: "Context", stream: KeyedStream) -> str:
    """A capital drawn as often as surnames of the pack start with it."""
    if ctx.pack is None or not ctx.pack.has("last_names"):
        return stream.choice("ABCDEFGHIJKLMNOPRSTWY")
    surnames = ctx.pack.weighted("last_names")
    return surnames.draw(stream)[0].upper()


def dea(text: str, target: "Target", ctx: "Context", stream: KeyedStream, labelled: bool = False) -> str | None:
    """A DEA registration number (AB1234563): the registrant-type letter kept, a surname initial
    drawn, six new digits and the check digit they call for."""
    match = _DEA.fullmatch(text.strip())
    if match is None or not (labelled or dea_valid(text)):
        return None
    six = "".join(stream.digit() for _ in range(6))
    initial = _surname_initial(ctx, stream)
    initial = initial if match["initial"].isupper() else initial.lower()
    return text.replace(match.group(), f"{match['type']}{initial}{match['gap']}{six}{dea_check_digit(six)}", 1)


def dea_valid(text: str) -> bool | None:
    match = _DEA.fullmatch(text.strip())
    return None if match is None else dea_check_digit(match["number"][:6]) == match["number"][6]


ID_SCHEMES = (ssn, npi, dea)
ID_CHECKS = (ssn_valid, npi_valid, dea_valid)
