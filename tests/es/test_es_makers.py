"""Makers and products tagged as organisations become real makers and brands, not institutions;
a maker cited with its untagged product is kept, with its address in the same brackets."""

import importlib.util
from pathlib import Path

from es_helpers import es_pack, run, run_many

ROOT = Path(__file__).resolve().parents[2]
INSTITUTION_WORDS = ("Instituto", "Universidad", "Fundación", "Centro", "Juzgado", "Servicio", "Colegio", "Residencia")
REPLACE_MAKERS = {"rules": {"organisations": {"keep_makers": False}}}


def makers():
    return set(es_pack().weighted("makers").items)


def test_a_maker_after_a_trademark_sign_becomes_a_listed_maker_when_makers_are_not_kept():
    text = "Se trató con aciclovir tópico (Zovirax®, Glaxo Smith Kline) y oral."
    listed = makers()
    for (new,) in run_many(text, [("Glaxo Smith Kline", "INSTITUCION")], **REPLACE_MAKERS):
        assert new in listed and not new.startswith(INSTITUTION_WORDS), new
    replacement = run(text, [("Glaxo Smith Kline", "INSTITUCION")], **REPLACE_MAKERS).replacements[0]
    assert "maker" in replacement.fallback and "trademark" in replacement.fallback


def test_a_maker_followed_by_its_town_and_country_in_brackets_becomes_a_listed_maker_when_makers_are_not_kept():
    text = "Se cubre con una membrana BioGide® (Geistlich, Wolhusen, Suiza). A los 8 meses."
    spans = [("Geistlich", "INSTITUCION"), ("Wolhusen", "TERRITORIO"), ("Suiza", "PAIS")]
    listed = makers()
    for new, town, country in run_many(text, spans, **REPLACE_MAKERS):
        assert new in listed, new
    town, country = run(text, spans, **REPLACE_MAKERS).replacements[1:]
    # no maker's address then: the record's own address abroad, whose country stays and whose town becomes its capital
    assert (town.surrogate, country.surrogate) == ("Bern", "Suiza")
    assert "place after it" in run(text, spans, **REPLACE_MAKERS).replacements[0].fallback


def test_a_maker_beside_its_marked_product_is_kept_with_its_town_and_country():
    text = "Se cubre con una membrana BioGide® (Geistlich, Wolhusen, Suiza). A los 8 meses."
    spans = [("Geistlich", "INSTITUCION"), ("Wolhusen", "TERRITORIO"), ("Suiza", "PAIS")]
    for surrogates in run_many(text, spans, keys=5):
        assert surrogates == ["Geistlich", "Wolhusen", "Suiza"]
    kept = [(r.label, r.kept_as, r.fallback) for r in run(text, spans).replacements]
    assert kept == [("ORGANISATION", "a product's maker", None), ("PLACE", "a maker's address", None), ("COUNTRY", "a maker's address", None)]


def test_a_maker_is_kept_after_its_product_in_the_same_brackets():
    cases = [
        ("Tratamiento con tacrolimus (Prograf®, Astellas) y prednisona.", "Astellas"),
        ("Con timolol 0,5% tópico (Timoftol® 0,5%, MSD). En julio.", "MSD"),
        ("Se dilató con un balón de 35 mm (Rigiflex®; Microvasive, Boston Scientific, EE. UU.), previo.", "Boston Scientific"),
        ("El distractor alveolar (MODUS ARS 1.5; Medartis®, Basel, Suiza) se colocó.", "Medartis"),  # the sign on the maker's name
        ("Con tacrolimus (Prograf, Astellas) y prednisona.", "Astellas"),  # a brand of the pack's list, unmarked
        ("Con tacrolimus (Astellas, Prograf®) y prednisona.", "Astellas"),  # the maker before its product
        ("Se trató con Astellas Prograf® y prednisona.", "Astellas"),
        ("Analizada con el programa Dietsource 3.0 ®Nestlé Healthcare Nutrition (Edición del 2005).", "Nestlé Healthcare Nutrition"),
    ]
    for text, maker in cases:
        replacement = run(text, [(maker, "INSTITUCION")]).replacements[0]
        assert (replacement.surrogate, replacement.kept_as) == (maker, "a product's maker"), text


def test_a_maker_with_no_product_beside_it_is_still_replaced_by_a_real_maker():
    listed = makers()
    texts = [
        "Se tapa con un cemento (Cavit, Espe).",  # an unmarked name no list holds
        "Tratado con Prograf®. Se consultó después a Astellas por el lote.",  # the product in another sentence
        "Se trató (Zovirax®) y después se remitió a Glaxo Smith Kline (Madrid).",  # in other brackets
    ]
    for text in texts:
        maker = "Espe" if "Espe" in text else "Astellas" if "Astellas" in text else "Glaxo Smith Kline"
        for (new,) in run_many(text, [(maker, "INSTITUCION")], keys=5):
            assert new != maker, text
        assert run(text, [(maker, "INSTITUCION")]).replacements[0].kept_as is None
    for (new,) in run_many(texts[0], [("Espe", "INSTITUCION")]):
        assert new in listed, new


def test_a_listed_maker_before_its_address_in_brackets_is_kept_with_it():
    """"(Topógrafo corneal, Baush and Lomb, U.S.A.)" had become "(..., Bristol Myers Squibb, ETIOPÍA)":
    a drug firm making a topographer in Ethiopia. A maker of the catalogue (a spelling slip allowed)
    first in its brackets, before its address there, is cited as a maker: kept with its address; so
    is any firm after a model and before an address with its country; an unlisted firm with a town
    only may be the patient's employer and is replaced."""
    text = "Se realizó una topografía con Orbscan-II (Topógrafo corneal, Baush and Lomb, U.S.A.) y el estudio fue normal."
    maker, country = run(text, [("Baush and Lomb", "INSTITUCION"), ("U.S.A.", "PAIS")]).replacements
    assert (maker.surrogate, maker.kept_as, country.surrogate, country.kept_as) == ("Baush and Lomb", "a product's maker", "U.S.A.", "a maker's address")
    text = "Hemostasia con Surgicel (Johnson & Johnson, Nuevo Brunswick, NJ) sin incidencias."  # round 33: "(Watson Laboratories, Bergara, ARRASATE)"
    spans = [("Johnson & Johnson", "INSTITUCION"), ("Nuevo Brunswick", "TERRITORIO"), ("NJ", "TERRITORIO")]
    assert [r.surrogate for r in run(text, spans).replacements] == ["Johnson & Johnson", "Nuevo Brunswick", "NJ"]
    text = "En la ecografía (Sonos 100 CF, Hewlett Packard, Massachusetts, USA) se apreció un quiste."
    spans = [("Hewlett Packard", "INSTITUCION"), ("Massachusetts", "TERRITORIO"), ("USA", "PAIS")]
    assert [r.surrogate for r in run(text, spans).replacements] == ["Hewlett Packard", "Massachusetts", "USA"]  # after a model, to a country
    text = "Trabaja de peón (Construcciones Peñalver Ruiz, Murcia) desde 2001."
    firm, town = run(text, [("Construcciones Peñalver Ruiz", "INSTITUCION"), ("Murcia", "TERRITORIO")]).replacements
    assert firm.kept_as is None and firm.surrogate != "Construcciones Peñalver Ruiz" and town.kept_as is None


def test_only_the_first_name_after_a_product_and_only_places_after_it_are_kept():
    text = "Se embolizó (Contour®, Boston Scientific, Natick, distribuido por Palex Medical, Terrassa)."
    spans = [("Boston Scientific", "INSTITUCION"), ("Natick", "TERRITORIO"), ("Palex Medical", "INSTITUCION"), ("Terrassa", "TERRITORIO")]
    maker, town, distributor, other_town = run(text, spans).replacements
    assert (maker.kept_as, town.kept_as) == ("a product's maker", "a maker's address")
    assert distributor.kept_as is None and distributor.surrogate != "Palex Medical"
    assert other_town.kept_as is None and other_town.surrogate != "Terrassa"


def test_a_legal_form_is_answered_by_a_legal_form():
    forms = ("Inc.", "Ltd.", "LLC", "Corp.", "Co.", "LP", "S.A.", "AG", "GmbH", "plc", "A/S", "AB", "B.V.", "N.V.")
    text = "Conexión a VM (Babylog 8000 plus, Dräger Medizintechnik GMBH). Después (Combigan®, Allergan)."
    for with_form, without in run_many(text, [("Dräger Medizintechnik GMBH", "INSTITUCION"), ("Allergan", "INSTITUCION")], **REPLACE_MAKERS):
        assert with_form.endswith(forms), with_form
        assert not without.endswith(forms), without


def test_a_product_becomes_a_listed_brand_and_keeps_its_sign():
    brands = set(es_pack().weighted("brands").items)
    for (new,) in run_many("Tratamiento con timolol (Timoftol®, MSD).", [("Timoftol®", "INSTITUCION")]):
        assert new.endswith("®") and new[:-1] in brands, new
    assert "product" in run("Con Timoftol®.", [("Timoftol®", "INSTITUCION")]).replacements[0].fallback


def test_one_maker_keeps_one_surrogate_in_a_record():
    text = "Prednisona (Prednisona Alonga®, Sanofi Aventis) y luego (Dacortin®, Sanofi Aventis)."
    for first, second in run_many(text, [("Sanofi Aventis", "INSTITUCION"), ("Sanofi Aventis", "INSTITUCION")], **REPLACE_MAKERS):
        assert first == second != "Sanofi Aventis"


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


def test_a_listed_maker_after_a_coined_product_name_in_its_brackets_is_kept():
    """"(Cresophene, Septodont)" had become "(Cresophene, Invatech)": a drug firm beside a dental
    material, which a reader named. A maker of the pack's catalogue after a product's coined name
    (one capitalised word of no list) closing its brackets is the product's maker and is kept; an
    unlisted one may be a clinic or an employer ("(Traumatología, Teknon)", "(Supermercado,
    Mercadona)": a review's finding) and is replaced, as is any maker after a word of the language,
    a name or a place."""
    text = "Con cresol (Cresophene, Septodont) y tapado. Visto en (Madrid, Novartis)."
    kept, after_a_town = run(text, [("Septodont", "INSTITUCION"), ("Novartis", "INSTITUCION")]).replacements
    assert (kept.surrogate, kept.kept_as) == ("Septodont", "a product's maker")
    assert after_a_town.kept_as is None
    for text, maker in [("Intervenido (Traumatología, Teknon).", "Teknon"), ("Cajera (Supermercado, Mercadona).", "Mercadona"),
                        ("Tapado (Cavit, Espe).", "Espe"), ("Visto (Pérez, Septodont).", "Septodont")]:  # fmt: skip
        replacement = run(text, [(maker, "INSTITUCION")]).replacements[0]
        assert replacement.kept_as is None and replacement.surrogate != maker, text


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


def test_a_firm_with_neither_a_model_number_nor_a_legal_form_before_a_country_may_be_an_employer():
    text = "Trabaja en una obra (Empresa, Talleres Pérez, Vigo, España) desde 2001."
    firm, town, _ = run(text, [("Talleres Pérez", "INSTITUCION"), ("Vigo", "TERRITORIO"), ("España", "PAIS")]).replacements
    assert firm.kept_as is None and firm.surrogate != "Talleres Pérez" and town.surrogate != "Vigo"
    text = "Se monitorizó el óxido nítrico (NOxPUMP plus, Bedfont Scientific Ltd, Upchurch Kent, England), manteniéndose estable."
    spans = [("Bedfont Scientific Ltd", "INSTITUCION"), ("Upchurch Kent", "TERRITORIO"), ("England", "PAIS")]
    assert [r.surrogate for r in run(text, spans).replacements] == ["Bedfont Scientific Ltd", "Upchurch Kent", "England"]


def test_a_firm_after_a_model_with_a_town_and_its_state_is_a_maker():
    """"(OCT 3000, Humphrey Zeiss Instruments, Dublin, CA)" had become "(OCT 3000, Duramed
    Pharmaceuticals Barr, Moscú, JEREZ DE LA FRONTERA)", which both readers of a round named: a firm
    after a model number with a town abroad and its region's code after it is cited as a maker with
    its address, as one with its country is; an employer with a home address stays replaced."""
    text = "Se realizó una OCT (OCT 3000, Humphrey Zeiss Instruments, Dublin, CA) que puso de manifiesto."
    spans = [("Humphrey Zeiss Instruments", "INSTITUCION"), ("Dublin", "TERRITORIO"), ("CA", "TERRITORIO")]
    assert [r.surrogate for r in run(text, spans).replacements] == ["Humphrey Zeiss Instruments", "Dublin", "CA"]
    employers = [  # a review's finding: any two address spans had kept an employer with its address
        ("Trabaja como soldador (Empresa, Talleres Pérez S.L., Vigo, Pontevedra) desde 2001.", "Talleres Pérez S.L.", ["Vigo", "Pontevedra"]),
        ("Accidente en su empresa (Nave 3, Construcciones García Ruiz, Polígono Las Quemadas, Córdoba).", "Construcciones García Ruiz",
         ["Polígono Las Quemadas", "Córdoba"]),
        ("Operario (Línea 4, Conservas Fandiño, 36940, Cangas) con exposición a frío.", "Conservas Fandiño", ["36940", "Cangas"]),
        ("Operario (Línea 4, Quesos Manchegos S.L., Villarrubia, CR) con exposición a frío.", "Quesos Manchegos S.L.", ["Villarrubia", "CR"]),
    ]  # fmt: skip
    cited = [("Se midió (Architect i2000, Laboratorios Kirkland, Washington, DC) el valor.", "Laboratorios Kirkland", ["Washington", "DC"])]  # a capital abroad
    for text, firm, places in cited:
        kept = run(text, [(firm, "INSTITUCION"), *((p, "TERRITORIO") for p in places)]).replacements
        assert [r.surrogate for r in kept] == [firm, *places], text
    for text, firm, places in employers:
        replaced = run(text, [(firm, "INSTITUCION"), *((p, "TERRITORIO") for p in places)]).replacements[0]
        assert replaced.kept_as is None and replaced.surrogate != firm, text


def test_a_firm_with_its_legal_form_written_after_it_before_a_country_abroad_is_a_maker():
    """"cabezal de Mayfield (Ohio Medical Instrument Co, Inc., Cincinnati, Oh, USA)" had become
    "(Matheson Tri-Gas Inc., Inc., Narón, Bergondo, CHINA)" (round 60): "USA" was no country of the
    lists, the firm no maker. A firm whose legal form is written right after it, before an address
    with a country abroad, is cited as a maker and kept with its address; at home it may be an
    employer, and is replaced."""
    text = "Se colocó el cabezal de Mayfield (Ohio Medical Instrument Co, Inc., Cincinnati, Oh, USA). El postoperatorio fue bueno."
    spans = [("Ohio Medical Instrument Co", "INSTITUCION"), ("Cincinnati", "TERRITORIO"), ("Oh", "TERRITORIO"), ("USA", "PAIS")]
    assert [r.surrogate for r in run(text, spans).replacements] == ["Ohio Medical Instrument Co", "Cincinnati", "Oh", "USA"]
    text = "Trabaja de peón (Talleres Pérez, S.L., Vigo, España) desde 2001."
    firm = run(text, [("Talleres Pérez", "INSTITUCION"), ("Vigo", "TERRITORIO"), ("España", "PAIS")]).replacements[0]
    assert firm.kept_as is None and firm.surrogate != "Talleres Pérez"


def test_a_maker_before_its_legal_form_written_apart_takes_none_of_its_own():
    """"Matheson Tri-Gas Inc., Inc." (round 60): a maker replaced before ", Inc." is drawn among
    makers named without a legal form, so the form is written once."""
    forms = ("Inc.", "Ltd.", "LLC", "Corp.", "Co.", "Co", "LP", "S.A.", "AG", "GmbH", "plc", "A/S", "AB", "B.V.", "N.V.")
    text = "Se colocó el cabezal (Ohio Medical Instrument Co, Inc., Cincinnati) sin incidencias."
    for new, _ in run_many(text, [("Ohio Medical Instrument Co", "INSTITUCION"), ("Cincinnati", "TERRITORIO")], **REPLACE_MAKERS):
        assert not new.endswith(forms), new


def test_an_employer_abroad_written_with_its_legal_form_is_replaced_with_its_address():
    """A review's finding: the rule above had kept a patient's employer abroad as a maker, with its
    street and town ("(Hotel Savoy Group, Ltd., Londres, Reino Unido)"). A maker's registered
    name is cited with its town, region and country, no street and no postcode."""
    cases = [
        ("Trabajó como camarero en Londres (Hotel Savoy Group, Ltd., Londres, Reino Unido) durante diez años.",
         [("Hotel Savoy Group", "INSTITUCION"), ("Londres", "TERRITORIO"), ("Reino Unido", "PAIS")]),
        ("Trabaja en una fábrica (Metalúrgica Souza, S.A., Rua das Flores 12, Oporto, Portugal) desde 2005.",
         [("Metalúrgica Souza", "INSTITUCION"), ("Rua das Flores 12", "CALLE"), ("Oporto", "TERRITORIO"), ("Portugal", "PAIS")]),
    ]  # fmt: skip
    for text, spans in cases:
        firm, *address = run(text, spans).replacements
        assert firm.kept_as is None and firm.surrogate != spans[0][0], text
        assert all(part.kept_as != "a maker's address" for part in address), text


def test_a_maker_written_twice_keeps_one_legal_form_where_one_follows_it():
    """A review's finding: the maker's surrogate drawn at a mention with no form after it ("X Inc.")
    was written again before ", Inc." ("Waverley Pharma International Inc., Inc.")."""
    forms = ("Inc.", "Ltd.", "LLC", "Corp.", "Co.", "Co", "LP", "S.A.", "AG", "GmbH", "plc", "A/S", "AB", "B.V.", "N.V.")
    text = ("El equipo lo suministra Ohio Medical Instrument Co desde 2001. "
            "Se colocó el cabezal (Ohio Medical Instrument Co, Inc., Cincinnati) sin incidencias.")  # fmt: skip
    spans = [("Ohio Medical Instrument Co", "INSTITUCION"), ("Ohio Medical Instrument Co", "INSTITUCION"), ("Cincinnati", "TERRITORIO")]
    for first, second, _ in run_many(text, spans, **REPLACE_MAKERS):
        assert not second.endswith(forms) and first.startswith(second), (first, second)
