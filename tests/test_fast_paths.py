"""The fast paths give exactly what their plain definitions give (they are there for speed only,
and the output must not move by a byte)."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import pickle
import random
import unicodedata

import pytest
from rapidfuzz import fuzz, process, utils

from pseudo.casing import casing_of
from pseudo.digits import digits_of
from pseudo.folds import ACCENTS, loose, strip_accents
from pseudo.keyed import Keyring
from pseudo.lists.fuzzy import _nearest
from pseudo.lists.pack import _dict_rows, _name_counts
from pseudo.lists.weighted import WeightedList
from pseudo.rules.contacts import _align, _most_aligned

TABLES = [
    "name\tcount\nAna\t3\n\nBea\nCarmen\t2\textra\tmore\n",
    "name\tcount\r\nAna\t3\r\nBea\t\r\n",
    'name\tcount\n"Ana\t1\nB"e"a\t0\n',
    "name\n",
    "",
]


@pytest.mark.parametrize("text", TABLES)
def test_rows_are_those_of_csv_dictreader(text):
    expected = tuple(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))
    rows = _dict_rows(text)
    assert rows == expected
    assert [list(row) for row in rows] == [list(row) for row in expected]  # the same key order


@pytest.mark.parametrize("text", TABLES[1:4] + ["x\tname\n1\tA\n2\tB\n"])
def test_name_and_count_columns_are_those_of_the_rows(text):
    rows = _dict_rows(text)
    assert _name_counts(text) == (tuple(r["name"] for r in rows), tuple(int(r.get("count") or 1) for r in rows))


@pytest.mark.parametrize("text", [TABLES[0], "name\tname\nA\tB\n", "", "word\nA\n"])
def test_a_table_with_broken_rows_or_without_one_name_column_is_left_to_the_rows(text):
    assert _name_counts(text) is None


def _plain_loose(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in ACCENTS))


SAMPLES = ["", "Garcia", "García", "GARCÍA", "Ñúñez", "Åsa", "Straße", "\u212a", "e\u0301", "İstanbul", "ǅemal", "São Tomé", "Müller-Lüdenscheidt"]


@pytest.mark.parametrize("text", SAMPLES)
def test_loose_and_strip_accents_keep_their_definitions(text):
    assert loose(text) == _plain_loose(text)
    assert strip_accents(text) == unicodedata.normalize(
        "NFC", "".join(c for c in unicodedata.normalize("NFD", text) if c not in ACCENTS)
    )


def test_digits_are_the_decimal_digits_of_any_script():
    text = "Tel 91-555 ٣٤٥ ۶ ४२ x² ½ ⑤ 𝟗"
    assert digits_of(text) == "".join(c for c in text if c.isdecimal())


def _letter_casing(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "other"
    if len(letters) > 1 and all(c.isupper() for c in letters if c.isupper() or c.islower()) and any(c.isupper() for c in letters):
        return "upper"
    if all(not c.isupper() for c in letters):
        return "lower"
    return "title" if letters[0].isupper() else "other"


def test_casing_of_ascii_text_is_read_as_letter_by_letter():
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice("aBc Z1.-'") for _ in range(rng.randint(0, 6)))
        assert casing_of(text) == _letter_casing(text), text


def test_a_keyed_stream_is_hmac_sha256_of_the_seed_and_a_block_counter():
    keyring = pickle.loads(pickle.dumps(Keyring(b"k" * 20, reroll=3)))
    key = hmac.new(b"k" * 20, b"pseudo-reroll\x1f3", hashlib.sha256).digest()
    seed = "document:d\x1fnames\x1fé\x1f7\x1f".encode()
    blocks = b"".join(hmac.new(key, seed + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(3))
    stream = keyring.stream("document:d", "names", "é", 7)
    assert stream._take(5) + stream._take(40) + stream._take(0) + stream._take(51) == blocks


def test_the_spell_checked_lookup_finds_what_a_search_of_the_whole_list_finds():
    rng = random.Random(3)
    words = sorted({"".join(rng.choice("aeilnorst") for _ in range(rng.randint(1, 12))) for _ in range(3000)})
    weighted = WeightedList(tuple(words), tuple(rng.randint(1, 50) for _ in words))
    for _ in range(300):
        query = utils.default_process(rng.choice(words)[: rng.randint(1, 12)] + rng.choice(["", "a", "st"]))
        for cutoff in (0, 60, 85, 88.5, 100):
            whole = process.extract(query, weighted.processed, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=5)
            assert _nearest(weighted, query, cutoff) == tuple((weighted.items[i], score) for _, score, i in whole)


def test_no_alignment_of_a_local_part_covers_more_letters_than_its_bound():
    rng = random.Random(5)
    for _ in range(2000):
        tokens = ["".join(rng.choice("abelmnor") for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 4))]
        letters = "".join(t[: rng.randint(0, len(t))] for t in rng.sample(tokens, len(tokens))) + rng.choice(["", "x", "ab"])
        matched = sum(end - start for start, end, index in _align(letters, tuple(tokens)) if index is not None)
        assert matched <= _most_aligned(letters, tokens)


def test_heaviest_first_is_by_weight_then_name():
    weights = {"b": 2, "a": 2, "c": 5, "d": 0, "e": -1}
    ordered = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
    listed = WeightedList.heaviest_first(weights)
    assert listed == WeightedList(tuple(n for n, _ in ordered), tuple(w for _, w in ordered))
    assert listed.cumulative == (5, 7, 9, 10, 11)  # a weight below 1 counts as 1


def test_items_starting_with_a_word_are_those_a_scan_finds():
    units = WeightedList(("Hospital Sur", "hospital norte", "Hospitalet", "Centro de Salud"), (3, 2, 9, 1))
    assert units.starting("HOSPITAL") == WeightedList(("Hospital Sur", "hospital norte"), (3, 2))
    assert units.starting("Clínica") == WeightedList((), ())


def test_places_of_a_tree_come_as_new_lists_each_time():
    from pseudo.lists.tree import LocationTree, Place

    tree = LocationTree([Place("c", None, "country", "C"), Place("t2", "c", "town", "B"), Place("t1", "c", "town", "A")])
    first = tree.descendants(tree.places["c"], "town")
    first.clear()
    assert [p.id for p in tree.descendants(tree.places["c"], "town")] == ["t1", "t2"]
    towns = tree.of_kind("town")
    towns.append(tree.places["c"])
    assert [p.id for p in tree.of_kind("town")] == ["t1", "t2"]
