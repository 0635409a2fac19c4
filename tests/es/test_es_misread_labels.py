"""Values the annotators gave the wrong label, and makers cited with their product, in a whole
Spanish record: a date-tagged country goes to the places rule, a maker beside its product stays."""

import pytest
import regex

from es_helpers import es_pack, run, run_many

from pseudo.engine import Summary
from pseudo.errors import ConfigError
from pseudo.labels import LabelMapping, tagset
from pseudo.rules.base import LISTED, NOT_RECOGNISED
from pseudo.rules.dates import DateRule

RECORD = (
    "Datos del paciente.\n"
    "Nombre: Lucía Moreno Ferrer.\n"
    "Fecha de nacimiento: 21/09/1961.\n"
    "País: Colombia.\n"
    "Localidad/ Provincia: Valencia.\n"
    "Fecha de Ingreso: 03/02/2016.\n"
    "Se añadió acetazolamida (Edemox®, Chiesi, Alcobendas, España) y tacrolimus (Prograf®, Astellas). "
    "Se consultó a Keramat por el lote.\n"
)
SPANS = [
    ("Lucía Moreno Ferrer", "NOMBRE_SUJETO_ASISTENCIA"),
    ("21/09/1961", "FECHAS"),
    ("Colombia", "FECHAS"),  # tagged as a date in MEDDOCAN
    ("Valencia", "TERRITORIO"),
    ("03/02/2016", "FECHAS"),
    ("Chiesi", "INSTITUCION"),
    ("Alcobendas", "TERRITORIO"),
    ("España", "PAIS"),
    ("Astellas", "INSTITUCION"),
    ("Keramat", "INSTITUCION"),  # a maker with no product beside it
]


def is_country(name: str) -> bool:
    return any(place.kind == "country" for place in es_pack().tree().lookup(name))


def test_the_date_rule_recognises_what_its_grammar_reads():
    rule, pack = DateRule(), es_pack()
    for value in ("21/09/1961", "marzo de 2016", "1992", "el 3 de mayo"):
        assert rule.recognises(value, "", "DATE", pack) == LISTED, value
    for value in ("Colombia", "tío paterno", "hoy"):
        assert rule.recognises(value, "", "DATE", pack) == NOT_RECOGNISED, value
    assert rule.recognises("21/09/1961", "", "PLACE", pack) == NOT_RECOGNISED


def test_meddocan_dates_may_be_places_and_otherwise_stay_dates():
    mapping = tagset("meddocan").labels["FECHAS"]
    assert [m.label for m in mapping.may_be] == ["COUNTRY", "PLACE", "AGE", "KINSHIP", "HEALTHCARE_UNIT"] and mapping.unrecognised == "own"
    with pytest.raises(ConfigError, match="unrecognised"):
        LabelMapping.parse({"label": "DATE", "may_be": ["PLACE"], "unrecognised": "never"}, "test")


def test_a_record_gets_its_misread_date_as_a_country_and_keeps_a_products_maker():
    result = run(RECORD, SPANS)
    by_text = {RECORD[r.span.start : r.span.end]: r for r in result.replacements}
    country = by_text["Colombia"]
    assert (country.label, country.rule, country.routed_from) == ("COUNTRY", "places", "DATE")
    assert is_country(country.surrogate) and country.surrogate != "Colombia"
    assert by_text["21/09/1961"].rule == "dates" and by_text["21/09/1961"].routed_from is None
    for kept in ("Chiesi", "Astellas"):
        assert (by_text[kept].surrogate, by_text[kept].kept_as) == (kept, "a product's maker")
    for kept in ("Alcobendas", "España"):
        assert (by_text[kept].surrogate, by_text[kept].kept_as) == (kept, "a maker's address")
    assert by_text["Keramat"].surrogate != "Keramat" and by_text["Keramat"].kept_as is None
    assert by_text["Valencia"].kept_as is None
    summary = Summary()
    summary.add(result)
    line = summary.line()
    assert "read as what they look like: DATE as COUNTRY 1" in line
    assert "kept as written: COUNTRY as a maker's address 1, ORGANISATION as a product's maker 2, PLACE as a maker's address 1" in line
    assert "Colombia" not in line and "Chiesi" not in line


def test_the_misread_country_is_a_country_under_every_key_and_never_a_month():
    months = {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}
    for (new,) in run_many("País: Colombia.\nEdad: 56 años.", [("Colombia", "FECHAS")]):
        assert is_country(new) and new.casefold() not in months, new


def test_an_unreadable_date_no_list_holds_stays_with_the_dates_rule():
    replacement = run("Antecedentes: fallecido hace poco tiempo.", [("hace poco tiempo", "FECHAS")]).replacements[0]
    assert (replacement.label, replacement.rule, replacement.routed_from) == ("DATE", "dates", None)
    assert "unparsed" in replacement.fallback


def test_keeping_makers_can_be_turned_off():
    result = run(RECORD, SPANS, rules={"organisations": {"keep_makers": False}})
    by_text = {RECORD[r.span.start : r.span.end]: r for r in result.replacements}
    for name in ("Chiesi", "Astellas", "Alcobendas", "España"):
        assert by_text[name].kept_as is None
    assert by_text["Chiesi"].surrogate != "Chiesi" and by_text["Astellas"].surrogate != "Astellas"
    assert by_text["Alcobendas"].surrogate != "Alcobendas"  # the home country stays as always


def test_a_date_tagged_age_or_relative_goes_to_its_own_rule_never_a_month():
    """MEDDOCAN tags "39 años" and "tío paterno" as dates too: read as dates they gave "20 marzo"
    and "junio paterno"; the age moves as an age, the kinship word stays."""
    text = "Fecha de Ingreso: 03/02/2016. Varón de 39 años. Antecedentes: tío paterno con diabetes."
    spans = [("03/02/2016", "FECHAS"), ("39 años", "FECHAS"), ("tío paterno", "FECHAS")]
    months = {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}
    for key in (b"k1", b"k2", b"k3", b"k4"):
        result = run(text, spans, key=key)
        by_text = {text[r.span.start : r.span.end]: r for r in result.replacements}
        age, relative = by_text["39 años"], by_text["tío paterno"]
        assert (age.rule, age.routed_from, relative.rule, relative.routed_from) == ("ages", "DATE", "kinship", "DATE")
        assert age.surrogate.endswith(" años") and relative.surrogate == "tío paterno"
        assert not any(word in months for word in (age.surrogate + " " + relative.surrogate).split())


def test_a_hospital_tagged_as_a_doctors_name_becomes_a_hospital_of_its_town():
    """"Hospital General Universitario Gregorio Marañón" tagged NOMBRE_PERSONAL_SANITARIO had become
    "Martínez Alba Carrasco Abraham Salamanca" word by word (round 23). A name span a unit's type
    word opens goes to the units rule, and its words are no names a hospital drawn must avoid; an
    initial that reads like a cue ("José H. García") stays a name."""
    from pseudo.lists.pack import load_pack

    madrid = {r["name"] for r in load_pack("es").rows("hospitals") if r["place_id"] == "ES-M28079"}
    text = ("Responsable clínico: Dra. Susana Martín Martín. Hospital General Universitario Gregorio Marañón. "
            "Calle del Dr. Esquerdo, 46, 28007 Madrid")  # fmt: skip
    tags = [("Susana Martín Martín", "NOMBRE_PERSONAL_SANITARIO"), ("Hospital General Universitario Gregorio Marañón", "NOMBRE_PERSONAL_SANITARIO"),
            ("Calle del Dr. Esquerdo, 46", "CALLE"), ("28007", "TERRITORIO"), ("Madrid", "TERRITORIO")]  # fmt: skip
    for _, unit, _, code, _ in run_many(text, tags, keys=6):
        assert unit in madrid and "Marañón" not in unit and code.startswith("28"), unit
    for (name,) in run_many("Médico: José H. García López.", [("José H. García López", "NOMBRE_PERSONAL_SANITARIO")], keys=4):
        assert regex.fullmatch(r"\w+ \w\. \w+ \w+", name), name


def test_a_doctors_name_signed_before_a_hospital_stays_a_name():
    """Round 24: "Médico: Hospital Quironsalud Albacete" (a doctor's name read as a hospital, since
    the hospital written right after it in the signature was taken for its cue)."""
    text = "Médico: Ana López Pérez.\nRemitido por: Dra. Ana López Pérez Hospital Universitario de Móstoles. 28935 Móstoles"
    tags = [("Ana López Pérez", "NOMBRE_PERSONAL_SANITARIO"), ("Ana López Pérez", "NOMBRE_PERSONAL_SANITARIO"),
            ("Hospital Universitario de Móstoles", "HOSPITAL"), ("28935", "TERRITORIO"), ("Móstoles", "TERRITORIO")]  # fmt: skip
    for name, again, unit, *_ in run_many(text, tags, keys=5):
        assert name == again and len(name.split()) == 3 and not {"Hospital", "Centro", "Salud"} & set(name.split()), (name, unit)


def test_an_e_mail_address_tagged_as_a_street_stays_an_e_mail_address():
    """MEDDOCAN tags two addresses as CALLE: drawn as streets, "E-mail: fray luis de león E-mail:
    agustina de aragón" gave the record away (round 25). An address goes to the e-mail rule."""
    text = "Remitido por: Dra. Teresa Cavero-Escribano. E-mail: tcaveroescribano@gmail.com E-mail: emoralesr@senefro.org"
    tags = [("Teresa Cavero-Escribano", "NOMBRE_PERSONAL_SANITARIO"), ("tcaveroescribano@gmail.com", "CALLE"), ("emoralesr@senefro.org", "CALLE")]
    for _, first, second in run_many(text, tags, keys=5):
        assert all(regex.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", m) for m in (first, second)), (first, second)


def test_a_town_tagged_as_a_street_goes_to_the_places_rule():
    """"Localidad/ Provincia: Alcorcón" tagged CALLE had become a street's name for a town ("Salvador
    Allende", round 39); a street stays a street."""
    text = "Domicilio: C/ Mayor, 3.\nLocalidad/ Provincia: Alcorcón.\nCP: 28921."
    spans = [("C/ Mayor, 3", "CALLE"), ("Alcorcón", "CALLE"), ("28921", "TERRITORIO")]
    for key in (b"k1", b"k2", b"k3"):
        by_text = {text[r.span.start : r.span.end]: r for r in run(text, spans, key=key).replacements}
        town, street = by_text["Alcorcón"], by_text["C/ Mayor, 3"]
        assert (town.label, town.rule, town.routed_from) == ("PLACE", "places", "STREET")
        assert any(p.kind == "municipality" for p in es_pack().tree().lookup(town.surrogate)), town.surrogate
        assert (street.label, street.routed_from) == ("STREET", None)


def test_a_unit_tagged_as_a_date_goes_to_the_units_rule_with_the_date_in_its_name():
    """"Hospital Universitario 12 de Octubre" tagged FECHAS had become "... 26 de Enero" (round 40)."""
    text = "Servicio de Nefrología, Hospital Universitario 12 de Octubre, Madrid. Ingreso: 03/02/2016."
    spans = [("Hospital Universitario 12 de Octubre", "FECHAS"), ("03/02/2016", "FECHAS")]
    for key in (b"k1", b"k2", b"k3"):
        unit, date = run(text, spans, key=key).replacements
        assert (unit.rule, unit.routed_from) == ("healthcare", "DATE") and "Enero" not in unit.surrogate, unit.surrogate
        assert date.rule == "dates"
