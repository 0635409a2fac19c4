"""Names with the Spanish pack: gender from titles and lists, shape, accents, particles, initials."""

import regex
from es_helpers import es_pack, run, run_many, surrogates

from pseudo.lists.weighted import loose
from pseudo.lists.names import name_lists

PATIENT = "NOMBRE_SUJETO_ASISTENCIA"
DOCTOR = "NOMBRE_PERSONAL_SANITARIO"


def gender_of(word):
    return name_lists(es_pack(), 3.0).gender(word)


def test_title_and_article_fix_the_gender():
    """'Andrea' is a woman's name in the census; after 'Dr.' or 'el paciente' it is a man's."""
    for cue, expected in [("Dr.", "male"), ("el paciente", "male"), ("Sr.", "male"), ("Dra.", "female"),
                          ("la paciente", "female"), ("Sra.", "female"), ("la doctora", "female")]:  # fmt: skip
        for (new,) in run_many(f"Visto por {cue} Andrea.", [("Andrea", DOCTOR)], keys=10):
            assert gender_of(new) in (expected, "neutral"), (cue, new)


def test_census_gender_without_a_cue():
    """"María José" is a woman's: her first given name a woman's, the pair one women bear (the
    census lists "María José", "Teresa Jesús": a second name may be a man's)."""
    pairs = {loose(p) for p in es_pack().weighted("given_name_pairs_female").items}
    for first, last in run_many("Nombre: María José. Apellidos: Navarro Cuéllar.", [("María José", PATIENT), ("Navarro Cuéllar", PATIENT)]):
        assert gender_of(first.split()[0]) in ("female", "neutral") and loose(first) in pairs, first


def test_a_second_given_name_is_one_the_census_lists_after_the_first():
    """"Trinidad Khadija" read as two people's names: a second given name is drawn among those the
    census pairs with the surrogate of the first, by bearers."""
    pairs = {loose(p) for p in es_pack().weighted("given_name_pairs_male").items}
    for (doctor,) in run_many("Médico: Dr. José Antonio Ruiz.", [("José Antonio Ruiz", DOCTOR)], keys=20):
        assert loose(" ".join(doctor.split()[:2])) in pairs, doctor


def test_compound_names_and_surnames_keep_their_shape():
    for doctor, patient in run_many(
        "Dr. José Antonio Ruiz-Zorrilla López y la paciente María de la Fuente.",
        [("José Antonio Ruiz-Zorrilla López", DOCTOR), ("María de la Fuente", PATIENT)],
    ):
        assert regex.fullmatch(r"\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+-\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+", doctor), doctor
        assert regex.fullmatch(r"\p{Lu}\p{Ll}+ de la \p{Lu}\p{Ll}+", patient), patient


def test_after_de_la_comes_a_surname_that_follows_de_la_in_the_census():
    after = {s.removeprefix("de la ") for s in es_pack().weighted("last_names").items if s.startswith("de la ")}
    for (new,) in run_many("Paciente: de la Fuente.", [("de la Fuente", PATIENT)]):
        assert new.removeprefix("de la ") in after


def test_surrogates_have_accents_and_keep_the_casing():
    seen = set()
    for upper, title in run_many("MARTÍNEZ PÉREZ y Martínez Pérez", [("MARTÍNEZ PÉREZ", PATIENT), ("Martínez Pérez", PATIENT)], keys=60):
        assert upper == title.upper()
        seen.update(title.split())
    assert any(c in "áéíóúñ" for word in seen for c in word)  # census capitals become "Muñoz", "José"


def test_a_name_written_without_accents_gets_a_surrogate_without_them():
    for (new,) in run_many("Apellidos: Garcia Fernandez.", [("Garcia Fernandez", PATIENT)], keys=60):
        assert not any(c in "áéíóúÁÉÍÓÚ" for c in new), new


def test_one_value_one_surrogate_across_accents_and_case():
    result = run("García visto; GARCIA; Garcia.", [("García", PATIENT), ("GARCIA", PATIENT), ("Garcia", PATIENT)])
    first, second, third = surrogates(result)
    assert loose(first) == loose(second) == loose(third)


def test_initials_follow_their_surrogate():
    for full, initial in run_many("Ana Martínez ingresó. Firmado: A. Martínez.", [("Ana Martínez", PATIENT), ("A. Martínez", PATIENT)]):
        assert initial[0] == full[0] and initial[1:3] == ". "
        assert initial.split()[1] == full.split()[1]


def test_surname_comma_first_name_order_is_kept():
    for (new,) in run_many("Paciente: Rivera Bueno, Ernesto.", [("Rivera Bueno, Ernesto", PATIENT)]):
        surnames, first = new.split(", ")
        assert len(surnames.split()) == 2
        assert gender_of(first) in ("male", "neutral")


def test_two_first_names_stay_first_names():
    """Two given names of a woman are a pair women bear ("María José" is one: a second name may be a man's)."""
    pairs = {loose(p) for p in es_pack().weighted("given_name_pairs_female").items}  # "María"/"Maria Lluïsa": one head
    for (new,) in run_many("Nombre: Carmen Inés.", [("Carmen Inés", PATIENT)]):
        assert loose(new) in pairs, new


def test_no_surrogate_is_another_original_of_the_document():
    text = "Ernesto Rivera y Manuel Bueno."
    for first, second in run_many(text, [("Ernesto Rivera", PATIENT), ("Manuel Bueno", DOCTOR)]):
        words = set(first.split()) | set(second.split())
        assert not words & {"Ernesto", "Rivera", "Manuel", "Bueno"}


SEX = "SEXO_SUJETO_ASISTENCIA"


def test_the_patient_takes_the_sex_the_record_states():
    """'Antonio' in a woman's record ("Sexo: Mujer", "Sexo: F") gets a woman's name; the doctor keeps his."""
    for value in ("Mujer", "F"):
        text = f"Nombre: Antonio.\nApellidos: García.\nSexo: {value}.\nMédico: Pedro Gil Ruiz."
        spans = [("Antonio", PATIENT), ("García", PATIENT), (value, SEX), ("Pedro Gil Ruiz", DOCTOR)]
        for patient, _, _, doctor in run_many(text, spans, keys=15):
            assert gender_of(patient) == "female", (value, patient)
            assert gender_of(doctor.split()[0]) in ("male", "neutral"), doctor
    for patient, _ in run_many("Nombre: Sandra. Sexo: Varón.", [("Sandra", PATIENT), ("Varón", SEX)], keys=15):
        assert gender_of(patient) == "male", patient


def test_a_field_value_written_for_either_sex_yields_to_the_patient_s_name():
    """"M" is mujer, and masculino in some records: MEDDOCAN's five "M" beside a man's given name
    were men by their text ("Arturo ... el paciente ... hipertenso ... su mujer" had become
    "Apolonia", round 39). The field then says "H", as readers read "M" for mujer (round 41 caught
    the man's name beside "M"); a name of no sex, or running text that sides with the field, still
    takes the field's sex."""
    text = "Nombre: Arturo.\nApellidos: Cabrera Arias.\nSexo: M.\nEl paciente, hipertenso, tras la muerte de su mujer."
    for patient, _, sex in run_many(text, [("Arturo", PATIENT), ("Cabrera Arias", PATIENT), ("M", SEX)], keys=15):
        assert gender_of(patient) == "male" and sex == "H", (patient, sex)  # written as readers read it (round 41)
    text = "Nombre: Arturo.\nSexo: M.\nLa paciente ingresa."
    for patient, _ in run_many(text, [("Arturo", PATIENT), ("M", SEX)], keys=15):
        assert gender_of(patient) == "female", patient
    for patient, _ in run_many("Nombre: Lucía.\nSexo: M.", [("Lucía", PATIENT), ("M", SEX)], keys=15):
        assert gender_of(patient) == "female", patient


def test_a_sex_field_against_the_patient_s_name_and_text_is_the_record_s_slip():
    """"Nombre: Ricardo ... Sexo: F ... sometido ... al paciente" had become "Marta" beside "al
    paciente" (round 61, both readers); "Candela ... Sexo: H ... una mujer de" had taken a man's
    name. Where the running text sides with the patient's given name, even by a masculine generic,
    the name keeps its sex and the field stays as written, the original's own slip."""
    text = "Nombre: Ricardo.\nSexo: F.\nHabía sido sometido a cirugía. Se realizó al paciente una biopsia."
    for patient, sex in run_many(text, [("Ricardo", PATIENT), ("F", SEX)], keys=15):
        assert gender_of(patient) == "male" and sex == "F", (patient, sex)
    text = "Nombre: Candela.\nSexo: H.\nSe trata de una mujer de 40 años."
    for patient, sex in run_many(text, [("Candela", PATIENT), ("H", SEX)], keys=15):
        assert gender_of(patient) == "female" and sex == "H", (patient, sex)
    text = "Nombre: Lucía.\nSe practicó histerectomía. Se realizó al paciente una biopsia."  # no field: a generic alone
    for (patient,) in run_many(text, [("Lucía", PATIENT)], keys=15):  # says nothing against the name (a review's finding)
        assert gender_of(patient) == "female", patient


def test_fields_that_disagree_follow_the_running_text():
    """"Sexo: H" in the header beside "Mujer de 75 años" (tagged as the sex too) and "la paciente":
    the header's slip, caught by both readers of round 41 in two records. The patient's name and
    every field say the text's sex."""
    text = "Nombre: Carmen.\nSexo: H.\nMujer de 75 años. La paciente ingresa."
    for patient, header, inline in run_many(text, [("Carmen", PATIENT), ("H", SEX), ("Mujer", SEX)], keys=12):
        assert gender_of(patient) == "female" and (header, inline) == ("M", "Mujer"), (patient, header, inline)


def test_running_text_tells_the_patients_sex_where_no_field_does():
    """'una mujer de' says female; the masculine 'del paciente' is generic and does not outweigh it."""
    text = "Nombre: Antonio.\nDatos del paciente.\nSe trata de una mujer de 45 años."
    for (patient,) in run_many(text, [("Antonio", PATIENT)], keys=15):
        assert gender_of(patient) == "female", patient


def test_running_text_that_marks_a_sex_outweighs_a_field_it_contradicts():
    """"Sexo: H" beside "la paciente" again and again is the header's slip: the patient's name is
    a woman's. A generic "el paciente" never outweighs a field that says female."""
    text = "Nombre: Ignacio.\nSexo: H.\nLa paciente ingresa. Se practicó una cesárea y la paciente evoluciona bien."
    for patient, sex in run_many(text, [("Ignacio", PATIENT), ("H", SEX)], keys=15):
        assert gender_of(patient) == "female", patient
        assert sex == "M", sex  # the field follows: one person, not "Amaia" with "Sexo: H"
    text = "Nombre: Lucía.\nSexo: M.\nEl paciente ingresa y el paciente evoluciona bien."
    for patient, sex in run_many(text, [("Lucía", PATIENT), ("M", SEX)], keys=15):
        assert gender_of(patient) == "female", patient
        assert sex == "M", sex


def test_a_sex_field_the_text_outweighs_is_written_in_the_text_s_sex_and_form():
    """The field's word of the other sex in the same form, cased as written: "Varón" -> "Mujer"."""
    for field, expected in [("Varón", "Mujer"), ("HOMBRE", "MUJER"), ("masculino", "femenino"), ("Mujer", "Mujer")]:
        text = f"Nombre: Ignacio.\nSexo: {field}.\nLa paciente ingresa y la paciente evoluciona bien."
        for _, sex in run_many(text, [("Ignacio", PATIENT), (field, SEX)], keys=3):
            assert sex == expected, (field, sex)


def test_without_a_patient_role_the_given_name_field_or_the_only_person_is_the_patient():
    for text, name in [("Nombre: Antonio. Sexo: Mujer. Visto por Pedro.", "Antonio"), ("Antonio, sexo: mujer.", "Antonio")]:
        spans = [(name, "PERSON"), ("Mujer" if "Mujer" in text else "mujer", "SEX")]
        if "Pedro" in text:
            spans.append(("Pedro", "PERSON"))
        for patient, *rest in run_many(text, spans, keys=15, tagset="native"):
            assert gender_of(patient) == "female", (text, patient)
            assert all(gender_of(other) in ("male", "neutral") for other in rest[1:]), rest


def test_the_only_person_keeps_a_title_that_says_otherwise():
    """The only person named may be the doctor: a title before the name still decides."""
    text = "Visto por el Dr. Andrés Gil. Sexo: Mujer."
    for new, _ in run_many(text, [("Andrés Gil", "PERSON"), ("Mujer", "SEX")], keys=10, tagset="native"):
        assert gender_of(new.split()[0]) in ("male", "neutral"), new


def test_a_name_span_of_common_words_is_kept_and_counted_as_a_fallback():
    """MEDDOCAN tags the narrative's "Mujer de 45 años" as a name: a common word in no name list
    stays as written (a fallback of the summary), as an ID span of common words does."""
    for key in (b"k1", b"k2", b"k3"):
        result = run("Mujer de 45 años que acude a urgencias.", [("Mujer", "NOMBRE_SUJETO_ASISTENCIA")], key=key)
        [replacement] = result.replacements
        assert replacement.surrogate == "Mujer"
        assert replacement.fallback == "PERSON span of common words, kept"


def test_names_that_are_also_common_words_are_still_replaced():
    """"Rosa", "Pilar", "Blanca" and "Sol" are in the name lists: names, replaced."""
    for name in ("Rosa", "Pilar", "Blanca", "Sol"):
        result = run(f"Nombre: {name}.", [(name, "NOMBRE_SUJETO_ASISTENCIA")])
        [replacement] = result.replacements
        assert replacement.surrogate != name and replacement.fallback is None, (name, replacement.fallback)


def test_a_given_name_after_a_particle_takes_a_name_that_takes_a_particle():
    """"María del Rosario" became "Marta del Sandra" and "Francisco de Assis" "David de Julio":
    read as a machine's. The particle and a listed given name after it inside a given name become
    one phrase of the names written so ("del Carmen", "de los Ángeles"; "de Dios"), of the person's
    gender (a word no list holds there, "Assis", is read as a surname: "de Cabo")."""
    female = set(es_pack().weighted("particle_names_female").items)
    male = set(es_pack().weighted("particle_names_male").items)
    text = "Médico: María del Rosario García Luzardo. Remitido por: Dr. Manuel de Jesús Montenegro Carvalho."
    spans = [("María del Rosario García Luzardo", DOCTOR), ("Manuel de Jesús Montenegro Carvalho", DOCTOR)]
    phrases = set()
    for her, him in run_many(text, spans, keys=20):
        her_words, his_words = her.split(), him.split()
        phrase = next(p for p in female if her.startswith(f"{her_words[0]} {p} "))
        assert gender_of(her_words[0]) in ("female", "neutral") and len(her_words) == 3 + len(phrase.split()), her
        assert any(him.startswith(f"{his_words[0]} {p} ") for p in male), him
        phrases.add(phrase)
    assert len(phrases) > 2  # drawn, not one fixed phrase
    [upper] = run("NOMBRE: MARÍA DE LOS ÁNGELES.", [("MARÍA DE LOS ÁNGELES", PATIENT)]).replacements
    assert upper.surrogate.isupper() and upper.surrogate.split()[1] in ("DEL", "DE"), upper.surrogate


def test_a_particle_name_never_repeats_the_given_name_before_it():
    """"María del Pilar" had become "Carmen del Carmen" (round 58): the first given name and the
    phrase after the particle were drawn apart."""
    for name in ("María del Pilar Martín-Tamayo Blázquez", "Ana María del Pilar Martín"):  # a review: the first of two too
        for (new,) in run_many(f"Médico: {name}.", [(name, DOCTOR)], keys=200):
            words = new.casefold().split()
            at = next(i for i, w in enumerate(words) if w in ("de", "del"))
            assert not set(words[:at]) & set(words[at : at + 4]), new


def test_surnames_are_drawn_from_the_whole_census_list_at_its_frequencies():
    """Drawn from the 100 most common alone, surrogates were "García", "Martínez", "López" twice
    as often as Spain has them and never a rarer name: a reader called them "generic names typical
    of surrogate lists". By default every listed surname can be drawn, at its census weight; the
    `pool` and `surname_pool` options still narrow the draw."""
    surnames = es_pack().weighted("last_names")
    top = set(surnames.top(100).items)
    drawn = [w for (new,) in run_many("Apellidos: Khosravi Shahi.", [("Khosravi Shahi", PATIENT)], keys=40) for w in new.split()]
    assert all(w in surnames.items for w in drawn)
    assert 0.2 < sum(w not in top for w in drawn) / len(drawn) < 0.9  # the census: 58% of people bear a rarer one
    narrow = run_many("Apellidos: Khosravi Shahi.", [("Khosravi Shahi", PATIENT)], keys=10, rules={"names": {"surname_pool": 100}})
    assert all(w in top for (new,) in narrow for w in new.split())


def test_a_word_no_list_holds_after_a_given_name_is_a_surname():
    """"Dr. Parham Khosravi Shahi" had become "Raúl Josep García": the unlisted "Khosravi" read as a
    second given name."""
    surnames = set(es_pack().weighted("last_names").items)
    for (new,) in run_many("Médico: Parham Khosravi Shahi.", [("Parham Khosravi Shahi", DOCTOR)], keys=10):
        assert all(w in surnames for w in new.split()[1:]), new


def test_a_surname_borne_twice_becomes_a_common_one_borne_twice():
    """"Dr. Francisco Martínez Martínez" had become "Pablo Oblanca Oblanca": a rare surname twice."""
    top = set(es_pack().weighted("last_names").top(100).items)
    for (new,) in run_many("Responsable clínico: Dr. Francisco Martínez Martínez.", [("Francisco Martínez Martínez", DOCTOR)], keys=15):
        _, first, second = new.split()
        assert first == second and first in top, new


def test_surnames_weigh_by_their_bearers_in_the_two_surname_custom():
    """"Dra. Visitación Zhang" (round 19): weighted by first-surname bearers, the surnames of
    one-surname residents ("Zhang": 12,212 first, 807 second) came five times as often as among
    people named "Apellidos: X Y", and beside a Spanish given name they read as two cultures. The
    pack weighs a surname by its bearers as second surname; Spanish surnames keep their weight."""
    surnames = es_pack().weighted("last_names")
    weight = dict(zip(surnames.items, surnames.weights))
    assert weight["Zhang"] < 1_000 and weight["Chen"] < 3_000  # second-surname bearers, not 12,212 and 25,655
    assert weight["García"] > 1_400_000 and weight["Palmeiro"] > 700  # two-surname names keep their census weight


def test_a_hyphened_word_after_a_given_name_is_a_surname():
    """"Elena Mencía-Gutiérrez" had become "María José-Domínguez" (round 20): "Mencía" is a given
    name too, and the first half of the double surname was drawn as one."""
    surnames = set(es_pack().weighted("last_names").items)
    for first, second in run_many("Médico: Elena Mencía-Gutiérrez. Dra. Elena Mencía-Gutiérrez.",
                                  [("Elena Mencía-Gutiérrez", DOCTOR), ("Elena Mencía-Gutiérrez", DOCTOR)], keys=15):  # fmt: skip
        given, double = first.split(" ")
        assert first == second and all(part in surnames for part in double.split("-")), first


def test_a_person_of_unknown_gender_gets_a_name_drawn_from_every_given_name():
    """"Jean-Pierre Dupont" had become "Yao-Gica García": the names INE counts about as often for
    either sex are mostly residents' of customs without gender, and the neutral pool held them
    alone (`names.neutral_pool: any`). A neutral given name before a gendered one takes its gender."""
    male = set(es_pack().weighted("first_names_male").items)
    drawn = [new.split(" ")[0] for (new,) in run_many("Médico: Jean-Pierre Dupont.", [("Jean-Pierre Dupont", DOCTOR)], keys=20)]
    assert all(part in male for name in drawn for part in name.split("-")), drawn
    top = set(es_pack().weighted("first_names_female").top(300).items) | set(es_pack().weighted("first_names_male").top(300).items)
    unknown = [new.split(" ")[0] for (new,) in run_many("Médico: Xqwerty Pérez.", [("Xqwerty Pérez", DOCTOR)], keys=30)]
    assert sum(name in top for name in unknown) >= 20, unknown  # census weight: mostly common names


def test_two_given_names_of_a_person_of_stated_age_are_a_census_pair_of_that_age():
    """"Maria Jesús", eight years old, had become "Charlotte Ainara" (round 20): with an age, the
    two names were drawn one by one among the names of that age. They are a census pair, weighed
    by its bearers' mean age as single names are."""
    pairs = {r["name"]: float(r["mean_age"]) for r in es_pack().rows("given_name_pairs_female")}
    text = "Nombre: Maria Jesús. Apellidos: Sandoval Cantó. Edad: 8 años. Sexo: M."
    drawn = [new for new, _, _ in run_many(text, [("Maria Jesús", PATIENT), ("Sandoval Cantó", PATIENT), ("8", "EDAD_SUJETO_ASISTENCIA")], keys=20)]
    assert all(loose(name) in {loose(p) for p in pairs} for name in drawn), drawn
    ages = sorted(pairs[next(p for p in pairs if loose(p) == loose(name))] for name in drawn)
    assert ages[len(ages) // 2] < 45, (drawn, ages)  # younger than the pairs' bearers as a whole (María Carmen: 59.5)


def test_a_man_never_draws_a_womens_form_of_a_slavic_surname(monkeypatch):
    """"Roberto Petrova Machio-Godoy" (round 28): INE lists Petrov and Petrova, and Petrova is a
    woman's. The pool of a man's surnames leaves such forms out (pack setting
    `names.feminine_surname_endings`); a woman's keeps them; the names service asks by gender."""
    from pseudo.lists.names import NameLists

    lists = name_lists(es_pack(), 3.0)
    every = set(lists.pool("last", 10**9).items)
    mens, womens = set(lists.surnames_for("male", 10**9).items), set(lists.surnames_for("female", 10**9).items)
    assert {"Petrova", "Ivanova", "Kowalska"} <= every - mens and {"Petrov", "García", "Casanova", "Villanueva"} <= mens
    assert womens == every
    asked = []
    original = NameLists.surnames_for
    monkeypatch.setattr(NameLists, "surnames_for", lambda self, gender, size: asked.append(gender) or original(self, gender, size))
    run("Médico: Dr. Roberto Fernández.", [("Roberto Fernández", "NOMBRE_PERSONAL_SANITARIO")])
    assert asked == ["male"]


def test_a_surname_of_two_words_led_by_san_stays_one_surname():
    """"Paula San Miguel Fraile" had become "María Azpiroz Claudia Vilchez" ("Miguel" read as a given
    name) and "San Cristóbal Ramos" three surnames: "San" opens a surname of two words, and the word
    after it is drawn among those INE lists after "San" (pack setting `names.surname_leads`)."""
    after_san = {name.split(" ", 1)[1] for name in es_pack().weighted("last_names").items if name.startswith("San ")}
    cases = [("Médico: Dra. Paula San Miguel Fraile.", "Paula San Miguel Fraile", "NOMBRE_PERSONAL_SANITARIO", 1),
             ("Apellidos: San Cristóbal Ramos.", "San Cristóbal Ramos", "NOMBRE_SUJETO_ASISTENCIA", 0)]  # fmt: skip
    for text, name, label, at in cases:
        for (new,) in run_many(text, [(name, label)], keys=10):
            words = new.split(" ")
            assert len(words) == len(name.split(" ")) and words[at] == "San" and words[at + 1] in after_san, new
    for (new,) in run_many("Médico: Dra. Paula San J. Fraile.", [("Paula San J. Fraile", "NOMBRE_PERSONAL_SANITARIO")], keys=5):
        assert regex.fullmatch(r"\S+ \S+ [A-Z]\. \S+", new), new  # "San J.": an initial after it, no surname of two words ("San Julián.")


def test_maria_shortened_is_read_as_maria_and_its_surrogate_written_in_full():
    """"M.a Teresa González" had become "A.e Mireia Lozano" (round 30): the dot split "M.a" into two
    initials, each redrawn. A listed abbreviation (`names.abbreviations`) is the name it shortens:
    a woman's given name, replaced by one written in full."""
    for short in ("M.a", "M.ª", "Mª"):
        text = f"Médico: {short} Teresa González López. Correo: mtgonzalez@gmail.com"
        for (doctor,) in run_many(text, [(f"{short} Teresa González López", DOCTOR)], keys=8):
            first, second = doctor.split()[:2]
            assert "." not in doctor and short not in doctor, doctor
            assert gender_of(first) == "female" and first[0].isupper() and first[1:].islower(), doctor
            assert gender_of(second) in ("female", "neutral"), doctor
    for (doctor,) in run_many("Médico: M.ª TERESA LÓPEZ GARCÍA.", [("M.ª TERESA LÓPEZ GARCÍA", DOCTOR)], keys=4):
        assert doctor.isupper(), doctor  # in capitals as the span's other words


def test_a_name_with_a_writer_s_slip_takes_the_surrogate_of_the_name_written_right():
    """"Médico: osé Ángel Tomás Amérigo" beside "Dr. José Ángel Tomás Amérigo" had become "miguel
    Andrés Jesus Gonzalez" and "Antonio Andrés Jesus Gonzalez" (round 36): two doctors for one.
    A name that differs from another of the document only by a word no list holds, a near spelling
    of the listed one, is that name."""
    text = "Médico: osé Ángel Tomás Amérigo NºCol: 28.\nResponsable clínico: Dr. José Ángel Tomás Amérigo"
    tags = [("osé Ángel Tomás Amérigo", DOCTOR), ("José Ángel Tomás Amérigo", DOCTOR)]
    for slipped, written in run_many(text, tags, keys=8):
        assert slipped == written, (slipped, written)
    text = "Médico: Ana Ruiz Gil.\nEnfermera: Ada Ruiz Gil."  # both listed: two people
    different = [a != b for a, b in run_many(text, [("Ana Ruiz Gil", DOCTOR), ("Ada Ruiz Gil", DOCTOR)], keys=8)]
    assert all(different)


def test_a_sex_field_follows_the_text_only_where_the_patient_s_names_did():
    """A title before the patient's name keeps the name's sex ("Sr. Antonio"), so the field keeps
    its own; two fields that disagree (a mother's and her newborn's) are never rewritten by a
    generic "el paciente" (review of the fourth session's code)."""
    text = "Paciente: Sr. Antonio García. Sexo: H. La paciente refiere dolor. Exploramos a la paciente. La paciente mejora."
    for _, sex in run_many(text, [("Antonio García", PATIENT), ("H", SEX)], keys=5):
        assert sex == "H", sex
    text = "Madre, sexo: M. Recién nacido, sexo: H. El paciente evoluciona bien."
    for mother, child in run_many(text, [("M", SEX), ("H", SEX)], keys=5):
        assert (mother, child) == ("M", "H"), (mother, child)


def test_a_relatives_sex_in_the_story_stays_and_a_generic_masculine_decides_no_field():
    """A review found "con su hijo, varón de 20 años" rewritten "mujer" (the fields disagree, the
    text says female) and a "Sexo: Mujer" of a Lucía rewritten "Varón" by a generic "el paciente"."""
    text = "Nombre: Ana.\\nSexo: Mujer.\\nLa paciente acude con su hijo, varón de 20 años. La paciente mejora."
    for _, field, son in run_many(text, [("Ana", PATIENT), ("Mujer", SEX), ("varón", SEX)], keys=8):
        assert (field, son) == ("Mujer", "varón"), (field, son)
    text = "Nombre: Lucía.\\nSexo: Mujer.\\nEl paciente refiere dolor; el hermano, varón de 30 años, le acompaña."
    for patient, field, _ in run_many(text, [("Lucía", PATIENT), ("Mujer", SEX), ("varón", SEX)], keys=8):
        assert field == "Mujer" and gender_of(patient) == "female", (patient, field)


def test_an_ambiguous_field_beside_only_a_doctor_stays():
    """"Visto por el Dr. Andrés Gil. Sexo: M.": the only person named may be the doctor; his sex is
    no reason to write the patient's field "H"."""
    text = "Visto por el Dr. Andrés Gil. Sexo: M."
    for _, sex in run_many(text, [("Andrés Gil", "PERSON"), ("M", "SEX")], keys=8, tagset="native"):
        assert sex == "M", sex


def test_a_surname_a_clinician_and_the_patient_both_bear_is_drawn_among_the_most_common():
    """A patient "Flores" seen by Dra. "María Flores Copete" became two "Lapeña", a rare name for a
    coincidence, which a reader named. Such a surname is drawn among the most common, and stays one
    surrogate for both people."""
    common = set(es_pack().weighted("last_names").items[:100])
    text = "Nombre: David. Apellidos: Flores Padilla. Médico: María Flores Copete NºCol: 02 02 12630."
    spans = [("David", "NOMBRE_SUJETO_ASISTENCIA"), ("Flores Padilla", "NOMBRE_SUJETO_ASISTENCIA"), ("María Flores Copete", "NOMBRE_PERSONAL_SANITARIO")]
    for _, patient, doctor in run_many(text, spans, keys=20):
        shared = patient.split()[0]
        assert shared in common and doctor.split()[1] == shared, (patient, doctor)


def test_a_name_with_its_first_letter_lost_is_the_same_persons_even_where_the_rest_is_a_name():
    """"Médico: ,aria Fernanda Muñoz Velásquez" beside "Maria Fernanda Muñoz Velásquez": "Aria" is a
    given name too, so the slip was drawn as another doctor ("alicia Raquel ..." and "Ana Raquel
    ..."), which a reader named. A lower-case word where the same name elsewhere writes it
    capitalised, among three words or more, is that word's slip."""
    text = "Médico: ,aria Fernanda Muñoz Velásquez NºCol: 28 28 56320. Responsable clínico: Maria Fernanda Muñoz Velásquez."
    spans = [("aria Fernanda Muñoz Velásquez", "NOMBRE_PERSONAL_SANITARIO"), ("Maria Fernanda Muñoz Velásquez", "NOMBRE_PERSONAL_SANITARIO")]
    for slip, right in run_many(text, spans, keys=10):
        assert slip == right, (slip, right)
    text = "Paciente: antonio Pérez García, de 34 años. Donante: su hermana Antonia Pérez García."  # two people (a review's finding)
    spans = [("antonio Pérez García", "NOMBRE_SUJETO_ASISTENCIA"), ("Antonia Pérez García", "NOMBRE_SUJETO_ASISTENCIA")]
    for brother, sister in run_many(text, spans, keys=10):
        assert brother.split()[0].casefold() != sister.split()[0].casefold(), (brother, sister)


def test_the_people_of_a_record_abroad_bear_the_most_common_names():
    """"Nieto Lleixa", "Fortun Porcar" in a Mexican case, "Joaquím Roig Viera" in a Brazilian one
    (round 66): Spain's regional names read as out of place abroad. The people of a record whose
    address lies abroad draw among the 100 most common surnames and the 40 most common given names
    at their age."""
    pack = es_pack()
    surnames = set(pack.weighted("last_names").top(100).items)
    given = set(name_lists(pack, 3.0).pool("male", 40).items)  # neither has an age: the 40 most common men's names
    text = ("Nombre: Gerardo. Apellidos: Lleixa Porcar.\nLocalidad/ Provincia: San Luis Potosí.\nPaís: México.\n"
            "Remitido por: Dr. Jordi Roig Viera. Hospital Central, San Luis Potosí, México.")  # fmt: skip
    spans = [("Gerardo", PATIENT), ("Lleixa Porcar", PATIENT), ("San Luis Potosí", "TERRITORIO"), ("México", "PAIS"),
             ("Jordi Roig Viera", "NOMBRE_PERSONAL_SANITARIO"), ("San Luis Potosí", "TERRITORIO"), ("México", "PAIS")]  # fmt: skip
    for first, last, _, _, doctor, *_ in run_many(text, spans, keys=20):
        words = last.split() + doctor.split()[1:]
        assert all(w in surnames for w in words), (last, doctor)
        assert first in given and doctor.split()[0] in given, (first, doctor)


def test_a_capped_pool_does_not_run_out_in_a_corpus_scope():
    """A review's finding: with given names drawn among the 300 most common, 250 women of 50 in one
    corpus scope had shared 60 surrogates, and records abroad (40 names) likewise: a capped pool
    that runs out draws among the names past the cap, so each person keeps a surrogate of her own."""
    from pseudo.api import pseudonymise
    from pseudo.config import parse_config
    from pseudo.engine import Settings
    from pseudo.keyed import Keyring
    from es_helpers import BASE, document

    names = [n for n in es_pack().weighted("first_names_female").items if " " not in n][:250]
    documents = []
    for i, name in enumerate(names):
        text = f"Nombre: {name}. Apellidos: Pérez.\nSexo: Mujer. Edad: 50 años.\nLocalidad/ Provincia: Toledo."
        doc = document(text, [(name, PATIENT), ("Pérez", PATIENT), ("Mujer", SEX), ("50 años", "EDAD_SUJETO_ASISTENCIA"), ("Toledo", "TERRITORIO")])
        documents.append(type(doc)(f"d{i}", doc.text, doc.spans))
    settings = Settings(config=parse_config({**BASE, "scope": "corpus"}), keyring=Keyring(b"corpus-key"))
    given = [r.replacements[0].surrogate for r in pseudonymise(documents, settings).results]
    assert len(set(given)) == len(given), len(set(given))


def test_relatives_named_in_a_kinship_span_of_a_record_abroad_bear_the_most_common_surnames():
    """A review's finding: names read inside a kinship span ("madre Montserrat Lleixa Porcar") never
    learnt that the record lies abroad, and in a corpus scope took the previous record's answer."""
    surnames = set(es_pack().weighted("last_names").top(100).items)
    text = "Localidad/ Provincia: Monterrey, Nuevo León.\nPaís: México.\nAcude con su madre Montserrat Lleixa Porcar."
    spans = [("Monterrey", "TERRITORIO"), ("Nuevo León", "TERRITORIO"), ("México", "PAIS"), ("madre Montserrat Lleixa Porcar", "FAMILIARES_SUJETO_ASISTENCIA")]
    for *_, mother in run_many(text, spans, keys=12):
        assert all(w in surnames for w in mother.split()[2:]), mother
