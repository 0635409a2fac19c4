from collections import Counter

import pytest

from pseudo.keyed import Keyring


def test_same_key_and_parts_give_the_same_draws():
    a = Keyring(b"secret").stream("scope", "rule", "Anna")
    b = Keyring(b"secret").stream("scope", "rule", "Anna")
    assert [a.below(1000) for _ in range(20)] == [b.below(1000) for _ in range(20)]


@pytest.mark.parametrize(
    "other",
    [
        Keyring(b"other").stream("scope", "rule", "Anna"),
        Keyring(b"secret").stream("scope2", "rule", "Anna"),
        Keyring(b"secret").stream("scope", "rule", "Anne"),
        Keyring(b"secret", reroll=1).stream("scope", "rule", "Anna"),
    ],
)
def test_key_scope_value_and_reroll_each_change_the_draws(other):
    base = Keyring(b"secret").stream("scope", "rule", "Anna")
    assert [base.below(10**9) for _ in range(4)] != [other.below(10**9) for _ in range(4)]


def test_parts_are_separated_so_concatenations_do_not_collide():
    a = Keyring(b"k").stream("ab", "c")
    b = Keyring(b"k").stream("a", "bc")
    assert a.below(10**12) != b.below(10**12)


def test_below_stays_in_range_and_covers_it():
    stream = Keyring(b"k").stream("x")
    counts = Counter(stream.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_weighted_index_follows_the_weights():
    stream = Keyring(b"k").stream("w")
    counts = Counter(stream.weighted_index((1, 101)) for _ in range(5000))
    assert counts[1] > 40 * counts[0]


def test_empty_key_is_refused():
    with pytest.raises(ValueError):
        Keyring(b"")
