"""Makers and products tagged as organisations become real makers and brands, not institutions."""

import importlib.util
from pathlib import Path

from es_helpers import es_pack, run, run_many

ROOT = Path(__file__).resolve().parents[2]
INSTITUTION_WORDS = ("Instituto", "Universidad", "Fundación", "Centro", "Juzgado", "Servicio", "Colegio", "Residencia")


def makers():
    return set(es_pack().weighted("makers").items)


def test_a_maker_after_a_trademark_sign_becomes_a_listed_maker():
    text = "Se trató con aciclovir tópico (Zovirax®, Glaxo Smith Kline) y oral."
    listed = makers()
    for (new,) in run_many(text, [("Glaxo Smith Kline", "INSTITUCION")]):
        assert new in listed and not new.startswith(INSTITUTION_WORDS), new
    replacement = run(text, [("Glaxo Smith Kline", "INSTITUCION")]).replacements[0]
    assert "maker" in replacement.fallback and "trademark" in replacement.fallback


def test_a_maker_followed_by_its_town_and_country_in_brackets_becomes_a_listed_maker():
    text = "Se cubre con una membrana BioGide® (Geistlich, Wolhusen, Suiza). A los 8 meses."
    spans = [("Geistlich", "INSTITUCION"), ("Wolhusen", "TERRITORIO"), ("Suiza", "PAIS")]
    listed = makers()
    for new, *_ in run_many(text, spans):
        assert new in listed, new
    assert "place after it" in run(text, spans).replacements[0].fallback


def test_a_legal_form_is_answered_by_a_legal_form():
    forms = ("Inc.", "Ltd.", "LLC", "Corp.", "Co.", "LP", "S.A.", "AG", "GmbH", "plc", "A/S", "AB", "B.V.", "N.V.")
    text = "Conexión a VM (Babylog 8000 plus, Dräger Medizintechnik GMBH). Después (Combigan®, Allergan)."
    for with_form, without in run_many(text, [("Dräger Medizintechnik GMBH", "INSTITUCION"), ("Allergan", "INSTITUCION")]):
        assert with_form.endswith(forms), with_form
        assert not without.endswith(forms), without


def test_a_product_becomes_a_listed_brand_and_keeps_its_sign():
    brands = set(es_pack().weighted("brands").items)
    for (new,) in run_many("Tratamiento con timolol (Timoftol®, MSD).", [("Timoftol®", "INSTITUCION")]):
        assert new.endswith("®") and new[:-1] in brands, new
    assert "product" in run("Con Timoftol®.", [("Timoftol®", "INSTITUCION")]).replacements[0].fallback


def test_one_maker_keeps_one_surrogate_in_a_record():
    text = "Prednisona (Prednisona Alonga®, Sanofi Aventis) y luego (Dacortin®, Sanofi Aventis)."
    for first, second in run_many(text, [("Sanofi Aventis", "INSTITUCION"), ("Sanofi Aventis", "INSTITUCION")]):
        assert first == second


def test_an_institution_in_brackets_before_its_country_stays_an_institution():
    text = "Estudio realizado en colaboración (Universidad de Talca, Chile)."
    for new, _ in run_many(text, [("Universidad de Talca", "INSTITUCION"), ("Chile", "PAIS")]):
        assert new.startswith("Universidad "), new


def test_drugs_at_fda_names_are_written_as_companies_write_them():
    spec = importlib.util.spec_from_file_location("build_locales", ROOT / "tools" / "build_locales.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert build._fda_maker("HIKMA PHARMS") == "Hikma Pharmaceuticals"
    assert build._fda_maker("BAXTER HLTHCARE CORP") == "Baxter Healthcare Corp."
    assert build._fda_maker("BAUSCH AND LOMB INC") == "Bausch and Lomb Inc."
    assert build._fda_maker("3M") == "3M" and build._fda_maker("GD SEARLE LLC") == "GD Searle LLC"
    assert build._fda_maker("SUN PHARM INDUSTRIES") is None  # PHARM: pharmaceutical or pharmacy?
    assert build._fda_maker("ANI PHARMS") is None  # ANI: an acronym or a name?


def test_a_name_after_a_product_in_its_bracket_is_its_maker():
    listed = makers()
    for (new,) in run_many("Se tapa con un cemento (Cavit, Espe).", [("Espe", "INSTITUCION")]):
        assert new in listed, new
    text = "Remitido (Servicio de Urología, Fundación Puigvert)."
    for (new,) in run_many(text, [("Fundación Puigvert", "INSTITUCION")]):
        assert new.startswith("Fundación "), new


def test_a_span_starting_with_a_maker_listed_by_one_word_is_a_maker():
    listed = makers()
    for (new,) in run_many("La muestra se envió a Roche Diagnóstica para su estudio.", [("Roche Diagnóstica", "INSTITUCION")]):
        assert new in listed, new
    replacement = run("Se consultó a Miles Servicios.", [("Miles Servicios", "INSTITUCION")]).replacements[0]
    assert "maker" not in (replacement.fallback or "")  # 'miles' is a common word
