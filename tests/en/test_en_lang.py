"""pseudo/lang/en.py through the rules: the genitive, ages in words, US identifiers, US phones."""

from __future__ import annotations

import regex
from en_helpers import run_many

from pseudo.digits import digits_of
from pseudo.lang import en
from pseudo.lists.pack import load_pack
from pseudo.lists.numbering import numbering_plan


def test_a_name_and_its_genitive_share_one_surrogate():
    text = "Mary Smith was seen. Mary's daughter and Mary came. James' wife called; James came."
    spans = [("Mary Smith", "PERSON"), ("Mary's", "PERSON"), ("Mary", "PERSON"), ("James'", "PERSON"), ("James", "PERSON")]
    for full, genitive, alone, bare_genitive, james in run_many(text, spans):
        first = full.split()[0]
        assert genitive == f"{first}'s" and alone == first
        assert bare_genitive in (f"{james}'", f"{james}'s") and bare_genitive.endswith("'" if james.endswith("s") else "'s")


def test_inflect_follows_the_surrogate_ending():
    assert en.split_inflection("MARY'S", lambda w: 0) == ("MARY", "'S")
    assert en.inflect("Jones", "'") == "Jones'" and en.inflect("Ann", "'") == "Ann's" and en.inflect("Ann", "’s") == "Ann’s"


def test_ages_in_words_move_and_stay_words():
    text = "Seventy-two-year-old woman; her husband is a sixty five year old man."
    for first, second in run_many(text, [("Seventy-two-year-old", "AGE"), ("sixty five year old", "AGE")]):
        value = en.read_numbers(first)[0][2]
        assert regex.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)?-year-old", first) and value != 72 and abs(value - 72) <= 2
        assert regex.fullmatch(r"[a-z]+(?:-[a-z]+)? year old", second)


def test_number_words_read_and_write_back():
    for value in (1, 13, 40, 72, 99, 102):
        written = en.write_number(value)
        assert en.read_numbers(written) == [(0, len(written), value)]


def test_ssn_surrogates_could_be_issued_and_keep_their_layout():
    text = "SSN: 078-05-1120. Social Security 219 09 9999."
    for dashed, spaced in run_many(text, [("078-05-1120", "ID"), ("219 09 9999", "ID")]):
        assert en.ssn_valid(dashed) and regex.fullmatch(r"\d{3}-\d{2}-\d{4}", dashed) and dashed != "078-05-1120"
        assert regex.fullmatch(r"\d{3} \d{2} \d{4}", spaced)
        area = dashed[:3]
        assert area not in ("000", "666") and area[0] != "9"


def test_npi_and_dea_surrogates_have_right_check_digits():
    text = "Attending NPI 1234567893, DEA AB1234563."
    for npi, dea in run_many(text, [("1234567893", "ID"), ("AB1234563", "ID")]):
        assert en.npi_valid(npi) and npi[0] == "1" and npi != "1234567893"
        assert en.dea_valid(dea) and dea[0] == "A" and dea[1].isupper() and dea != "AB1234563"


def test_us_phone_layouts_are_kept_with_a_real_area_code_and_exchange():
    plan = numbering_plan(load_pack("en"))
    layouts = ["(617) 555-0134", "617-555-0134", "617.555.0134", "+1 617 555 0134", "1-617-555-0134"]
    shape = lambda t: regex.sub(r"\d", "9", t)  # noqa: E731
    for drawn in run_many(" / ".join(layouts), [(t, "PHONE") for t in layouts]):
        for original, new in zip(layouts, drawn):
            assert shape(new) == shape(original)
            national = digits_of(new)[-10:]
            assert national[:3] in plan.fixed and national[3:6] in plan.exchanges[national[:3]]


def test_fictional_contacts_use_the_reserved_555_01_range():
    for (number,) in run_many("Call 617-555-0134.", [("617-555-0134", "PHONE")], rules={"phones": {"contacts": "fictional"}}):
        assert regex.fullmatch(r"\d{3}-555-01\d\d", number)


def test_a_form_of_address_tagged_as_a_profession_is_kept_and_a_job_replaced():
    for title, job in run_many("Dr. Lee, a packager, came.", [("Dr.", "PROFESSION"), ("packager", "PROFESSION")]):
        assert title == "Dr." and job.casefold() != "packager"


def test_a_card_number_keeps_its_network_digit_and_stays_luhn_valid():
    from pseudo.rules.ids import luhn_valid

    text = "Visa 4454794511390933, Amex 347415977307943."
    for visa, amex in run_many(text, [("4454794511390933", "ID"), ("347415977307943", "ID")]):
        assert visa[0] == "4" and amex[0] == "3" and luhn_valid(visa) and luhn_valid(amex)
        assert len(visa) == 16 and len(amex) == 15 and visa != "4454794511390933"
