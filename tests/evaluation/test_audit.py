"""The leak audit finds planted leaks and reports ids and offsets, never span text."""

import json
from pathlib import Path

from typer.testing import CliRunner

from pseudo.cli import app

from .conftest import doc, write_jsonl


def run(tmp_path: Path, originals: list[dict], outputs: list[dict], *options: str):
    o = write_jsonl(tmp_path / "orig.jsonl", originals)
    p = write_jsonl(tmp_path / "pseudo.jsonl", outputs)
    result = CliRunner().invoke(app, ["audit", o, p, "--json", *options])
    return result, json.loads(result.stdout) if result.stdout.strip().startswith("{") else None


def findings(report, kind):
    return [f for f in report["findings"] if f["kind"] == kind]


CLEAN_ORIGINAL = doc("d1", "Anna Berg kom 2012-03-11, 52 år, kvinna.", ("FIRST_NAME", "Anna"), ("LAST_NAME", "Berg"),
                     ("DATE", "2012-03-11"), ("AGE", "52"), ("SEX", "kvinna"), locale="sv")  # fmt: skip
CLEAN_OUTPUT = doc("d1", "Karin Lund kom 2012-03-20, 54 år, kvinna.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"),
                   ("DATE", "2012-03-20"), ("AGE", "54"), ("SEX", "kvinna"), locale="sv")  # fmt: skip


def test_clean_corpus_passes(tmp_path):
    result, report = run(tmp_path, [CLEAN_ORIGINAL], [CLEAN_OUTPUT])
    assert result.exit_code == 0, result.output
    assert report["passed"] and report["findings"] == [] and report["documents_paired"] == 1


def test_planted_leak_is_found_by_offsets_only(tmp_path):
    # the tagger missed two mentions: they survive untagged
    original = doc("d1", "Anna Berg kom. Sedan ringde ANNA igen, Anna.", ("FIRST_NAME", "Anna"), ("LAST_NAME", "Berg"))
    output = doc("d1", "Karin Lund kom. Sedan ringde ANNA igen, Anna.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"))
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 4
    leaks = findings(report, "leak")
    assert [(f["output_start"], f["output_end"], f["detail"]) for f in leaks] == [(29, 33, "case-insensitive"), (40, 44, "exact")]
    assert all(f["start"] == 0 and f["end"] == 4 and f["label"] == "FIRST_NAME" for f in leaks)
    table = CliRunner().invoke(app, ["audit", str(tmp_path / "orig.jsonl"), str(tmp_path / "pseudo.jsonl")])
    assert table.exit_code == 4 and "d1\tleak\tFIRST_NAME\toriginal 0-4, output 29-33" in table.stdout
    for shown in (table.stdout, table.stderr, result.stdout):
        assert "anna" not in shown.lower() and "Berg" not in shown


def test_short_values_are_checked_in_place_only(tmp_path):
    original = doc("d1", "Bo Berg och Bo", ("FIRST_NAME", "Bo"), ("LAST_NAME", "Berg"))
    moved = doc("d1", "Per Lund och Bo", ("FIRST_NAME", "Per"), ("LAST_NAME", "Lund"))
    result, report = run(tmp_path, [original], [moved])
    assert result.exit_code == 0 and report["findings"] == []
    kept = doc("d1", "BO Lund och Bo", ("FIRST_NAME", "BO"), ("LAST_NAME", "Lund"))
    result, report = run(tmp_path, [original], [kept])
    assert result.exit_code == 4
    assert [(f["output_start"], f["detail"]) for f in findings(report, "leak")] == [(0, "case-insensitive")]
    result, report = run(tmp_path, [original], [kept], "--min-length", "2")
    assert len(findings(report, "leak")) == 2  # now searched everywhere


def test_kept_on_purpose_and_by_configuration(tmp_path):
    # a child's age is kept by the age rule: neither it nor its untagged repetition is a leak
    original = doc("d1", "Pojke 8 år, Anna. Han är 8 år.", ("AGE", "8 år"), ("FIRST_NAME", "Anna"), locale="sv")
    output = doc("d1", "Pojke 8 år, Anna. Han är 8 år.", ("AGE", "8 år"), ("FIRST_NAME", "Anna"), locale="sv")
    result, report = run(tmp_path, [original], [output])
    assert [f["label"] for f in findings(report, "leak")] == ["FIRST_NAME"]
    assert report["counts"]["not_rerun"] == 0
    (tmp_path / "config.yaml").write_text("strategies:\n  FIRST_NAME: keep\n")
    result, report = run(tmp_path, [original], [output], "--config", str(tmp_path / "config.yaml"))
    assert result.exit_code == 0 and report["passed"]


def test_without_a_locale_nothing_counts_as_kept_on_purpose(tmp_path):
    """The rules cannot run again without the name lists: the child's age is reported, and why."""
    original = doc("d1", "Pojke 8 år, Anna", ("AGE", "8"), ("FIRST_NAME", "Anna"))
    result, report = run(tmp_path, [original], [original])
    assert result.exit_code == 4
    assert sorted(f["label"] for f in findings(report, "leak")) == ["AGE", "FIRST_NAME"]
    assert report["counts"]["not_rerun"] == 1


def test_alignment_and_pairing(tmp_path):
    original = doc("d1", "Anna kom hem.", ("FIRST_NAME", "Anna"))
    changed_outside = doc("d1", "Karin gick hem.", ("FIRST_NAME", "Karin"))
    relabelled = doc("d1", "Karin kom hem.", ("LAST_NAME", "Karin"))
    result, report = run(tmp_path, [original, doc("d2", "x")], [changed_outside, doc("d3", "y")])
    assert result.exit_code == 4
    assert report["counts"]["misaligned"] == 1 and report["counts"]["unpaired"] == 2
    assert "text outside the spans differs: original 4-13, output 5-15" in findings(report, "misaligned")[0]["detail"]
    result, report = run(tmp_path, [original], [relabelled])
    assert "labels differ" in findings(report, "misaligned")[0]["detail"]


def test_consistency_and_date_shift_are_warnings(tmp_path):
    original = doc("d1", "Anna 2012-03-11. Anna 2012-04-01. 2012-05-01", ("FIRST_NAME", "Anna"), ("DATE", "2012-03-11"),
                   ("FIRST_NAME", "Anna"), ("DATE", "2012-04-01"), ("DATE", "2012-05-01"))  # fmt: skip
    output = doc("d1", "Karin 2012-03-20. Lena 2012-04-10. 2012-05-11", ("FIRST_NAME", "Karin"), ("DATE", "2012-03-20"),
                 ("FIRST_NAME", "Lena"), ("DATE", "2012-04-10"), ("DATE", "2012-05-11"))  # fmt: skip
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0 and report["passed"]
    assert report["counts"]["inconsistent"] == 1
    shifted = findings(report, "date_shift")
    assert [(f["start"], f["detail"]) for f in shifted] == [(34, "shifted +10 days where the scope's other dates moved +9")]


def test_date_shift_reads_the_locale_order(tmp_path):
    original = doc("d1", "3/4/2012 och 5/4/2012", ("DATE", "3/4/2012"), ("DATE", "5/4/2012"))
    output = doc("d1", "3/5/2012 och 5/5/2012", ("DATE", "3/5/2012"), ("DATE", "5/5/2012"))
    result, report = run(tmp_path, [original], [output])
    assert report["counts"]["date_shift"] == 0  # day-first: both moved one month (30 days)


def test_spans_added_by_propagate_are_aligned(tmp_path):
    """`pseudo apply --propagate` tags an untagged repetition of a tagged value: no misalignment,
    and the repetition, now replaced, is no leak. A span on any other text is a misalignment."""
    original = doc("d1", "Anna Berg kom. Sedan ringde ANNA igen.", ("FIRST_NAME", "Anna"), ("LAST_NAME", "Berg"), locale="sv")
    output = doc("d1", "Karin Lund kom. Sedan ringde KARIN igen.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"),
                 ("FIRST_NAME", "KARIN"), locale="sv")  # fmt: skip
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0, result.output
    assert report["counts"]["misaligned"] == 0 and report["counts"]["leak"] == 0
    stray = doc("d1", "Karin Lund kom. Sedan ringde ANNA igen.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"),
                ("FIRST_NAME", "igen"), locale="sv")  # fmt: skip
    result, report = run(tmp_path, [original], [stray])
    assert result.exit_code == 4
    assert findings(report, "misaligned")[0]["detail"] == "output span 34-38 stands where the original has no span"


def test_an_untagged_address_of_a_tagged_name_added_by_propagate_is_aligned(tmp_path):
    """`pseudo apply` tags an untagged e-mail address that holds a tagged name: aligned, no leak."""
    original = doc("d1", "Anna Berg, aberg@gmail.com, kom.", ("FIRST_NAME", "Anna"), ("LAST_NAME", "Berg"), locale="sv")
    output = doc("d1", "Karin Lund, klund@gmail.com, kom.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"),
                 ("EMAIL", "klund@gmail.com"), locale="sv")  # fmt: skip
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0, result.output
    assert report["counts"]["misaligned"] == 0 and report["counts"]["leak"] == 0
    other = doc("d1", "Karin Lund, klund@gmail.com, kom.", ("FIRST_NAME", "Karin"), ("LAST_NAME", "Lund"),
                ("FIRST_NAME", "klund@gmail.com"), locale="sv")  # fmt: skip
    result, report = run(tmp_path, [original], [other])
    assert report["counts"]["misaligned"] == 1  # a span of another label on the address is no e-mail that followed its person


def test_an_age_landing_on_another_age_is_the_shift_not_a_collision(tmp_path):
    """Ages (a relative's age tagged as kinship among them) move by one shift: 58 -> 60 where
    another original says 60 is the shift at work, as a date inside a date is."""
    original = doc("d1", "Edad: 58 años. Padre de 60 años.", ("AGE", "58 años"), ("KINSHIP", "60 años"), locale="es")
    output = doc("d1", "Edad: 60 años. Padre de 62 años.", ("AGE", "60 años"), ("KINSHIP", "62 años"), locale="es")
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0, result.output
    assert report["counts"]["collision"] == 0


def test_a_province_kept_on_purpose_is_no_leak_and_a_town_left_as_it_was_is(tmp_path):
    """The Spanish pack keeps provinces: the province written again, or inside a hospital's name,
    tells nothing its own place does not; a town of it that stayed as written is still a leak."""
    text = "Vive en Adeje (Santa Cruz de Tenerife). Ingresa en Clínica Bellavista. Provincia: Santa Cruz de Tenerife."
    tags = (("PLACE", "Adeje"), ("REGION", "Santa Cruz de Tenerife"), ("HEALTHCARE_UNIT", "Clínica Bellavista"), ("REGION", "Santa Cruz de Tenerife"))
    original = doc("d1", text, *tags, locale="es")
    unit = "Hospital Universitario de Santa Cruz de Tenerife"
    replaced = text.replace("Adeje", "Arona").replace("Clínica Bellavista", unit)
    output = doc("d1", replaced, ("PLACE", "Arona"), *[(label, unit if label == "HEALTHCARE_UNIT" else value) for label, value in tags[1:]], locale="es")
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0 and report["counts"]["leak"] == report["counts"]["collision"] == 0, result.output
    stayed = doc("d1", text.replace("Clínica Bellavista", unit), *[(label, unit if label == "HEALTHCARE_UNIT" else value) for label, value in tags], locale="es")
    result, report = run(tmp_path, [original], [stayed])
    assert result.exit_code == 4 and [(f["label"], f["start"]) for f in findings(report, "leak")] == [("PLACE", 8)]


def test_a_product_maker_and_its_address_kept_by_the_rules_are_no_leak(tmp_path):
    """The rules keep the maker of a product named beside it, and its town and country in the
    same brackets, under every key: kept on purpose. With `keep_makers: false` the maker is a leak;
    its town and country, the only places of the record, are then its address abroad: the country
    kept on purpose, the town a leak (the rules would draw Switzerland's capital inside it)."""
    text = "Ana Ruiz recibió una membrana BioGide® (Geistlich, Wolhusen, Suiza)."
    tags = (("PERSON", "Ana Ruiz"), ("ORGANISATION", "Geistlich"), ("PLACE", "Wolhusen"), ("COUNTRY", "Suiza"))
    original = doc("d1", text, *tags, locale="es")
    output = doc("d1", text.replace("Ana Ruiz", "Eva Gil"), ("PERSON", "Eva Gil"), *tags[1:], locale="es")
    result, report = run(tmp_path, [original], [output])
    assert result.exit_code == 0 and report["counts"]["leak"] == 0, result.output
    (tmp_path / "config.yaml").write_text("rules:\n  organisations:\n    keep_makers: false\n")
    result, report = run(tmp_path, [original], [output], "--config", str(tmp_path / "config.yaml"))
    assert result.exit_code == 4
    assert [f["label"] for f in findings(report, "leak")] == ["ORGANISATION", "PLACE"]
