"""Ages with the Spanish pack: +-3 under the MEDDOCAN config, children kept, units and words read."""

import pytest
from es_helpers import run, run_many

AGE = "EDAD_SUJETO_ASISTENCIA"


def test_adult_ages_move_by_at_most_three_years_never_zero():
    shifts = set()
    for (new,) in run_many("Paciente de 70 años.", [("70 años", AGE)], keys=60):
        number, unit = new.split(" ")
        assert unit == "años"
        shifts.add(int(number) - 70)
    assert shifts <= {-3, -2, -1, 1, 2, 3} and len(shifts) > 3


def test_one_shift_per_document():
    for first, second in run_many("Edad: 70 años. Paciente de 70 a.", [("70 años", AGE), ("70 a", AGE)]):
        assert first.split()[0] == second.split()[0]


@pytest.mark.parametrize("age", ["13 años", "15 meses", "32 semanas", "29 días", "3 años y 8 meses", "siete años", "un mes"])
def test_children_keep_their_age(age):
    result = run(f"Niño de {age}.", [(age, AGE)])
    assert result.replacements[0].surrogate == age


def test_years_move_and_months_stay():
    for (new,) in run_many("Edad: 45 años y 3 meses.", [("45 años y 3 meses", AGE)]):
        years, rest = new.split(" ", 1)
        assert rest == "años y 3 meses" and 42 <= int(years) <= 48 and years != "45"


def test_numbers_in_words_are_shifted_in_words():
    seen = set()
    for (new,) in run_many("Mujer de sesenta y tres años.", [("sesenta y tres años", AGE)]):
        assert new.endswith(" años") and not any(c.isdigit() for c in new)
        seen.add(new)
    assert seen <= {"sesenta años", "sesenta y un años", "sesenta y dos años", "sesenta y cuatro años",
                    "sesenta y cinco años", "sesenta y seis años"}  # fmt: skip


def test_a_stage_of_life_without_a_number_is_kept_and_recorded():
    replacement = run("Adolescente con fiebre.", [("Adolescente", AGE)]).replacements[0]
    assert replacement.surrogate == "Adolescente" and replacement.fallback


def test_a_child_whose_age_is_kept_keeps_the_interval_from_birth_to_admission():
    from datetime import date

    text = "Fecha de nacimiento: 15/08/2017.\nEdad: 45 días.\nFecha de Ingreso: 29/09/2017."
    for birth, age, admission in run_many(text, [("15/08/2017", "FECHAS"), ("45 días", "EDAD_SUJETO_ASISTENCIA"), ("29/09/2017", "FECHAS")]):
        assert age == "45 días"
        born, admitted = (date(*map(int, reversed(d.split("/")))) for d in (birth, admission))
        assert (admitted - born).days == 45


def test_an_article_is_not_read_as_an_age():
    for (new,) in run_many("Paciente: una mujer de 45 años.", [("una mujer de 45 años", "EDAD_SUJETO_ASISTENCIA")]):
        assert new.startswith("una mujer de ") and new != "una mujer de 45 años"


def test_a_newborn_without_a_written_age_keeps_its_birth_on_its_admission_day():
    """"Fecha de nacimiento: 13/05/2017 ... Fecha de Ingreso: 13/05/2017" of a newborn had become a
    birth on "14/01/2020" beside an admission on "14/01/2017" (round 23): no age was written, so
    the birth date took the age shift. A record whose dates make its patient a child moves the
    birth date with the clock alone, as a child's written age is kept; an adult's still moves."""
    text = "Fecha de nacimiento: 13/05/2017.\nSexo: M.\nFecha de Ingreso:13/05/2017.\nInforme: Recién nacido."
    for born, admitted in run_many(text, [("13/05/2017", "FECHAS"), ("13/05/2017", "FECHAS")], keys=8):
        assert born == admitted, (born, admitted)
    text = "Fecha de nacimiento: 13/05/1950.\nFecha de Ingreso:13/05/2017."
    moved = [(b[-4:], a[-4:]) for b, a in run_many(text, [("13/05/1950", "FECHAS"), ("13/05/2017", "FECHAS")], keys=8)]
    assert any(int(a) - int(b) != 67 for b, a in moved), moved  # an adult's birth date takes the age shift


def test_a_date_with_a_space_before_its_last_slash_moves_whole():
    """"Fecha de nacimiento:12/04 /2011" beside "Edad: 18 meses" had become "10/05 /2012" with an
    admission six months later (round 67): the year, read apart from day and month, moved by the
    year its neighbour's shift crossed. The date is read whole, and the child's age holds."""
    text = "Datos asistenciales.\nFecha de nacimiento:12/04 /2011.\nPaís de nacimiento: España.\nEdad: 18 meses.\nFecha de Ingreso: 17/10/2012."
    spans = [("12/04 /2011", "FECHAS"), ("España", "PAIS"), ("18 meses", "EDAD_SUJETO_ASISTENCIA"), ("17/10/2012", "FECHAS")]
    for birth, _, age, admission in run_many(text, spans, keys=15):
        d, m, y = (int(x) for x in birth.replace(" ", "").split("/"))
        d2, m2, y2 = (int(x) for x in admission.split("/"))
        months = (y2 - y) * 12 + (m2 - m) - (d2 < d)
        assert age == "18 meses" and months == 18 and " /" in birth, (birth, admission)
