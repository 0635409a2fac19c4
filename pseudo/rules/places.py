"""Places: a place by another of the same level in the same region, drawn from the location tree.

The tree (continent > country > region > municipality > locality) comes from the locale pack.
Which kinds are kept on purpose (a county name identifies no one), within which ancestor a
place is replaced (a town within its county, a country within its continent) and which kinds
each label looks for are pack settings (`settings.places`, docs/adding-a-locale.md). A place
found in no list goes through the spell-checked fallback, then a random place of the label's
default kind. Where the tree marks a place's preposition ("på" islands in Swedish), the
surrogate is drawn from places of the same preposition, so the text around it stays right.
Postcodes are valid codes, of the surrogate town (or its region) when one stands next to them.
Streets keep their road type as written (`street_types`, matched as a whole word); the name is the
address world's street of the surrogate town (of the address's own town, else of the place written
nearest); where the pack writes the house number first (`street_order: number_first`, "221 Baker
Street, Apt 4B"), that number is redrawn in place and the unit part follows the name; the number
part starts at a comma or a number word (`number_words`: "nº", "s/n"), keeps its address words
(`address_words`: "piso", "dcha") and ordinals (`ordinals`: the "o" of "2o"), draws house numbers
and floors small as real ones are and door letters from A to F, and replaces any other word as a
place.
A town written beside a foreign country ("Santiago, Chile"), or a town in no list of a record whose
places all lie abroad, becomes a town of that country's surrogate, never a namesake at home; the
country of an address abroad is kept (the address world says which), so the town is drawn inside it
(kept where the pack lists no town of that country), the region written right after it stays, as a
province at home does, and the address's postcodes keep their layout with new digits.
Names are looked up without regard to case or left-out accents, and by their aliases.
The town, region and country of a product's maker in its brackets ("BioGide® (Geistlich, Wolhusen,
Suiza)") are kept as written, as the maker's address, not the patient's: the makers service says
which (pseudo.services.makers), and they count as no place of the record for the others.
"""

from __future__ import annotations

import dataclasses
import string
from typing import Any, Mapping

import regex

from pseudo.digits import digits_of
from pseudo.errors import ConfigError, PseudoError
from pseudo.folds import loose, normalise
from pseudo.keyed import KeyedStream
from pseudo.lists.pack import LocalePack, remembered
from pseudo.lists.words import particles
from pseudo.lists.tree import Place
from pseudo.model import Target
from pseudo.rules.base import LISTED, NOT_RECOGNISED, Context, Option, Rule, Surrogate
from pseudo.rules.ids import as_date, is_whole_date, shape_surrogate
from pseudo.scope import nested
from pseudo.scope import MAX_ATTEMPTS
from pseudo.services.address import (
    NO_TOWN_LISTED,
    PLACE_LABELS,
    AddressSettings,
    AddressWorld,
    a_home_unit_rather_than_a_town,
    depth,
    keep_option,
    place_settings,
)

REGION_ABROAD = "a region abroad beside its town"  # what such a region is kept as (AddressWorld.region_abroad)
ADDRESS_BLOCK_LINES = 2  # a postcode goes with a town at most this many line breaks away
ORDINAL_MARKS = "ºª°"
_HOUSE_PIECE = regex.compile(r"\d+|[\p{L}ºª°][\p{L}ºª°'’/]*|\s+|.", regex.DOTALL)
_SEGMENT = regex.compile(r"[^,\n]+")
_GAP_AFTER_TYPE = regex.compile(r"[\s.,:]*")
_DATE_LIKE = regex.compile(r"\d\s*[/.-]\s*\d|\d\s+\p{L}")  # "19/12/1979", "3 de mayo": worth asking the date grammar
_LINK = regex.compile(r"(?P<particle>\p{L}+)\s+(?=\p{Lu})")  # "de " before a street's own name
MAX_ARTICLE = 3  # a first word this short is an article ("La Palma", "El Ejido") that fuses with the particle
_ENDS_WITH_NUMBER = regex.compile(r"\d\.?$")
_LETTER = regex.compile(r"\p{L}")
_LETTERS = regex.compile(r"[\p{L}]+")
_DOOR = regex.compile(r"\p{L}(?!\p{L})| \p{Lu}(?![\p{L}\d])")  # "15A", "3 A": a floor's door letter
_RANGE_END = regex.compile(r"\d-$")  # "12-14": the second house number of a range, no floor
HOUSE_NUMBER_MAX = 200  # a house number of three digits or more is drawn from 1 to this
FLOOR_MAX = 12  # a floor ("3º") is drawn from 1 to this


def _falling(low: int, high: int) -> tuple[int, ...]:
    """Running totals of weights proportional to 1/n for n in [low, high]: most real house numbers
    and floors are small (no open source here records house numbers, so the shape is documented,
    not measured)."""
    totals, total = [], 0
    for n in range(low, high + 1):
        total += 720720 // n
        totals.append(total)
    return tuple(totals)


_RANGES = {1: (1, 9), 2: (10, 99), 4: (1000, 9999)}
_CUMULATIVE = {bounds: _falling(*bounds) for bounds in [*_RANGES.values(), (1, HOUSE_NUMBER_MAX), (1, FLOOR_MAX)]}


def _number(token: str, floor: bool, stream: KeyedStream) -> str:
    """A house number of the same digit count for one, two or four digits (four: the long blocks of
    "Av. Santa Fe 1234" abroad, drawn digit by digit they came out in the 9000s as often as in the
    1000s), else from 1 to HOUSE_NUMBER_MAX; a floor from 1 to FLOOR_MAX; all falling as 1/n. A
    number with a leading zero or of five digits or more (a flat or box number) keeps its shape,
    digit by digit."""
    if token[0] == "0" or (len(token) > 4 and not floor):
        return "".join(stream.digit(exclude="0" if i == 0 and c != "0" else "") for i, c in enumerate(token))
    low, high = (1, FLOOR_MAX) if floor else _RANGES.get(len(token), (1, HOUSE_NUMBER_MAX))
    return str(low + stream.weighted_index(_CUMULATIVE[(low, high)]))


def _rises(first: str, second: str) -> bool:
    """A range of house numbers ("12-14", "340-350"): the second above the first, neither with a
    leading zero (a redrawn range that fell, "83-60", read as false)."""
    return first[0] != "0" and second[0] != "0" and int(second) > int(first)


_COUNTRY_PREFIX = regex.compile(r"\p{Lu}{1,3}(?:-\s?|\s)")  # "E-13600", "E 28053", "S-113 22", "ES-28001": a postcode with its country


def _building_code(token: str, world: AddressWorld) -> bool:
    """Four to six capitals that name no listed place: a building's or block's initials ("HRTQ")."""
    return 4 <= len(token) <= 6 and token.isupper() and world.find(token, "PLACE")[0] is None


def _is_postcode(text: str, settings: AddressSettings) -> bool:
    """A value that is one postcode of the pack's shape, also written after a country prefix."""
    if settings.postcode is None:
        return False
    text = text.strip()
    prefix = _COUNTRY_PREFIX.match(text)
    return bool(settings.postcode.fullmatch(text[prefix.end() :] if prefix else text))


_FOREIGN_CODE = regex.compile(r"\p{Lu}{1,3}-?\s?\d{3,}(?:[\s-]?\p{Lu}{1,3})?")  # "C1031", "C1031AAB": a postcode with letters
_LEADING_NUMBER = regex.compile(r"(?:\d+(?:-\d+)?[A-Za-z]?\s+)+(?=\p{L})")  # "221 ", "221B ", "12-14 ", "9554 62 "


def _starts_with_word(text: str, prefix: str) -> bool:
    """'Calle' starts 'Calle Mayor' but not 'Callejas'; 'C/' starts 'C/Mayor'."""
    if not text.casefold().startswith(prefix.casefold()):
        return False
    return not prefix[-1].isalpha() or len(text) == len(prefix) or not text[len(prefix)].isalpha()


def _leading_number(text: str, settings: AddressSettings) -> tuple[str, str]:
    """(house number, the rest) of a street written number first ("221B Baker Street") where the
    pack says streets are; ("", text) otherwise."""
    found = _LEADING_NUMBER.match(text) if settings.number_first else None
    return (found.group(), text[found.end() :]) if found else ("", text)


def _road_type(text: str, pack: LocalePack, settings: AddressSettings) -> str:
    """The road type a street starts with, as written ("Avda."), or ""; remembered per pack."""
    known = pack.cached("road-types", dict)
    return remembered(known, text, lambda: next((text[: len(t)] for t in settings.street_types if _starts_with_word(text, t)), ""))


def _unit_street(text: str, road_type: str, gap: str, street: str, world: AddressWorld, settings: AddressSettings) -> str | None:
    """A catalogue unit's own street ("Avenida de la Medicina 6") written as the original wrote
    its street: its road type as written where it is of the same kind ("Avda."), the same gap, and
    a number part only where the original had one, after the same separator ("," or a space);
    both split where the pack's number part begins (`settings.tail`)."""
    kind, _, rest = street.partition(" ")
    cut = settings.tail.search(rest)
    name, number = (rest[: cut.start()], rest[cut.end() :].lstrip(" ,;")) if cut else (rest, "")
    if not name or loose(name) in loose(text):
        return None  # the unit drawn stands at the original's street: it would give the original back
    same_kind = road_type and world.road_class(road_type) == world.road_class(kind)
    head = (road_type + gap) if same_kind else kind + " "
    own = settings.tail.search(text, len(road_type) + len(gap))
    if own is None or not number:
        return head + name
    return head + name + (", " if own.group()[:1] in ",;" else " ") + number


MAX_ABBREVIATION = 5  # letters of a lower-case word in a number part read as an abbreviation ("almd", "izqda")


_ROMAN = regex.compile(r"(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})")  # II to XXXIX: a door is lettered A, B ... never "IV"
_ROMAN_DIGITS = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def _roman_value(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    return sum(-values[c] if values[c] < values.get(n, 0) else values[c] for c, n in zip(numeral, numeral[1:] + " "))


def _roman(value: int) -> str:
    """A number up to 39 in Roman numerals."""
    out = ""
    for size, digits in _ROMAN_DIGITS:
        count, value = divmod(value, size)
        out += digits * count
    return out


def _abbreviation(token: str) -> bool:
    """A short lower-case word in an address's number part ("#226 almd", "bajo"): an abbreviation
    or a common word of the address, kept; a place there is written with a capital."""
    return token.isalpha() and token.islower() and len(token) <= MAX_ABBREVIATION


def _linked(original: str, new_name: str, ctx: Context, settings: AddressSettings) -> str:
    """The street name drawn, after the pack's `street_link` word where the original wrote a
    particle before its own name ("Plaza de Cruces") and the new name is a place not starting with
    an article or taking one (`places.articles`: "del Perú") ("Plaza de Chile", "Calle de Toledo":
    streets named after places take it; "Plaza Chile" read as a machine's). The word keeps the
    case the original's particle had."""
    link = settings.street_link
    found = _LINK.match(original)
    if not link or found is None or found["particle"].casefold() not in particles(ctx.pack):
        return new_name
    articled = settings.takes_article or {}
    if len(new_name.split(" ", 1)[0]) <= MAX_ARTICLE or not ctx.pack.tree().lookup(new_name):
        return new_name
    if any(loose(new_name) in names for names in articled.values()):
        return new_name  # "del Perú": a place that takes an article fuses with the word
    word = link.capitalize() if found["particle"][0].isupper() else link
    return word + found.group()[len(found["particle"]) :] + new_name


def settings_town_kind(world: AddressWorld) -> str | None:
    """The kind of place a postcode belongs to: the default kind of a PLACE (a town)."""
    return world.settings.default_kind.get("PLACE")


class PlaceRule(Rule):
    name = "places"
    labels = ("PLACE", "REGION", "COUNTRY", "STREET", "POSTCODE", "ADDRESS")
    needs = ("locations",)
    requires = ("address", "makers", "clock")  # a date tagged as a place moves with the clock
    options = {
        "fuzzy_cutoff": Option(88, "minimum similarity (0-100) for the spell-checked fallback", (int, float), minimum=0),
        "keep": Option(
            None,
            "place kinds kept as written, the places below them drawn inside them (a list, or none); left out: the pack's",
            (list, str),
        ),
        "home": Option(
            None,
            "a region of the pack (a state, a province) the corpus comes from: a hospital or a place nothing in its "
            "record ties to a region is drawn there, and so is a town below a city's size found only outside it (a "
            "local name the lists lack); such a town that names a listed unit there is that unit ('harbor': Baltimore's "
            "Harbor Hospital); left out: anywhere, by population",
            str,
        ),
    }

    def recognises(self, text: str, after: str, label: str, pack: LocalePack, options: Mapping[str, Any] | None = None) -> int:
        """LISTED when the value names a listed place of the label's kinds that the list gives
        people (a population): a ZIP locality alone ("Holy Cross") is too small a sign against a
        hospital's name; not a small town only outside the configured `home` that names a unit of
        the home region ("harbor" of Maryland notes: Harbor Hospital, `a_home_unit_rather_than_a_town`)."""
        if label not in PLACE_LABELS or not pack.has("locations"):
            return NOT_RECOGNISED
        wanted = place_settings(pack).kinds.get(label) or ()
        found = [p for p in pack.tree().lookup(text.strip()) if (not wanted or p.kind in wanted) and p.extra.get("population")]
        if found and options and a_home_unit_rather_than_a_town(pack, text, options.get("home")):
            return NOT_RECOGNISED
        return LISTED if found else NOT_RECOGNISED

    @staticmethod
    def validate_options(options: Mapping[str, Any]) -> str | None:
        """`keep` is a list of kind names or `none` (which kinds a pack has is checked with the pack)."""
        try:
            keep_option(options.get("keep"))
        except ConfigError as error:
            return str(error)
        return None

    def priority(self, target: Target, ctx: Context) -> int:
        """Towns before the regions that hold them (so a region follows its town), then streets,
        postcodes and whole addresses; a place of digits only, or a postcode after its country letters, is a postcode.
        The address world reads the document first (the countries of its address abroad stay)."""
        world: AddressWorld = ctx.services.address
        world.read_document(ctx.document)
        postcode = target.label == "POSTCODE" or (
            target.label in PLACE_LABELS and (not any(c.isalpha() for c in target.text) or _is_postcode(target.text, world.settings))
        )
        if postcode:  # a catalogue unit's own code first where the header writes the same code: both take it
            twice = sum(digits_of(t.text) == digits_of(target.text) for t in ctx.document.labelled(*PLACE_LABELS, "POSTCODE")) > 1
            return 99 if twice and world.unit_address(ctx.document, target) is not None else 100
        if target.label in PLACE_LABELS:
            abroad = self._abroad(target, ctx)
            if abroad is not None:  # before its country, which is drawn among those with towns listed
                return 50 - depth(ctx.pack.tree(), abroad) - 1
            place, _ = ctx.services.address.find(target.text, target.label)
            return 50 - depth(ctx.pack.tree(), place) if place is not None else 50
        return {"STREET": 90, "ADDRESS": 110}[target.label]

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        if ctx.services.makers.is_address(ctx.document, target):
            return Surrogate(target.text, kept=True, kept_as="a maker's address")
        settings = ctx.services.address.settings
        text = target.text
        if target.label == "ADDRESS":
            return self._address(target, ctx, settings)
        if target.label in PLACE_LABELS and _DATE_LIKE.search(text) and not _is_postcode(text, settings) and is_whole_date(target, ctx):
            return as_date(target, ctx, "place span that is a date, moved as a date")  # "19/12/1979" tagged as a town
        if (target.label == "POSTCODE" and digits_of(text)) or _is_postcode(text, settings) or (digits_of(text) and not regex.search(r"\p{L}", text)):
            return self._postcode(text, ctx, near=target)
        if target.label == "STREET" or self._looks_like_street(text, settings):
            return self._street(text, ctx, settings, near=target)
        if _FOREIGN_CODE.fullmatch(text) and ctx.services.address.postcode_abroad(ctx.document, None):
            return Surrogate(ctx.services.address.foreign_postcode(text))  # "C1031" of an address abroad: a postcode
        world: AddressWorld = ctx.services.address
        abroad = self._abroad(target, ctx)
        if abroad is not None and world.region_abroad(ctx.document, target):
            return Surrogate(text, kept=True, kept_as=REGION_ABROAD)  # "San Luis Potosí SLP México": SLP stays
        locality = world.locality_abroad(text.strip(), abroad) if abroad is not None and world.in_kept_region_abroad(ctx.document, target) else None
        if locality is not None:  # "Aguascalientes, Ags.": a town of that region, not the capital
            return Surrogate(locality)
        if abroad is not None:
            surrogate, fallback = world.town_abroad(text.strip(), abroad)
            if surrogate == text.strip():
                return Surrogate(text, kept=True, kept_as=fallback if fallback == NO_TOWN_LISTED else None)
            return Surrogate(world.before_country(ctx.document, target, surrogate), fallback=fallback)
        beside = world.region_after(ctx.document, target)  # "Springfield, IL": the one in Illinois
        found = self._place(text, target.label if target.label in PLACE_LABELS else "PLACE", ctx, settings, beside, target)
        return found if found.kept else dataclasses.replace(found, text=world.before_country(ctx.document, target, found.text))

    # -- towns abroad -----------------------------------------------------------------------
    @staticmethod
    def _abroad(target: Target, ctx: Context) -> Place | None:
        """The foreign country a town is written as of (the address world reads it once per span)."""
        return ctx.services.address.country_abroad(ctx.document, target)

    # -- towns, regions, countries ----------------------------------------------------------
    def _looks_like_street(self, text: str, settings: AddressSettings) -> bool:
        """A name followed by its number part ("Calle Mayor 5", "Storgatan 12B"), or a name the
        pack's street pattern recognises ("Storgatan")."""
        text = text.strip()
        tail = settings.tail.search(text)
        if tail and _LETTER.search(text[: tail.start()]) and not digits_of(text[: tail.start()]):
            if any(c.isdigit() for c in text[tail.start() :]):
                return True
        return bool(settings.street and settings.street.search(text))

    def _place(
        self, text: str, label: str, ctx: Context, settings: AddressSettings, beside: str | None = None, target: Target | None = None
    ) -> Surrogate:
        """The address world's surrogate of the place (read inside the region written beside it),
        with the language's inflection carried over."""
        world: AddressWorld = ctx.services.address
        split = getattr(ctx.pack.morphology, "split_inflection", None)
        inflect = getattr(ctx.pack.morphology, "inflect", None)
        tree = ctx.pack.tree()
        base, marker = split(text, lambda w: len(tree.lookup(w))) if split else (text, "")
        place, fallback = world.find(base, label, beside)
        if place is None and target is not None and target.label != "ADDRESS" and (coded := world.town_of_its_postcode(ctx.document, target)) is not None:
            place, fallback = coded, None  # "03550 San Juan de Alicante": the code's one town
        if place is None:
            near = world.nearest_listed(ctx.document, target) if target is not None else None
            surrogate = world.unlisted(base, label, beside, near)
        else:
            new = world.surrogate(place)
            if new is place:  # a kind kept, or the home country of a town that stayed in it
                return Surrogate(text, kept=True)
            code = place.extra.get("code")
            written_as_code = bool(code) and loose(base) == loose(code) and bool(new.extra.get("code"))
            surrogate = new.extra["code"] if written_as_code else new.name  # "MA" -> "OH", not "Ohio"
        if marker:
            surrogate = inflect(surrogate, marker) if inflect else surrogate + marker
        return Surrogate(surrogate, fallback=fallback)

    # -- postcodes and streets --------------------------------------------------------------
    def _postcode(self, text: str, ctx: Context, near: Target | None = None, town: str | None = None) -> Surrogate:
        """The address world's one surrogate of a postcode: a valid code of the surrogate of its town."""
        if not ctx.pack.has("postal_codes"):
            raise PseudoError(f"locale {ctx.pack.code!r} has no postal_codes list for postcodes")
        world: AddressWorld = ctx.services.address
        half = len(text) // 2
        if len(text) > 1 and text[:half] == text[half:] and _is_postcode(text[:half], world.settings):
            once = self._postcode(text[:half], ctx, near, town)  # "CP: 2805528055", a code typed twice: its surrogate twice
            return Surrogate(once.text * 2, fallback=once.fallback)
        if town is None and near is not None:
            town = self._town_beside(near, ctx)
        beside = world.find(town, "PLACE")[0] if town else None
        if beside is not None and beside.kind != settings_town_kind(world):
            beside = None  # a province beside the code says less than the code's own place
        if world.postcode_abroad(ctx.document, beside):
            return Surrogate(world.foreign_postcode(text))
        unit = world.unit_address(ctx.document, near) if near is not None else None
        drawn = world.unlisted_town_after(ctx.document, near) if beside is None and near is not None else None  # "03550 San Juan de Alicante"
        surrogate, fallback = world.postcode(text, beside, prefer=unit[1] if unit else "", drawn=drawn)
        if surrogate == text:  # "CP: 28" beside a kept Madrid: the province's digits, which say no more than the province
            return Surrogate(text, kept=True, kept_as="a kept region's postcode digits")
        if not surrogate:
            return Surrogate(shape_surrogate(text, ctx.stream("postcode", text)), fallback=fallback)
        return Surrogate(surrogate, fallback=fallback)

    @staticmethod
    def _town_beside(target: Target, ctx: Context) -> str | None:
        """The original town a postcode goes with: the nearest listed town on its line, else in
        its address block (a few lines of at most 80 characters apart, as "Localidad: ..." above
        "CP: ..."); a province, or a town named like its province, written beside it is passed
        over for a town that is only a town."""
        world: AddressWorld = ctx.services.address
        ranked: list[tuple[int, int, str]] = []
        for other in ctx.document.labelled("PLACE"):
            if other is target or not any(c.isalpha() for c in other.text):
                continue
            between = ctx.document.text[min(other.span.end, target.span.end) : max(other.span.start, target.span.start)]
            tier = 0 if "\n" not in between and len(between) <= 30 else 1
            if tier and (between.count("\n") > ADDRESS_BLOCK_LINES or len(between) > 80):
                continue
            ranked.append((tier, abs(other.span.start - target.span.start), other.text))
        towns = []
        for tier, distance, text in ranked:
            place = world.find(text, "PLACE")[0]
            if place is not None and place.kind == settings_town_kind(world):
                towns.append((tier, world.heads_region(place), distance, text))  # "Hellín, Albacete": Hellín
        return min(towns)[3] if towns else None

    def _street(self, text: str, ctx: Context, settings: AddressSettings, near: Target | None = None, town: str | None = None) -> Surrogate:
        """Road type as written ("c/", "Avda."), a street of the surrogate town (the address's own
        town, else the place written nearest), the number part in the same shape."""
        if not ctx.pack.has("streets"):
            raise PseudoError(f"locale {ctx.pack.code!r} has no streets list; choose a strategy for STREET")
        world: AddressWorld = ctx.services.address
        road_type = _road_type(text, ctx.pack, settings)
        rest = text[len(road_type) :]
        gap = _GAP_AFTER_TYPE.match(rest).group() if road_type else ""
        unit = world.unit_address(ctx.document, near) if near is not None else None
        own = _unit_street(text, road_type, gap, unit[0], world, settings) if unit else None
        # the catalogue unit before it is at its own address, unless that is the original's, however
        # written ("Ctra Sevilla-Huelva s/n" for "Ctra Sevilla Huelva s/n": a draw no attempt could pass)
        if own is not None and not nested(normalise(text), normalise(own)) and not ctx.scope.carries_original(own, text):
            return Surrogate(ctx.consistent("unit-street", normalise(text), lambda _: own))
        lead, rest = _leading_number(rest[len(gap) :], settings)
        cut = len(rest) if not rest[:1].isdigit() else 0
        if cut:
            found = settings.tail.search(rest)
            cut = found.start() if found else len(rest)
        name, tail = rest[:cut], rest[cut:]
        new_name = ""
        if name.strip():
            place = world.find(town, "PLACE")[0] if town else self._place_near(near, ctx)
            abroad = world.is_abroad(place) if place is not None else world.address_abroad(ctx.document)
            drawn = world.street(name.strip(), road_type, place, abroad)
            road_type = world.national_road_type(road_type, drawn, place)
            new_name = _linked(name, drawn, ctx, settings)
        for attempt in range(MAX_ATTEMPTS):  # a box number alone ("Apartado de correos 41") may redraw itself
            number = self._house_number(lead, f"{text}\x00lead", ctx, settings, attempt) if lead else ""
            surrogate = road_type + gap + number + new_name + self._house_number(tail, text, ctx, settings, attempt)
            if surrogate != text:
                return Surrogate(surrogate)
        return Surrogate("[STREET]", fallback="no street surrogate differs from the original")

    @staticmethod
    def _place_near(target: Target | None, ctx: Context) -> Place | None:
        """The listed town written nearest to a street, else the listed place nearest (as phones
        find theirs), or None: "40 Elm Street" after "Portland, ME" is a street of Portland."""
        if target is None:
            return None
        nearby = [
            (abs(t.span.start - target.span.start), t.span.start, t)
            for t in ctx.document.labelled("PLACE", "REGION")
            if t is not target and any(c.isalpha() for c in t.text) and not PlaceRule._is_street_text(t.text, ctx)
        ]
        found = [p for _, _, other in sorted(nearby, key=lambda item: item[:2]) if (p := ctx.services.address.read(ctx.document, other))]
        town_kind = settings_town_kind(ctx.services.address)
        return next((p for p in found if p.kind == town_kind), found[0] if found else None)

    @staticmethod
    def _is_street_text(text: str, ctx: Context) -> bool:
        settings = ctx.services.address.settings
        return bool(settings.street and settings.street.search(text)) or any(c.isdigit() for c in text)

    def _house_number(self, tail: str, text: str, ctx: Context, settings: AddressSettings, attempt: int = 0) -> str:
        """Digits and door letters redrawn in the same shape (a leading nonzero digit stays nonzero);
        a floor is a number with an ordinal ("2º") or, after the house number, one or two digits with a
        door letter ("19, 15A", "7, 3 A"), drawn small as floors are, while "12-14" stays a range; address words ("piso", "dcha", "s/n") and their starts cut by a period ("Iz."), ordinals ("2º", "3.o"), conjunctions, short lower-case abbreviations ("almd") and a building's
        initials ("HRTQ") kept; other
        words name a place ("Buenavista") and are replaced by a place; in an address abroad, by the
        address world's neighbourhood ("Col. Obraje" never becomes a Spanish town)."""
        stream = ctx.stream("house-number", text, *([attempt] if attempt else []))
        out: list[str] = []
        phrase: list[str] = []
        world: AddressWorld = ctx.services.address
        abroad = world.address_abroad(ctx.document)  # "Col. Obraje" of a Mexican address: no Spanish town
        numbered = False  # a house number seen: a number with a door letter after it is a floor ("19, 15A")
        previous: tuple[str, str] | None = None  # the last number, original and surrogate: "12-14" rises from it

        def flush() -> None:
            if phrase:
                spaces = len("".join(phrase)) - len("".join(phrase).rstrip())
                words = "".join(phrase)[: len("".join(phrase)) - spaces]
                new = world.neighbourhood(words) if abroad else self._place(words, "PLACE", ctx, settings).text
                out.append(new + " " * spaces)
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
            if token[0].isalpha() and token[0] not in ORDINAL_MARKS and not attached:  # "ºB" is a floor's door, no place
                dotted = tail[piece.end() : piece.end() + 1] == "."  # "5º Iz.": the start of an address word, cut short
                shortened = dotted and any(word.startswith(token.casefold()) for word in settings.address_words)
                if _ROMAN.fullmatch(token):
                    if phrase:
                        phrase.append(token)  # "Sección XVI": the numeral belongs to the name the place replaces
                    else:
                        out.append(_roman(stream.between(1, min(max(2 * _roman_value(token), 10), 39))))  # "Bloque III": a numeral, never "HRC"
                elif token.casefold() in settings.address_words or _building_code(token, world) or _abbreviation(token) or shortened:
                    flush()
                    out.append(token)  # "HRTQ-planta 3": a building's initials, no place; random letters would show
                elif len(token) > 1 and not (token.isupper() and len(token) <= 3):
                    phrase.append(token)
                else:
                    flush()
                    out.append(redraw(token))  # a door letter or block code: "1 G", "AD"
                continue
            flush()
            if token.isdigit():
                after = tail[piece.end() :]
                letters = _LETTERS.match(after)
                floor = (after[:1] != "" and after[0] in ORDINAL_MARKS) or (letters is not None and letters.group() in settings.ordinals)
                ranged = _RANGE_END.search(before) is not None
                floor = floor or (numbered and len(token) <= 2 and not ranged and _DOOR.match(after) is not None)
                numbered = True
                if ranged and not floor and previous and _rises(previous[0], token) and previous[1].isdigit():
                    new = str(int(previous[1]) + int(token) - int(previous[0]))  # "119-129": the same step up
                else:
                    new = _number(token, floor, stream)
                previous = (token, new)
                out.append(new)
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
    def _address(self, target: Target, ctx: Context, settings: AddressSettings) -> Surrogate:
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
        for i, (start, end) in enumerate(towns):  # each read beside the part after it: "Springfield, IL"
            beside = text[slice(*towns[i + 1])] if i + 1 < len(towns) else None
            replaced[(start, end)] = self._place(text[start:end], "PLACE", ctx, settings, beside)
        town = next((text[start:end] for start, end in towns), None)  # the original: the world maps it
        for start, end in postcodes:
            replaced[(start, end)] = self._postcode(text[start:end], ctx, town=town)
        for start, end in streets:
            replaced[(start, end)] = self._street(text[start:end], ctx, settings, near=target, town=town)
        out, cursor = [], 0
        for (start, end), surrogate in sorted(replaced.items()):
            out += [text[cursor:start], surrogate.text]
            cursor = end
        out.append(text[cursor:])
        parts = list(replaced.values())
        fallback = next((s.fallback for s in parts if s.fallback), None)
        return Surrogate("".join(out), kept=bool(parts) and all(s.kept for s in parts), fallback=fallback)
