"""Named text folds: the ways two spellings are taken for one value.

Each fold forgives a different amount, for a different purpose; all live here so that a lookup,
a consistency key and an e-mail address agree on what "the same" means.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex

ACCENTS = frozenset({"\u0300", "\u0301", "\u0302"})  # grave, acute, circumflex: often left out in typing
_SPACES = regex.compile(r"\s+")
_WITHOUT_ACCENTS = dict.fromkeys(map(ord, ACCENTS))  # str.translate drops them


@lru_cache(maxsize=1 << 16)
def loose(text: str) -> str:
    """A lookup key that forgives case and left-out accents ('Garcia' finds 'García'); å, ñ, ü stay."""
    folded = text.casefold()
    if folded.isascii():  # nothing to decompose: most values, and the cheap way
        return folded
    decomposed = unicodedata.normalize("NFD", folded)
    return unicodedata.normalize("NFC", decomposed.translate(_WITHOUT_ACCENTS))


@lru_cache(maxsize=1 << 16)
def normalise(value: str) -> str:
    """The consistency key: case, runs of whitespace and left-out accents ("Garcia" for
    "García") do not make another value."""
    if value.isprintable():  # no control character, so no separator that str.split and \s see differently
        return loose(" ".join(value.split()))
    return loose(_SPACES.sub(" ", value).strip())


def strip_accents(text: str) -> str:
    """Without the accents `loose` forgives, case and other letters (ñ, ü) kept: how a writer who
    left accents out spells a surrogate."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", decomposed.translate(_WITHOUT_ACCENTS))


@lru_cache(maxsize=1 << 14)
def ascii_fold(text: str) -> str:
    """Lower case without any diacritic (ñ -> n): how names are written in e-mail addresses."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def plain(text: str) -> str:
    """Without any diacritic, case kept: clinical text often writes "miercoles" for "miércoles"."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
