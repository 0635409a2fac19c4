"""The schema of a pack's `settings:` in pack.yaml, declared once and checked when the pack loads.

Each section is a frozen dataclass; each of its fields declares the value's kind, its default
and what it is for (docs/adding-a-locale.md lists the same keys). `read_settings` turns the raw
mapping into those dataclasses, so the rules read typed values and a missing, misspelt or
mistyped key is an error naming its path at load, not a KeyError inside a rule.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, Iterator, Mapping

import regex

DATE_ORDERS = ("DMY", "MDY", "YMD")
AGE_UNITS = ("year", "month", "week", "day")
PLACE_LABELS = ("PLACE", "REGION", "COUNTRY")
STREET_ORDERS = ("name_first", "number_first")
STREET_REACHES = ("region", "town")
NEUTRAL_POOLS = ("balanced", "any")


class SettingsError(Exception):
    """A settings value that breaks the schema, with the path of its key."""

    def __init__(self, path: str, problem: str):
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True)
class Kind:
    """What a setting's value must be (`expected`, in words) and how a valid one is read."""

    expected: str
    read: Callable[[Any], Any]  # raises ValueError when the value is not of the kind


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def _ratio(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError
    return float(value)


def _positive(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError
    return float(value)


def _words(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        raise ValueError
    return tuple(value)


def _pattern(value: Any) -> str:
    try:
        regex.compile(_text(value))
    except regex.error:
        raise ValueError from None
    return value


def _one_of(*allowed: str) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        if value not in allowed:
            raise ValueError
        return value

    return read


def _mapping(keys: Callable[[Any], str], values: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    def read(value: Any) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise ValueError
        return {keys(key): values(item) for key, item in value.items()}

    return read


TEXT = Kind("a string", _text)
INTEGER = Kind("an integer", _integer)
RATIO = Kind("a number from 0 to 1", _ratio)
POSITIVE = Kind("a positive number", _positive)
WORDS = Kind("a list of strings", _words)
PATTERN = Kind("a regular expression (a string)", _pattern)
DATE_ORDER = Kind(f"one of {', '.join(DATE_ORDERS)}", _one_of(*DATE_ORDERS))
TEXT_MAP = Kind("a mapping of strings to strings", _mapping(_text, _text))
AGE_UNIT_MAP = Kind(f"a mapping of words to {', '.join(AGE_UNITS)}", _mapping(_text, _one_of(*AGE_UNITS)))
WORDS_MAP = Kind("a mapping of strings to lists of strings", _mapping(_text, _words))
STREET_ORDER = Kind(f"one of {', '.join(STREET_ORDERS)}", _one_of(*STREET_ORDERS))
STREET_REACH = Kind(f"one of {', '.join(STREET_REACHES)}", _one_of(*STREET_REACHES))
NEUTRAL_POOL = Kind(f"one of {', '.join(NEUTRAL_POOLS)}", _one_of(*NEUTRAL_POOLS))
KINDS_BY_LABEL = Kind(f"a mapping of {', '.join(PLACE_LABELS)} to lists of strings", _mapping(_one_of(*PLACE_LABELS), _words))


def setting(kind: Kind, meaning: str, default: Any = MISSING) -> Any:
    """A field of a settings section; without a default the key is required."""
    metadata = {"kind": kind, "meaning": meaning}
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class PhoneSettings:
    country_code: str = setting(TEXT, 'the country calling code, digits only ("46")')
    trunk_prefix: str = setting(TEXT, 'dialled before a national number ("0"); empty where there is none', "")
    international_prefix: str = setting(TEXT, "dialled before a country code", "00")
    mobile_pattern: str | None = setting(PATTERN, "national numbers that are mobile when their prefix is not listed", None)
    national_length: int | None = setting(INTEGER, 'digits after the country code, to read "34612345678" without "+"', None)


@dataclass(frozen=True)
class NameSettings:
    particles: tuple[str, ...] = setting(WORDS, 'words kept inside names ("de la", "von")', ())
    shared_name_ratio: float | None = setting(
        RATIO, "a name is both given name and surname when the smaller share is at least this part of the larger", None
    )
    surname_leads: tuple[str, ...] = setting(
        WORDS, 'words that open a surname of two words ("San" of "San Martín"): the word after them is a surname', ()
    )
    given_name_fields: tuple[str, ...] = setting(WORDS, 'field labels before given names ("Nombre" of "Nombre: ...")', ())
    surname_fields: tuple[str, ...] = setting(WORDS, 'field labels before surnames ("Apellidos" of "Apellidos: ...")', ())
    age_concentration: float | None = setting(
        POSITIVE,
        "the concentration of the beta distribution over 0-100 years that the ages of one given name's bearers follow; "
        "with a mean_age column in the first-name lists, the given name of a patient whose age shows is drawn to fit it",
        None,
    )
    feminine_surname_endings: dict[str, str] = setting(
        TEXT_MAP,
        'a surname ending women bear -> the ending of the same name for men ("ova" -> "ov"): a listed surname '
        "so ending whose men's form is listed too is never drawn for a man (\"Roberto Petrova\")",
        {},
    )
    abbreviations: dict[str, str] = setting(
        TEXT_MAP,
        'a given name\'s abbreviation as written -> the name ("M.a" -> "María"): read as the name, and the surrogate '
        "written in full (\"M.a Teresa\" had become \"A.e Mireia\", two initials redrawn)",
        {},
    )
    adult_first_names: str = setting(
        TEXT,
        "the stem of two lists (<stem>_female, <stem>_male) of the given names adults bear: a person whose age the "
        "record does not tell, or who is grown up where the first-name lists carry no mean age, draws with their "
        "weights (names of births over many decades gave an elderly woman's husband a name of the 2000s)",
        "",
    )
    abroad_given_pool: int | None = setting(
        INTEGER,
        "the most common given names at their age the people of a record whose address lies abroad are drawn among "
        "(the home lists' regional names read as out of place there: \"Roig\", \"Lleixa\" in Mexico); none: no cap",
        None,
    )
    abroad_surname_pool: int | None = setting(
        INTEGER, "the most common surnames the people of a record whose address lies abroad are drawn among; none: no cap", None
    )
    neutral_pool: str = setting(
        NEUTRAL_POOL,
        "the given names of a person whose gender nothing tells: balanced (names about as common for either sex: "
        '"Robin", "Kim") or any (every given name at its census weight, where the balanced ones are residents\' of '
        'naming customs without gender: "Jie", "Harpreet" in Spain)',
        "balanced",
    )


@dataclass(frozen=True)
class PlaceSettings:
    keep: tuple[str, ...] = setting(WORDS, "place kinds kept on purpose (a county, a continent); a place below a kept region is drawn inside it", ())
    group: dict[str, str] = setting(TEXT_MAP, "kind -> the ancestor kind within which a place of that kind is replaced", {})
    kinds: dict[str, tuple[str, ...]] = setting(
        KINDS_BY_LABEL, "label -> the kinds a place of that label may be, preferred first (the first is the default)", {}
    )
    postcode_pattern: str | None = setting(PATTERN, "a postcode", None)
    street_pattern: str | None = setting(PATTERN, "a PLACE matching it is treated as a street", None)
    street_types: tuple[str, ...] = setting(WORDS, "road-type words kept in front of a street name (Calle, C/, Avda.)", ())
    street_type_words: dict[str, str] = setting(
        TEXT_MAP, 'road-type word as written -> the type word of the street lists it stands for ("C/": "Calle", "Carrer": "Calle")', {}
    )
    street_reach: str = setting(
        STREET_REACH, "where a town without streets of its own (town_streets) takes them: the region right above it, or (town) the country list", "region"
    )
    local_street_share: float = setting(
        RATIO, "share of streets drawn from the surrogate town's own list (town_streets) when it has one; below 1 for a composed list", 1.0
    )
    number_words: tuple[str, ...] = setting(WORDS, 'words that start the number part of an address ("nº", "s/n")', ())
    address_words: tuple[str, ...] = setting(WORDS, 'words kept in the number part of an address ("piso", "dcha")', ())
    ordinals: tuple[str, ...] = setting(WORDS, 'letters written after a number to make it ordinal (the "o" of "2o")', ())
    articles: dict[str, tuple[str, ...]] = setting(
        WORDS_MAP, 'an article (or preposition with it) written before a place -> the places that take it ("del": [Perú, Reino Unido])', {}
    )
    origin_cues: tuple[str, ...] = setting(
        WORDS, 'words making the place after them a birthplace or origin, not an address ("natural de", "born in")', ()
    )
    street_link: str = setting(
        TEXT, 'the word a street written after it takes before a place\'s name ("de": "Plaza de Chile"); empty: none', ""
    )
    street_order: str = setting(
        STREET_ORDER, 'where the house number stands: after the name ("Calle Mayor 5") or before it ("221 Baker Street")', "name_first"
    )
    towns_abroad: str = setting(
        TEXT,
        "the pack list of towns abroad (country code, first-level region code, name, population): a town of a kept "
        "country abroad that it lists becomes another town of its region, by population, so a postcode or region kept "
        'beside it still fits ("Córdoba ... CP: X5000" in Argentina: "Río Cuarto"); empty: towns abroad are capitals',
        "",
    )
    localities_abroad: str = setting(
        TEXT,
        'the pack list a town abroad written beside its kept region, and a street abroad, is drawn from ("saints": "San Isidro, '
        'Antioquia", "Calle San Blas"); empty: none',
        "",
    )


@dataclass(frozen=True)
class AgeSettings:
    units: dict[str, str] = setting(AGE_UNIT_MAP, "a word written after an age -> its unit (años: year, meses: month)", {})


@dataclass(frozen=True)
class DateSettings:
    order: str = setting(DATE_ORDER, "how an ambiguous numeric date such as 03/04/2012 is read", "DMY")
    week_words: tuple[str, ...] = setting(WORDS, "words before an ISO week number (v., vecka)", ())
    day_words: tuple[str, ...] = setting(WORDS, "words before a bare day of the month (día)", ())
    connectors: tuple[str, ...] = setting(WORDS, 'words between day, month and year ("12 de enero de 2016")', ())
    range_words: tuple[str, ...] = setting(WORDS, "words joining the ends of a range, besides a dash (till, al)", ())
    time_words: tuple[str, ...] = setting(WORDS, 'words before a clock time, so "kl. 14.30" is not a date', ())
    ordinal_suffixes: dict[str, str] = setting(TEXT_MAP, 'CLDR ordinal category -> the suffix after a day number ({one: ":a", other: ":e"})', {})
    birth_cues: tuple[str, ...] = setting(WORDS, "words marking a birth date after them (född, fecha de nacimiento)", ())
    admission_cues: tuple[str, ...] = setting(WORDS, "words marking an admission date, read by `pseudo tells`", ())
    discharge_cues: tuple[str, ...] = setting(WORDS, "words marking a discharge date, read by `pseudo tells`", ())
    score_words: tuple[str, ...] = setting(
        WORDS, 'words beside a pair of numbers that make it a score, ratio or setting, not an untagged date to move ("pain", "PSV")', ()
    )


@dataclass(frozen=True)
class IdSettings:
    schemes: tuple[str, ...] = setting(
        WORDS, "identifier schemes the records use, tried in this order (the language module's ID_SCHEMES, luhn); none: all of them", ()
    )
    labels: dict[str, tuple[str, ...]] = setting(
        WORDS_MAP, 'scheme -> field labels written before its numbers ("NASS", "NºCol"), which select it first', {}
    )


@dataclass(frozen=True)
class PackSettings:
    """The whole `settings:` mapping; a section left out takes its defaults (phone: no plan)."""

    phone: PhoneSettings | None = field(default=None, metadata={"section": PhoneSettings})
    names: NameSettings = field(default_factory=NameSettings, metadata={"section": NameSettings})
    places: PlaceSettings = field(default_factory=PlaceSettings, metadata={"section": PlaceSettings})
    ages: AgeSettings = field(default_factory=AgeSettings, metadata={"section": AgeSettings})
    dates: DateSettings = field(default_factory=DateSettings, metadata={"section": DateSettings})
    ids: IdSettings = field(default_factory=IdSettings, metadata={"section": IdSettings})


def read_settings(raw: Any) -> PackSettings:
    """The typed settings of a raw `settings:` value; raises SettingsError.

    A key left empty in YAML (null) counts as left out, as a section or as a value."""
    return _read(PackSettings, raw, "settings")


def _read(schema: type, raw: Any, path: str) -> Any:
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise SettingsError(path, "expected a mapping")
    declared = {f.name: f for f in fields(schema)}
    unknown = sorted(str(key) for key in raw if key not in declared)
    if unknown:
        raise SettingsError(path, f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(declared)})")
    values: dict[str, Any] = {}
    for name, declaration in declared.items():
        where, value = f"{path}.{name}", raw.get(name)
        if "section" in declaration.metadata:
            if value is not None:
                values[name] = _read(declaration.metadata["section"], value, where)
        elif value is not None:
            kind: Kind = declaration.metadata["kind"]
            try:
                values[name] = kind.read(value)
            except ValueError:
                raise SettingsError(where, f"expected {kind.expected}") from None
        elif declaration.default is MISSING and declaration.default_factory is MISSING:
            raise SettingsError(where, "required")
    return schema(**values)


def schema_keys() -> Iterator[tuple[str, Kind, Any, str]]:
    """(key path, kind, default, meaning) of every setting, in declaration order, for the docs."""
    for section in fields(PackSettings):
        for declared in fields(section.metadata["section"]):
            default = declared.default_factory() if declared.default_factory is not MISSING else declared.default
            yield f"{section.name}.{declared.name}", declared.metadata["kind"], default, declared.metadata["meaning"]
