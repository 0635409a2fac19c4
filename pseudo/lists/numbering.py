"""Phone numbering plans: what a locale pack says about its country's numbers.

Shared by the phone rule, which draws numbers by the plan, and `pseudo tells`, which checks
surrogates against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

import regex

from pseudo.digits import digits_of
from pseudo.errors import LocaleError
from pseudo.lists.pack import LocalePack
from pseudo.lists.weighted import WeightedList


@dataclass(frozen=True)
class NumberingPlan:
    """A country's phone numbers as the pack describes them: prefixes by kind, fiction ranges."""

    country_code: str
    trunk_prefix: str
    international_prefix: str
    fixed: tuple[str, ...]  # area codes, national form without trunk prefix
    mobile: tuple[str, ...]
    mobile_pattern: regex.Pattern | None
    fiction: tuple[tuple[str, str, str], ...]  # (first, last, kind), national digits with trunk
    national_length: int | None = None  # digits after the country code, to read "34612345678" without "+"
    regions: tuple[tuple[str, str], ...] = ()  # (area code, the place it serves), where the list says
    mobile_ranges: tuple[tuple[str, int], ...] = ()  # (allocated block, numbers in it), national form
    exchanges: dict[str, tuple[str, ...]] = field(default_factory=dict)  # area code -> its exchanges in use (NANP NXX)
    town_exchanges: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # place id -> (area code, exchange) of its numbers

    @cached_property
    def prefixes(self) -> dict[str, str]:
        """prefix -> kind; a mobile prefix wins over an area code written the same."""
        return {**{p: "fixed" for p in self.fixed}, **{p: "mobile" for p in self.mobile}}

    @cached_property
    def prefix_lengths(self) -> tuple[int, ...]:
        return tuple(sorted({len(p) for p in self.prefixes}, reverse=True))

    def of_kind(self, kind: str, length: int) -> list[str]:
        pool = self.mobile if kind == "mobile" else self.fixed
        return [p for p in pool if len(p) == length]

    @cached_property
    def _mobile_blocks(self) -> dict[int, WeightedList | None]:
        return {}

    def mobile_blocks(self, length: int) -> WeightedList | None:
        """The operators' blocks shorter than a number of `length` digits, by size (None: no
        such block); kept per length, as every mobile number draws from them."""
        if length not in self._mobile_blocks:
            blocks = [(block, size) for block, size in self.mobile_ranges if len(block) < length]
            self._mobile_blocks[length] = WeightedList(tuple(b for b, _ in blocks), tuple(s for _, s in blocks)) if blocks else None
        return self._mobile_blocks[length]


def numbering_plan(pack: LocalePack) -> NumberingPlan:
    """The pack's numbering plan (settings.phone and its phone lists), built once per pack."""

    def make() -> NumberingPlan:
        settings = pack.settings.phone
        if settings is None:
            raise LocaleError(f"locale {pack.code!r}: pack.yaml: settings.phone: required for a numbering plan")
        trunk = settings.trunk_prefix

        def national(code: str) -> str:
            return code[len(trunk) :] if trunk and code.startswith(trunk) else code

        fixed = tuple(national(r["code"]) for r in pack.rows("phone_area_codes"))
        mobile = tuple(national(r["prefix"]) for r in pack.rows("phone_mobile_prefixes")) if pack.has(
            "phone_mobile_prefixes"
        ) else ()
        fiction = tuple((r["first"], r["last"], r["kind"]) for r in pack.rows("phone_fiction_ranges")) if pack.has(
            "phone_fiction_ranges"
        ) else ()
        ranges = tuple((national(r["prefix"]), int(r["count"])) for r in pack.rows("phone_mobile_ranges")) if pack.has(
            "phone_mobile_ranges"
        ) else ()
        pattern = settings.mobile_pattern
        return NumberingPlan(
            settings.country_code,
            trunk,
            settings.international_prefix,
            fixed,
            mobile,
            regex.compile(pattern) if pattern else None,
            fiction,
            settings.national_length,
            tuple(
                (national(r["code"]), place)
                for r in pack.rows("phone_area_codes")
                if r.get("place")
                for place in _served(r["place"])
            ),
            ranges,
            _exchanges(pack, national) if pack.has("phone_exchanges") else {},
            _town_exchanges(pack, national) if pack.has("phone_exchanges") else {},
        )

    return pack.cached("phone-plan", make)


def _exchanges(pack: LocalePack, national: Callable[[str], str]) -> dict[str, tuple[str, ...]]:
    """Area code -> the exchange codes in use after it (`phone_exchanges`: code, exchange), where
    a subscriber number starts with an exchange (NANP's NXX)."""
    found: dict[str, list[str]] = {}
    for row in pack.rows("phone_exchanges"):
        found.setdefault(national(row["code"]), []).append(row["exchange"])
    return {area: tuple(codes) for area, codes in found.items()}


def _town_exchanges(pack: LocalePack, national: Callable[[str], str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Place id -> (area code, exchange) of the numbers of that town (`phone_exchanges` rows with
    a `place_id`): where a town's own numbers start."""
    found: dict[str, list[tuple[str, str]]] = {}
    for row in pack.rows("phone_exchanges"):
        if row.get("place_id"):
            found.setdefault(row["place_id"], []).append((national(row["code"]), row["exchange"]))
    return {place: tuple(sorted(prefixes)) for place, prefixes in found.items()}


def _served(place: str) -> list[str]:
    """The places an area code serves: libphonenumber joins the towns of one code with hyphens
    ("Gävle-Sandviken"), so each town is read too."""
    return [place, *(part for part in place.split("-") if part)] if "-" in place else [place]


def split_number(text: str, plan: NumberingPlan) -> tuple[str, str]:
    """(lead, national number): lead is '+CC', '00CC' or the trunk prefix as written."""
    digits = digits_of(text)
    stripped = text.lstrip()
    cc = plan.country_code
    if stripped.startswith("+") and digits.startswith(cc):
        return cc, digits[len(cc) :]
    if digits.startswith(plan.international_prefix + cc):
        lead = plan.international_prefix + cc
        return lead, digits[len(lead) :]
    if plan.national_length and digits.startswith(cc) and len(digits) == len(cc) + plan.national_length:
        return cc, digits[len(cc) :]
    if plan.trunk_prefix and digits.startswith(plan.trunk_prefix):
        return plan.trunk_prefix, digits[len(plan.trunk_prefix) :]
    return "", digits
