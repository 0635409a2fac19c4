"""The statistics against published worked examples."""

from fractions import Fraction

import pytest

from pseudo.evaluation.stats import binomial_test, cohen_kappa, fleiss_kappa, wilson


@pytest.mark.parametrize(
    "k, n, low, high",
    [  # Newcombe (1998), Statistics in Medicine 17:857-872, its example intervals for method 3 (score, no continuity correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0000),
    ],
)
def test_wilson_matches_newcombe(k, n, low, high):
    interval = wilson(k, n)
    assert interval == pytest.approx((low, high), abs=5e-5)


def test_wilson_of_nothing_is_none():
    assert wilson(0, 0) is None


def test_binomial_two_sided_exact():
    # 7 of 10 under p = 1/2: 2 * (120 + 45 + 10 + 1) / 1024
    assert binomial_test(7, 10) == pytest.approx(352 / 1024)
    assert binomial_test(5, 10) == 1.0
    assert binomial_test(0, 10) == pytest.approx(2 / 1024)
    # an asymmetric null: outcomes of 2 trials at p = 1/4 weigh 9, 6, 1 (sixteenths)
    assert binomial_test(2, 2, Fraction(1, 4)) == pytest.approx(1 / 16)
    assert binomial_test(1, 2, Fraction(1, 4)) == pytest.approx(7 / 16)
    assert binomial_test(0, 0) is None
    assert 0 < binomial_test(900, 1500) < 1e-12  # integers: no underflow for large n


def test_cohen_kappa_worked_example():
    # Wikipedia, "Cohen's kappa", worked example: 50 grant proposals, both yes 20, A yes / B no 5,
    # A no / B yes 10, both no 15: p_o = 0.7, p_e = 0.5, kappa = 0.4.
    a = ["yes"] * 20 + ["yes"] * 5 + ["no"] * 10 + ["no"] * 15
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_cohen_kappa_undefined_when_both_always_give_one_answer():
    assert cohen_kappa(["real"] * 3, ["real"] * 3) is None
    assert cohen_kappa([], []) is None


def test_fleiss_kappa_worked_example():
    # Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories, kappa = 0.210.
    table = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]  # fmt: skip
    assert fleiss_kappa(table) == pytest.approx(0.20993, abs=1e-5)


def test_fleiss_kappa_needs_equal_raters():
    with pytest.raises(ValueError):
        fleiss_kappa([[1, 2], [2, 2]])
