"""Carry the casing pattern of an original over to its surrogate."""

from __future__ import annotations

from functools import lru_cache

import regex

_DOTTED = regex.compile(r"\s*(?:\p{Lu}{1,2}\.\s?){2,}\s*")  # an abbreviation by its initials alone: "U.S.A.", "EE.UU."


@lru_cache(maxsize=1 << 14)
def casing_of(text: str) -> str:
    """'upper', 'lower', 'title' (first letter upper) or 'other'."""
    if text.isascii():  # the same answers from str methods, without a loop over the letters
        letters = "".join(filter(str.isalpha, text))
        if not letters:
            return "other"
        if len(letters) > 1 and letters.isupper():
            return "upper"
        return "lower" if letters.islower() else "title" if letters[0].isupper() else "other"
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "other"
    if len(letters) > 1 and all(c.isupper() for c in letters if c.isupper() or c.islower()) and any(
        c.isupper() for c in letters
    ):
        return "upper"
    if all(not c.isupper() for c in letters):
        return "lower"
    if letters[0].isupper():
        return "title"
    return "other"


def match_case(original: str, surrogate: str) -> str:
    """UPPER stays UPPER, lower stays lower, a capital first letter stays capital: the first
    letter that starts a word, so "22nd Street" never becomes "22Nd Street"."""
    pattern = casing_of(original)
    if pattern == "upper":  # "U.S.A." says nothing of how a full name is cased: not "ETIOPÍA"
        return surrogate if _DOTTED.fullmatch(original) and any(c.islower() for c in surrogate) else surrogate.upper()
    if pattern == "lower":
        return surrogate.lower()
    if pattern == "title":
        for i, c in enumerate(surrogate):
            if c.isalpha() and (i == 0 or not surrogate[i - 1].isalnum()):
                return surrogate[:i] + c.upper() + surrogate[i + 1 :] if c.islower() else surrogate
    return surrogate
