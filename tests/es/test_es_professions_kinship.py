"""Professions keep their grammatical gender; relatives their gender, generation and number."""

import pytest
from es_helpers import es_pack, run, run_many

from pseudo.folds import normalise
from pseudo.rules.kinship import kinship_terms
from pseudo.lists.names import name_lists
from pseudo.rules.professions import professions


@pytest.mark.parametrize("word, gender", [("minero", "male"), ("enfermera", "female"), ("soldadora", "female"),
                                          ("pescador", "male"), ("fisioterapeuta", "neutral")])  # fmt: skip
def test_a_profession_becomes_one_of_the_same_gender(word, gender):
    gender_of, _ = professions(es_pack())
    for (new,) in run_many(f"Trabaja de {word}.", [(word, "PROFESION")], keys=15):
        assert gender_of[normalise(new)] == gender and new != word


@pytest.mark.parametrize("written, singular", [("bomberos", "bombero"), ("enfermeras", "enfermera"), ("auxiliares de enfermería", "auxiliar de enfermería"),
                                               ("agentes judiciales", "agente judicial")])  # fmt: skip
def test_a_profession_in_the_plural_gets_a_plural_surrogate(written, singular):
    """"Los bomberos cortaron" had become "Los portero cortaron"."""
    from pseudo.lang.es import plural

    gender_of, _ = professions(es_pack())
    for (new,) in run_many(f"Los {written} cortaron el arpón.", [(written, "PROFESION")], keys=15):
        listed = next(name for name in gender_of if normalise(plural(name)) == normalise(new))
        assert gender_of[listed] == gender_of[normalise(singular)] and listed != normalise(singular), new


def test_the_profession_list_is_large_in_both_genders():
    _, pools = professions(es_pack())
    assert len(pools["female"]) >= 200 and len(pools["male"]) >= 200


def test_the_gender_of_a_phrase_comes_from_its_listed_word():
    gender_of, _ = professions(es_pack())
    for (new,) in run_many("ex profesora de instituto", [("ex profesora de instituto", "PROFESION")], keys=10):
        assert gender_of[normalise(new)] == "female"


SWAP = {"kinship": {"words": "swap"}}


@pytest.mark.parametrize("word", ["abuela", "padres", "hermano", "hijas", "tío", "nieta", "prima", "paterna"])
def test_a_relative_keeps_gender_generation_and_number(word):
    terms = kinship_terms(es_pack())
    original = terms[word]
    for (new,) in run_many(f"Su {word} vive.", [(word, "FAMILIARES_SUJETO_ASISTENCIA")], keys=15, rules=SWAP):
        term = terms[new.casefold()]
        assert [term[k] for k in ("gender", "generation", "number")] == [original[k] for k in ("gender", "generation", "number")]
        assert new != word


def test_a_collective_word_stays_and_the_rest_changes():
    for (new,) in run_many("Su familia paterna.", [("familia paterna", "FAMILIARES_SUJETO_ASISTENCIA")], rules=SWAP):
        assert new == "familia materna"


def test_kinship_words_stay_by_default_and_a_name_inside_changes():
    for (new,) in run_many("Su hija Teresa vive.", [("hija Teresa", "FAMILIARES_SUJETO_ASISTENCIA")], keys=5):
        assert new.startswith("hija ") and "Teresa" not in new


def test_a_relatives_name_in_a_kinship_span_is_replaced_like_a_name():
    lists = name_lists(es_pack(), 3.0)
    text = "Acude su madre Teresa Rodríguez; Teresa Rodríguez firma."
    for kin, name in run_many(text, [("madre Teresa Rodríguez", "FAMILIARES_SUJETO_ASISTENCIA"),
                                     ("Teresa Rodríguez", "NOMBRE_SUJETO_ASISTENCIA")]):  # fmt: skip
        assert "Teresa" not in kin and "Rodríguez" not in kin
        assert kin.split(" ", 1)[1] == name  # the same surrogate as the tagged name
        assert lists.gender(name.split()[0]) in ("female", "neutral")


def test_a_relatives_age_tagged_as_kinship_moves_as_an_age_never_a_tag():
    """MEDDOCAN tags relatives' ages as FAMILIARES: they move with the clock, as the patient's age does."""
    text = "Edad: 60 años. Padre de 60 años."
    result = run(text, [("60 años", "EDAD_SUJETO_ASISTENCIA"), ("60 años", "FAMILIARES_SUJETO_ASISTENCIA")])
    patient, father = (r.surrogate for r in result.replacements)
    assert father == patient != "60 años" and "[" not in father
    assert result.replacements[1].fallback


def test_an_accented_profession_is_found_and_keeps_its_gender():
    gender_of, _ = professions(es_pack())
    for word in ("médica", "técnica de laboratorio"):
        result = run(f"Trabaja como {word}.", [(word, "PROFESION")])
        assert result.replacements[0].fallback in (None, "gender from a word of the span")
        assert gender_of[normalise(result.replacements[0].surrogate)] == "female"


def group_of(name):
    return {normalise(r["name"]): r["group"] for r in es_pack().rows("professions")}[normalise(name)]


@pytest.mark.parametrize("word", ["soldado", "pescador", "bombero", "soldadora", "enfermera"])
def test_a_profession_becomes_one_of_the_same_kind(word):
    """The same ISCO-08 major group at least: a soldier stays in the armed forces, so the record's
    story (a uniform, a 19-year-old) still fits."""
    for (new,) in run_many(f"Trabaja de {word}.", [(word, "PROFESION")], keys=15):
        assert group_of(new)[0] == group_of(word)[0], (word, new)


def test_a_short_mention_of_a_profession_is_the_same_persons():
    text = "Mujer de 28 años, auxiliar de enfermería, que acude. Actualmente, la auxiliar no presenta secuelas."
    for full, short in run_many(text, [("auxiliar de enfermería", "PROFESION"), ("auxiliar", "PROFESION")], keys=15):
        assert short == full


def test_a_situation_stays_in_its_life_stage():
    """'jubilado' at 80 never becomes a student or a trade; a lone 'estudiante' identifies nobody and stays."""
    for (new,) in run_many("Varón de 80 años, jubilado.", [("jubilado", "PROFESION")], keys=15):
        assert new in ("retirado", "pensionista"), new
    for (new,) in run_many("Se dedicaba a las tareas del hogar.", [("tareas del hogar", "PROFESION")], keys=15):
        assert new in ("labores del hogar", "tareas domésticas", "labores domésticas"), new
    assert run("Estudiante de 19 años.", [("Estudiante", "PROFESION")]).replacements[0].surrogate == "Estudiante"


def test_plurals_keep_capitals_leave_codes_and_take_each_part_of_a_compound():
    from pseudo.lang.es import plural

    assert plural("BOMBERO") == "BOMBEROS" and plural("JUEZ") == "JUECES" and plural("peón") == "peones"
    assert plural("animador 3D") == "animadores 3D" and plural("bombero-conductor") == "bomberos-conductores"


def test_the_noun_of_a_lineage_is_no_name_and_no_surrogate():
    """"Primo de rama paterna" had become "Primo de virginia paterna" (round 45: "rama" is also a
    listed given name); with kinship words swapped, "paterna" never becomes "rama"."""
    text = "Antecedentes: Primo de rama paterna con neumonía. Tío por línea materna."
    spans = [("Primo de rama paterna", "FAMILIARES_SUJETO_ASISTENCIA"), ("Tío por línea materna", "FAMILIARES_SUJETO_ASISTENCIA")]
    for key in (b"k1", b"k2", b"k3"):
        assert [r.surrogate for r in run(text, spans, key=key).replacements] == ["Primo de rama paterna", "Tío por línea materna"]
        swapped = run(text, spans, key=key, rules={"kinship": {"words": "swap"}}).replacements
        assert all(" de rama " in r.surrogate or " por línea " in r.surrogate for r in swapped), [r.surrogate for r in swapped]
        assert all(r.surrogate.split()[-1] in ("paterna", "materna") for r in swapped)


def test_a_field_of_work_becomes_a_field_that_agrees_with_its_article():
    """"trabajaba en el mantenimiento de instalaciones eléctricas" had become "trabajaba en el
    motorista", which readers named twice: a trade written after a preposition, with a work word
    before it, is a field, drawn among the fields the article before it fits (a masculine singular
    after "en el", a plural after "en los", one that reads bare after "en"); a listed field is one
    wherever it stands, so one record's field stays one; with no work word before the cue the span is
    no field ("Licenciado en Derecho", "Remitido al otorrino": a review's finding)."""
    fields = es_pack().vocabulary("situations")["fields"]
    by_word = {f["word"]: f for f in fields}
    text = "Varón de 35 años, que trabajaba en el mantenimiento de instalaciones eléctricas, acudió al Servicio."
    for (new,) in run_many(text, [("mantenimiento de instalaciones eléctricas", "PROFESION")], keys=15):
        assert (by_word[new]["gender"], by_word[new]["number"]) == ("male", "singular"), new
    for (new,) in run_many("Trabaja en los astilleros de Ferrol.", [("astilleros", "PROFESION")], keys=15):
        assert (by_word[new]["gender"], by_word[new]["number"]) == ("male", "plural"), new
    for (new,) in run_many("Trabaja en hostelería desde 2001.", [("hostelería", "PROFESION")], keys=15):
        assert by_word[new].get("bare") and new != "hostelería", new
    text = "Profesión: construcción. Refiere que trabaja en la construcción desde los 16 años."
    for header, story in run_many(text, [("construcción", "PROFESION"), ("construcción", "PROFESION")], keys=15):
        assert header == story and by_word[header]["gender"] == "female", (header, story)
    for text, span in [("Licenciado en Derecho.", "Derecho"), ("Remitido al otorrino.", "otorrino")]:
        assert run(text, [(span, "PROFESION")]).replacements[0].surrogate not in by_word, text


def test_an_activity_becomes_an_activity_and_a_groups_word_its_group():
    """"De profesión trabajaba colocando paneles de pladur" takes another activity led by a gerund
    (a profession had read "trabajaba fabricante"); "mando intermedio" after "como" is no activity.
    "militar", which the ESCO list names only under longer labels, becomes a profession of the armed
    forces, and stays where it is an adjective ("en uniforme militar" had become "en uniforme
    marionetista")."""
    pack = es_pack()
    activities = set(pack.vocabulary("situations")["activities"])
    groups = {normalise(r["name"]): r["group"] for r in pack.rows("professions")}
    for (new,) in run_many("De profesión trabajaba colocando paneles de pladur.", [("colocando paneles de pladur", "PROFESION")], keys=15):
        assert new in activities, new
    assert run("Trabaja como mando intermedio.", [("mando intermedio", "PROFESION")]).replacements[0].surrogate not in activities
    text = "Varón de 21 años en uniforme militar. Se halló un arma de uso militar."
    result = run(text, [("militar", "PROFESION"), ("militar", "PROFESION")])
    assert [(r.surrogate, r.kept_as) for r in result.replacements] == [("militar", "an occupation group's adjective")] * 2
    for (new,) in run_many("Profesión: militar.", [("militar", "PROFESION")], keys=15):
        assert groups[normalise(new)].startswith("0"), new
    assert run("Varón de 40 años de profesión militar.", [("militar", "PROFESION")]).replacements[0].kept_as is None  # a noun there
    assert run("Padre y dos hermanos militares.", [("militares", "PROFESION")]).replacements[0].surrogate == "militares"  # the plural, an adjective
    for (new,) in run_many("Sus hermanos son militares.", [("militares", "PROFESION")], keys=8):
        assert new.split()[0].endswith("s") and new != "militares", new  # the plural, a noun: a plural of the group (it had read "dos hermanos visual")
    assert run("Varón de 20 años, pescador.", [("pescador", "PROFESION")]).replacements[0].surrogate != "pescador"
    for (new,) in run_many("Padre empresario.", [("empresario", "PROFESION")], keys=30):
        assert groups[normalise(new)].startswith("14") and not new.endswith("s"), new  # a manager; never a plural row ("Padre gerentes")
