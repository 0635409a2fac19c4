"""The leftover hunt: dropped tags stay as they were, the key's offsets find them in the sheet,
a seed gives one kit, and guesses score to exact recall and precision."""

import json
import stat
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from pseudo.cli import app
from pseudo.evaluation import kit as kit_module
from pseudo.evaluation.leftovers import FILES, IDENTIFYING, matches, read_sheet, record_number

from .conftest import doc, write_jsonl

NOT_HUNTED = {"SEX", "KINSHIP", "PROFESSION"}
FIRST = ["Anna", "Karin", "Maria", "Lars", "Erik", "Madeleine", "Kim"]
LAST = ["Andersson", "Berg", "Lindqvist", "Holm", "Nyström", "Ek", "Sjöberg"]


def corpus(count: int = 6) -> list[dict]:
    """Swedish records with every kind of span: names, dates, phones, e-mails, towns, and the
    labels that are never dropped (sex, kinship, profession)."""
    documents = []
    for i in range(count):
        first, last = FIRST[i % len(FIRST)], LAST[i % len(LAST)]
        relative = FIRST[(i + 3) % len(FIRST)]
        text = (
            f"Patient: {first} {last}, kvinna.\r\n"
            f"Inskriven 2012-03-{10 + i} på avdelning 4 i Visby.\r\n"
            f"Mamma {relative} nås på 08-123 45 6{i} eller {first.lower()}.{last.lower()}@example.se.\n"
            f"Läkare: sjuksköterska Berit Holm.\n"
        )
        spans = [
            ("FIRST_NAME", first), ("LAST_NAME", last), ("SEX", "kvinna"), ("DATE", f"2012-03-{10 + i}"),
            ("PLACE", "Visby"), ("KINSHIP", "Mamma"), ("FIRST_NAME", relative), ("PHONE", f"08-123 45 6{i}"),
            ("EMAIL", f"{first.lower()}.{last.lower()}@example.se"), ("PROFESSION", "sjuksköterska"),
            ("FIRST_NAME", "Berit"), ("LAST_NAME", "Holm"),
        ]  # fmt: skip
        documents.append(doc(f"doc-{i}", text, *spans, locale="sv"))
    return documents


@pytest.fixture
def originals(tmp_path: Path) -> str:
    return write_jsonl(tmp_path / "originals.jsonl", corpus())


@pytest.fixture
def key_file(tmp_path: Path) -> str:
    path = tmp_path / "study.key"
    path.write_text("leftover-tests-0123456789abcdef\n", encoding="utf-8")
    return str(path)


def build(originals: str, key_file: str, out: Path, *options: str):
    result = CliRunner().invoke(app, ["judge", "leftovers", "build", originals, "--out", str(out), "-k", key_file, *options])
    assert result.exit_code == 0, result.output
    return result


def test_the_key_finds_the_untouched_originals_in_the_sheet(originals, key_file, tmp_path):
    out = tmp_path / "kit"
    result = build(originals, key_file, out, "--n", "4", "--drop", "0.3", "--seed", "7")
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert stat.S_IMODE((out / "key.json").stat().st_mode) == 0o600
    assert "key.json away from the readers" in result.stderr
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    sheet = read_sheet((out / "sheet.txt").read_text(encoding="utf-8"))
    assert sorted(sheet) == sorted(key["records"]) == ["d01", "d02", "d03", "d04"]
    by_id = {d["id"]: d for d in corpus()}
    for record_id, record in key["records"].items():
        original = by_id[record["document_id"]]
        hunted = [s for s in original["spans"] if s["label"] in IDENTIFYING]
        assert len(record["dropped"]) + record["caught"] == round(0.3 * len(hunted)) >= 1  # caught: replaced anyway
        values = [original["text"][s["start"] : s["end"]] for s in original["spans"]]
        for dropped in record["dropped"]:
            assert dropped["label"] not in NOT_HUNTED
            assert sheet[record_id][dropped["start"] : dropped["end"]] == dropped["text"]  # untouched, where the key says
            assert dropped["text"] in values
        assert "\r" not in sheet[record_id]
        assert original["text"][: len("Patient: ")] == sheet[record_id][: len("Patient: ")]
    dropped_texts = {d["text"] for r in key["records"].values() for d in r["dropped"]}
    if "Berit" not in dropped_texts:  # a tag kept was replaced
        assert not any("Berit" in text for text in sheet.values())
    assert all(d["text"] not in result.stdout + result.stderr for r in key["records"].values() for d in r["dropped"])


def test_a_dropped_value_the_defaults_replace_is_caught_not_left_over(tmp_path, key_file):
    """The kit pseudonymises as `pseudo apply` does: a dropped name tagged again in its record is
    propagated, a dropped date follows the clock; neither stands, so neither is in the key. Two of
    the six tags are dropped, which leaves a name and a date tagged whichever two they are. With
    --no-propagate both stand as written."""
    name, dates = "Lena Pettersson", ["2012-03-12", "2012-03-14", "2012-03-16"]
    text = f"Patient: {name}. Inskriven {dates[0]}, röntgen {dates[1]}, hem {dates[2]}. {name} mår bra. Ring {name}.\n"
    spans = [("PERSON", name), *(("DATE", d) for d in dates), ("PERSON", name), ("PERSON", name)]
    originals = write_jsonl(tmp_path / "c.jsonl", [doc("lena", text, *spans, locale="sv")])
    default = build(originals, key_file, tmp_path / "on", "--drop", "0.34", "--seed", "3")
    key = json.loads((tmp_path / "on" / "key.json").read_text(encoding="utf-8"))
    assert key["caught"] == 2 and key["standing"] == 0 and key["records"]["d01"] == {"document_id": "lena", "caught": 2, "dropped": []}
    assert "2 tag(s) dropped, 2 of them caught by the defaults, 0 left standing" in default.stdout
    sheet = (tmp_path / "on" / "sheet.txt").read_text(encoding="utf-8")
    assert "Lena" not in sheet and not any(d in sheet for d in dates)
    build(originals, key_file, tmp_path / "off", "--drop", "0.34", "--seed", "3", "--no-propagate")
    key = json.loads((tmp_path / "off" / "key.json").read_text(encoding="utf-8"))
    assert key["caught"] == 0 and key["standing"] == 2
    sheet = read_sheet((tmp_path / "off" / "sheet.txt").read_text(encoding="utf-8"))["d01"]
    assert all(sheet[d["start"] : d["end"]] == d["text"] for d in key["records"]["d01"]["dropped"])


def test_a_record_without_identifying_tags_drops_nothing(tmp_path, key_file):
    documents = corpus(2) + [doc("plain", "Mamma kom, kvinna.\n", ("KINSHIP", "Mamma"), ("SEX", "kvinna"), locale="sv")]
    out = tmp_path / "kit"
    build(write_jsonl(tmp_path / "c.jsonl", documents), key_file, out, "--seed", "1")
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    dropped = {r["document_id"]: len(r["dropped"]) for r in key["records"].values()}
    assert dropped == {"doc-0": 1, "doc-1": 1, "plain": 0}  # 10% of 10 spans is one; the kit takes every document when --n is larger


def test_a_seed_gives_one_kit(originals, key_file, tmp_path):
    for name in ("a", "b"):
        build(originals, key_file, tmp_path / name, "--n", "5", "--seed", "11")
    build(originals, key_file, tmp_path / "c", "--n", "5", "--seed", "12")
    for file in FILES:
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes()
    assert (tmp_path / "a" / "key.json").read_bytes() != (tmp_path / "c" / "key.json").read_bytes()


def test_the_brief_is_filled_in_for_the_locale(originals, key_file, tmp_path, monkeypatch):
    monkeypatch.setenv("PSEUDO_SHARED", str(tmp_path / "no-shared"))  # the bundled copy
    build(originals, key_file, tmp_path / "kit", "--seed", "3")
    brief = (tmp_path / "kit" / "brief.md").read_text(encoding="utf-8")
    assert "{" not in brief
    assert "You read\nSwedish fluently and know clinical records from Sweden," in brief
    assert "had tagged (names, dates, phone numbers, e-mail addresses and towns and places)" in brief
    bundled = kit_module.brief_template("brief-leftovers.md")
    assert brief.count("\n") == bundled.count("\n")
    assert brief.splitlines()[-1] == bundled.splitlines()[-1]
    shared = tmp_path / "shared" / "judging"
    shared.mkdir(parents=True)
    (shared / "brief-leftovers.md").write_text("Read {LANGUAGE} {KIND OF TEXT}: {DETAILS}.\n", encoding="utf-8")
    monkeypatch.setenv("PSEUDO_SHARED", str(tmp_path / "shared"))
    build(originals, key_file, tmp_path / "kit2", "--seed", "3", "--kind-of-text", "Swedish discharge letters")
    assert (tmp_path / "kit2" / "brief.md").read_text(encoding="utf-8").startswith("Read Swedish Swedish discharge letters: names,")


@pytest.mark.shared("judging/brief-leftovers.md")
def test_the_bundled_brief_is_the_shared_one():
    bundled = (Path(kit_module.__file__).parent / "briefs" / "brief-leftovers.md").read_text(encoding="utf-8")
    assert bundled == (SHARED / "judging" / "brief-leftovers.md").read_text(encoding="utf-8")


def test_an_existing_kit_is_replaced_only_with_force(originals, key_file, tmp_path):
    out = tmp_path / "kit"
    build(originals, key_file, out, "--seed", "1")
    again = CliRunner().invoke(app, ["judge", "leftovers", "build", originals, "--out", str(out), "-k", key_file])
    assert again.exit_code == 1 and "not empty" in again.stderr
    build(originals, key_file, out, "--seed", "2", "--force")
    assert json.loads((out / "key.json").read_text(encoding="utf-8"))["seed"] == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_no_locale_and_no_drop_are_refused(tmp_path, key_file):
    documents = [{**d, "meta": {}} for d in corpus(2)]
    source = write_jsonl(tmp_path / "c.jsonl", documents)
    runner = CliRunner()
    result = runner.invoke(app, ["judge", "leftovers", "build", source, "--out", str(tmp_path / "k"), "-k", key_file, "--drop", "0"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["judge", "leftovers", "build", source, "--out", str(tmp_path / "k"), "-k", key_file])
    assert result.exit_code == 1 and "locale" in result.stderr
    assert not (tmp_path / "k").exists()


def test_matching_guesses():
    assert matches("  juan   PÉREZ ", "Juan Pérez")
    assert matches("Pérez", "Juan Pérez García")  # a whole word of 3+ characters of the value
    assert matches("Dr. Li", "Li")  # the answer holds the whole value
    assert not matches("Lin", "Li")
    assert not matches("Pé", "Juan Pérez")
    assert not matches("Perezoso", "Juan Pérez")
    assert matches("08-123 45", "08-123 45 67")
    assert not matches("", "Juan")
    assert [record_number(r) for r in ("d03", "D3", "3", "RECORD d03", "x")] == [3, 3, 3, 3, None]


KEY = {
    "attack": "leftovers",
    "kit": "0123456789ab",
    "records": {
        "d01": {"document_id": "a", "dropped": [{"start": 0, "end": 10, "label": "PERSON", "text": "Juan Pérez"},
                                                {"start": 20, "end": 26, "label": "PLACE", "text": "Getafe"}]},
        "d02": {"document_id": "b", "dropped": [{"start": 5, "end": 15, "label": "DATE", "text": "03/04/2011"}]},
        "d03": {"document_id": "c", "dropped": []},
    },
}  # fmt: skip


def score(tmp_path: Path, *answers: tuple[str, str], options=()):
    key = tmp_path / "key.json"
    key.write_text(json.dumps(KEY), encoding="utf-8")
    paths = []
    for name, content in answers:
        (tmp_path / name).write_text(content, encoding="utf-8")
        paths.append(str(tmp_path / name))
    return CliRunner().invoke(app, ["judge", "leftovers", "score", str(key), *paths, *options])


def test_scoring_a_csv_and_a_plain_list(tmp_path):
    guesses = (
        "record_id,text,kind,confidence\n"
        "d01,PÉREZ,name,4\n"  # finds Juan Pérez
        "d01,Pérez,name,3\n"  # the same answer again: counted once
        "d01,Hospital Sur,institution,2\n"  # wrong
        "d02,03/04/2011,date,5\n"  # found
        "d03,María,name,1\n"  # wrong: nothing dropped there
        "d09,Getafe,town,2\n"  # no such record: wrong, and Getafe of d01 is not found by it
    )
    plain = "# my guesses\nd1: getafe\nRECORD d02\t 03/04/2011 \n2 Madrid\n\nno record here\n"
    result = score(tmp_path, ("ann.csv", guesses), ("ben.txt", plain), options=["--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    ann, ben = report["readers"]["ann.csv"], report["readers"]["ben.txt"]
    assert (ann["recall"]["k"], ann["recall"]["n"], ann["precision"]["k"], ann["precision"]["n"]) == (2, 3, 2, 5)
    assert ann["records"]["d01"] == {"dropped": 2, "found": 1, "answers": 2, "right": 1}
    assert ann["records"]["d03"] == {"dropped": 0, "found": 0, "answers": 1, "right": 0}
    assert ann["unknown_records"] == ["d09"]
    assert (ben["recall"]["k"], ben["precision"]["k"], ben["precision"]["n"]) == (2, 2, 3)
    assert ben["unreadable_lines"] == [6]
    assert report["found_by_all"] == [{"record_id": "d02", "label": "DATE", "start": 5, "end": 15}]
    assert "warning: ann.csv" in result.stderr and "warning: ben.txt" in result.stderr


def test_the_table_gives_figures_and_no_value(tmp_path):
    result = score(tmp_path, ("reader.csv", "record_id,text\nd01,Juan Pérez\nd02,12/12/2012\n"))
    assert result.exit_code == 0, result.output
    assert "recall 0.33 [" in result.stdout and "1/3 (dropped values found)" in result.stdout
    assert "precision 0.50 [" in result.stdout and "1/2 (answers that are dropped values)" in result.stdout
    assert "Juan" not in result.stdout and "Getafe" not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["record", "dropped", "found", "answers", "right"]
    assert lines[-1].split() == ["all", "3", "1", "2", "1"]


def test_a_key_of_another_kind_is_refused(tmp_path):
    key = tmp_path / "key.json"
    key.write_text(json.dumps({"kit": "x", "records": {"r1": {"condition": "real"}}}), encoding="utf-8")
    (tmp_path / "g.csv").write_text("record_id,text\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["judge", "leftovers", "score", str(key), str(tmp_path / "g.csv")])
    assert result.exit_code == 1 and "not a leftover kit key" in result.stderr


def test_a_patients_other_notes_are_pseudonymised_with_the_records_shown(tmp_path, key_file):
    """The kit pseudonymises the whole corpus as `pseudo apply` does, so in subject scope a name
    dropped in the note shown and tagged in the patient's other notes (never shown) follows them:
    caught. In document scope nothing else names it: it stands."""
    notes = [
        {"id": f"note-{i}", "text": f"Dr Vasquez saw the patient, note {i}.\n", "meta": {"locale": "en", "subject": "7"},
         "spans": [{"start": 3, "end": 10, "label": "PERSON"}]}
        for i in range(6)
    ]  # fmt: skip
    originals = write_jsonl(tmp_path / "notes.jsonl", notes)
    config = tmp_path / "subject.yaml"
    config.write_text("scope: subject\n", encoding="utf-8")
    build(originals, key_file, tmp_path / "subject", "--n", "1", "--drop", "0.1", "--seed", "5", "-c", str(config))
    key = json.loads((tmp_path / "subject" / "key.json").read_text(encoding="utf-8"))
    assert (key["caught"], key["standing"]) == (1, 0)
    build(originals, key_file, tmp_path / "document", "--n", "1", "--drop", "0.1", "--seed", "5")
    key = json.loads((tmp_path / "document" / "key.json").read_text(encoding="utf-8"))
    assert (key["caught"], key["standing"]) == (0, 1)


def test_a_document_outside_the_records_scopes_cannot_stop_the_kit(tmp_path, key_file):
    """Only the records' scopes are pseudonymised: a document with no subject, never shown, is left out."""
    notes = [
        {"id": f"note-{i}", "text": f"Dr Vasquez saw the patient, note {i}.\n", "meta": {"locale": "en", "subject": "7"},
         "spans": [{"start": 3, "end": 10, "label": "PERSON"}]}
        for i in range(6)
    ]  # fmt: skip
    notes.append({"id": "zz-no-subject", "text": "Dr Roe saw.\n", "meta": {"locale": "en"}, "spans": [{"start": 3, "end": 6, "label": "PERSON"}]})
    config = tmp_path / "subject.yaml"
    config.write_text("scope: subject\n", encoding="utf-8")
    build(write_jsonl(tmp_path / "notes.jsonl", notes), key_file, tmp_path / "kit", "--n", "1", "--seed", "5", "-c", str(config))
    key = json.loads((tmp_path / "kit" / "key.json").read_text(encoding="utf-8"))
    assert [r["document_id"] for r in key["records"].values()] != ["zz-no-subject"]
