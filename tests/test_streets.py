"""Streets that belong to the surrogate town, and house numbers and floors in the ranges of real ones."""

from __future__ import annotations

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pseudo.engine import Engine, Settings
from pseudo.keyed import Keyring
from pseudo.lists.pack import load_pack
from pseudo.model import Document, Span

KEYS = 150


def run(text: str, tagged: list[tuple[str, str]], locale: str, key: bytes) -> list[str]:
    """The surrogates of (surface, label) spans found left to right."""
    spans, cursor = [], 0
    for surface, label in tagged:
        start = text.index(surface, cursor)
        cursor = start + len(surface)
        spans.append(Span(start, cursor, label))
    document = Document("d", text, tuple(spans), {"locale": locale})
    [result] = list(Engine(Settings(keyring=Keyring(key))).run([document]))
    return [r.surrogate for r in result.replacements]


def town_streets(pack, place_id: str, types: set[str] | None = None) -> set[str]:
    """The streets a pack lists for a place or any place under it (of the given type words)."""
    tree = pack.tree()
    found = set()
    for row in pack.rows("town_streets"):
        node = tree.places.get(row["place_id"])
        while node is not None and node.id != place_id:
            node = tree.parent(node)
        if node is not None and (types is None or row["type"] in types):
            found.add(row["name"])
    return found


def test_a_spanish_street_is_a_street_of_the_surrogate_town_and_of_its_type():
    """Where the surrogate town has listed streets the street is one of them (a plaza for a plaza,
    "Pza." or "Plaça"; a plaza of its province where it lists none), else one of its province's,
    else of the country list; the postcode is the town's."""
    pack = load_pack("es")
    tree = pack.tree()
    codes = {}
    for row in pack.rows("postal_codes"):
        codes.setdefault(row["postcode"], set()).add(row["place_id"])
    country = set(pack.weighted("streets").items)
    text = "Domicilio: Pza. del Mercado 5, 3º B.\nLocalidad: Logroño.\nCP: 26002."
    tagged = [("Pza. del Mercado 5, 3º B", "STREET"), ("Logroño", "PLACE"), ("26002", "POSTCODE")]
    in_town = 0
    for i in range(KEYS):
        street, town, code = run(text, tagged, "es", f"k{i}".encode())
        place = min((p for p in tree.lookup(town) if p.kind == "municipality"), key=lambda p: (-p.weight, p.id))
        name = regex.fullmatch(r"Pza\. (.+) \d+, \d+º [A-F]", street).group(1).removeprefix("de ")  # "de" before a place's name
        province = tree.ancestor(place, "province")
        lister = place if town_streets(pack, place.id) else province  # the town's own list first, whole
        local = town_streets(pack, lister.id)
        plazas = town_streets(pack, lister.id, {"Plaza", "Plaça", "Pl."})
        if local:  # a plaza of the town, else of its province, else any street of the town
            assert name in (plazas or town_streets(pack, province.id, {"Plaza", "Plaça", "Pl."}) or local), (town, street)
            in_town += 1
        else:
            assert name in country, (town, street)
        assert place.id in codes[code] or tree.places[next(iter(codes[code]))].kind == "province", (town, code)
    assert in_town >= 3  # the check above ran on surrogate towns that have streets


def test_a_street_alone_follows_the_place_written_nearest():
    pack = load_pack("es")
    tree = pack.tree()
    text = "Vive en Calle Mayor 12. Natural de Logroño."
    for i in range(KEYS):
        street, town = run(text, [("Calle Mayor 12", "STREET"), ("Logroño", "PLACE")], "es", f"k{i}".encode())
        place = min((p for p in tree.lookup(town) if p.kind == "municipality"), key=lambda p: (-p.weight, p.id))
        local = town_streets(pack, place.id)
        if local:
            assert street.removeprefix("Calle ").rsplit(" ", 1)[0] in local, (town, street)


def _municipality(tree, name: str):
    place = min((p for p in tree.lookup(name) if p.kind in ("locality", "municipality")), key=lambda p: (-p.weight, p.id))
    return place if place.kind == "municipality" else tree.parent(place)


def test_a_swedish_street_never_carries_the_name_of_a_far_away_place():
    """A road named after a place is named after one of the surrogate town's own municipality."""
    pack = load_pack("sv")
    tree = pack.tree()
    by_municipality: dict[str, set[str]] = {}
    for row in pack.rows("town_streets"):
        by_municipality.setdefault(row["place_id"], set()).add(row["name"])
    every_named = set().union(*by_municipality.values())
    assert not every_named & set(pack.weighted("streets").items)  # the country list names no place
    text = "Bor på Storgatan 12B, 741 30 Knivsta."
    own_named = 0
    for i in range(KEYS):
        (address,) = run(text, [("Storgatan 12B, 741 30 Knivsta", "ADDRESS")], "sv", f"k{i}".encode())
        street, town = regex.fullmatch(r"(\S+) \d+[A-F], \d{3} \d{2} (.+)", address).groups()
        own = by_municipality.get(_municipality(tree, town).id, set())
        assert street not in every_named - own, address
        own_named += street in own
    assert own_named >= 3  # some streets are named after the town's own places


def test_a_swedish_street_alone_follows_the_town_written_nearest():
    pack = load_pack("sv")
    tree = pack.tree()
    named: dict[str, set[str]] = {}
    for row in pack.rows("town_streets"):
        named.setdefault(row["name"], set()).add(row["place_id"])  # a locality name may recur in two municipalities
    for i in range(KEYS):
        street, town = run("Adress: Storgatan 12B i Knivsta.", [("Storgatan 12B", "STREET"), ("Knivsta", "PLACE")], "sv", f"k{i}".encode())
        name = street.rsplit(" ", 1)[0]
        assert name not in named or _municipality(tree, town).id in named[name], (street, town)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(1, 999), floor=st.integers(1, 99), key=st.binary(min_size=1, max_size=8))
def test_house_numbers_and_floors_stay_in_the_ranges_of_real_ones(number, floor, key):
    """One or two digits keep their count; three are drawn from 1 to 200; a floor from 1 to 12."""
    text = f"Domicilio: Calle Mayor {number}, {floor}º dcha."
    (street,) = run(text, [(f"Calle Mayor {number}, {floor}º dcha", "STREET")], "es", key)
    match = regex.fullmatch(r"Calle .+ (\d+), (\d+)º dcha", street)
    new_number, new_floor = int(match[1]), int(match[2])
    low, high = {1: (1, 9), 2: (10, 99)}.get(len(str(number)), (1, 200))
    assert low <= new_number <= high and 1 <= new_floor <= 12, street


def test_a_spanish_town_without_listed_streets_draws_names_found_in_several_provinces():
    """A town whose province has no street list draws from the country list, which holds only
    names that streets of at least three provinces bear: a name of La Rioja's villages alone
    ("Lardero", "San Millán") read as out of place in Ciudad Real to blind readers. No handful of
    names makes up the list's weight ("Calle Mayor" everywhere reads as stock)."""
    pack = load_pack("es")
    tree = pack.tree()
    provinces: dict[str, set[str]] = {}
    for row in pack.rows("town_streets"):
        province = tree.ancestor(tree.places[row["place_id"]], "province")
        provinces.setdefault(row["name"].casefold(), set()).add(province.id)
    country = pack.weighted("streets")
    assert len(country) >= 100
    assert all(len(provinces.get(name.casefold(), ())) >= 3 for name in country.items)
    assert sum(sorted(country.weights, reverse=True)[:10]) <= 0.1 * sum(country.weights)
    text = "Domicilio: C/ Lardero 5.\nLocalidad: Ciudad Real."
    for i in range(KEYS):
        street, town = run(text, [("C/ Lardero 5", "STREET"), ("Ciudad Real", "PLACE")], "es", f"k{i}".encode())
        place = min((p for p in tree.lookup(town) if p.kind == "municipality"), key=lambda p: (-p.weight, p.id))
        assert not town_streets(pack, tree.ancestor(place, "province").id), town  # the fallback is what runs
        name = regex.fullmatch(r"C/ (.+) \d", street).group(1)
        assert len(provinces.get(name.casefold(), ())) >= 3, street


def test_a_number_with_a_door_letter_after_the_house_number_is_a_floor():
    """In "19, 15A" and "7, 3 A" the second number is a floor with its door: drawn from 1 to 12 (a
    floor of 46 read as false to blind readers); a range "12-14B" keeps two house numbers, the second
    the same step above the first ("83-60" read as false); a floor's door written "ºB" is no place."""
    floors = set()
    for i in range(KEYS):
        key = f"k{i}".encode()
        (attached,) = run("Domicilio: Calle Mayor 19, 15A.", [("Calle Mayor 19, 15A", "STREET")], "es", key)
        (spaced,) = run("Domicilio: Calle Mayor 7, 3 A.", [("Calle Mayor 7, 3 A", "STREET")], "es", key)
        (ranged,) = run("Domicilio: Calle Mayor 12-14B.", [("Calle Mayor 12-14B", "STREET")], "es", key)
        floor = int(regex.fullmatch(r"Calle .+ \d\d, (\d+)[A-F]", attached)[1])
        other = int(regex.fullmatch(r"Calle .+ \d, (\d+) [A-F]", spaced)[1])
        assert 1 <= floor <= 12 and 1 <= other <= 12, (attached, spaced)
        floors.add(floor)
        first, second = map(int, regex.fullmatch(r"Calle .+ (\d\d)-(\d+)[A-F]", ranged).groups())
        assert second == first + 2, ranged
        (door,) = run("Domicilio: C/ Mayor, 3-2. ºB.", [("C/ Mayor, 3-2. ºB", "STREET")], "es", key)
        assert regex.fullmatch(r"C/ .+, \d-\d\. º[A-F]", door), door
    assert len(floors) > 3 and floors & set(range(1, 10))  # drawn, not kept: "15A" may become "3C"
