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


# -- schemes declared by the pack, province codes of the surrogate place ------------------------

from es_helpers import es_pack, run  # noqa: E402

from pseudo.digits import digits_of  # noqa: E402
from pseudo.lang.es import nss_valid  # noqa: E402

COL = "ID_TITULACION_PERSONAL_SANITARIO"
KEYS = [f"k{i}".encode() for i in range(12)]


def province_code(place: str) -> str:
    """The INE code of the province a listed place lies in."""
    tree = es_pack().tree()
    found = [p for p in tree.lookup(place) if p.kind in ("municipality", "province")]
    node = found[0] if found[0].kind == "province" else tree.ancestor(found[0], "province")
    return node.extra["code"]


def with_town(text: str, spans: list[tuple[str, str]], key: bytes) -> tuple[str, list[str]]:
    """(province code of the town's surrogate, the other surrogates) for a record from Zaragoza."""
    result = run(f"Paciente de Zaragoza. {text}", [("Zaragoza", "TERRITORIO"), *spans], key=key)
    town, *rest = [r.surrogate for r in result.replacements]
    return province_code(town), rest


def test_the_pack_declares_its_identifier_schemes_and_labels():
    ids = es_pack().settings.ids
    assert ids.schemes == ("nie", "dni", "nss", "colegiado", "luhn")
    assert "NASS" in ids.labels["nss"] and "NºCol" in ids.labels["colegiado"]


def test_a_collegiate_number_takes_the_province_of_the_surrogate_place():
    for key in KEYS:
        code, [new] = with_town("NºCol: 28 28 35489.", [("28 28 35489", COL)], key)
        assert regex.fullmatch(rf"{code} {code} \d{{5}}", new), (code, new)


def test_a_collegiate_number_of_two_pairs_alone_takes_the_province_too():
    for key in KEYS:
        code, [new] = with_town("NºCol: 28 28.", [("28 28", COL)], key)
        assert new == f"{code} {code}", (code, new)


def test_a_second_pair_of_a_kept_province_stays_when_the_college_changes():
    """"NºCol: 31-20-25896" in a record of Gipuzkoa had become "20-21-34100" (round 20): the college
    takes the record's province and the second pair, a kept province's code, had been drawn anew."""
    for key in KEYS:
        code, [new] = with_town("NºCol: 31-20-25896.", [("31-20-25896", COL)], key)
        assert regex.fullmatch(rf"{code}-20-\d{{5}}", new), (code, new)


def test_a_collegiate_number_takes_the_province_the_doctor_signs_from():
    """"NºCol: 19 19" after a Madrid header had become "28 28" while the doctor signs from
    Cabanillas del Campo (Guadalajara) at the end (round 23's kit): the college is the province of
    the doctor's own address where the record gives one."""
    text = ("Localidad/ Provincia: Madrid.\nCP: 19001.\nMédico: María Moreno López NºCol: 19 19 85470.\n"
            "Responsable clínico: Dra. María Moreno López C/. Dalí, 14 19171 Cabanillas del Campo (Guadalajara) España")  # fmt: skip
    tags = [("Madrid", "TERRITORIO"), ("19001", "TERRITORIO"), ("María Moreno López", "NOMBRE_PERSONAL_SANITARIO"), ("19 19 85470", COL),
            ("María Moreno López", "NOMBRE_PERSONAL_SANITARIO"), ("C/. Dalí, 14", "CALLE"), ("19171", "TERRITORIO"),
            ("Cabanillas del Campo", "TERRITORIO"), ("Guadalajara", "TERRITORIO"), ("España", "PAIS")]  # fmt: skip
    for key in KEYS:
        result = run(text, tags, key=key)
        number = result.replacements[3].surrogate
        assert regex.fullmatch(r"19 19 \d{5}", number), number


def test_two_pairs_of_the_kept_province_stay_as_written():
    code, [new] = with_town("NºCol: 50 50.", [("50 50", COL)], b"k")
    assert code == "50" and new == "50 50"  # Zaragoza's province is kept: nothing else to replace


def test_a_collegiate_number_keeps_dashes_and_a_second_pair_that_differs():
    for key in KEYS:
        code, [new] = with_town("NºCol: 13-87-71356.", [("13-87-71356", COL)], key)
        assert regex.fullmatch(rf"{code}-\d\d-\d{{5}}", new)
        assert 1 <= int(new.split("-")[1]) <= 52, new  # another province's code, never "74"


def test_a_nine_digit_number_is_a_collegiate_number_only_after_its_label():
    for key in KEYS:
        code, [labelled, bare] = with_town("NºCol: 282835489. NHC: 282835489", [("282835489", COL), ("282835489", "ID_SUJETO_ASISTENCIA")], key)
        assert labelled.startswith(code + code) and len(labelled) == 9
        assert len(bare) == 9 and bare.isdigit()


def test_a_social_security_number_gets_the_surrogate_province_and_right_control_digits():
    for key in KEYS:
        code, [new] = with_town("NASS: 50 12345678 76.", [("50 12345678 76", "ID_ASEGURAMIENTO")], key)
        assert regex.fullmatch(rf"{code} \d{{8}} \d\d", new) and nss_valid(new)


def test_a_labelled_social_security_number_without_control_keeps_its_length():
    for key in KEYS:
        code, [new] = with_town("NASS: 50 63514095.", [("50 63514095", "ID_ASEGURAMIENTO")], key)
        assert regex.fullmatch(rf"{code} \d{{8}}", new)


def test_a_social_security_number_of_another_province_stays_of_another_province():
    """Leftover round 22: every surrogate NASS carried its record's province, so an original left
    untagged with another ("NASS 90 ..." in an Albacete record) stood out at once. A number whose
    code is not its record's province gets another valid province's code."""
    for key in KEYS:
        code, [new] = with_town("NASS: 28 12345678 40.", [("28 12345678 40", "ID_ASEGURAMIENTO")], key)
        assert new[:2] != code and 1 <= int(new[:2]) <= 52 and nss_valid(new), (code, new)


def test_a_record_number_keeps_its_letters_length_and_a_nonzero_first_digit():
    for (new,) in run_many("NHC: HC-70425257/5B.", [("HC-70425257/5B", "ID_SUJETO_ASISTENCIA")]):
        assert regex.fullmatch(r"HC-[1-9]\d{7}/\dB", new) and new != "HC-70425257/5B"


def test_identifier_spans_of_common_words_are_kept_and_counted_as_fallbacks():
    text = "Lactante de raza caucásica. Casado. Varón boliviano."
    spans = [("Lactante", "ID_SUJETO_ASISTENCIA"), ("raza caucásica", "ID_SUJETO_ASISTENCIA"),
             ("Casado", "ID_SUJETO_ASISTENCIA"), ("boliviano", "ID_SUJETO_ASISTENCIA")]  # fmt: skip
    result = run(text, spans)
    assert [r.surrogate for r in result.replacements] == ["Lactante", "raza caucásica", "Casado", "boliviano"]
    assert all(r.fallback and "common words" in r.fallback for r in result.replacements)


def test_a_common_word_after_an_institution_title_word_is_no_surname():
    text = "Se notificó con tarjeta amarilla al Sistema Español de Farmacovigilancia."
    phrase = "tarjeta amarilla al Sistema Español de Farmacovigilancia"
    for (new,) in run_many(text, [(phrase, "ID_SUJETO_ASISTENCIA")], keys=10):
        assert new == phrase  # "Español" is a surname too, but not after "Sistema"
    for (new,) in run_many("Datos: visto por Dr. Español ayer.", [("Español", "ID_SUJETO_ASISTENCIA")], keys=10):
        assert new != "Español"  # after a title of a person it is the surname


def test_an_identifier_span_that_is_a_name_becomes_a_name_of_the_same_list():
    pack = es_pack()
    for (new,) in run_many("Datos: visto por Dr. Pérez ayer.", [("Pérez", "ID_SUJETO_ASISTENCIA")], keys=10):
        assert new != "Pérez" and new in pack.weighted("last_names")


def test_an_identifier_span_that_is_a_date_moves_as_a_date():
    for (new,) in run_many("Ingreso: 12 de marzo de 2015.", [("12 de marzo de 2015", "ID_CONTACTO_ASISTENCIAL")], keys=10):
        assert regex.fullmatch(r"\d{1,2} de \p{Ll}+ de \d{4}", new) and new != "12 de marzo de 2015"
        assert digits_of(new)


def test_a_labelled_province_pair_and_serial_takes_the_province_of_the_surrogate_place():
    for key in KEYS:
        code, [new] = with_town("NºCol: 29 29585.", [("29 29585", COL)], key)
        assert regex.fullmatch(rf"{code} \d{{5}}", new), (code, new)


def test_a_labelled_collegiate_number_with_a_short_serial_or_a_double_space_keeps_its_layout():
    for key in KEYS:
        code, [short, wide] = with_town(
            "NºCol: 28 28 1234. NºCol: 28 28  12345.", [("28 28 1234", COL), ("28 28  12345", COL)], key
        )
        assert regex.fullmatch(rf"{code} {code} \d{{4}}", short), (code, short)
        assert regex.fullmatch(rf"{code} {code}  \d{{5}}", wide), (code, wide)


def test_a_check_that_the_original_fails_the_surrogate_fails_too():
    """MEDDOCAN's invented social security numbers fail their control digits; surrogates that alone
    passed gave themselves away to a reader who computed them. A right check stays right."""
    for key in KEYS:
        _, [wrong, right] = with_town(
            "NASS: 28 12345678 91. NASS: 28 12345678 40.", [("28 12345678 91", "ID_ASEGURAMIENTO"), ("28 12345678 40", "ID_ASEGURAMIENTO")], key
        )
        assert nss_valid("28 12345678 91") is False and nss_valid(wrong) is False, wrong
        assert nss_valid("28 12345678 40") is True and nss_valid(right) is True, right
    for (new,) in run_many("DNI 12345678A.", [("12345678A", ID)]):
        assert not dni_valid(new), new  # 12345678 calls for Z


def test_a_second_pair_of_another_province_stays_where_the_college_province_stays():
    """"NºCol: 31 28" in Pamplona had become "31 51" (Ceuta) and "31 14": a kept college province
    keeps the other province written beside it, a province the pack keeps too."""
    for key in KEYS:
        code, [new] = with_town("NºCol: 50 28 35489.", [("50 28 35489", COL)], key)
        assert code == "50" and regex.fullmatch(r"50 28 \d{5}", new) and new != "50 28 35489", new
