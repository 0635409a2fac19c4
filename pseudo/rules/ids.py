"""Identifiers: each scheme a locale's records use keeps its structure; nothing is random letters.

A pack declares its schemes in `settings.ids` (pseudo.lists.settings.IdSettings): their names, in
the order they are tried, and the field labels written before their numbers ("NASS:", "DNI:").
The language module defines them in `ID_SCHEMES` (personnummer, DNI, NIE, ...); `luhn` here keeps
any Luhn-valid number Luhn-valid. A scheme recognises a number by its shape, or more loosely when
the label before the span names it (a "NºCol:" number has no shape of its own). A number no scheme
knows (a medical record number) keeps its length, layout and letters; its digits are redrawn,
the leading one nonzero when it was. A span that is not a number goes where it belongs: a date to
the date rule, plain words to `plain_words` (kept when common words, a name replaced by a name).
The `remove` option names schemes whose numbers are removed rather than replaced (as the
Stockholm system removed personnummer), when one ID label holds several kinds.
"""

from __future__ import annotations

import string
from dataclasses import replace
from typing import Protocol

import regex

from pseudo.casing import match_case
from pseudo.datetext import date_words, find_dates
from pseudo.digits import digits_of, replace_digits
from pseudo.errors import PseudoError
from pseudo.folds import normalise
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack
from pseudo.lists.words import common_words, kinship_terms, particles
from pseudo.model import Target
from pseudo.rules.base import Context, Option, Rule, Surrogate
from pseudo.rules.dates import DateRule

NAME_LISTS = ("first_names_female", "first_names_male", "last_names")
_WORD = regex.compile(r"\p{L}+")
_SENTENCE_END = regex.compile(r"(?:^|\n[\s*•-]*|(?:\p{Ll}{3,}|\d|\))[.!?])\s*$")  # not after "Dr." or "Nombre:"


class IdScheme(Protocol):
    """Recognises an identifier it knows and draws a valid one of the same shape, or returns None.

    `labelled`: the field label before the span names this scheme, so a looser shape is enough."""

    __name__: str

    def __call__(self, text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool) -> str | None: ...


def shape_surrogate(text: str, stream: KeyedStream) -> str:
    """Digits by digits, letters by letters of the same case; separators and length kept.

    Kept for the contact and place rules' own fallbacks; identifiers, dates and OTHER spans use
    `redraw_digits` and `plain_words`, which never write random letters.
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


def redraw_digits(text: str, stream: KeyedStream) -> str:
    """Every digit redrawn as an ASCII digit, the first one nonzero when it was; all else kept.

    The letters of a record number ("HC", "MRN") are the series or the hospital, not the person,
    and random letters are what gives a surrogate away; digits of other scripts and other number
    characters ("²") are redrawn too, so nothing that could carry the original stays.

    The new digits keep the original's texture: as many neighbours that repeat ("77") or follow
    each other ("45", "54") as it has, placed anew. A number typed by hand ("98731245") gets one
    that looks typed by hand, a machine's one that looks a machine's: uniform digits beside
    hand-typed originals were what a reader named (round 32). Only those two counts carry over,
    and that a number without a zero gets none (hand-typed ones often hold none); never the
    original itself."""
    for _ in range(TEXTURE_TRIES):  # the texture of "11" or "1234" allows few numbers: never the original itself
        drawn = _textured(text, stream)
        if drawn != text:
            return drawn
    first = next((i for i, c in enumerate(text) if c.isnumeric()), -1)
    return "".join(stream.digit(exclude="0" if i == first and c != "0" else "") if c.isnumeric() else c for i, c in enumerate(text))


def _textured(text: str, stream: KeyedStream) -> str:
    numeric = [i for i, c in enumerate(text) if c.isnumeric()]
    slots = [k for k in range(1, len(numeric)) if numeric[k] == numeric[k - 1] + 1]
    relations = [_relation(text[numeric[k - 1]], text[numeric[k]]) for k in slots]
    for i in range(len(relations) - 1, 0, -1):  # placed anew: a keyed shuffle
        j = stream.below(i + 1)
        relations[i], relations[j] = relations[j], relations[i]
    placed = dict(zip(slots, relations))
    low = 0 if any(text[i] == "0" for i in numeric) else 1  # a number without a zero gets none: typists avoid it
    out = list(text)
    previous, direction = 0, 0
    for k, i in enumerate(numeric):
        relation = placed.get(k)
        if relation == "same":
            value = previous
        elif relation == "step":  # a run of steps keeps its direction, as typed runs do ("4567")
            ahead = previous + direction
            value = ahead if direction and placed.get(k - 1) == "step" and low <= ahead <= 9 else stream.choice([v for v in (previous - 1, previous + 1) if low <= v <= 9])
            direction = value - previous
        elif relation == "other":
            value = stream.choice([v for v in range(low, 10) if abs(v - previous) > 1])
        else:
            value = int(stream.digit(exclude="0" if low or (k == 0 and text[i] != "0") else ""))
        out[i] = str(value)
        previous = value
    return "".join(out)


def _relation(first: str, second: str) -> str:
    """How two neighbouring digits stand: the same, one apart, or otherwise ("²" is otherwise)."""
    if not (first.isdecimal() and second.isdecimal()):
        return "other"
    gap = abs(int(first) - int(second))
    return "same" if gap == 0 else "step" if gap == 1 else "other"


TEXTURE_TRIES = 8  # redraws of a number's texture before its digits are drawn one by one


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


def check_like(right: str, original_valid: bool | None, stream: KeyedStream, alphabet: str = string.digits) -> str:
    """The check character a surrogate takes: the right one where the original's was right (or
    has none to judge), another of the alphabet where it was wrong. A corpus of invented numbers
    (MEDDOCAN's social security numbers, a sample's personnummer) has wrong checks, and surrogates
    that alone passed the check gave themselves away to a reader who computed it."""
    if original_valid is not False:
        return right
    return stream.choice([c for c in alphabet if c != right.upper() and c != right])


def luhn(text: str, target: Target, ctx: Context, stream: KeyedStream, labelled: bool = False) -> str | None:
    """Numbers of 10 or more digits that pass Luhn (cards, many national ids) stay Luhn-valid, and
    keep their first digit: a card's network (4 Visa, 5 Mastercard, 3 American Express), shared
    by millions; a card starting with a digit no network issues gave a surrogate away."""
    digits = digits_of(text)
    if len(digits) < 10 or len(digits) != sum(c.isalnum() for c in text) or not luhn_valid(digits):
        return None
    drawn = digits[0] + redraw_digits(digits[1:-1], stream)
    return replace_digits(text, drawn + luhn_check_digit(drawn))


GENERIC_SCHEMES: tuple[IdScheme, ...] = (luhn,)


def schemes_of(ctx: Context) -> tuple[IdScheme, ...]:
    """The pack's declared schemes in order (every scheme of its language module when it names
    none), then the generic ones; a declared name that no module defines is an error."""
    own = tuple(getattr(ctx.pack.morphology, "ID_SCHEMES", ())) if ctx.pack and ctx.pack.morphology else ()
    declared = ctx.pack.settings.ids.schemes if ctx.pack else ()
    if not declared:
        return own + GENERIC_SCHEMES
    known = {s.__name__: s for s in own + GENERIC_SCHEMES}
    unknown = [name for name in declared if name not in known]
    if unknown:
        raise PseudoError(f"settings.ids.schemes: no identifier scheme {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return tuple(known[name] for name in declared)


def labelled_scheme(target: Target, ctx: Context) -> str | None:
    """The scheme whose field label ends the text before the span ("NASS: ", "Nº Col. "), if any."""
    if ctx.pack is None:
        return None
    before = ctx.text_before(target.span, 40)
    patterns = _label_patterns(ctx.pack)
    if not patterns or _any_label(ctx.pack, patterns).search(before) is None:  # most spans: one search, not one per label
        return None
    found = [(size, scheme) for size, scheme, pattern in patterns if pattern.search(before)]
    return max(found)[1] if found else None


def _any_label(pack: LocalePack, patterns: list[tuple[int, str, regex.Pattern]]) -> regex.Pattern:
    """The label patterns as one alternation: it matches where any of them does."""
    return pack.cached("ids:any-label", lambda: regex.compile("|".join(f"(?:{p.pattern})" for _, _, p in patterns), regex.IGNORECASE))


def _label_patterns(pack: LocalePack) -> list[tuple[int, str, regex.Pattern]]:
    """Each field label of the pack's schemes as a pattern ending the text, compiled once per pack."""
    return pack.cached(
        "ids:label-patterns",
        lambda: [
            (len(label), scheme, regex.compile(rf"(?<![\p{{L}}\d]){regex.escape(label)}\.?\s*[:#]?\s*$", regex.IGNORECASE))
            for scheme, labels in pack.settings.ids.labels.items()
            for label in labels
        ],
    )


def is_whole_date(target: Target, ctx: Context) -> bool:
    """Whether the span is nothing but a date the pack's grammar reads."""
    if ctx.pack is None:
        return False
    span, text = target.span, target.text
    found = find_dates(ctx.document.text, date_words(ctx.pack, None), span.start, span.end)
    for expression in reversed(found):
        text = text[: expression.start - span.start] + text[expression.end - span.start :]
    return bool(found) and not any(c.isalnum() for c in text)


def as_date(target: Target, ctx: Context, why: str) -> Surrogate:
    """A span tagged otherwise that is a date, moved by the date rule with its default options."""
    answer = DateRule().replace(target, replace(ctx, options={}, memo={}))
    return Surrogate(answer.text, answer.kept, fallback=why)


def plain_words(target: Target, ctx: Context, family: str) -> tuple[str, str]:
    """(surrogate, reason) for a span of words tagged as something words are not (an ID, OTHER).

    A word stays when it reads as a common word: lower case, a kinship term or particle, in
    capitals (an acronym, a code), the capitalised first word of a sentence ("Lactante de 3
    meses", "Casado."), written in lower case elsewhere in the document, in none of the pack's
    name lists ("raza caucásica"), or a common word after a capitalised word of no name list (the
    title of an institution: "Sistema Español de Farmacovigilancia", not the surname Español). Any
    other word is a name and becomes a name of the list where it weighs most. Digits are redrawn."""
    text, pack = target.text, ctx.pack
    lists = [(name, pack.weighted(name)) for name in NAME_LISTS if pack and pack.has(name)]
    common = (set(kinship_terms(pack)) if pack and pack.has("kinship") else set()) | (set(particles(pack)) if pack else set())
    sentence_start = bool(_SENTENCE_END.search(ctx.text_before(target.span)))
    frequent = common_words(pack) if pack else frozenset()
    digits = ctx.stream(family, "digits", text)
    out, cursor, names, title_word = [], 0, 0, False
    for match in _WORD.finditer(text):
        word = match.group()
        out.append(redraw_digits(text[cursor : match.start()], digits))
        cursor = match.end()
        first = not any(c.isalpha() for c in text[: match.start()])
        weight, listed = max(((weighted.weight(word), name) for name, weighted in lists), default=(0, ""))
        after_title, title_word = title_word, word[0].isupper() and not weight
        if (
            not word[0].isupper()
            or word.casefold() in common
            or (len(word) > 1 and word.isupper())
            or (first and sentence_start)
            or not weight
            or (after_title and word.casefold() in frequent)
            or regex.search(rf"(?<!\p{{L}}){regex.escape(word.lower())}(?!\p{{L}})", ctx.document.text)
        ):
            out.append(word)
            continue
        names += 1
        pool = dict(lists)[listed]
        drawn = ctx.consistent(f"{family}-name", normalise(word), lambda stream: pool.draw(stream))
        out.append(match_case(word, drawn))
    out.append(redraw_digits(text[cursor:], digits))
    reason = "words, a name replaced by a name" if names else "common words, kept"
    return "".join(out), f"{target.label} span of {reason}"


SHORT_ID = 4  # digits up to which an identifier may carry nothing but kept parts (a NºCol's province pairs)


class IdRule(Rule):
    name = "ids"
    labels = ("ID",)
    requires = ("clock", "address")  # a personnummer embeds a birth date; a NºCol the province of the place
    options = {
        "remove": Option(
            (), "names of identifier schemes (e.g. personnummer) whose numbers are removed, not replaced", (list, tuple)
        ),
    }

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        if not any(c.isalnum() for c in target.text):
            return Surrogate(f"[{target.label}]", fallback="identifier without letters or digits")
        schemes = schemes_of(ctx)
        known = {s.__name__ for s in schemes}
        unknown = sorted(set(ctx.options["remove"]) - known)
        if unknown:
            raise PseudoError(f"rules.ids.remove: no identifier scheme {', '.join(unknown)} here (known: {', '.join(sorted(known))})")
        label = labelled_scheme(target, ctx)
        ordered = sorted(schemes, key=lambda s: s.__name__ != label)  # the labelled scheme first
        probe = ctx.stream("probe", target.text)
        if any(s(target.text, target, ctx, probe, s.__name__ == label) is not None for s in ordered if s.__name__ in ctx.options["remove"]):
            return Surrogate(f"[{target.label}]")
        if not any(s(target.text, target, ctx, probe, s.__name__ == label) is not None for s in ordered):
            if is_whole_date(target, ctx):
                return as_date(target, ctx, "identifier that is a date, moved as a date")
            if not digits_of(target.text):
                text, reason = plain_words(target, ctx, "id")
                return Surrogate(text, kept=text == target.text, fallback=reason)

        def draw(stream: KeyedStream) -> str:
            for scheme in ordered:
                found = scheme(target.text, target, ctx, stream, scheme.__name__ == label)
                if found is not None:
                    return found
            return redraw_digits(target.text, stream)

        if len(digits_of(target.text)) <= SHORT_ID and all(draw(ctx.stream("kept-probe", target.text, n)) == target.text for n in range(3)):
            return Surrogate(target.text, kept=True, fallback="identifier of kept parts only, kept")  # "NºCol: 06 06" of a kept province
        return ctx.consistent("id", normalise(target.text), draw)
