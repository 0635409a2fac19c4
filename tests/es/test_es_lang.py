"""pseudo.lang.es: Spanish numbers in words, read and written."""

import pytest

from pseudo.lang.es import read_numbers, write_number


@pytest.mark.parametrize(
    "text, values",
    [("sesenta y tres años", [63]), ("un año y cinco meses", [1, 5]), ("veintiún días", [21]),
     ("ciento dos", [102]), ("diecisiete años", [17]), ("sin números", [])],
)  # fmt: skip
def test_read_numbers(text, values):
    assert [value for _, _, value in read_numbers(text)] == values


def test_read_numbers_gives_the_span_of_each_number():
    text = "tres años y diez meses"
    assert [text[s:e] for s, e, _ in read_numbers(text)] == ["tres", "diez"]


@pytest.mark.parametrize("value, words", [(1, "un"), (16, "dieciséis"), (21, "veintiún"), (31, "treinta y un"),
                                          (70, "setenta"), (100, "cien"), (104, "ciento cuatro")])  # fmt: skip
def test_write_number(value, words):
    assert write_number(value) == words


def test_reading_what_was_written_gives_the_value_back():
    assert all(read_numbers(write_number(v))[0][2] == v for v in range(0, 200))
