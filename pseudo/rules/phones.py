"""Phone and fax numbers: valid prefixes from the locale, subscriber digits redrawn, shape kept.

A number is read as [international prefix + country code | trunk prefix] + area code or mobile
prefix + subscriber digits. The prefix is replaced by another of the same kind and length, so
the digit count and the grouping (every separator at its place) stay as written; a fixed number
takes, where it can, an area code of the surrogate place nearest to it, then an exchange in use
under that code where the pack lists them (`phone_exchanges`: NANP's NXX; one of the surrogate
town's own numbers where the list names the town), and a mobile one a block operators really hold (the pack's `phone_mobile_ranges`, by size). Surrogates look like the
numbers real records hold: a recognisable fiction range would repeat the same digits across
records and make a real leftover stand out. With the option `contacts: fictional`, a number of a
kind and length the locale reserves for fiction (Sweden's PTS ranges) is drawn from them instead.
A number is one value by its national digits, whatever its lead ("+1 617 ..." and "(617) ...").
"""

from __future__ import annotations

from pseudo.digits import digits_of, replace_digits
from pseudo.folds import loose
from pseudo.keyed import KeyedStream
from pseudo.lists.numbering import NumberingPlan, numbering_plan, split_number
from pseudo.model import Target
from pseudo.rules.base import Context, Option, Rule
from pseudo.rules.ids import shape_surrogate

KEEP_WITHOUT_LOCALE = 3  # national digits kept when no numbering plan is known
KEEP_ABROAD = 4  # a country code of up to three digits and the first digit after it (its region)
CONTACTS = ("realistic", "fictional")


def contacts_option(what: str) -> Option:
    """The option shared by the contact rules: realistic surrogates, or the reserved fiction ones."""
    return Option("realistic", f"realistic: {what} as real records hold them; fictional: reserved for fiction", str, CONTACTS)


def _classify(number: str, plan: NumberingPlan) -> tuple[str, int]:
    """(kind, prefix length) of a national number; an unknown prefix is read by the mobile pattern."""
    for length in plan.prefix_lengths:
        kind = plan.prefixes.get(number[:length])
        if kind is not None:
            return kind, length
    kind = "mobile" if plan.mobile_pattern and plan.mobile_pattern.fullmatch(number) else "fixed"
    lengths = [len(p) for p in (plan.mobile if kind == "mobile" else plan.fixed)]
    return kind, max(set(lengths), key=lengths.count) if lengths else 0


def _subscriber(count: int, stream: KeyedStream) -> str:
    return "".join(stream.digit(exclude="0" if i == 0 else "") for i in range(count))


def _from_fiction(number: str, kind: str, prefix_length: int, plan: NumberingPlan, stream: KeyedStream) -> str | None:
    """A number from a fiction range of the same kind, length and prefix length, so the grouping
    as written still separates the area code or mobile prefix."""
    national_length = len(plan.trunk_prefix) + len(number)
    trunk = len(plan.trunk_prefix)
    ranges = [
        r
        for r in plan.fiction
        if r[2] == kind and len(r[0]) == national_length and _classify(r[0][trunk:], plan) == (kind, prefix_length)
    ]
    if not ranges:
        return None
    first, last, _ = stream.choice(ranges)
    drawn = str(int(first) + stream.below(int(last) - int(first) + 1)).zfill(national_length)
    return drawn[len(plan.trunk_prefix) :]


def _mobile_block(number: str, plan: NumberingPlan, stream: KeyedStream) -> str | None:
    """An operator's block, drawn by its size, that leaves subscriber digits to draw."""
    pool = plan.mobile_blocks(len(number))
    return None if pool is None else pool.items[stream.weighted_index(pool.cumulative)]


def draw_unplanned(text: str, stream: KeyedStream, keep: int = KEEP_WITHOUT_LOCALE) -> str:
    """A number no numbering plan reads (no pack for it, a foreign number, no digits): its first
    digits kept as a country or area code may be, the rest drawn; words keep their shape."""
    digits = digits_of(text)
    if not digits:
        return shape_surrogate(text, stream)
    keep = min(keep, max(0, len(digits) - 4))
    return replace_digits(text, digits[:keep] + _subscriber(len(digits) - keep, stream))


def _abroad(text: str, lead: str, number: str, plan: NumberingPlan) -> bool:
    """A number of another country: dialled with another country code ("+598 2 ...") or longer
    than any national number ("(5982) 487-3837" in a Uruguayan address). The home plan's prefixes
    would give it a country it is not in; its country and region digits stay instead."""
    if lead:
        return False
    if text.lstrip().startswith("+") or (plan.international_prefix and number.startswith(plan.international_prefix)):
        return True
    return bool(plan.national_length) and len(number) > plan.national_length + len(plan.trunk_prefix)


def draw_national(number: str, plan: NumberingPlan, stream: KeyedStream, local: frozenset[str] = frozenset(), fictional: bool = False) -> str:
    """A national number of the same kind and length; a fixed one starts with a prefix from `local`
    when one fits: an area code (the original's own too, when it serves the surrogate town), or an
    area code with the exchange of the surrogate town's own numbers."""
    kind, prefix_length = _classify(number, plan)
    new_number = _from_fiction(number, kind, prefix_length, plan, stream) if fictional else None
    if new_number is not None:
        return new_number
    prefixes = plan.of_kind(kind, prefix_length) if 0 < prefix_length < len(number) else []
    others = [p for p in prefixes if p != number[:prefix_length]] or prefixes
    if kind == "fixed" and 0 < prefix_length < len(number):  # the area code length may differ: 91 / 983
        others = sorted(p for p in local if len(p) < len(number)) or others
        if not plan.exchanges:  # 963 stays a 9xx, not Valencia's newer 860 (NANP area codes carry no such style)
            others = [p for p in others if p[0] == number[0]] or others
    if kind == "fixed" and plan.exchanges:  # an area code whose exchanges the pack knows, or a town's own exchange
        others = [p for p in others if p in plan.exchanges or len(p) > prefix_length] or others
    block = _mobile_block(number, plan, stream) if kind == "mobile" and 0 < prefix_length < len(number) else None
    prefix = block or (stream.choice(others) if others else number[:prefix_length])
    exchanges = [e for e in plan.exchanges.get(prefix, ()) if len(prefix) + len(e) < len(number)]
    if kind == "fixed" and exchanges:  # a subscriber number starts with an exchange in use (NANP)
        prefix += stream.choice(exchanges)
    if kind == "fixed" and len(prefix) > prefix_length and plan.exchanges:  # the line number after the exchange: any digits
        return prefix + "".join(stream.digit() for _ in range(len(number) - len(prefix)))
    return prefix + _subscriber(len(number) - len(prefix), stream)


class PhoneRule(Rule):
    name = "phones"
    labels = ("PHONE", "FAX")
    requires = ("address",)
    options = {"contacts": contacts_option("numbers in operators' ranges")}

    def replace(self, target: Target, ctx: Context) -> str:
        """One surrogate per national number in a scope ("617-555-0134" and "+1 617 555 0134" are one
        number), written in each occurrence's own layout."""
        plan = numbering_plan(ctx.pack) if ctx.pack and ctx.pack.has("phone_area_codes") else None
        fictional = ctx.options["contacts"] == "fictional"
        if plan is None or not digits_of(target.text):
            key = digits_of(target.text) or target.text
            surrogate = ctx.consistent("number", key, lambda stream: draw_unplanned(target.text, stream))
            return replace_digits(target.text, digits_of(surrogate)) if digits_of(target.text) else surrogate
        lead, number = split_number(target.text, plan)
        if _abroad(target.text, lead, number, plan):
            surrogate = ctx.consistent("number", number, lambda stream: draw_unplanned(target.text, stream, KEEP_ABROAD))
            return replace_digits(target.text, digits_of(surrogate))
        local = _local_prefixes(target, ctx, plan)
        trunk = plan.trunk_prefix  # the key is the number as dialled at home, whatever the lead written
        dialled = ctx.consistent("number", trunk + number, lambda stream: trunk + draw_national(number, plan, stream, local, fictional))
        return replace_digits(target.text, lead + dialled[len(trunk) :])


def _local_prefixes(target: Target, ctx: Context, plan: NumberingPlan) -> frozenset[str]:
    """Where the number of the record's surrogate place starts: the address world gives the
    surrogate of the place nearest to the number, so a number follows its surrogate town
    ("Zaragoza ... 976"): an area code with an exchange of the surrogate town's own numbers where
    the pack lists them (NANP), else the area codes serving it or a region above it."""
    if not plan.regions or ctx.pack is None or not ctx.pack.has("locations"):
        return frozenset()
    world = ctx.services.address
    place = world.nearest(ctx.document, target.span.start)
    if place is None:
        return frozenset()
    names = world.names_around(world.surrogate(place))
    codes = frozenset(code for code, served in plan.regions if loose(served) in names)
    if plan.town_exchanges:
        town = world.surrogate_town(ctx.document, target.span.start)
        own = plan.town_exchanges.get(town.id, ()) if town is not None else ()
        fitting = frozenset(code + exchange for code, exchange in own if not codes or code in codes)
        if fitting:
            return fitting
    return codes
