"""Swedish: the genitive of names, and Swedish identity numbers.

The genitive adds -s ("Annas"), except after s, x and z, where nothing ("Lars", "Max") or an
apostrophe ("Lars'") is written.
"""

from __future__ import annotations

from typing import Callable

GENITIVE_SILENT = ("s", "x", "z")
APOSTROPHES = ("'", "’")


def split_inflection(word: str, known: Callable[[str], bool]) -> tuple[str, str]:
    """(base, genitive marker): 'Annas' -> ('Anna', 's'), "Lars'" -> ('Lars', "'"), 'Lars' -> ('Lars', '')."""
    if word.endswith(APOSTROPHES) and len(word) > 2:
        return word[:-1], word[-1]
    if word.endswith(("s", "S")) and len(word) > 2 and not known(word) and known(word[:-1]):
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
