"""The tell detector on hand-made documents, pseudonymised and original (to show its false alarms)."""

import json

from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.config import Config
from pseudo.evaluation import cli as evaluation_cli
from pseudo.evaluation.corpus import label_map
from pseudo.evaluation.tells import TELLS, Knowledge, Letters, knowledge_for, read_corpus
from pseudo.io.native import document_from_dict
from pseudo.lists.pack import load_pack
from pseudo.lang.es import dni_valid, nie_valid, nss_valid
from pseudo.lang.sv import personnummer_valid

from .conftest import doc, write_jsonl

# Dalianis (2019), Figure 2: the record a senior evaluator caught (shared/examples/sv).
FIGURE_2 = doc(
    "fig2",
    "Ny kontakt med smärtmottagning måndag.\nNärstående Mamma Madeleine tfn: 0652 7256 , Bror Madeleine tfn 078 1295067\n",
    ("FIRST_NAME", "Madeleine"), ("PHONE", "0652 7256"), ("FIRST_NAME", "Madeleine"), ("PHONE", "078 1295067"),
)  # fmt: skip
# What a real record of that kind looks like: no tell should fire.
FIGURE_2_PLAUSIBLE = doc(
    "fig2-real",
    "Ny kontakt med smärtmottagning måndag.\nNärstående Mamma Karin tfn: 0652 7256 , Bror Erik tfn 070 1295067\n",
    ("FIRST_NAME", "Karin"), ("PHONE", "0652 7256"), ("FIRST_NAME", "Erik"), ("PHONE", "070 1295067"),
)  # fmt: skip


def tells_of(pack, *raw, originals=None):
    documents = [document_from_dict(r, "test", "d") for r in raw]
    labels = label_map(documents, Config(), None)
    by_id = {d["id"]: document_from_dict(d, "test", "d") for d in originals} if originals else None
    return read_corpus(documents, labels, lambda d: pack, by_id)


def counts(result, index=0):
    return {k: v for k, v in result["per_document"][index]["counts"].items() if v}


def test_figure_2_gives_itself_away(sv_pack):
    result = tells_of(sv_pack, FIGURE_2, FIGURE_2_PLAUSIBLE)
    assert counts(result, 0) == {"kinship_gender": 1, "shared_first_name": 1, "phone_prefix": 1}
    where = {t["kind"]: (t["start"], t["end"]) for t in result["per_document"][0]["tells"]}
    assert where["kinship_gender"] == where["shared_first_name"] == (88, 97)  # the brother's Madeleine
    assert where["phone_prefix"] == (102, 113)
    assert counts(result, 1) == {}
    assert result["documents_with_tells"] == 1 and result["totals"]["phone_prefix"] == 1


def test_name_genders(sv_pack, es_pack):
    assert Knowledge(sv_pack).gender("MADELEINE") == "female"
    assert Knowledge(sv_pack).gender("Kim") is None  # in both lists, neither ten times the other
    assert Knowledge(sv_pack).gender("Maria") == "female"  # in both lists, but far more often female
    assert Knowledge(es_pack).gender("maria") == "female"  # accents and case aside
    neutral = doc("n", "Syskon Erik och mor Erik", ("FIRST_NAME", "Erik"), ("FIRST_NAME", "Erik"))
    assert counts(tells_of(sv_pack, neutral)) == {"kinship_gender": 1, "shared_first_name": 1}


def test_names_inside_kinship_spans(es_pack):
    """MEDDOCAN tags "madre Ana" as one kinship span: the name in it is checked against the word;
    a masculine plural names mixed groups, a feminine plural does not."""
    texts = ("Vino su madre Juan García.", "Vino su madre María.", "Hablamos con los padres María y Juan.", "Sus hermanas Juan y María.")
    spans = ("madre Juan García", "madre María", "padres María y Juan", "hermanas Juan y María")
    result = tells_of(es_pack, *(doc(f"k{i}", t, ("KINSHIP", s)) for i, (t, s) in enumerate(zip(texts, spans))))
    assert [counts(result, i) for i in range(4)] == [{"kinship_gender": 1}, {}, {}, {"kinship_gender": 1}]
    assert result["per_document"][0]["tells"] == [{"kind": "kinship_gender", "start": 8, "end": 25}]  # the whole span


def test_title_and_article_gender(es_pack):
    wrong = doc("t1", "Ingresa la paciente Juan García. Firma: Dra. José López.", ("PERSON", "Juan García"), ("PERSON", "José López"))
    right = doc("t2", "Ingresa la paciente María García. Firma: Dr. Juan López.", ("PERSON", "María García"), ("PERSON", "Juan López"))
    result = tells_of(es_pack, wrong, right)
    assert counts(result, 0) == {"title_gender": 2} and counts(result, 1) == {}


def test_dates_in_an_implausible_order(sv_pack):
    text = "Född 1946-03-03. Inskriven 2012-03-18, utskriven 2012-03-11. Vårdtid 20120318-20120311. Kontroll 1940-01-01."
    dates = ("1946-03-03", "2012-03-18", "2012-03-11", "20120318", "20120311", "1940-01-01")
    result = tells_of(sv_pack, doc("d", text, *(("DATE", d) for d in dates)))
    assert counts(result) == {"date_order": 3}
    fine = "Född 1946-03-03. Inskriven 2012-03-11, utskriven 2012-03-18. Vårdtid 20120311-20120318."
    plausible = tells_of(sv_pack, doc("d", fine, *(("DATE", d) for d in ("1946-03-03", "2012-03-11", "2012-03-18", "20120311", "20120318"))))
    assert counts(plausible) == {}


def test_unshifted_date_needs_the_originals(sv_pack):
    # a date with its year stands out; a day and month alone, a score and a decimal are not counted
    original = doc("u", "Inskriven 2012-03-11, åter den 22 maj 2012 och 22/5, kraft 4/5, Hb 1.16, ANA 1/80.", ("DATE", "2012-03-11"))
    output = doc("u", "Inskriven 2012-03-20, åter den 22 maj 2012 och 22/5, kraft 4/5, Hb 1.16, ANA 1/80.", ("DATE", "2012-03-20"))
    assert counts(tells_of(sv_pack, output)) == {}
    result = tells_of(sv_pack, output, originals=[original])
    assert counts(result) == {"unshifted_date": 1}
    assert [(t["start"], t["end"]) for t in result["per_document"][0]["tells"]] == [(31, 42)]
    assert counts(tells_of(sv_pack, original, originals=[original])) == {}  # nothing moved: nothing stands out
    # a value tagged as a date that is no date ("Land: Colombia") stays as it was without standing out
    original = doc("c", "Inskriven 2012-03-11. Land: Colombia.", ("DATE", "2012-03-11"), ("DATE", "Colombia"))
    output = doc("c", "Inskriven 2012-03-20. Land: Colombia.", ("DATE", "2012-03-20"), ("DATE", "Colombia"))
    assert counts(tells_of(sv_pack, output, originals=[original])) == {}


def test_place_prepositions(sv_pack):
    text = "Bor på Gotland, jobbar i Gotland, född på Stockholm, bodde i Visby."
    places = ("Gotland", "Gotland", "Stockholm", "Visby")
    result = tells_of(sv_pack, doc("p", text, *(("PLACE", p) for p in places)))
    starts = [t["start"] for t in result["per_document"][0]["tells"]]
    assert counts(result) == {"place_preposition": 2} and starts == [25, 42]


def test_phone_prefixes(sv_pack, es_pack):
    numbers = ("+46 8 123 456 78", "0046 8 123 45 67", "+47 22 12 34 56", "078 1295067", "7256", "070-123 45 67")
    text = " ; ".join(numbers)
    assert counts(tells_of(sv_pack, doc("s", text, *(("PHONE", n) for n in numbers)))) == {"phone_prefix": 1}
    spanish = ("91 123 45 67", "612 345 678", "55 123 45 67")
    assert counts(tells_of(es_pack, doc("e", " / ".join(spanish), *(("PHONE", n) for n in spanish)))) == {"phone_prefix": 1}


def test_check_digits(sv_pack, es_pack):
    assert personnummer_valid("811218-9876") is True and personnummer_valid("19811218-9876") is True
    assert personnummer_valid("811218-9875") is False and personnummer_valid("811318-9876") is None
    assert personnummer_valid("811278-9873") is True  # samordningsnummer: the day plus 60
    assert dni_valid("12345678Z") is True and dni_valid("12345678-a") is False and dni_valid("12.345.678-Z") is True
    assert nie_valid("X1234567L") is True and nie_valid("Z1234567A") is False and dni_valid("1234") is None
    assert nss_valid("28 12345678 40") is True and nss_valid("28 12345678 41") is False and nss_valid("28 1234567") is None
    ids = ("811218-9876", "811218-9875", "NHC 123")
    assert counts(tells_of(sv_pack, doc("i", " ".join(ids), *(("ID", i) for i in ids)))) == {"id_check_digit": 1}
    spanish = ("12345678Z", "12345678A", "811218-9875")  # a Swedish shape in a Spanish record is not checked
    assert counts(tells_of(es_pack, doc("j", " ".join(spanish), *(("ID", i) for i in spanish)))) == {"id_check_digit": 1}


def test_unlisted_surrogates(sv_pack):
    text = "Zyxx; Anna Andersson; Anna Qwerty; Berg-Andersson; Gotland; Atlantis; 12345"
    spans = (("FIRST_NAME", "Zyxx"), ("PERSON", "Anna Andersson"), ("PERSON", "Anna Qwerty"), ("LAST_NAME", "Berg-Andersson"),
             ("PLACE", "Gotland"), ("PLACE", "Atlantis"), ("PLACE", "12345"))  # fmt: skip
    result = tells_of(sv_pack, doc("l", text, *spans))
    assert counts(result) == {"unlisted_surrogate": 3}
    assert [t["start"] for t in result["per_document"][0]["tells"]] == [0, 22, 60]


def test_particles_aliases_and_accents_pass(es_pack):
    """What the name and place rules accept is no tell: "De" inside a name, "Vizcaya" (an alias of
    Bizkaia), "Jose" for "José", "madrid" in lower case."""
    text = "María De García; Jose Lopez; Vizcaya; madrid; Atlantis"
    spans = (("PERSON", "María De García"), ("PERSON", "Jose Lopez"), ("PLACE", "Vizcaya"), ("PLACE", "madrid"), ("PLACE", "Atlantis"))
    result = tells_of(es_pack, doc("a", text, *spans))
    assert counts(result) == {"unlisted_surrogate": 1}
    assert result["per_document"][0]["tells"][0]["start"] == text.index("Atlantis")


def test_without_a_pack_only_list_free_checks_run():
    result = tells_of(None, FIGURE_2, doc("r", "20120318-20120311", ("DATE", "20120318"), ("DATE", "20120311")))
    assert counts(result, 0) == {} and counts(result, 1) == {"date_order": 1}


def test_cli_prints_offsets_not_text(sv_pack, tmp_path, monkeypatch):
    monkeypatch.setattr(evaluation_cli, "load_pack", lambda code: sv_pack)
    path = write_jsonl(tmp_path / "in.jsonl", [FIGURE_2, FIGURE_2_PLAUSIBLE])
    runner = CliRunner()
    result = runner.invoke(app, ["tells", path, "--locale", "sv"])
    assert result.exit_code == 0, result.output
    assert "fig2 " in result.stdout and "1 of 2 document(s) show at least one tell" in result.stdout
    assert "Madeleine" not in result.stdout and "1295067" not in result.stdout
    as_json = json.loads(runner.invoke(app, ["tells", path, "--json", "--locale", "sv"]).stdout)
    assert as_json["totals"]["kinship_gender"] == 1 and as_json["documents"] == 2


def test_cli_warns_without_a_pack(tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", [FIGURE_2])
    result = CliRunner().invoke(app, ["tells", path, "--locale", "xx"])
    assert result.exit_code == 0
    assert "no locale pack 'xx'" in result.stderr and "1 document(s) without a locale pack" in result.stderr


def test_e_mails_at_example_domains_and_unrelated_to_the_names(es_pack):
    text = "Juan García; juan.garcia@example.com; jgarcia@hospital.es; xqzt@hospital.es; a@b.test"
    spans = (("PERSON", "Juan García"), ("EMAIL", "juan.garcia@example.com"), ("EMAIL", "jgarcia@hospital.es"),
             ("EMAIL", "xqzt@hospital.es"), ("EMAIL", "a@b.test"))  # fmt: skip
    result = tells_of(es_pack, doc("m", text, *spans))
    assert counts(result) == {"reserved_email": 2, "email_unrelated": 2}
    kinds = {(t["kind"], t["start"]) for t in result["per_document"][0]["tells"]}
    assert ("reserved_email", text.index("juan.garcia")) in kinds and ("email_unrelated", text.index("xqzt")) in kinds
    without_names = doc("n", "Correo: xqzt@hospital.es", ("EMAIL", "xqzt@hospital.es"))
    assert counts(tells_of(es_pack, without_names)) == {}  # no name in the record: nothing to compare with


def test_phones_in_fiction_ranges_and_far_from_the_record(sv_pack, es_pack):
    numbers = ("070-174 06 10", "08-555 55 55", "070-123 45 67")
    assert counts(tells_of(sv_pack, doc("f", " / ".join(numbers), *(("PHONE", n) for n in numbers)))) == {"phone_fiction": 2}
    far = doc("a", "Vive en Bizkaia. Tel. 91 123 45 67.", ("PLACE", "Bizkaia"), ("PHONE", "91 123 45 67"))
    near = doc("b", "Vive en Madrid. Tel. 91 123 45 67, móvil 612 345 678.", ("PLACE", "Madrid"), ("PHONE", "91 123 45 67"), ("PHONE", "612 345 678"))
    result = tells_of(es_pack, far, near)
    assert counts(result, 0) == {"phone_area": 1} and counts(result, 1) == {}


def test_a_foreign_country_for_a_local_patient(es_pack):
    local = doc("c", "Localidad: Madrid.\nPaís: Francia.\n", ("PLACE", "Madrid"), ("COUNTRY", "Francia"))
    home = doc("d", "Localidad: Madrid.\nPaís: España.\n", ("PLACE", "Madrid"), ("COUNTRY", "España"))
    abroad = doc("e", "Viajó a Francia desde Madrid.", ("COUNTRY", "Francia"), ("PLACE", "Madrid"))  # no country field
    result = tells_of(es_pack, local, home, abroad)
    assert [counts(result, i) for i in range(3)] == [{"foreign_country": 1}, {}, {}]


def test_random_letters_doubled_words_house_numbers(es_pack):
    text = "Brkdst García; Hospital Universitario Universitario de Madrid; María García García; Calle Mayor 412; Calle Mayor 12; Carretera N-340 km 412"
    spans = (("PERSON", "Brkdst García"), ("HEALTHCARE_UNIT", "Hospital Universitario Universitario de Madrid"),
             ("PERSON", "María García García"), ("STREET", "Calle Mayor 412"), ("STREET", "Calle Mayor 12"),
             ("STREET", "Carretera N-340 km 412"))  # fmt: skip
    result = tells_of(es_pack, doc("r", text, *spans))
    assert {k: v for k, v in counts(result).items() if k != "unlisted_surrogate"} == {"random_letters": 1, "doubled_word": 1, "house_number": 1}
    edge = doc("s", "Ingresa en Hospital Hospital de Madrid.", ("HEALTHCARE_UNIT", "Hospital de Madrid"))
    assert counts(tells_of(es_pack, edge)) == {"doubled_word": 1}  # across the span's edge


def test_letters_model_from_the_lists():
    """Trained on the Spanish pack's words; on a handful of words it judges by vowels alone."""
    letters = knowledge_for(load_pack("es")).letters
    assert letters.improbable("Zqkxtav") and letters.improbable("Brkdst")  # unseen letter pairs; no vowel
    assert not any(letters.improbable(w) for w in ("Martin", "Rodrigo", "Ana", "Zubizarreta", "Torrelavega"))
    few = Letters(["garcia", "martinez", "lopez"])
    assert few.improbable("Brkdst") and not few.improbable("Zqkxtav") and not few.improbable("Rodrigo")


def test_hospitals_named_after_persons(es_pack):
    units = ("Hospital Juan García", "Hospital Dr. López", "Hospital de Madrid", "Clínica Carmen")
    result = tells_of(es_pack, doc("h", "; ".join(units), *(("HEALTHCARE_UNIT", u) for u in units)))
    assert counts(result) == {"person_hospital": 2}
    assert [t["start"] for t in result["per_document"][0]["tells"]] == [0, len(units[0]) + 2]


def test_with_the_originals_every_tell_is_counted_on_them_too(es_pack, tmp_path, monkeypatch):
    original = doc("o", "Juan García, jgarcia@hospital.es", ("PERSON", "Juan García"), ("EMAIL", "jgarcia@hospital.es"))
    output = doc("o", "José López, jose.lopez@example.com", ("PERSON", "José López"), ("EMAIL", "jose.lopez@example.com"))
    result = tells_of(es_pack, output, originals=[original])
    assert result["totals"]["reserved_email"] == 1 and result["totals_on_originals"]["reserved_email"] == 0
    assert tells_of(es_pack, output)["totals_on_originals"] is None
    monkeypatch.setattr(evaluation_cli, "load_pack", lambda code: es_pack)
    paths = write_jsonl(tmp_path / "o.jsonl", [original]), write_jsonl(tmp_path / "p.jsonl", [output])
    shown = CliRunner().invoke(app, ["tells", paths[1], "--originals", paths[0], "--locale", "es"])
    assert shown.exit_code == 0, shown.output
    rows = {line.split()[0]: line.split() for line in shown.stdout.splitlines() if line.startswith(("TOTAL", "ORIGINALS"))}
    column = list(TELLS).index("reserved_email") + 1
    assert rows["TOTAL"][column] == "1" and rows["ORIGINALS"][column] == "0"
    assert "García" not in shown.stdout and "jgarcia" not in shown.stdout
