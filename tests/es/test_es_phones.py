"""Phones and faxes on the Spanish numbering plan: fixed stays fixed, mobile mobile, grouping kept."""

import pytest
import regex
from es_helpers import es_pack, run_many
from pseudo.folds import loose


def area_codes():
    return {r["code"] for r in es_pack().rows("phone_area_codes")}


def test_a_fixed_number_gets_another_provincial_code_in_the_same_grouping():
    codes = area_codes()
    for (new,) in run_many("Tel. 967 597 100", [("967 597 100", "NUMERO_TELEFONO")]):
        assert regex.fullmatch(r"[89]\d\d \d{3} \d{3}", new)
        assert new[:3] in codes and new[:3] != "967"


def test_a_two_digit_code_stays_two_digits():
    codes = area_codes()
    for (new,) in run_many("Fax: 91 336 87 85", [("91 336 87 85", "NUMERO_FAX")]):
        assert regex.fullmatch(r"\d\d \d{3} \d\d \d\d", new) and new[:2] in codes


def test_a_mobile_stays_a_mobile():
    mobile = {r["prefix"] for r in es_pack().rows("phone_mobile_prefixes")}
    blocks = {r["prefix"] for r in es_pack().rows("phone_mobile_ranges")}
    for (new,) in run_many("Móvil 653 343 435", [("653 343 435", "NUMERO_TELEFONO")]):
        assert regex.fullmatch(r"[67]\d\d \d{3} \d{3}", new) and any(new.startswith(p) for p in mobile)
        assert any(new.replace(" ", "").startswith(b) for b in blocks)  # a block an operator holds


def test_a_country_code_without_plus_is_kept():
    for (new,) in run_many("Tel 34679802102", [("34679802102", "NUMERO_TELEFONO")]):
        assert new.startswith("34") and len(new) == 11 and new[2] in "67"


def test_a_fixed_number_follows_the_surrogate_town_of_its_address():
    """Places run before phones: the area code serves the province of the town that replaced Madrid."""
    pack = es_pack()
    tree = pack.tree()
    served = {}
    for row in pack.rows("phone_area_codes"):
        served.setdefault(row["code"], set()).add(loose(row["place"]))  # "Almeria" serves Almería too
    checked = 0
    for town, phone in run_many("28036 Madrid. Tel. 913 908 121", [("Madrid", "TERRITORIO"), ("913 908 121", "NUMERO_TELEFONO")]):
        province = next(p for p in tree.lookup(town) if p.kind == "municipality")
        names = set()
        while province is not None:
            names |= {loose(n) for n in (province.name, *province.extra.get("aliases", "").split("|"))}
            province = tree.parent(province)
        codes = {c for c, places in served.items() if places & names}
        if codes - {"91"}:
            assert any(phone.replace(" ", "").startswith(c) for c in codes), (town, phone)
            checked += 1
    assert checked > 10


def served_codes(town):
    """Area codes of the province a municipality lies in (libphonenumber's place names)."""
    pack = es_pack()
    tree = pack.tree()
    province = next(p for p in tree.lookup(town) if p.kind == "municipality")
    names = set()
    while province is not None:
        names |= {loose(n) for n in (province.name, *province.extra.get("aliases", "").split("|"))}
        province = tree.parent(province)
    return {r["code"] for r in pack.rows("phone_area_codes") if loose(r["place"]) in names}


@pytest.mark.parametrize("written", ["Fax: 91 336 87 85", "Tel. +34 913 908 121", "Tel. 0034 913 908 121", "Fax 34913908121"])
def test_fixed_and_fax_numbers_in_every_form_take_the_surrogate_towns_code(written):
    number = written.split(" ", 1)[1]
    label = "NUMERO_FAX" if written.startswith("Fax") else "NUMERO_TELEFONO"
    checked = 0
    for town, phone in run_many(f"28901 Getafe. {written}", [("Getafe", "TERRITORIO"), (number, label)]):
        codes = served_codes(town)
        national = "".join(c for c in phone if c.isdigit())[len("".join(c for c in number if c.isdigit())) - 9 :]
        if codes:
            assert any(national.startswith(c) for c in codes), (town, phone)
            checked += 1
    assert checked > 10


def test_a_province_listed_only_in_longer_ranges_has_its_three_digit_code():
    """libphonenumber splits Lleida's 973 into 9730-9738; the pack keeps 973 as Lérida's code, so
    a Lleida number is read as fixed and gets another provincial code."""
    served = {r["code"]: r["place"] for r in es_pack().rows("phone_area_codes")}
    assert served["973"] == "Lérida"
    codes = area_codes()
    for (new,) in run_many("Tel. 973 248 100", [("973 248 100", "NUMERO_TELEFONO")]):
        assert regex.fullmatch(r"[89]\d\d \d{3} \d{3}", new) and new[:3] in codes and new[:3] != "973"


def test_a_nine_hundred_number_keeps_its_leading_nine():
    """Provinces have a 9xx code and a newer 8xx one; records mostly hold the 9xx, so a 963 of
    Valencia becomes a 9xx of the surrogate town, never its 860 (a reader's tell)."""
    checked = 0
    for town, phone in run_many("46017 Valencia Tel.: 963 862 500", [("Valencia", "TERRITORIO"), ("963 862 500", "NUMERO_TELEFONO")]):
        assert phone.startswith("9"), (town, phone)
        checked += 1
    assert checked > 10


def test_a_foreign_number_keeps_its_country_and_region_digits():
    """A Uruguayan fax in a Montevideo address (11 digits, no Spanish prefix) and a number dialled
    with another country code stay numbers of their country; the rest of the digits are drawn."""
    for written in ("(5982) 487-3837", "+598 2 487 3837", "0054 11 4123 4567"):
        news = [new for (new,) in run_many(f"Fax: {written}", [(written, "NUMERO_FAX")])]
        shape = regex.sub(r"\d", "9", written)
        for new in news:
            assert regex.sub(r"\d", "9", new) == shape and new[:5].replace(" ", "") == written[:5].replace(" ", ""), new
        assert len(set(news)) > 1
