"""Check-digit validators for national identifiers, as a reader with a calculator would check them.

Each validator answers True (valid), False (the right shape with a wrong check digit) or None
(not this kind of identifier), so an identifier of another kind is never counted as wrong.
"""

from __future__ import annotations

from typing import Callable

import regex

from pseudo.rules.ids import luhn_valid

_PERSONNUMMER = regex.compile(r"(?:\d\d)?(\d\d)(\d\d)(\d\d)[-+]?(\d{4})")
_DNI = regex.compile(r"(\d{8})[- ]?([A-Za-z])")
_NIE = regex.compile(r"([XYZxyz])[- ]?(\d{7})[- ]?([A-Za-z])")
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def personnummer(text: str) -> bool | None:
    """Swedish personnummer or samordningsnummer (day + 60): Luhn over the ten-digit form."""
    match = _PERSONNUMMER.fullmatch(text.strip())
    if not match:
        return None
    year, month, day, tail = match.groups()
    if not (1 <= int(month) <= 12 and (1 <= int(day) <= 31 or 61 <= int(day) <= 91)):
        return None
    return luhn_valid(year + month + day + tail)


def dni_nie(text: str) -> bool | None:
    """Spanish DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits, a letter): letter = number mod 23."""
    text = text.strip()
    if match := _DNI.fullmatch(text):
        number, letter = match.groups()
    elif match := _NIE.fullmatch(text):
        lead, digits, letter = match.groups()
        number = str("XYZ".index(lead.upper())) + digits
    else:
        return None
    return DNI_LETTERS[int(number) % 23] == letter.upper()


VALIDATORS: dict[str, tuple[Callable[[str], bool | None], ...]] = {
    "sv": (personnummer,),
    "es": (dni_nie,),
}


def validators_for(language: str | None) -> tuple[Callable[[str], bool | None], ...]:
    """A language's validators; without a language every validator, each strict about its shape."""
    if language is None:
        return tuple(v for group in VALIDATORS.values() for v in group)
    return VALIDATORS.get(language.split("-")[0].split("_")[0], ())


def check_digit_valid(text: str, language: str | None) -> bool | None:
    for validator in validators_for(language):
        verdict = validator(text)
        if verdict is not None:
            return verdict
    return None
