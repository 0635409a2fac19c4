"""Spanish pack checks beyond the shared lint (tests/test_pack_lint.py): names not mixed, the tree sound,
facility templates that name real lists."""

import csv
import io
from pathlib import Path

import regex
import yaml

from pseudo.lists.pack import load_pack

REPOSITORY = Path(__file__).resolve().parents[2]
PACK = REPOSITORY / "locales" / "es"
PLACEHOLDERS = {"type", "place", "surname", "female_name", "male_name"}


def manifest():
    return yaml.safe_load((PACK / "pack.yaml").read_text(encoding="utf-8"))


def rows(name):
    text = (PACK / manifest()["lists"][name]["file"]).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def test_female_and_male_lists_are_not_mixed():
    """A name in both lists is rare and never among the common names surrogates come from."""
    female, male = ([r["name"] for r in rows(f"first_names_{g}")] for g in ("female", "male"))
    assert not set(female[:300]) & set(male[:300])
    assert len(set(female) & set(male)) < 0.07 * min(len(female), len(male))


def test_vocabularies_are_well_formed():
    pack = load_pack("es")
    terms = pack.vocabulary("kinship")["terms"]
    assert len({t["word"] for t in terms}) == len(terms)
    assert all({"gender", "generation", "number"} <= set(t) for t in terms)
    assert len({t["word"] for t in pack.vocabulary("titles")["titles"]}) == len(pack.vocabulary("titles")["titles"])
    for vocabulary in ("healthcare_units", "organisations"):
        for unit_type in pack.vocabulary(vocabulary)["types"]:
            assert unit_type["cues"] and unit_type["names"]
            for template in unit_type["names"]:
                for slot in regex.findall(r"\{(\w+)\}", template):
                    kinds = pack.settings.places.kinds.get("PLACE", ())  # "{province}": the region of that kind
                    assert slot in PLACEHOLDERS or slot in kinds or pack.has(slot), (vocabulary, template)
            assert not unit_type.get("catalogue") or pack.has(unit_type["catalogue"])


def test_settings_patterns_compile():
    settings = manifest()["settings"]
    regex.compile(settings["places"]["postcode_pattern"])
    regex.compile(settings["phone"]["mobile_pattern"])


def test_hospitals_stand_in_listed_municipalities():
    """One row per hospital and municipality: the rule draws a real hospital of the surrogate town."""
    places = {r["id"] for r in rows("locations")}
    hospitals = rows("hospitals")
    assert sum(r["place_id"] in places for r in hospitals) >= 0.95 * len(hospitals)


def test_a_sex_field_word_s_opposite_is_a_field_word_of_the_other_sex():
    """The SEX rule writes a field's `opposite` where the text outweighs it: the word must read back
    as the other sex, or the record would contradict itself the other way."""
    words = yaml.safe_load((PACK / "sex.yaml").read_text(encoding="utf-8"))["words"]
    field = {w["word"]: w["sex"] for w in words if w["in"] == "field"}
    with_opposite = [w for w in words if "opposite" in w]
    assert len(with_opposite) == len(field)
    for word in with_opposite:
        assert field.get(word["opposite"]) not in (None, word["sex"]), word


def test_a_city_weighs_its_own_population_not_a_neighbours():
    """GeoNames places had been filed at the municipality of the nearest postal centroid: Oviedo's
    220,027 inhabitants went to Siero and Avilés's to Castrillón, so Oviedo weighed 501 and Avilés
    1, and a city was almost never drawn. A place goes to the municipality of its province that
    bears its name."""
    weight = {(r["name"], r["kind"]): int(r["population"] or 0) for r in rows("locations")}
    assert weight[("Oviedo", "municipality")] > 200_000 and weight[("Avilés", "municipality")] > 70_000
    assert weight[("Siero", "municipality")] < 60_000 and weight[("Castrillón", "municipality")] < 30_000


def test_a_hospital_street_ends_in_no_word_twice_and_a_hospital_named_after_a_town_stands_there():
    """The catalogue writes "Avenida del Aeropuerto, S/N S/N" (surrogates read "s/n s/n") and files
    "Hospital Palma del Río" at Córdoba with Palma del Río's postcode 14700."""
    hospitals = rows("hospitals")
    assert not [r["street"] for r in hospitals if regex.search(r"(?i)(?<!\S)(\S+) \1$", r["street"])]  # "Torres Torres" is a town
    towns = {r["id"]: r["name"] for r in rows("locations") if r["kind"] == "municipality"}
    [palma] = [r for r in hospitals if r["name"] == "Hospital Palma del Río"]
    assert towns[palma["place_id"]] == "Palma del Río"


def test_catalogue_hospitals_write_type_words_with_their_accents_and_no_company_name():
    """"Hospital Universitario y Politecnico La Fe", "Clinica Perpetuo Socorro" (round 62) and "HM
    Hospitales 1.989", a company's registered name (round 60), read as a machine's."""
    names = [row["name"] for row in load_pack("es").rows("hospitals")]
    unaccented = regex.compile(r"\b(?:Clinica|Clinico|Publico|Politecnico|Psiquiatrico|Medico|Quirurgico)\b")
    assert not [n for n in names if unaccented.search(n)]
    assert not [n for n in names if regex.search(r"\d\.\d{3}\b|\bNº\s*\d", n)]


def test_surnames_of_the_one_surname_custom_weigh_as_two_surname_bearers():
    """"Peña Jaiteh", "Camacho Tan" (round 62): a surname borne far more often first than second is
    a one-surname resident's (INE: "Chen" 25,655 first, 2,123 second) and weighs its second-surname
    bearers times that ratio; Spanish surnames, borne as often second as first, keep their count."""
    surnames = load_pack("es").weighted("last_names")
    assert surnames.weight("Chen") < 500 and surnames.weight("Jaiteh") < 100
    assert surnames.weight("Moya") > 40000 and surnames.weight("Mohamed") > 15000  # Ceuta and Melilla name in two surnames
