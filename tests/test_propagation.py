"""Untagged repetitions of tagged names, places and e-mail local parts follow their tagged value
(on by default in `pseudo apply`), never common words, short words or closed-class words."""

import json
import os
import subprocess
import sys

import pytest
from conftest import make_doc, run, surrogate_texts
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.config import PROPAGATED_LABELS, parse_config
from pseudo.errors import ConfigError

LENA = "Patient: Lena Pettersson, Uppsala. OBS! Lena ska undvika solljus. Pettersson ringer."


def lena() -> dict:
    return make_doc(LENA, [("Lena Pettersson", "PERSON"), ("Uppsala", "PLACE")], locale="sv")


def apply(tmp_path, doc: dict, *options: str):
    source = tmp_path / "in.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    return CliRunner().invoke(app, ["apply", str(source), *options], env={"PSEUDO_KEY": "propagation-key"})


def test_a_word_of_a_full_name_takes_the_surrogate_it_has_inside_the_name():
    [out] = run(lena(), propagate=True)
    full, place, first, last = surrogate_texts(out)
    assert "Lena" not in out["text"] and "Pettersson" not in out["text"]
    assert full == f"{first} {last}" and first != "Lena"
    assert [s["label"] for s in out["spans"]] == ["PERSON", "PLACE", "PERSON", "PERSON"]


def test_apply_propagates_by_default_and_counts_the_added_spans(tmp_path):
    result = apply(tmp_path, lena())
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert "Lena" not in out["text"] and len(out["spans"]) == 4
    assert "2 propagated" in result.stderr


def test_no_propagate_leaves_untagged_repetitions_as_before(tmp_path):
    result = apply(tmp_path, lena(), "--no-propagate")
    out = json.loads(result.stdout)
    assert out["text"].count("Lena") == 1 and out["text"].count("Pettersson") == 1 and len(out["spans"]) == 2
    assert "propagated" not in result.stderr


def test_a_name_that_is_a_common_word_is_never_propagated():
    """"Rosa" is a Spanish name and a colour: a capitalised "Rosa" may start a sentence."""
    text = "Paciente: Rosa Gómez Llorente. Rosa presenta piel rosa. Gómez Llorente acude."
    [out] = run(make_doc(text, [("Rosa Gómez Llorente", "PERSON")], locale="es"), propagate=True)
    assert "Rosa presenta piel rosa" in out["text"] and "Gómez Llorente acude" not in out["text"]
    assert len(out["spans"]) == 3  # the name, then each surname of its untagged repetition


def test_a_tagged_name_alone_that_is_a_common_word_is_not_propagated_either():
    text = "Rosa vino sola. Rosa tenía fiebre."
    [out] = run(make_doc(text, [("Rosa", "FIRST_NAME")], locale="es"), propagate=True)
    assert len(out["spans"]) == 1 and out["text"].endswith("Rosa tenía fiebre.")


def test_lower_case_and_particle_words_of_a_name_stay():
    text = "Lena von Essen kom. Hon heter von Essen, lena skrev. Lena ringde."
    [out] = run(make_doc(text, [("Lena von Essen", "PERSON")], locale="sv"), propagate=True)
    assert len(out["spans"]) == 3 and "Essen" not in out["text"] and "Lena" not in out["text"]
    assert "heter von " in out["text"] and ", lena skrev" in out["text"]


def test_a_place_is_propagated_whole_and_case_sensitively_even_when_frequent():
    text = "Vive en Onda. Asociación PKU de Onda. onda en minúsculas."  # a common word; not Madrid, a kept province's name
    [out] = run(make_doc(text, [("Onda", "PLACE")], locale="es"), propagate=True)
    assert out["text"].count("Onda") == 0 and "onda en minúsculas" in out["text"]
    first, second = surrogate_texts(out)
    assert first == second


def test_a_word_inside_another_span_or_a_longer_word_is_not_propagated():
    text = "Lena Pettersson kom. Mejl: lena.pettersson@example.se, Petterssons bil, Lena-Maria ringde."
    doc = make_doc(text, [("Lena Pettersson", "PERSON"), ("lena.pettersson@example.se", "EMAIL")], locale="sv")
    [out] = run(doc, propagate=True)
    assert "Petterssons bil" in out["text"]
    assert len(out["spans"]) == 3  # "Lena" of "Lena-Maria": a whole word before the hyphen
    assert out["text"].endswith("-Maria ringde.")


def test_an_e_mail_local_part_alone_takes_the_local_part_of_the_address_surrogate():
    text = "Lena Pettersson, lena.pettersson@gmail.com. Skype: lena.pettersson. Lena.pettersson.x stays."
    doc = make_doc(text, [("Lena Pettersson", "PERSON"), ("lena.pettersson@gmail.com", "EMAIL")], locale="sv")
    [out] = run(doc, propagate=True)
    name, address, handle = surrogate_texts(out)
    assert handle == address.split("@")[0] != "lena.pettersson"
    assert "Lena.pettersson.x" in out["text"]


def test_an_untagged_address_that_holds_a_tagged_name_becomes_an_address_of_the_surrogate():
    """Leftover round 21: untagged addresses built from the doctor's name ("tcaveroescribano@")
    stood out among the addresses rebuilt from surrogate names, and readers found them first.
    An untagged address whose local part holds a word of a tagged name is that person's: it
    becomes an e-mail span; one that holds no tagged name ("info@") stays."""
    text = "Dr Lena Pettersson, Uppsala. E-post: lpettersson72@gmail.com, info@uppsala.se."
    doc = make_doc(text, [("Lena Pettersson", "PERSON"), ("Uppsala", "PLACE")], locale="sv")
    [out] = run(doc, propagate=True)
    name, _, address = surrogate_texts(out)[:3]
    assert "pettersson" not in out["text"].casefold() and out["spans"][2]["label"] == "EMAIL"
    assert name.split()[-1].casefold()[:4] in address.casefold(), (name, address)  # rebuilt from the surrogate name
    assert "info@uppsala.se" in out["text"]


def test_the_labels_propagated_are_configurable():
    config = {"propagate": {"labels": ["PLACE"]}}
    [out] = run(lena(), config, propagate=True)
    assert "OBS! Lena" in out["text"] and len(out["spans"]) == 2
    text = "Id 123456. Again 123456."
    [ids] = run(make_doc(text, [("123456", "ID")], locale="sv"), {"propagate": {"labels": ["ID"]}}, propagate=True)
    [default] = run(make_doc(text, [("123456", "ID")], locale="sv"), propagate=True)
    assert "123456" not in ids["text"] and default["text"].count("123456") == 1


def test_the_default_labels_are_names_places_and_e_mail():
    assert parse_config({}).propagate == PROPAGATED_LABELS == parse_config({"propagate": {}}).propagate


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"propagate": ["PERSON"]}, "propagate: expected a mapping with 'labels'"),
        ({"propagate": {"labels": ["NAME"]}}, "propagate.labels: NAME: not a canonical label"),
        ({"propagate": {"labels": "PERSON"}}, "propagate.labels: expected a list of canonical labels"),
        ({"propagate": {"lables": ["PERSON"]}}, "propagate: unknown key(s) lables"),
    ],
)
def test_a_bad_propagate_setting_is_named(raw, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_config(raw)


def notes(*texts_and_spans: tuple[str, list[tuple[str, str]]], subject: str = "7") -> list[dict]:
    """One subject's notes, in English."""
    return [make_doc(text, spans, doc_id=f"n{i}", locale="en", subject=subject) for i, (text, spans) in enumerate(texts_and_spans)]


SUBJECT = {"scope": "subject"}


def test_a_name_tagged_in_one_note_of_a_subject_follows_in_its_other_notes_as_written_there():
    """The stay's clinician tagged in most notes and missed in one was the leftover readers found
    first: the subject's other notes name the same person, as written ("Vasquez's" too). A form in
    lower case ("vasquez") spreads only where the notes tag it in at least one of two mentions:
    here one of four ("rose" may be a verb)."""
    docs = notes(
        ("Seen by Dr. Vasquez at noon.", [("Vasquez", "PERSON")]),
        ("Vasquez aware of the rise.", []),
        ("dr vasquez paged.", [("vasquez", "PERSON")]),
        ("dr vasquez aware.", []),
        ("VASQUEZ called.", []),
        ("Called Dr. Vasquez again.", [("Vasquez", "PERSON")]),
        ("Per Vasquez's plan, diurese.", []),
    )
    out = run(docs, SUBJECT, propagate=True)
    assert [len(d["spans"]) for d in out] == [1, 1, 1, 0, 0, 1, 1]
    assert surrogate_texts(out[1]) == surrogate_texts(out[0]) == surrogate_texts(out[6])
    assert run(docs, {"scope": "document"}, propagate=True)[1]["spans"] == []  # a document scope knows no other note


def test_a_name_tagged_in_one_note_follows_in_capitals_in_a_note_written_in_capitals():
    """"LIVES W/ DAUGHTER VERONICA" in a capitals note, beside a "daughter Veronica" tagged in
    another note of the stay, was a leftover both readers found: in a note written in capitals the
    subject's tagged names spread in capitals, with the same surrogate in capitals, a name of one
    word only right after a title or kinship word; a note in mixed case keeps matching as written."""
    docs = notes(
        ("Visiting, daughter Veronica will be proxy. BP rose to 150.", [("Veronica", "PERSON")]),
        ("PT HAS 5 CHILDREN, LIVES W/ DAUGHTER VERONICA WHO IS PROXY.", []),
        ("Called VERONICA at home.", []),
    )
    out = run(docs, SUBJECT, propagate=True)
    [first], [capitals] = surrogate_texts(out[0]), surrogate_texts(out[1])
    assert capitals == first.upper() != "VERONICA" and "VERONICA" not in out[1]["text"]
    assert out[2]["spans"] == []  # mixed case: names match as written
    docs = notes(  # reviews: once case no longer tells, a name that is a word replaced the word
        ("Seen by Dr. Brown.", [("Brown", "PERSON")]),
        ("Seen by Dr. Brown.", [("Brown", "PERSON")]),
        ("GI: BROWN STOOL X2, GUAIAC NEG. UPDATED FAMILY. BROWN STOOL AGAIN. DR BROWN AWARE.", []),
        ("SEEN BY DR. J. BROWN. PLAN PER BROWN.", []),
        ("RN Rose aware.", [("Rose", "PERSON")]),
        ("BP ROSE TO 150. HR ROSE TOO. FAMILY ROSE EARLY.", []),
        ("LIVES W/ DAUGHTER,                                   VERONICA. LIVES W/ DAUGHTER'S VERONICA.", []),
        ("Daughter Veronica called.", [("Veronica", "PERSON")]),
    )
    out = run(docs, SUBJECT, propagate=True)
    assert out[2]["text"].startswith("GI: BROWN STOOL X2") and "BROWN STOOL AGAIN" in out[2]["text"] and len(out[2]["spans"]) == 1
    assert "DR. J. BROWN" not in out[3]["text"] and "PER BROWN" in out[3]["text"]  # each mention on its own
    assert out[5]["spans"] == []
    assert "VERONICA" not in out[6]["text"]  # a padded line and a possessive cue
    docs = notes(("Husband Tom Green in to visit.", [("Tom Green", "PERSON")]), ("PT TALKED WITH TOM GREEN TODAY. GREEN SPUTUM.", []))
    out = run(docs, SUBJECT, propagate=True)
    assert "TOM GREEN" not in out[1]["text"] and out[1]["text"].endswith(" GREEN SPUTUM.")  # a name of two words: whole


def test_a_subjects_words_tagged_one_by_one_or_in_lower_case_stay_words_in_its_other_notes_unless_mostly_tagged():
    """A review found "Type and cross sent" and "BP rose" replaced across a stay whose notes tag a
    hospital "holy" "cross" word by word and a nurse "rose": a place of one word stays in its note,
    and a lower-case name written more than twice as often as tagged is a word there."""
    docs = notes(
        ("Pt transferred from holy cross for w/u. RN rose aware.", [("holy", "PLACE"), ("cross", "PLACE"), ("rose", "PERSON")]),
        ("Type and cross sent. BP rose to 150, HR rose too.", []),
        ("From Holy Cross Hospital.", [("Holy Cross", "PLACE")]),
        ("RN healey aware.", [("healey", "PERSON")]),
        ("Paged healey.", []),
    )
    out = run(docs, SUBJECT, propagate=True)
    assert out[1]["text"] == "Type and cross sent. BP rose to 150, HR rose too." and out[1]["spans"] == []
    assert "healey" not in out[4]["text"] and len(out[4]["spans"]) == 1  # tagged in one of two mentions: a name


def test_a_name_a_subject_leaves_untagged_more_often_than_it_tags_is_a_word_there():
    """A nurse Foley tagged once among Foley catheters: the catheters stay."""
    docs = notes(
        ("Night nurse Bernard Foley.", [("Bernard Foley", "PERSON")]),
        ("GU: Foley draining well.", []),
        ("Foley to gravity.", []),
        ("foley changed.", []),
        ("Foley patent, draining clear urine.", []),
    )
    out = run(docs, SUBJECT, propagate=True)
    assert [len(d["spans"]) for d in out] == [1, 0, 0, 0, 0]  # written five times, tagged once


def test_ordinary_words_that_are_a_tagged_name_in_other_case_or_one_letter_away_stay():
    """A review found "dolores abdominales", "Paciente delgado", "Remains stable" (beside a tagged
    "Stabile") taken for names by a case-blind and a one-slip match: names match as written."""
    text = "Paciente: María Dolores Pérez Delgado. Refiere dolores abdominales. Paciente delgado."
    [out] = run(make_doc(text, [("María Dolores Pérez Delgado", "PERSON")], locale="es"), propagate=True)
    assert out["text"].endswith("Refiere dolores abdominales. Paciente delgado.") and len(out["spans"]) == 1
    docs = notes(("Night RN Ann Stabile. Pt stable.", [("Ann Stabile", "PERSON")]), ("Remains stable on pressors. Stable overnight.", []))
    assert run(docs, SUBJECT, propagate=True)[1]["text"] == "Remains stable on pressors. Stable overnight."


def test_a_common_english_name_repeated_untagged_is_replaced():
    """The English pack lists no common words: "Smith" and "Taylor" written again spread as written."""
    text = "Seen by Dr. Smith. Plan per Smith: diurese. RN Taylor aware; Taylor to recheck K."
    [out] = run(make_doc(text, [("Smith", "PERSON"), ("Taylor", "PERSON")], locale="en"), propagate=True)
    assert "Smith" not in out["text"] and "Taylor" not in out["text"] and len(out["spans"]) == 4


def test_values_from_a_subjects_other_notes_spread_alike_under_every_hash_seed(tmp_path):
    """Two values of other notes that overlap ("Lee Ann", "Ann Bay" in "Lee Ann Bay") had been
    taken in set order, which changes with Python's hash seed from run to run (a review's finding)."""
    docs = notes(("Pt Lee Ann seen. Lives near Ann Bay.", [("Lee Ann", "PERSON"), ("Ann Bay", "PLACE")]), ("Drove past Lee Ann Bay today.", []))
    source = tmp_path / "in.json"
    source.write_text(json.dumps(docs), encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text("scope: subject\n", encoding="utf-8")
    outputs = set()
    for seed in ("1", "2", "3"):
        out = tmp_path / f"out{seed}.json"
        command = [sys.executable, "-m", "pseudo", "apply", str(source), "--out", str(out), "-c", str(config)]
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed, "PSEUDO_KEY": "hash-seed-key"})
        outputs.add(out.read_text(encoding="utf-8"))
    assert len(outputs) == 1


def test_a_tagged_name_a_letter_or_two_from_a_name_the_subject_tags_elsewhere_is_that_person():
    """"Per Dr. Vaseqez" in one note of a stay whose other notes tag "Vasquez" became "Dr. Velazco"
    beside the others' "Dr. Li", which a reader named. A tagged name word no list holds, a letter or
    two from a listed name the scope tags elsewhere, is drawn as that name; a listed one near
    another ("Jensen", "Jansen") stays its own."""
    docs = notes(
        ("Seen by Dr. Vasquez at noon. RN Jensen aware.", [("Vasquez", "PERSON"), ("Jensen", "PERSON")]),
        ("CV: Per Dr. Vaseqez pt has been seen.", [("Vaseqez", "PERSON")]),
        ("dr vascuez aware. RN Jansen paged.", [("vascuez", "PERSON"), ("Jansen", "PERSON")]),
    )
    out = run(docs, SUBJECT)
    first, slip, lower = (surrogate_texts(d)[0] for d in out)
    assert first == slip and lower == first.lower(), (first, slip, lower)
    assert surrogate_texts(out[0])[1] != surrogate_texts(out[2])[1]
