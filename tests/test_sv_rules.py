"""Every rule bullet of the Swedish pack issue, on real Swedish text and the built pack."""

from __future__ import annotations

import datetime

import pytest
from conftest import make_doc, run, surrogate_texts
from sv_helpers import ancestor, names, of_name, rows

from pseudo.lists.pack import load_pack
from pseudo.rules.ids import luhn_check_digit, luhn_valid
from pseudo.lists.names import name_lists

FEMALE, MALE, SURNAMES = names("first_names_female.tsv"), names("first_names_male.tsv"), names("last_names.tsv")
KEYS = [f"key-{i}".encode() for i in range(8)]


def surrogates(text, spans, config=None, key=b"test-key"):
    [out] = run(make_doc(text, spans, locale="sv"), config, key=key)
    return surrogate_texts(out), out["text"]


def lists():
    return name_lists(load_pack("sv"), 3.0)


def top(gender, n=None):
    """The given names of a gender a draw may take: the n most common, or (default) every one."""
    return set(lists().pool(gender, n or 10**9).items)


# -- first names --------------------------------------------------------------------------------
@pytest.mark.parametrize("key", KEYS)
def test_first_names_take_the_list_gender(key):
    (anna, lars), _ = surrogates("Anna och Lars", [("Anna", "FIRST_NAME"), ("Lars", "FIRST_NAME")], key=key)
    assert anna in top("female") and lars in top("male")


def test_the_pool_size_is_configurable():
    config = {"rules": {"names": {"pool": 5}}}
    for key in KEYS:
        (anna,), _ = surrogates("Anna kom", [("Anna", "FIRST_NAME")], config, key=key)
        assert anna in top("female", 5)


def test_gender_neutral_names_get_gender_neutral_surrogates():
    assert lists().gender("Alaa") == "neutral"
    (new,), _ = surrogates("Alaa kom", [("Alaa", "FIRST_NAME")])
    assert lists().gender(new) == "neutral"


def test_a_name_in_both_lists_takes_the_gender_where_it_is_relatively_more_frequent():
    assert "Kim" in FEMALE and "Kim" in MALE and lists().gender("Kim") == "male"
    (new,), _ = surrogates("Kim kom", [("Kim", "FIRST_NAME")])
    assert new in top("male")


@pytest.mark.parametrize("double, separator", [("Anna-Karin", "-"), ("Karl Johan", " ")])
def test_double_names_part_by_part_with_one_gender(double, separator):
    (new,), _ = surrogates(f"{double} kom", [(double, "FIRST_NAME")])
    left, right = new.split(separator)
    gender = "female" if double.startswith("Anna") else "male"
    assert {left, right} <= top(gender) and left != right


def test_misspelt_names_go_through_the_fuzzy_fallback_unknown_ones_are_neutral():
    (misspelt, unknown), _ = surrogates("Kerstiin och Qwzx", [("Kerstiin", "FIRST_NAME"), ("Qwzx", "FIRST_NAME")])
    assert misspelt in top("female")
    assert unknown in top("neutral")


# -- genitive and casing ------------------------------------------------------------------------
@pytest.mark.parametrize("key", KEYS)
def test_genitive_follows_the_surrogate_and_shares_the_base_forms_surrogate(key):
    (base, genitive, lars, lars_apostrophe), _ = surrogates(
        "Anna kom. Annas bil. Lars ringde. Lars' bil.",
        [("Anna", "FIRST_NAME"), ("Annas", "FIRST_NAME"), ("Lars", "FIRST_NAME"), ("Lars'", "FIRST_NAME")],
        key=key,
    )
    silent = base.endswith(("s", "x", "z"))
    assert genitive == (base if silent else base + "s")
    assert lars_apostrophe == (lars + "'" if lars.endswith(("s", "x", "z")) else lars + "s")


def test_casing_is_kept():
    (upper, lower, title), _ = surrogates(
        "ANNA, lars och Eva", [("ANNA", "FIRST_NAME"), ("lars", "FIRST_NAME"), ("Eva", "FIRST_NAME")]
    )
    assert upper.isupper() and lower.islower() and title[0].isupper() and title[1:].islower()


def test_surname_and_its_genitive_are_consistent():
    (base, genitive), _ = surrogates("Svensson kom. Svenssons bil.", [("Svensson", "LAST_NAME"), ("Svenssons", "LAST_NAME")])
    assert base in SURNAMES and genitive == (base if base.endswith(("s", "x", "z")) else base + "s")


# -- name culture: no implausible first name + surname pair --------------------------------------
def test_names_shared_by_given_name_and_surname_lists_are_kept_out_of_the_pools():
    shared = {name for name in ("Ali", "Ahmed", "Mohamed", "Hassan", "Ibrahim") if lists().shared(name)}
    assert shared == {"Ali", "Ahmed", "Mohamed", "Hassan", "Ibrahim"}
    assert not shared & (top("male") | top("female") | set(lists().pool("last", 100).items))
    assert not lists().shared("Andersson") and not lists().shared("Anna")


@pytest.mark.parametrize("key", KEYS)
def test_a_pair_is_drawn_from_one_naming_pattern(key):
    (first, last, first2, last2), _ = surrogates(
        "Agneta Andersson och Mohammed Ali", [("Agneta", "FIRST_NAME"), ("Andersson", "LAST_NAME"),
                                               ("Mohammed", "FIRST_NAME"), ("Ali", "LAST_NAME")], key=key,
    )  # fmt: skip
    assert not any(lists().shared(n) for n in (first, last, first2, last2))


# -- kinship agreement -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cue, gender",
    [("Mamma", "female"), ("Bror", "male"), ("dottern", "female"), ("farfar", "male"), ("hustru", "female"),
     ("maken", "male"), ("syster", "female"), ("sonen", "male"), ("mormor", "female")],
)  # fmt: skip
def test_a_kinship_word_decides_the_gender_whatever_the_list_says(cue, gender):
    name = "Madeleine" if gender == "male" else "Lars"  # the opposite list gender
    (new,), _ = surrogates(f"Närstående {cue} {name} ringde", [(name, "FIRST_NAME")])
    assert new in top(gender)


@pytest.mark.parametrize("key", KEYS)
def test_two_relatives_never_share_a_first_name(key):
    (mother, sister, brother), _ = surrogates(
        "Mamma Madeleine, Syster Eva, Bror Madeleine",
        [("Madeleine", "FIRST_NAME"), ("Eva", "FIRST_NAME"), ("Madeleine", "FIRST_NAME")], key=key,
    )  # fmt: skip
    assert len({mother, sister, brother}) == 3 and brother in top("male") and {mother, sister} <= top("female")


def test_a_later_mention_without_its_kinship_word_keeps_the_relatives_surrogate():
    (brother, again), _ = surrogates("Bror Madeleine ringde. Madeleine kommer i morgon.",
                                     [("Madeleine", "FIRST_NAME"), ("Madeleine", "FIRST_NAME")])  # fmt: skip
    assert brother == again and brother in top("male")


def test_kinship_words_keep_gender_generation_number_and_form():
    (new, definite, plural), _ = surrogates(
        "mamma, farfadern och bröderna",
        [("mamma", "KINSHIP"), ("farfadern", "KINSHIP"), ("bröderna", "KINSHIP")],
        {"rules": {"kinship": {"words": "swap"}}},
    )
    assert new in {"mor", "morsa", "styvmor", "svärmor", "faster", "moster"}
    assert definite == "morfadern" and plural in {"halvbröderna", "svågrarna"}


# -- places ------------------------------------------------------------------------------------
def county_of(name, kind):
    return {ancestor(p["id"], "county") for p in of_name(name, kind)}


@pytest.mark.parametrize("key", KEYS)
def test_a_locality_becomes_a_locality_of_the_same_county(key):
    (new,), text = surrogates("Hon bor i Huddinge.", [("Huddinge", "PLACE")], key=key)
    assert "SE-L01" in county_of(new, "locality")


@pytest.mark.parametrize("key", KEYS)
def test_a_municipality_becomes_a_municipality_of_the_same_county(key):
    (new,), _ = surrogates("kommunen Uppvidinge", [("Uppvidinge", "PLACE")], key=key)
    assert county_of(new, "municipality") == county_of("Uppvidinge", "municipality")


def test_counties_and_continents_are_kept_countries_stay_in_their_continent():
    (county, continent, country), _ = surrogates(
        "Skåne län, Asien, Irak", [("Skåne län", "REGION"), ("Asien", "PLACE"), ("Irak", "COUNTRY")]
    )
    assert county == "Skåne län" and continent == "Asien"
    assert {p["parent_id"] for p in of_name(country, "country")} == {"CONT-AS"} and country != "Irak"


def test_a_misspelt_place_goes_through_the_fuzzy_fallback():
    (new,), _ = surrogates("bor i Hudinge", [("Hudinge", "PLACE")])
    assert "SE-L01" in county_of(new, "locality")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("sentence, place, preposition", [
    ("Hon bor på Möja sedan 2001.", "Möja", "på"), ("Familjen bor på Gotland.", "Gotland", "på"),
    ("Hon bor i Tumba.", "Tumba", "i"), ("Han flyttade till ett boende på Hönö.", "Hönö", "på"),
])  # fmt: skip
def test_a_surrogate_is_chosen_from_places_of_the_same_preposition_class(key, sentence, place, preposition):
    (new,), text = surrogates(sentence, [(place, "PLACE")], key=key)
    assert text.startswith(sentence[: sentence.index(place)])  # the preposition, outside the span, is unchanged
    assert {p["preposition"] for p in of_name(new)} & {preposition}  # (a homonym elsewhere may take the other)


def test_streets_are_composed_streets_and_keep_the_house_number_shape():
    (street,), _ = surrogates("Adress: Storgatan 12B", [("Storgatan 12B", "STREET")])
    name, number = street.rsplit(" ", 1)
    assert name in names("streets.tsv") and name != "Storgatan"
    assert len(number) == 3 and number[:2].isdigit() and number[2].isupper()


def test_a_complete_address_gets_a_postcode_of_its_surrogate_town():
    (address,), _ = surrogates("Adress: Storgatan 1, 141 44 Huddinge", [("Storgatan 1, 141 44 Huddinge", "ADDRESS")])
    street, code_and_town = address.split(", ")
    code, town = code_and_town[:6], code_and_town[7:]
    ids = {p["id"] for p in of_name(town)}
    assert any(r["postcode"] == code and r["place_id"] in ids for r in rows("postal_codes.tsv"))
    assert "SE-L01" in county_of(town, "locality")


# -- phones ------------------------------------------------------------------------------------
FIXED = {r["code"] for r in rows("phone_area_codes.tsv")}
MOBILE = {r["prefix"] for r in rows("phone_mobile_prefixes.tsv")}


BLOCKS = {r["prefix"] for r in rows("phone_mobile_ranges.tsv")}
FICTIONAL = {"rules": {"phones": {"contacts": "fictional"}}}


def operators(number):
    """Whether a national number lies in a block an operator holds, outside the fiction range."""
    return any(number.startswith(b) for b in BLOCKS) and not 701740605 <= int(number) <= 701740699


@pytest.mark.parametrize("number, check", [
    ("0652 7256", lambda n: n[:4] in FIXED and n[4] == " " and len(n) == 9),
    ("078 1295067", lambda n: n[:3] in MOBILE and n[3] == " " and operators(n.replace(" ", ""))),
    ("08-123 456 78", lambda n: n[:2] in FIXED and n[2] == "-" and len(n) == 13 and not n.startswith("08-465 004")),
    ("031-390 06 12", lambda n: n[:3] in FIXED and n[3] == "-" and len(n) == 13),
    ("+46 70 123 45 67", lambda n: n.startswith("+46 7") and operators("0" + n[4:].replace(" ", ""))),
    ("0046 8 123 456 78", lambda n: n.startswith("0046 ") and n[5] != "7" and len(n) == 17),
    ("0046701234567", lambda n: n.startswith("00467") and operators("0" + n[4:])),
    ("0911-123 45", lambda n: n[:4] in FIXED and n[4] == "-" and len(n) == 11),
])  # fmt: skip
def test_phone_numbers_get_valid_prefixes_operator_blocks_and_keep_their_shape(number, check):
    (new,), _ = surrogates(f"tfn {number}", [(number, "PHONE")])
    assert check(new) and new != number


def test_mobiles_do_not_repeat_across_records():
    """Mobile surrogates spread over the operators' blocks: no shared digits mark them."""
    drawn = {surrogates("tfn 070-123 45 67", [("070-123 45 67", "PHONE")], key=bytes([k]) * 16)[0][0] for k in range(40)}
    assert len(drawn) == 40 and len({n[:7] for n in drawn}) > 30


@pytest.mark.parametrize("number, check", [
    ("078 1295067", lambda n: 701740605 <= int(n.replace(" ", "")) <= 701740699),
    ("08-123 456 78", lambda n: n.startswith("08-465 004")),
    ("031-390 06 12", lambda n: n[:4] in ("031-", "040-") and len(n) == 13),
    ("+46 70 123 45 67", lambda n: n.startswith("+46 70 174 06")),
    ("0046 8 123 456 78", lambda n: n.startswith("0046 8 465 004")),
    ("0046701234567", lambda n: n.startswith("004670174")),
])  # fmt: skip
def test_contacts_fictional_draws_from_the_pts_fiction_ranges(number, check):
    (new,), _ = surrogates(f"tfn {number}", [(number, "PHONE")], FICTIONAL)
    assert check(new) and new != number


def test_a_surrogate_town_served_by_the_original_code_keeps_it():
    """Sandviken's surrogate is drawn within Gävleborg county; when it is Gävle, 026 (listed as
    "Gävle-Sandviken") serves it, and the number keeps 026 rather than a code of another county."""
    kept = 0
    for k in range(30):
        (town, phone), _ = surrogates("Bor i Sandviken. Tfn 026-12 34 56", [("Sandviken", "PLACE"), ("026-12 34 56", "PHONE")], key=bytes([k]) * 16)
        if town == "Gävle":
            assert phone.startswith("026-"), phone
            kept += 1
    assert kept > 0


# -- personnummer ------------------------------------------------------------------------------
def valid(nine: str) -> str:
    return nine + luhn_check_digit(nine)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("written, century, coordination", [
    ("19{d}-{s}", True, False), ("{d}-{s}", False, False), ("{d}{s}", False, False), ("{d}+{s}", False, False),
    ("{c}-{t}", False, True),
])  # fmt: skip
def test_personnummer_valid_same_shape_sex_kept_birth_date_moved_with_the_scope(key, written, century, coordination):
    number = valid("781212881")  # a man (odd ninth digit)
    coordinated = valid("781272881")
    original = written.format(d=number[:6], s=number[6:], c=coordinated[:6], t=coordinated[6:])
    (birth, new), _ = surrogates(f"född 1978-12-12, pnr {original}", [("1978-12-12", "DATE"), (original, "ID")], key=key)
    digits = "".join(c for c in new if c.isdigit())
    ten = digits[-10:]
    assert luhn_valid(ten) and int(ten[8]) % 2 == 1 and new != original
    assert [c for c in new if not c.isdigit()] == [c for c in original if not c.isdigit()]
    expected = datetime.date.fromisoformat(birth)  # the personnummer's birth date moves like the text's
    expected = expected.replace(year=expected.year - (100 if "+" in original else 0))
    day = int(ten[4:6]) - (60 if coordination else 0)
    assert (int(ten[:2]), int(ten[2:4]), day) == (expected.year % 100, expected.month, expected.day)
    if century:
        assert int(digits[:4]) == expected.year


def test_a_personnummer_whose_luhn_digit_is_wrong_gets_a_wrong_one_too():
    """Invented numbers ("19850505-1234") fail Luhn; a surrogate that alone passed gave itself away."""
    for key in KEYS:
        (new,), _ = surrogates("pnr 19850505-1234", [("19850505-1234", "ID")], key=key)
        assert not luhn_valid("".join(c for c in new if c.isdigit())[-10:]), new


def test_personnummer_of_a_woman_stays_a_womans():
    number = valid("850301224")
    (new,), _ = surrogates(f"pnr {number}", [(number, "ID")])
    assert int(new[8]) % 2 == 0 and luhn_valid(new)


def test_personnummer_can_be_removed_instead():
    number = valid("781212881")
    written = f"{number[:6]}-{number[6:]}"
    (gone, other), _ = surrogates(
        f"pnr {written}, journal AB-123", [(written, "ID"), ("AB-123", "ID")], {"rules": {"ids": {"remove": ["personnummer"]}}}
    )
    assert gone == "[ID]" and other != "AB-123" and other != "[ID]"


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("written", ["556036-0793", "5560360793", "16556036-0793"])
def test_organisationsnummer_stays_valid_with_its_legal_form_and_layout(key, written):
    (new,), _ = surrogates(f"Arbetsgivare org.nr {written}.", [(written, "ID")], key=key)
    digits = new.replace("-", "")[-10:]
    assert len(new) == len(written) and ("-" in new) == ("-" in written)
    assert new.startswith("16") == written.startswith("16")
    assert new != written and digits[0] == "5" and int(digits[2]) >= 2 and luhn_valid(digits)


def test_organisationsnummer_check_reads_valid_and_wrong_numbers():
    from pseudo.lang.sv import organisationsnummer_valid

    assert organisationsnummer_valid("556036-0793") is True
    assert organisationsnummer_valid("556036-0794") is False
    assert organisationsnummer_valid("850301-2248") is None  # a personnummer: third digit below 2


def test_the_swedish_pack_declares_its_identifier_schemes():
    ids = load_pack("sv").settings.ids
    assert ids.schemes == ("personnummer", "organisationsnummer", "luhn")
    assert "pnr" in ids.labels["personnummer"] and "org.nr" in ids.labels["organisationsnummer"]


# -- ages ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", KEYS)
def test_ages_keep_their_form_and_move_by_one_scope_shift(key):
    (a, b, c), _ = surrogates(
        "En 52-årig kvinna, 52 år, en 52-åring.", [("52-årig", "AGE"), ("52 år", "AGE"), ("52-åring", "AGE")], key=key
    )
    age = int(a.split("-")[0])
    assert 1 <= abs(age - 52) <= 2
    assert (a, b, c) == (f"{age}-årig", f"{age} år", f"{age}-åring")


# -- health care units -------------------------------------------------------------------------
@pytest.mark.parametrize("unit, allowed", [
    ("Solgårdens äldreboende", {"äldreboendet", "vårdboendet", "servicehuset"}),
    ("akutmottagningen på Danderyd", {"akutmottagningen", "akuten"}),
    ("Vårdcentralen Gripen", {"vårdcentralen", "hälsocentralen", "husläkarmottagningen"}),
    ("geriatriska kliniken", {"geriatriken", "geriatriska avdelningen"}),
    ("BVC", {"barnavårdscentralen"}),
    ("Löwet", {"sjukhuset", "lasarettet", "länssjukhuset"}),
])  # fmt: skip
def test_health_care_units_become_generic_units_of_the_same_type(unit, allowed):
    (new,), _ = surrogates(f"Hon bor permanent på {unit} sedan i fjol.", [(unit, "HEALTHCARE_UNIT")])
    assert new in allowed


def test_two_units_of_one_type_get_different_names():
    (niva, iva), _ = surrogates("till NIVA och sedan IVA", [("NIVA", "HEALTHCARE_UNIT"), ("IVA", "HEALTHCARE_UNIT")])
    assert niva != iva and {niva, iva} <= {"intensivvårdsavdelningen", "intensiven", "IVA"}


# -- professions -------------------------------------------------------------------------------
def test_professions_are_modern_jobtech_titles():
    (new,), _ = surrogates("arbetar som undersköterska", [("undersköterska", "PROFESSION")])
    assert new.islower() and new != "undersköterska"
    assert new in {n.lower() for n in names("professions.tsv")}


# -- dates -----------------------------------------------------------------------------------------
def test_a_swedish_range_moves_as_one_and_a_clock_time_is_no_date():
    text = "Vårdtid 11 mars till 18 mars 2012, sedan 20/3 kl. 10.05."
    for key in KEYS:
        (stay, visit), out = surrogates(text, [("11 mars till 18 mars 2012", "DATE"), ("20/3 kl. 10.05", "DATE")], key=key)
        start, end = stay.split(" till ")
        assert visit.endswith(" kl. 10.05") and visit != "20/3 kl. 10.05"
        months = ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"]
        last = datetime.date(int(end.split()[2]), months.index(end.split()[1]) + 1, int(end.split()[0]))
        start_year = int(start.split()[2]) if len(start.split()) == 3 else last.year  # written when it differs
        first = datetime.date(start_year, months.index(start.split()[1]) + 1, int(start.split()[0]))
        assert (last - first).days == 7 and first.weekday() == datetime.date(2012, 3, 11).weekday()


def test_kept_ages_leave_birth_dates_to_the_date_offset():
    text = "70 år, född 1946-03-03, inlagd 2016-12-12."
    for key in KEYS:
        (age, born, admitted), _ = surrogates(
            text, [("70 år", "AGE"), ("1946-03-03", "DATE"), ("2016-12-12", "DATE")], {"strategies": {"AGE": "keep"}}, key=key
        )
        assert age == "70 år"
        gap = datetime.date.fromisoformat(admitted) - datetime.date.fromisoformat(born)
        assert gap == datetime.date(2016, 12, 12) - datetime.date(1946, 3, 3)


def test_a_childs_age_in_months_is_kept():
    (age,), _ = surrogates("Flicka, 15 månader gammal.", [("15 månader", "AGE")])
    assert age == "15 månader"


@pytest.mark.parametrize("key", KEYS)
def test_a_personnummer_takes_the_sex_of_the_person_named_beside_it(key):
    """One surrogate person: the sex digit agrees with the surrogate name, even where the original's did not."""
    (name, number), _ = surrogates(
        "Vid en kontroll noterades namnet Joel Wiik med personnummer 890101-3344.",
        [("Joel Wiik", "PERSON"), ("890101-3344", "ID")],
        key=key,
    )
    male = lists().gender(name.split()[0]) == "male"
    assert int(number[-2]) % 2 == (1 if male else 0)


@pytest.mark.parametrize("key", KEYS)
def test_keep_none_replaces_the_county_and_the_locality_follows_it(key):
    """The county is kept because `keep` says so, not because of a grouping: with `keep: none`
    it is replaced, and the locality is drawn inside the county that replaces it."""
    (town, county), _ = surrogates(
        "Hon bor i Huddinge, Stockholms län.", [("Huddinge", "PLACE"), ("Stockholms län", "REGION")], {"rules": {"places": {"keep": "none"}}}, key=key
    )
    counties = {p["id"] for p in of_name(county, "county")}
    assert county != "Stockholms län" and counties & county_of(town, "locality"), (town, county)
