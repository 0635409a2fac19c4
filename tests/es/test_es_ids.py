"""Identifiers: DNI and NIE keep a valid control letter, NSS its control digits, others their shape."""

import regex
from es_helpers import run_many

from pseudo.lang.es import DNI_LETTERS, nss_control

ID = "ID_SUJETO_ASISTENCIA"


def dni_valid(value: str) -> bool:
    digits = "".join(c for c in value if c.isdigit())
    return DNI_LETTERS[int(digits) % 23] == value[-1].upper()


def test_a_dni_gets_another_number_and_its_letter():
    for (new,) in run_many("DNI: 12345678Z.", [("12345678Z", ID)]):
        assert regex.fullmatch(r"\d{8}[A-Z]", new) and new != "12345678Z" and dni_valid(new)


def test_a_dotted_dni_with_a_hyphen_keeps_its_layout():
    for (new,) in run_many("DNI 12.345.678-z", [("12.345.678-z", ID)]):
        assert regex.fullmatch(r"\d{2}\.\d{3}\.\d{3}-[a-z]", new) and dni_valid(new)


def test_an_nie_keeps_its_prefix_and_gets_its_letter():
    for (new,) in run_many("NIE Y1234567X", [("Y1234567X", ID)]):
        assert new[0] == "Y" and DNI_LETTERS[int("1" + new[1:8]) % 23] == new[8]


def test_a_valid_social_security_number_stays_valid():
    original = f"28 12345678 {nss_control(28, 12345678):02d}"
    for (new,) in run_many(f"NASS: {original}", [(original, "ID_ASEGURAMIENTO")]):
        digits = new.replace(" ", "")
        assert regex.fullmatch(r"\d\d \d{8} \d\d", new)
        assert nss_control(int(digits[:2]), int(digits[2:10])) == int(digits[10:])


def test_other_identifiers_keep_digit_count_and_grouping():
    for (new,) in run_many("NºCol: 28 28 70973.", [("28 28 70973", "ID_TITULACION_PERSONAL_SANITARIO")]):
        assert regex.fullmatch(r"\d\d \d\d \d{5}", new) and new != "28 28 70973"
