"""Untagged dates follow the clock (pseudo.sweep): with propagation on, a date the annotators
missed moves by its scope's offset, but never a fraction, a score, a dose or a setting."""

import json
from datetime import date

from conftest import make_doc, run, surrogate_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pseudo.api import pseudonymise
from pseudo.cli import app
from pseudo.datetext import date_words, find_dates
from pseudo.engine import Settings
from pseudo.evaluation.corpus import Pair
from pseudo.keyed import Keyring
from pseudo.model import Document, Span
from pseudo.lists.pack import load_pack
from pseudo.sweep import DateProfile, followed_dates


def swept(text: str, tagged: list[str], locale: str = "en") -> list[str]:
    """The untagged dates of `text` that follow the clock, the `tagged` values being its tagged dates."""
    pack = load_pack(locale)
    words = date_words(pack, None)
    profile, taken, cursor = DateProfile(), [], 0
    for value in tagged:
        start = text.index(value, cursor)
        cursor = start + len(value)
        taken.append((start, cursor))
        profile.add("DATE", find_dates(text, words, start, cursor))
        profile.add_year(value)
    scores = frozenset(w.casefold() for w in pack.settings.dates.score_words)
    return [text[s:e] for s, e in followed_dates(text, words, profile, taken, scores)]


def test_fractions_scores_doses_and_settings_are_not_dates():
    text = (
        "Admitted 1/5, seen 5/20. Missed 3/14 here. Given 1/2 NS and 1/2 tab, 4/5 strength, BP 120/80, "
        "c/o 3/10 back pain, PSV 4/7 overnight, rales 2/3 up, q2-3 hrs, Cr 1.16, sat 3/14%, vent 3/14/5."
    )
    assert swept(text, ["1/5", "5/20"]) == ["3/14"]


def test_a_missed_date_among_tagged_ones_is_swept_and_a_far_one_is_not():
    text = "Admitted 3/12, CT 3/14, home 3/16. Prior stay 9/29."
    assert swept(text, ["3/12", "3/16"]) == ["3/14"]  # 9/29: six months away, likelier no date of this stay


def test_a_layout_the_scope_does_not_use_is_not_swept_unless_a_full_written_date():
    text = "Inskriven 2012-03-12, hem 2012-03-16. Röntgen 14/3, kontroll 2012-05-02, brev 2 maj 2012, 2015-06-01, år 1992."
    assert swept(text, ["2012-03-12", "2012-03-16"], "sv") == ["2012-05-02", "2 maj 2012"]


def test_a_date_with_its_month_named_and_a_four_digit_year_is_swept_whenever_it_falls():
    """Leftover round 23: "abril de 2003" and "junio de 2005", untagged in a record whose header
    moved to 2016, contradicted it and were found first. A date written with its month's name and
    a four-digit year is plainly one, near the tagged dates or not; a bare year or a numeric date
    far away still stays."""
    text = "Ingreso: 12/03/2016. Diagnosticada en abril de 2003, recidiva el 3 de junio de 2005. Guía 2010; control 4/5/2009."
    assert swept(text, ["12/03/2016"], "es") == ["abril de 2003", "3 de junio de 2005"]


def test_a_two_digit_year_after_an_apostrophe_is_swept_and_feet_and_decades_are_not():
    """PhysioNet leftover round 20: "s/p mi '92" stood among moved years and was found. A year
    after an apostrophe that no day can be is swept where the scope tags such years; "77'" (feet:
    "ambulated 50'"), "'05", "60-70'S", a quoted word, a number before a unit or word ("'99%", "'90
    lbs", reviews) and a date's year ("4/5/'91", "Mar 3 '93") are not."""
    text = ("Admitted 3/12. pmh: s/p mi '92, s/p cabg/mvr ’96. Ambulated 50' x2, HR 60-70'S, CVA 74', '05 flu, 'x92'. "
            "Sat '99% RA, K '40 mEq, Wt '90 lbs, HR '88 bpm, MI 4/5/'91, CVA Mar 3 '93, 4/5 '94, April, '95.\ns/p appy '97\ncabg x3 '98,\n")
    assert swept(text, ["3/12", "’96"]) == ["'92", "'97", "'98"]  # a unit or word after it, a date's year: no year alone; "x3" a count
    assert swept(text, ["3/12"]) == []  # the scope writes no year so
    assert swept("pmh: s/p mi '92.", []) == []


def test_an_apostrophe_year_follows_where_the_scope_tags_the_digits_after_an_apostrophe():
    """PhysioNet tags the "95" of "'95": the apostrophe before the span counts."""
    text = "Admitted 3/12. pmh: s/p mi '92, s/p cabg/mvr '95."
    [out] = run(make_doc(text, [("3/12", "DATE"), ("95", "DATE")], locale="en"), propagate=True)
    assert "'92" not in out["text"] and len(out["spans"]) == 3, out["text"]


def test_a_full_date_among_year_less_ones_is_swept_where_the_scope_tags_no_full_date():
    """PhysioNet leftover round 10: "admitted to hosp on 8/16/2017" left beside the note's tagged
    "8/17" and "8/26", which moved months away, gave itself away. A scope that tags no full date
    reads a full one by the arc of its tagged days; far from it, it stays."""
    text = "pt admitted to hosp on 8/16/2017 following a fall. to ccu on 8/17. last bm on 8/26. seen in 2/3/2015."
    assert swept(text, ["8/17", "8/26"]) == ["8/16/2017"]


def test_the_arc_of_year_less_dates_crosses_new_year():
    text = "Admitted 12/28, extubated 1/3. Seen 12/31 and 1/1; follow-up 6/15."
    assert swept(text, ["12/28", "1/3"]) == ["12/31", "1/1"]


def test_a_swept_date_moves_by_the_scope_offset_and_joins_the_annotation():
    text = "Admitted 3/12. CT 3/14 clear. Home 3/16."
    [out] = run(make_doc(text, [("3/12", "DATE"), ("3/16", "DATE")], locale="en"), propagate=True)
    assert [s["label"] for s in out["spans"]] == ["DATE", "DATE", "DATE"]
    first, missed, last = (date(2020, *map(int, value.split("/"))) for value in surrogate_texts(out))
    assert (missed - first).days == 2 and (last - missed).days == 2 and first != date(2020, 3, 12)
    assert "3/14" not in out["text"]


def apply(tmp_path, doc: dict, *options: str):
    source = tmp_path / "in.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", str(source), "--out", str(tmp_path / "out.json"), *options], env={"PSEUDO_KEY": "sweep-key"})
    assert result.exit_code == 0, result.output
    return source, tmp_path / "out.json", result


ISO = make_doc(
    "Inskriven 2012-03-12. Röntgen 2012-03-14 utan anmärkning. Hem 2012-03-16.", [("2012-03-12", "DATE"), ("2012-03-16", "DATE")], locale="sv"
)


def test_apply_counts_the_swept_dates_and_no_propagate_leaves_them(tmp_path):
    _, out, result = apply(tmp_path, ISO)
    assert "1 untagged date(s) followed the clock" in result.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))["spans"]) == 3
    _, out, result = apply(tmp_path, ISO, "--no-propagate")
    assert "followed" not in result.stderr and "2012-03-14" in json.loads(out.read_text(encoding="utf-8"))["text"]


def test_propagated_labels_without_date_leave_untagged_dates():
    [out] = run(ISO, {"propagate": {"labels": ["PERSON"]}}, propagate=True)
    assert len(out["spans"]) == 2 and "2012-03-14" in out["text"]


def test_the_audit_aligns_a_swept_date_and_checks_its_shift(tmp_path):
    source, out, _ = apply(tmp_path, ISO)
    audit = CliRunner().invoke(app, ["audit", str(source), str(out), "--json"])
    counts = json.loads(audit.stdout)["counts"]
    assert audit.exit_code == 0 and counts["misaligned"] == 0 and counts["date_shift"] == 0
    output = json.loads(out.read_text(encoding="utf-8"))
    swept_span = output["spans"][1]
    moved = date.fromisoformat(output["text"][swept_span["start"] : swept_span["end"]]).replace(year=2001).isoformat()
    output["text"] = output["text"][: swept_span["start"]] + moved + output["text"][swept_span["end"] :]
    out.write_text(json.dumps(output), encoding="utf-8")
    audit = CliRunner().invoke(app, ["audit", str(source), str(out), "--json"])
    assert json.loads(audit.stdout)["counts"]["date_shift"] == 1  # the swept date is held to the scope's offset


clinical = st.sampled_from(["3/14", "1/2 NS", "120/80", "2-3", "1.16", "10/10 pain", "PSV 10/5", "4/5 strength", "seen 3/20.", "9/29", " ", "\n"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.lists(clinical, max_size=4).map(" ".join), st.sampled_from(["3/12", "3/16", "4/1", "2/28"])), min_size=1, max_size=5))
def test_swept_documents_keep_the_text_outside_spans_and_offsets_slice_to_surrogates(pieces):
    text, spans = "", []
    for filler, value in pieces:
        text += f" {filler} "
        spans.append(Span(len(text), len(text) + len(value), "DATE"))
        text += value
    document = Document("doc", text + " " + pieces[0][0], tuple(spans), {"locale": "en"}).validated()
    [result] = pseudonymise([document], Settings(keyring=Keyring(b"property-key"), propagate=True)).results
    for replacement in result.replacements:
        assert result.document.text[replacement.new_start : replacement.new_end] == replacement.surrogate
    assert [(s.start, s.end, s.label) for s in result.document.spans] == [(r.new_start, r.new_end, "DATE") for r in result.replacements]
    pair = Pair(document, result.document, frozenset({"DATE"}), date_words(load_pack("en"), None))
    assert pair.alignment.problem is None  # the text outside the spans, added ones included, is the original's


def test_a_judgment_kit_takes_an_output_with_a_swept_date(tmp_path):
    """`pseudo judge build` pairs the versions as the audit does: a swept date is no mismatch."""
    source, out, _ = apply(tmp_path, ISO)
    built = CliRunner().invoke(app, ["judge", "build", str(source), str(out), "--out", str(tmp_path / "kit"), "--seed", "1"])
    assert built.exit_code == 0, built.output
