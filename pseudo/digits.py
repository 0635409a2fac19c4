"""Digit positions of a text: what identifiers, phones and postcodes read and write back."""

from __future__ import annotations


def digits_of(text: str) -> str:
    """The decimal digits of a text, in any script: the positions `replace_digits` writes to."""
    return "".join(c for c in text if c.isdecimal())


def replace_digits(template: str, digits: str) -> str:
    """Write digits into the digit positions of template, keeping every other character."""
    feed = iter(digits)
    return "".join(next(feed) if c.isdecimal() else c for c in template)
