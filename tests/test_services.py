"""The per-scope services: rules ask them, so one person, one address world and one clock hold
across rules; and the engine refuses a rule that needs what nothing provides."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pseudo.config import Config, parse_config
from pseudo.engine import Engine, Settings, check_order
from pseudo.errors import PseudoError
from pseudo.keyed import Keyring
from pseudo.lists.pack import load_pack
from pseudo.model import Document, Span
from pseudo.registry import RULES
from pseudo.rules.base import Rule


class _Needs(Rule):
    name = "needs"
    labels = ()
    requires = ("weather",)


class _Gives(Rule):
    name = "gives"
    labels = ()
    provides = ("weather",)


def test_a_rule_requiring_what_no_service_or_earlier_rule_provides_stops_the_engine():
    with pytest.raises(PseudoError, match="rule needs requires weather"):
        check_order({"needs": _Needs, "gives": _Gives})
    check_order({"gives": _Gives, "needs": _Needs})  # provided earlier: fine
    check_order(RULES)  # the registry as shipped


def test_every_rule_declares_services_that_exist():
    for rule in RULES.values():
        assert set(rule.requires) <= {"person", "address", "clock", "makers"}, rule.name


def run(text: str, spans: list[tuple[int, int, str]], locale: str, key: bytes = b"services", rules: dict | None = None) -> dict[tuple[int, int], str]:
    document = Document("d", text, tuple(Span(s, e, label) for s, e, label in spans), {"locale": locale})
    config = parse_config({"rules": rules}) if rules else Config()
    [result] = list(Engine(Settings(config=config, keyring=Keyring(key))).run([document]))
    return {(r.span.start, r.span.end): r.surrogate for r in result.replacements}


def spans_of(text: str, *tagged: tuple[str, str, int]) -> list[tuple[int, int, str]]:
    """(value, label, occurrence) -> offsets, so tests read as text."""
    found = []
    for value, label, nth in tagged:
        start = -1
        for _ in range(nth + 1):
            start = text.index(value, start + 1)
        found.append((start, start + len(value), label))
    return sorted(found)


def test_a_relative_named_inside_a_kinship_span_is_the_same_person_as_outside():
    text = "Kom med mamma Annas syster. Anna ringde senare."
    spans = spans_of(text, ("mamma Annas", "KINSHIP", 0), ("Anna", "FIRST_NAME", 1))
    out = run(text, spans, "sv")
    kinship, name = out[spans[0][:2]], out[spans[1][:2]]
    assert kinship.endswith(name + "s")  # the genitive read through: "Anna" -> X, "Annas" -> Xs


def test_a_postcode_gets_one_surrogate_with_its_town_and_alone():
    text = "Localidad: Getafe.\nCP: 28901.\nRemitido desde 28901."
    spans = spans_of(text, ("Getafe", "PLACE", 0), ("28901", "POSTCODE", 0), ("28901", "POSTCODE", 1))
    out = run(text, spans, "es")
    assert out[spans[1][:2]] == out[spans[2][:2]]


def test_a_town_its_province_and_its_postcode_stay_together():
    pack = load_pack("es")
    tree = pack.tree()
    codes = {row["postcode"]: row["place_id"] for row in pack.rows("postal_codes")}
    text = "Localidad/ Provincia: Vigo, Pontevedra.\nCP: 36203."
    spans = spans_of(text, ("Vigo", "PLACE", 0), ("Pontevedra", "PLACE", 0), ("36203", "POSTCODE", 0))
    for key in (b"a", b"b", b"c", b"d", b"e"):
        out = run(text, spans, "es", key)
        town = next(p for p in tree.lookup(out[spans[0][:2]]) if p.kind == "municipality")
        province = tree.ancestor(town, "province")
        assert out[spans[1][:2]] in (province.name, *province.extra.get("aliases", "").split("|"))
        holder = tree.places[codes[out[spans[2][:2]]]]
        assert holder.id == town.id or tree.parent(holder) == town


def test_the_home_country_stays_when_the_town_stays_in_it():
    text = "Localidad: Getafe.\nPaís de nacimiento: España."
    spans = spans_of(text, ("Getafe", "PLACE", 0), ("España", "COUNTRY", 0))
    out = run(text, spans, "es")
    assert out[spans[1][:2]] == "España"


def test_a_unit_named_after_a_place_is_named_after_its_surrogate():
    text = "Localidad: Getafe.\nRemitido desde el Hospital Universitario de Getafe."
    spans = spans_of(text, ("Getafe", "PLACE", 0), ("Hospital Universitario de Getafe", "HEALTHCARE_UNIT", 0))
    named_after_town = 0
    for key in (f"k{n}".encode() for n in range(30)):  # a surrogate of the original's number of words comes first: fewer {place} names
        out = run(text, spans, "es", key, rules={"healthcare": {"names": "templates"}})
        assert "Getafe" not in out[spans[1][:2]]
        named_after_town += out[spans[0][:2]] in out[spans[1][:2]]
    assert named_after_town  # templates with a place take the town's surrogate


def test_a_given_name_field_keeps_a_given_name():
    text = "Nombre: Esteban.\nApellidos: Ruiz Pérez."
    spans = spans_of(text, ("Esteban", "PERSON", 0), ("Ruiz Pérez", "PERSON", 0))
    lists_pack = load_pack("es")
    given = {row["name"] for row in lists_pack.rows("first_names_male")} | {row["name"] for row in lists_pack.rows("first_names_female")}
    for key in (b"a", b"b", b"c", b"d"):
        assert run(text, spans, "es", key)[spans[0][:2]] in given


TOWNS = ["Getafe", "Leganés", "Alcorcón", "Móstoles", "Fuenlabrada"]
CODES = ["28901", "28911", "28921", "28931", "28941"]
NAMES = ["Anna", "Eva", "Karin", "Lars", "Erik"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(range(5)), st.sampled_from(["town+code", "code", "town"])), min_size=1, max_size=6))
def test_one_surrogate_per_value_whatever_form_it_comes_in_spanish(mentions):
    """A town with and without its postcode, a postcode alone: one surrogate each, in one scope;
    two towns never share one surrogate (two codes may: a surrogate town with one code gives it to
    both, rather than a code of another town)."""
    parts, spans, cursor = [], [], 0
    for index, form in mentions:
        pieces = {"town+code": [(CODES[index], "POSTCODE"), (TOWNS[index], "PLACE")], "code": [(CODES[index], "POSTCODE")], "town": [(TOWNS[index], "PLACE")]}[form]
        line = "Domicilio: "
        for value, label in pieces:
            start = cursor + len(line)
            spans.append((start, start + len(value), label))
            line += value + " "
        parts.append(line + ".\n")
        cursor += len(parts[-1])
    text = "".join(parts)
    out = run(text, spans, "es")
    seen: dict[str, str] = {}
    for (start, end), surrogate in out.items():
        value = text[start:end]
        assert seen.setdefault(value, surrogate) == surrogate
        assert surrogate != value
    towns = {value: surrogate for value, surrogate in seen.items() if value in TOWNS}
    assert len(set(towns.values())) == len(towns)  # one-to-one


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(range(5)), st.sampled_from(["plain", "genitive", "kinship"])), min_size=1, max_size=6))
def test_one_surrogate_per_name_in_and_out_of_kinship_and_genitive_swedish(mentions):
    """A name alone, with a genitive, inside a kinship span: one surrogate person."""
    parts, spans, cursor, forms = [], [], 0, []
    for index, form in mentions:
        value = {"plain": NAMES[index], "genitive": NAMES[index] + "s", "kinship": f"mamma {NAMES[index]}s"}[form]
        label = "KINSHIP" if form == "kinship" else "FIRST_NAME"
        line = f"Hon ringde {value} idag. "
        start = cursor + len("Hon ringde ")
        spans.append((start, start + len(value), label))
        forms.append((index, form))
        parts.append(line)
        cursor += len(line)
    text = "".join(parts)
    out = run(text, spans, "sv")
    plain: dict[int, set[str]] = {}
    inflected: dict[int, set[str]] = {}
    for (start, end, _), (index, form) in zip(spans, forms):
        word = out[(start, end)].split()[-1]
        (plain if form == "plain" else inflected).setdefault(index, set()).add(word)
    for index in set(plain) | set(inflected):
        assert len(plain.get(index, set())) <= 1 and len(inflected.get(index, set())) <= 1
        if index in plain and index in inflected:
            [name], [genitive] = plain[index], inflected[index]
            assert genitive in (name + "s", name, name + "'")  # Swedish: "Mats" takes no second s


@pytest.mark.parametrize("locale, home, foreign", [("es", "España", "Francia"), ("sv", "Sverige", "Norge")])
def test_the_home_country_is_kept_and_a_foreign_one_stays_foreign(locale, home, foreign):
    text = f"{home}. {foreign}."
    spans = spans_of(text, (home, "COUNTRY", 0), (foreign, "COUNTRY", 0))
    for key in (b"a", b"b", b"c"):
        out = run(text, spans, locale, key)
        assert out[spans[0][:2]] == home
        assert out[spans[1][:2]] not in (home, foreign)


def _world_and_document(text: str, *tagged: tuple[str, str]):
    """An address world of the Spanish pack and a document whose spans are (value, canonical label)."""
    from pseudo.model import Tagged, Target
    from pseudo.scope import ScopeState
    from pseudo.services.address import AddressWorld

    targets, cursor = [], 0
    for value, label in tagged:
        start = text.index(value, cursor)
        cursor = start + len(value)
        targets.append(Target(Span(start, cursor, label), value, label))
    document = Tagged(Document("d", text, tuple(t.span for t in targets)), tuple(targets), frozenset(t.span.start for t in targets))
    world = AddressWorld(ScopeState("s", Keyring(b"services-world-key")), load_pack("es"), {"fuzzy_cutoff": 88})
    return world, document, targets


def test_the_address_world_reads_the_town_a_unit_is_written_with():
    """The town on the unit's line wins over a place its name seems to hold ("San Agustín"), and the
    town's surrogate is a town the hospital catalogue lists units of."""
    world, document, targets = _world_and_document(
        "Hospital San Agustín. Servicio de Oftalmología Camino de Heros, 4 33400 Avilés (Asturias)",
        ("Hospital San Agustín", "HEALTHCARE_UNIT"), ("Camino de Heros, 4", "STREET"), ("33400", "PLACE"), ("Avilés", "PLACE"), ("Asturias", "REGION"),
    )
    town = world.unit_town(document, targets[0])
    assert town is not None and town.name == "Avilés"
    filed = {r["place_id"] for r in load_pack("es").rows("hospitals")}
    assert world.surrogate(town).id in filed and world.surrogate(town).name != "Avilés"


def test_the_address_world_keeps_the_country_of_an_address_abroad_only():
    world, document, _ = _world_and_document("Localidad: Aguascalientes.\nCP: 20118.\nPaís: México.", ("Aguascalientes", "PLACE"), ("20118", "PLACE"), ("México", "COUNTRY"))
    assert [c.name for c in world.address_countries(document)] == ["México"] and world.address_abroad(document)
    world, document, _ = _world_and_document("Localidad: Getafe.\nPaís de nacimiento: Perú.", ("Getafe", "PLACE"), ("Perú", "COUNTRY"))
    assert world.address_countries(document) == () and not world.address_abroad(document)


def test_a_pack_whose_street_names_are_compounds_still_names_units_after_its_streets():
    """A review's finding: Swedish street names are one compound word ("Almgatan"), which the test
    for a unit's namesake cannot read; a filtered list had kept one name of 235. The draw stands
    after a few refusals, so every key still gives a street of the list, and not always the same."""
    from pseudo.scope import ScopeState
    from pseudo.services.address import UNIT_NAMESAKES, AddressWorld

    pack = load_pack("sv")
    world = AddressWorld(ScopeState("s", Keyring(b"k")), pack, {"fuzzy_cutoff": 88})
    listed = set(pack.weighted("streets").top(UNIT_NAMESAKES).items)
    drawn = {world.unit_namesake(None, Keyring(f"k{i}".encode()).stream("unit", "x")) for i in range(20)}
    assert drawn <= listed and len(drawn) > 5, drawn
