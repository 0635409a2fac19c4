"""Places: a place by another of the same level in the same region, drawn from the location tree.

The tree (continent > country > region > municipality > locality) comes from the locale pack.
Which kinds are kept on purpose (a county name identifies no one), within which ancestor a
place is replaced (a town within its county, a country within its continent) and which kinds
each label looks for are pack settings (`settings.places`, docs/adding-a-locale.md). A place
found in no list goes through the spell-checked fallback, then a random place of the label's
default kind. Where the tree marks a place's preposition ("på" islands in Swedish), the
surrogate is drawn from places of the same preposition, so the text around it stays right.
Postcodes are valid codes, of the surrogate town (or its region) when one stands next to them.
Streets keep their road type as written (`street_types`, matched as a whole word); the name comes
from the `streets` list; the number part starts at a comma or a number word (`number_words`: "nº",
"s/n"), keeps its address words (`address_words`: "piso", "dcha") and ordinals (`ordinals`: the "o"
of "2o"), redraws digits and door letters in the same shape, and replaces any other word as a place.
Names are looked up without regard to case or left-out accents, and by their aliases.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

import regex

from pseudo.errors import PseudoError
from pseudo.keyed import KeyedStream
from pseudo.lists.fuzzy import closest
from pseudo.lists.pack import LocalePack, remembered
from pseudo.lists.tree import LocationTree, Place
from pseudo.lists.weighted import WeightedList, loose
from pseudo.rules.base import (
    MAX_ATTEMPTS,
    Context,
    Option,
    Rule,
    Surrogate,
    Target,
    normalise,
)
from pseudo.rules.ids import digits_of, replace_digits, shape_surrogate

PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
ADDRESS_BLOCK_LINES = 2  # a postcode goes with a town at most this many line breaks away
ORDINAL_MARKS = "ºª°"
_HOUSE_PIECE = regex.compile(r"\d+|[\p{L}ºª°][\p{L}ºª°'’/]*|\s+|.", regex.DOTALL)
_SEGMENT = regex.compile(r"[^,\n]+")
_GAP_AFTER_TYPE = regex.compile(r"[\s.,:]*")
_ENDS_WITH_NUMBER = regex.compile(r"\d\.?$")


@dataclass(frozen=True)
class PlaceSettings:
    keep: frozenset[str]
    group: Mapping[str, str]  # kind -> ancestor kind within which it is replaced
    kinds: Mapping[str, tuple[str, ...]]  # label -> kinds it may be, in order of preference
    default_kind: Mapping[str, str]  # label -> kind of a place found in no list
    postcode: regex.Pattern | None
    street: regex.Pattern | None
    street_types: tuple[str, ...]
    address_words: frozenset[str]  # kept in a house number: "piso", "dcha", "y", and the number words
    ordinals: frozenset[str]  # letters written after a number to make it ordinal: "2o", "1er"
    tail: regex.Pattern  # where the name of a street ends and its number part begins: "," or a number word ("nº", "s/n")


def place_settings(pack: LocalePack) -> PlaceSettings:
    def make() -> PlaceSettings:
        raw = pack.settings.get("places") or {}
        kinds = {label: tuple(raw.get("kinds", {}).get(label, ())) for label in PLACE_LABELS}
        return PlaceSettings(
            keep=frozenset(raw.get("keep", ())),
            group=dict(raw.get("group", {})),
            kinds=kinds,
            default_kind={label: kinds[label][0] for label in PLACE_LABELS if kinds[label]},
            postcode=regex.compile(rf"(?<!\d)(?:{raw['postcode_pattern']})(?!\d)") if raw.get("postcode_pattern") else None,
            street=regex.compile(raw["street_pattern"], regex.IGNORECASE) if raw.get("street_pattern") else None,
            street_types=tuple(sorted(raw.get("street_types", ()), key=len, reverse=True)),
            address_words=frozenset(w.casefold() for w in [*raw.get("address_words", ()), *raw.get("number_words", ())]),
            ordinals=frozenset(w.casefold() for w in raw.get("ordinals", ())),
            tail=_tail_pattern(raw.get("number_words", ())),
        )

    return pack.cached("place-settings", make)


def _tail_pattern(number_words: list[str]) -> regex.Pattern:
    """A comma, or a space before a digit, '#' or a word that introduces a number ('s/n', 'km', 'nº')."""
    words = "|".join(regex.escape(w) for w in sorted(number_words, key=len, reverse=True))
    word = rf"|(?:{words})(?![\p{{L}}])" if words else ""
    return regex.compile(rf"(?i)[,;]|\s+(?=\d|#{word})")


def _weighted_names(places: Iterable[Place]) -> WeightedList:
    """Place names by population, heaviest first; a name borne by several places counts once."""
    names: dict[str, int] = {}
    for place in places:
        names[place.name] = max(names.get(place.name, 0), place.weight)
    ordered = sorted(names.items(), key=lambda item: (-item[1], item[0]))
    return WeightedList(tuple(n for n, _ in ordered), tuple(w for _, w in ordered))


def _pool(pack: LocalePack, tree: LocationTree, kind: str, anchor: Place | None, preposition: str | None) -> WeightedList:
    """Names of a kind under an anchor (or everywhere), weighted by population, cached per pack."""

    def make() -> WeightedList:
        places = tree.descendants(anchor, kind) if anchor else tree.of_kind(kind)
        if preposition:
            places = [p for p in places if p.extra.get("preposition", "") == preposition]
        return _weighted_names(places)

    return pack.cached(f"place-pool:{kind}:{anchor.id if anchor else '*'}:{preposition or ''}", make)


def place_pool(pack: LocalePack, kind: str) -> WeightedList:
    """Every place name of a kind in the pack, by population."""
    return _pool(pack, pack.tree(), kind, None, None)


def _postcodes(pack: LocalePack) -> tuple[dict[str, list[str]], dict[int, tuple[str, ...]]]:
    """place id -> its postcodes, and digit count -> every postcode with that many digits."""

    def make() -> tuple[dict[str, list[str]], dict[int, tuple[str, ...]]]:
        by_place: dict[str, list[str]] = {}
        by_length: dict[int, set[str]] = {}
        for row in pack.rows("postal_codes"):
            by_place.setdefault(row["place_id"], []).append(row["postcode"])
            by_length.setdefault(len(digits_of(row["postcode"])), set()).add(row["postcode"])
        return by_place, {length: tuple(sorted(codes)) for length, codes in by_length.items()}

    return pack.cached("postcodes", make)


def _codes_around(
    pack: LocalePack, town: str, length: int, reach: str, members: Callable[[LocationTree, Place], Iterable[Place]]
) -> tuple[str, ...]:
    """Postcodes of `length` digits of the places `members` finds around each place named
    `town`, sorted; cached per pack, town and reach."""

    def make() -> tuple[str, ...]:
        tree = pack.tree()
        by_place, _ = _postcodes(pack)
        found: set[str] = set()
        for place in tree.lookup(town):
            for member in members(tree, place):
                found.update(c for c in by_place.get(member.id, []) if len(digits_of(c)) == length)
        return tuple(sorted(found))

    return pack.cached(f"{reach}-codes:{town}:{length}", make)


def _starts_with_word(text: str, prefix: str) -> bool:
    """'Calle' starts 'Calle Mayor' but not 'Callejas'; 'C/' starts 'C/Mayor'."""
    if not text.casefold().startswith(prefix.casefold()):
        return False
    return not prefix[-1].isalpha() or len(text) == len(prefix) or not text[len(prefix)].isalpha()


def _road_type(text: str, pack: LocalePack, settings: PlaceSettings) -> str:
    """The road type a street starts with, as written ("Avda."), or ""; remembered per pack."""
    known = pack.cached("road-types", dict)
    return remembered(known, text, lambda: next((text[: len(t)] for t in settings.street_types if _starts_with_word(text, t)), ""))


class PlaceRule(Rule):
    name = "places"
    labels = ("PLACE", "REGION", "COUNTRY", "STREET", "POSTCODE", "ADDRESS")
    needs = ("locations",)
    options = {
        "fuzzy_cutoff": Option(88, "minimum similarity (0-100) for the spell-checked fallback", (int, float), minimum=0),
    }

    def priority(self, target: Target) -> int:
        """Towns first, so a postcode beside one can be of its surrogate; a place of digits only is a postcode."""
        if target.label in PLACE_LABELS and not any(c.isalpha() for c in target.text):
            return 2
        return {"STREET": 1, "POSTCODE": 2, "ADDRESS": 3}.get(target.label, 0)

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        settings = place_settings(ctx.pack)
        text = target.text
        if target.label == "ADDRESS":
            return self._address(target, ctx, settings)
        if target.label == "POSTCODE" or (settings.postcode and settings.postcode.fullmatch(text.strip())):
            return self._postcode(text, ctx, near=target)
        if target.label == "STREET" or self._looks_like_street(text, settings):
            return self._street(text, ctx, settings)
        return self._place(text, target.label if target.label in PLACE_LABELS else "PLACE", ctx, settings)

    # -- towns, regions, countries ----------------------------------------------------------
    def _looks_like_street(self, text: str, settings: PlaceSettings) -> bool:
        """A name followed by its number part ("Calle Mayor 5", "Storgatan 12B"), or a name the
        pack's street pattern recognises ("Storgatan")."""
        text = text.strip()
        tail = settings.tail.search(text)
        if tail and regex.search(r"\p{L}", text[: tail.start()]) and not digits_of(text[: tail.start()]):
            if any(c.isdigit() for c in text[tail.start() :]):
                return True
        return bool(settings.street and settings.street.search(text))

    def _find(self, name: str, label: str, ctx: Context, settings: PlaceSettings) -> tuple[Place | None, str | None]:
        tree = ctx.pack.tree()
        wanted = settings.kinds.get(label) or ()
        found = [p for p in tree.lookup(name) if not wanted or p.kind in wanted]
        if found:
            rank = {kind: i for i, kind in enumerate(wanted)}
            return min(found, key=lambda p: (rank.get(p.kind, len(rank)), -p.weight, p.id)), None
        names = ctx.pack.cached(f"place-names:{label}", lambda: self._names_of_kinds(tree, wanted))
        near = closest(name, {"places": names}, float(ctx.options["fuzzy_cutoff"]))
        if near:
            return self._find(near[1], label, ctx, settings)[0], "place matched to the closest listed spelling"
        return None, "place in no list: a random place of its level"

    @staticmethod
    def _names_of_kinds(tree: LocationTree, kinds: tuple[str, ...]) -> WeightedList:
        return _weighted_names(p for p in tree.places.values() if not kinds or p.kind in kinds)

    def _place(self, text: str, label: str, ctx: Context, settings: PlaceSettings) -> Surrogate:
        tree = ctx.pack.tree()
        morphology = ctx.pack.morphology
        split = getattr(morphology, "split_inflection", None)
        inflect = getattr(morphology, "inflect", None)
        base, marker = split(text, lambda w: len(tree.lookup(w))) if split else (text, "")
        place, fallback = self._find(base, label, ctx, settings)
        if place is not None and place.kind in settings.keep:
            return Surrogate(text, kept=True)
        kind = place.kind if place else settings.default_kind.get(label)
        if kind is None:
            raise PseudoError(f"locale {ctx.pack.code!r} says no place kind for {label} (settings.places.kinds)")
        anchor = None
        if place is not None:
            group = settings.group.get(kind)
            anchor = tree.ancestor(place, group) if group else None
        preposition = place.extra.get("preposition") if place else None
        pool = _pool(ctx.pack, tree, kind, anchor, preposition)
        if len(pool) < 2:
            pool = _pool(ctx.pack, tree, kind, None, preposition)

        surrogate = ctx.consistent(f"place:{kind}", normalise(base), pool.draw)
        if marker:
            surrogate = inflect(surrogate, marker) if inflect else surrogate + marker
        return Surrogate(surrogate, fallback=fallback)

    # -- postcodes and streets --------------------------------------------------------------
    def _postcode(self, text: str, ctx: Context, near: Target | None = None, town: str | None = None) -> Surrogate:
        """A valid postcode of the same shape; of the surrogate town when one stands beside it."""
        if not ctx.pack.has("postal_codes"):
            raise PseudoError(f"locale {ctx.pack.code!r} has no postal_codes list for postcodes")
        digits = digits_of(text)
        by_place, every = _postcodes(ctx.pack)
        if town is None and near is not None:
            town = self._town_beside(near, ctx)
        fitting: Sequence[str] = ()
        if town is not None:
            fitting = [c for c in self._town_codes(town, ctx, len(digits)) if c != text]
            if not fitting:  # a town without codes of its own: one of its region
                fitting = [c for c in self._region_codes(town, ctx, len(digits)) if c != text]
        fallback = None
        if not fitting:
            fitting = every.get(len(digits), ())
            fallback = None if town is None else "no postcode of the surrogate town"
        if not fitting:
            return Surrogate(shape_surrogate(text, ctx.stream("postcode", text)), fallback="postcode of an unknown shape")

        def draw(stream: KeyedStream) -> str:
            return replace_digits(text, digits_of(stream.choice(fitting)))

        key = f"{town or ''}|{digits}"
        return Surrogate(ctx.consistent("postcode", key, draw), fallback=fallback)

    @staticmethod
    def _town_codes(town: str, ctx: Context, length: int) -> tuple[str, ...]:
        """Postcodes of a town and of the places right under it."""
        return _codes_around(ctx.pack, town, length, "town", lambda tree, place: [place, *tree.children.get(place.id, [])])

    @staticmethod
    def _region_codes(town: str, ctx: Context, length: int) -> tuple[str, ...]:
        """Postcodes of the town's parent region and everything under it."""

        def region(tree: LocationTree, place: Place) -> list[Place]:
            parent = tree.parent(place)
            if parent is None:
                return []
            kinds = {c.kind for c in tree.children.get(parent.id, [])}
            return [parent, *(p for kind in kinds for p in tree.descendants(parent, kind))]

        return _codes_around(ctx.pack, town, length, "region", region)

    @staticmethod
    def _town_beside(target: Target, ctx: Context) -> str | None:
        """The surrogate of the town a postcode goes with: on its line, else in its address block
        (a few lines of at most 80 characters apart, as "Localidad: ..." above "CP: ...")."""
        best: tuple[int, int, str] | None = None
        for other, surrogate in ctx.done:
            if other.label != "PLACE" or other is target or not any(c.isalpha() for c in surrogate):
                continue
            between = ctx.document.text[min(other.span.end, target.span.end) : max(other.span.start, target.span.start)]
            tier = 0 if "\n" not in between and len(between) <= 30 else 1
            if tier and (between.count("\n") > ADDRESS_BLOCK_LINES or len(between) > 80):
                continue
            ranking = (tier, abs(other.span.start - target.span.start), surrogate)
            if best is None or ranking[:2] < best[:2]:
                best = ranking
        return best[2] if best else None

    def _street(self, text: str, ctx: Context, settings: PlaceSettings) -> Surrogate:
        """Road type as written ("c/", "Avda."), a gazetteer name, the number part in the same shape."""
        if not ctx.pack.has("streets"):
            raise PseudoError(f"locale {ctx.pack.code!r} has no streets list; choose a strategy for STREET")
        streets = ctx.pack.weighted("streets")
        road_type = _road_type(text, ctx.pack, settings)
        rest = text[len(road_type) :]
        gap = _GAP_AFTER_TYPE.match(rest).group() if road_type else ""
        rest = rest[len(gap) :]
        cut = len(rest) if not rest[:1].isdigit() else 0
        if cut:
            found = settings.tail.search(rest)
            cut = found.start() if found else len(rest)
        name, tail = rest[:cut], rest[cut:]
        new_name = ctx.consistent("street", loose(name.strip()), streets.draw) if name.strip() else ""
        for attempt in range(MAX_ATTEMPTS):  # a box number alone ("Apartado de correos 41") may redraw itself
            surrogate = road_type + gap + new_name + self._house_number(tail, text, ctx, settings, attempt)
            if surrogate != text:
                return Surrogate(surrogate)
        return Surrogate("[STREET]", fallback="no street surrogate differs from the original")

    def _house_number(self, tail: str, text: str, ctx: Context, settings: PlaceSettings, attempt: int = 0) -> str:
        """Digits and door letters redrawn in the same shape (a leading nonzero digit stays nonzero);
        address words ("piso", "dcha", "s/n"), ordinals ("2º", "3.o") and conjunctions kept; other
        words name a place ("Buenavista") and are replaced by a place."""
        stream = ctx.stream("house-number", text, *([attempt] if attempt else []))
        out: list[str] = []
        phrase: list[str] = []

        def flush() -> None:
            if phrase:
                spaces = len("".join(phrase)) - len("".join(phrase).rstrip())
                words = "".join(phrase)[: len("".join(phrase)) - spaces]
                out.append(self._place(words, "PLACE", ctx, settings).text + " " * spaces)
                phrase.clear()

        def redraw(letters: str) -> str:
            """Each letter by one of the same case, from A up to it or F, the range doors are lettered in."""
            out = []
            for c in letters:
                if not c.isascii() or not c.isalpha():
                    out.append(c)
                    continue
                alphabet = string.ascii_uppercase if c.isupper() else string.ascii_lowercase
                out.append(stream.choice(alphabet[: max(alphabet.index(c), 5) + 1]))
            return "".join(out)

        for piece in _HOUSE_PIECE.finditer(tail):
            token, before = piece.group(), tail[: piece.start()]
            if phrase and token.isspace():
                phrase.append(token)
                continue
            attached = _ENDS_WITH_NUMBER.search(before) is not None
            if token[0].isalpha() and not attached:
                if token.casefold() in settings.address_words:
                    flush()
                    out.append(token)
                elif len(token) > 1 and not (token.isupper() and len(token) <= 3):
                    phrase.append(token)
                else:
                    flush()
                    out.append(redraw(token))  # a door letter or block code: "1 G", "AD"
                continue
            flush()
            if token.isdigit():
                out.append("".join(stream.digit(exclude="0" if i == 0 and c != "0" else "") for i, c in enumerate(token)))
            elif attached and token[0].isalpha() or token[0] in ORDINAL_MARKS:
                if token.casefold() in settings.ordinals or all(c in ORDINAL_MARKS for c in token):
                    out.append(token)
                else:  # "4B", "1oE", "5b": an ordinal letter and ordinal marks stay, door letters change
                    keep = 1 if token[0] in settings.ordinals else 0
                    out.append(token[:keep] + "".join(c if c in ORDINAL_MARKS else redraw(c) for c in token[keep:]))
            else:
                out.append(token)
        flush()
        return "".join(out)

    # -- whole addresses --------------------------------------------------------------------
    def _address(self, target: Target, ctx: Context, settings: PlaceSettings) -> Surrogate:
        """Parts separated by commas and lines, and around a postcode: towns first, then the
        postcodes of the new towns, then streets. Every part is replaced; none is left as written."""
        text = target.text
        towns: list[tuple[int, int]] = []
        streets: list[tuple[int, int]] = []
        postcodes: list[tuple[int, int]] = []

        def part(start: int, end: int) -> None:
            """A piece without a postcode: a street when it holds a number, else a town."""
            piece = text[start:end]
            start += len(piece) - len(piece.lstrip(" \t.,;:"))
            end = start + len(text[start:end].rstrip(" \t.,;:"))
            if end > start:
                (streets if any(c.isdigit() for c in text[start:end]) else towns).append((start, end))

        for segment in _SEGMENT.finditer(text):
            code = settings.postcode.search(text, segment.start(), segment.end()) if settings.postcode else None
            if code is None:
                part(segment.start(), segment.end())
                continue
            postcodes.append(code.span())
            part(segment.start(), code.start())
            part(code.end(), segment.end())
        replaced: dict[tuple[int, int], Surrogate] = {}
        for start, end in towns:
            replaced[(start, end)] = self._place(text[start:end], "PLACE", ctx, settings)
        town = next((s.text for s in replaced.values() if not s.kept), None)
        for start, end in postcodes:
            replaced[(start, end)] = self._postcode(text[start:end], ctx, town=town)
        for start, end in streets:
            replaced[(start, end)] = self._street(text[start:end], ctx, settings)
        out, cursor = [], 0
        for (start, end), surrogate in sorted(replaced.items()):
            out += [text[cursor:start], surrogate.text]
            cursor = end
        out.append(text[cursor:])
        parts = list(replaced.values())
        fallback = next((s.fallback for s in parts if s.fallback), None)
        return Surrogate("".join(out), kept=bool(parts) and all(s.kept for s in parts), fallback=fallback)
