"""Phones and faxes on the Spanish numbering plan: fixed stays fixed, mobile mobile, grouping kept."""

import regex
from es_helpers import es_pack, run_many


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
    for (new,) in run_many("Móvil 653 343 435", [("653 343 435", "NUMERO_TELEFONO")]):
        assert regex.fullmatch(r"[67]\d\d \d{3} \d{3}", new) and new[:3] in mobile


def test_a_country_code_without_plus_is_kept():
    for (new,) in run_many("Tel 34679802102", [("34679802102", "NUMERO_TELEFONO")]):
        assert new.startswith("34") and len(new) == 11 and new[2] in "67"
