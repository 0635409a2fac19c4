"""Identifiers: same shape, digit for digit and letter for letter, with valid check digits.

Locales add checksum schemes (personnummer, DNI/NIE, ...) through their language module's
`ID_SCHEMES`; the Luhn scheme here keeps any Luhn-valid number Luhn-valid. The `remove` option
names schemes whose numbers are removed rather than replaced (as the Stockholm system removed
personnummer), when one ID label holds several kinds and a per-label strategy cannot choose.
"""

from __future__ import annotations

import string
from typing import Protocol

from pseudo.errors import PseudoError
from pseudo.keyed import KeyedStream
from pseudo.model import Target
from pseudo.digits import digits_of, replace_digits
from pseudo.folds import normalise
from pseudo.rules.base import Context, Option, Rule, Surrogate


class IdScheme(Protocol):
    """Recognises an identifier it knows and draws a valid one of the same shape, or returns None."""

    def __call__(self, text: str, target: Target, ctx: Context, stream: KeyedStream) -> str | None: ...


def shape_surrogate(text: str, stream: KeyedStream) -> str:
    """Digits by digits, letters by letters of the same case; separators and length kept.

    A leading digit stays nonzero when it was, so a number does not suddenly start with 0.
    Digits of any script and other number characters ("²") are redrawn as ASCII digits and
    letters of any script as ASCII letters: nothing that could carry the original stays.
    """
    out = []
    first_digit = True
    for char in text:
        if char.isnumeric():
            out.append(stream.digit(exclude="0" if first_digit and char != "0" else ""))
            first_digit = False
        elif char.isalpha():
            out.append(stream.choice(string.ascii_uppercase if char.isupper() else string.ascii_lowercase))
        else:
            out.append(char)
    return "".join(out)


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def luhn_check_digit(payload: str) -> str:
    """The digit that makes payload + digit Luhn-valid."""
    for candidate in "0123456789":
        if luhn_valid(payload + candidate):
            return candidate
    raise AssertionError("unreachable: one digit always completes a Luhn sum")


def luhn(text: str, target: Target, ctx: Context, stream: KeyedStream) -> str | None:
    """Numbers of 10 or more digits that pass Luhn (cards, many national ids) stay Luhn-valid."""
    digits = digits_of(text)
    if len(digits) < 10 or len(digits) != sum(c.isalnum() for c in text) or not luhn_valid(digits):
        return None
    drawn = shape_surrogate(digits[:-1], stream)
    return replace_digits(text, drawn + luhn_check_digit(drawn))


GENERIC_SCHEMES: tuple[IdScheme, ...] = (luhn,)


class IdRule(Rule):
    name = "ids"
    labels = ("ID",)
    requires = ("clock",)  # an identifier that embeds a birth date moves it with the clock
    options = {
        "remove": Option(
            (), "names of identifier schemes (e.g. personnummer) whose numbers are removed, not replaced", (list, tuple)
        ),
    }

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        if not any(c.isalnum() for c in target.text):
            return Surrogate(f"[{target.label}]", fallback="identifier without letters or digits")
        schemes = tuple(getattr(ctx.pack.morphology, "ID_SCHEMES", ())) if ctx.pack and ctx.pack.morphology else ()
        known = {s.__name__ for s in schemes + GENERIC_SCHEMES}
        unknown = sorted(set(ctx.options["remove"]) - known)
        if unknown:
            raise PseudoError(f"rules.ids.remove: no identifier scheme {', '.join(unknown)} here (known: {', '.join(sorted(known))})")
        probe = ctx.stream("probe", target.text)
        removed = [s for s in schemes + GENERIC_SCHEMES if s.__name__ in ctx.options["remove"]]
        if any(s(target.text, target, ctx, probe) is not None for s in removed):
            return Surrogate(f"[{target.label}]")

        def draw(stream: KeyedStream) -> str:
            for scheme in schemes + GENERIC_SCHEMES:
                found = scheme(target.text, target, ctx, stream)
                if found is not None:
                    return found
            return shape_surrogate(target.text, stream)

        return ctx.consistent("id", normalise(target.text), draw)
