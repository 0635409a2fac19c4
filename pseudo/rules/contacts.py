"""E-mail addresses, URLs and IP addresses, always on reserved domains and documentation ranges.

Domains come from RFC 2606 (example.com, .org, .net); IPv4 from the RFC 5737 documentation
blocks, IPv6 from RFC 3849's 2001:db8::/32. An e-mail address whose local part visibly derives
from a person named in the same document is rebuilt from that person's surrogate.
"""

from __future__ import annotations

import ipaddress
import string
from functools import cache, lru_cache

import regex

from pseudo.folds import ascii_fold, normalise
from pseudo.keyed import KeyedStream
from pseudo.model import Target
from pseudo.rules.base import Context, Rule, Surrogate
from pseudo.rules.ids import shape_surrogate

RESERVED_DOMAINS = ("example.com", "example.org", "example.net")
IPV4_BLOCKS = ("192.0.2.", "198.51.100.", "203.0.113.")



def _has_names(ctx: Context) -> bool:
    return ctx.pack is not None and all(ctx.pack.has(n) for n in ("first_names_female", "first_names_male", "last_names"))


def _reserved_domain(original_domain: str, stream: KeyedStream) -> str:
    tld = original_domain.rsplit(".", 1)[-1].casefold()
    for domain in RESERVED_DOMAINS:
        if domain.endswith("." + tld):
            return domain
    return stream.choice(RESERVED_DOMAINS)


@lru_cache(maxsize=1 << 12)
def _align(letters: str, tokens: tuple[str, ...]) -> tuple[tuple[int, int, int | None], ...]:
    """Split letters into pieces, each a prefix of a distinct name token, skipping as few
    letters as possible. Returns (start, end, token index or None for a skipped letter).

    Exhaustive over (position, tokens used): names have a handful of tokens, and a token whose
    first letter is nowhere in the letters can never be used, so it is left out of the search."""
    usable = tuple(index for index, token in enumerate(tokens) if token and token[0] in letters)
    if len(usable) < len(tokens):
        found = _align(letters, tuple(tokens[index] for index in usable))
        return tuple((start, end, None if index is None else usable[index]) for start, end, index in found)

    @cache
    def best(i: int, used: frozenset[int]) -> tuple[int, int, tuple[tuple[int, int, int | None], ...]]:
        if i == len(letters):
            return 0, 0, ()
        skipped, pieces, path = best(i + 1, used)
        choice = (skipped + 1, pieces + 1, ((i, i + 1, None),) + path)
        for index, token in enumerate(tokens):
            if index in used:
                continue
            length = 0
            while i + length < len(letters) and length < len(token) and letters[i + length] == token[length]:
                length += 1
                skipped, pieces, path = best(i + length, used | {index})
                if (skipped, pieces + 1) < choice[:2]:  # the first of equals stays
                    choice = (skipped, pieces + 1, ((i, i + length, index),) + path)
        return choice

    return best(0, frozenset())[2]


def derived_local_part(local: str, ctx: Context, stream: KeyedStream) -> str | None:
    """The local part rebuilt from a surrogate name, when it visibly derives from a name.

    Each piece that stood for a whole name ("marta" in "marta.sobas") becomes the whole surrogate
    name, a shortened one ("nav" of Navarro) the surrogate shortened alike; separators stay put.
    """
    letters = "".join(ascii_fold(c)[:1] for c in local if c.isalpha())
    best = None
    people = ctx.services.person.folded_people(ctx.document) if _has_names(ctx) else []
    for originals, surrogates in people:
        pieces = _align(letters, tuple(originals))
        matched = sum(end - start for start, end, index in pieces if index is not None)
        if matched >= 3 and matched * 3 >= len(letters) * 2 and (best is None or matched > best[0]):
            best = (matched, pieces, originals, surrogates)
    if best is None:
        return None
    _, pieces, originals, surrogates = best
    rebuilt = []
    for start, end, index in pieces:
        if index is None or index >= len(surrogates):
            rebuilt.append(stream.choice(string.ascii_lowercase))
        elif end - start >= len(originals[index]):  # the whole name, not an abbreviation of it
            rebuilt.append(surrogates[index])
        else:
            rebuilt.append(surrogates[index][: end - start] or stream.choice(string.ascii_lowercase))
    starts = {start: text for (start, _, _), text in zip(pieces, rebuilt)}
    out, letter = [], 0
    for char in local:
        if char.isalpha():
            out.append(starts.get(letter, ""))
            letter += 1
        elif char.isdigit():
            out.append(stream.digit())
        else:
            out.append(char)
    return "".join(out)


def _drawn_local_part(local: str, ctx: Context, stream: KeyedStream) -> str:
    """A local part made of a surrogate first and last name, separators and digits kept in kind."""
    if ctx.pack is None or not (ctx.pack.has("first_names_female") and ctx.pack.has("last_names")):
        return shape_surrogate(local, stream).lower()
    lists = [ctx.pack.weighted(n) for n in ("first_names_female", "first_names_male") if ctx.pack.has(n)]
    first = ascii_fold(stream.choice(lists).top(200).uniform(stream))
    last = ascii_fold(ctx.pack.weighted("last_names").top(500).uniform(stream))
    separator = next((c for c in local if c in "._-"), "")
    digits = "".join(stream.digit() for c in local if c.isdigit())
    first, last = (regex.sub(r"[^a-z]", "", part) for part in (first, last))
    return f"{first}{separator}{last}{digits}"


class EmailRule(Rule):
    name = "emails"
    labels = ("EMAIL",)
    requires = ("person",)  # an address derived from a person's name is rebuilt from their surrogate

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        text = target.text
        if text.count("@") != 1:
            return Surrogate(
                ctx.consistent("email", normalise(text), lambda s: shape_surrogate(text, s)),
                fallback="not an e-mail address",
            )
        local, domain = text.split("@")

        def draw(stream: KeyedStream) -> str:
            new_local = derived_local_part(local, ctx, stream) or _drawn_local_part(local, ctx, stream)
            return f"{new_local}@{_reserved_domain(domain, stream)}"

        return ctx.consistent("email", normalise(text), draw)


class UrlRule(Rule):
    name = "urls"
    labels = ("URL",)

    def replace(self, target: Target, ctx: Context) -> str:
        match = regex.match(r"(?i)^(\w+://)?(www\d?\.)?([^/?#\s]+)(.*)$", target.text, regex.DOTALL)
        assert match is not None  # the pattern accepts any text

        def draw(stream: KeyedStream) -> str:
            scheme, www, host, rest = (g or "" for g in match.groups())
            return f"{scheme}{www}{_reserved_domain(host, stream)}{shape_surrogate(rest, stream)}"

        return ctx.consistent("url", normalise(target.text), draw)


class IpRule(Rule):
    name = "ips"
    labels = ("IP",)

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        text = target.text.strip()
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return Surrogate(
                ctx.consistent("ip", normalise(target.text), lambda s: shape_surrogate(target.text, s)),
                fallback="not an IP address",
            )

        def draw(stream: KeyedStream) -> str:
            if address.version == 4:
                return stream.choice(IPV4_BLOCKS) + str(stream.between(1, 254))
            groups = ":".join(f"{stream.below(0x10000):x}" for _ in range(6))
            return str(ipaddress.ip_address(f"2001:db8:{groups}"))

        surrogate = ctx.consistent("ip", str(address), draw)
        return target.text.replace(text, surrogate)
