"""Digit positions of a text: what identifiers, phones and postcodes read and write back."""

from __future__ import annotations

import re

_NOT_DECIMAL = re.compile(r"\D")  # the standard library's \d is str.isdecimal: Unicode's decimal digits


def digits_of(text: str) -> str:
    """The decimal digits of a text, in any script: the positions `replace_digits` writes to."""
    return _NOT_DECIMAL.sub("", text)


def replace_digits(template: str, digits: str) -> str:
    """Write digits into the digit positions of template, keeping every other character."""
    feed = iter(digits)
    return "".join(next(feed) if c.isdecimal() else c for c in template)
