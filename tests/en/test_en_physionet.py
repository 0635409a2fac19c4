"""PhysioNet deid records through the physionet tagset: what a reader of ICU nursing notes expects."""

from __future__ import annotations

import regex
from en_helpers import run_many

PHYSIONET = {"tagset": "physionet"}


def test_a_two_digit_year_label_moves_as_a_year():
    text = "PMH: MI '92, CABG 95, CVA 74'. Echo 8/87 and 7/81."
    spans = [("92", "DateYear"), ("95", "DateYear"), ("74", "Date"), ("8/87", "Date"), ("7/81", "Date")]
    for mi, cabg, cva, echo, other in run_many(text, spans, **PHYSIONET):
        years = [int(y) for y in (mi, cabg, cva)]
        assert all(regex.fullmatch(r"\d\d", y) for y in (mi, cabg, cva)), (mi, cabg, cva)
        assert years[1] - years[0] == 3 and 1 <= abs(years[0] - 92) <= 2 and abs(years[2] - 74) == abs(years[0] - 92)
        for written, (month, year) in ((echo, (8, 87)), (other, (7, 81))):
            found = regex.fullmatch(r"(\d{1,2})/(\d\d)", written)  # month/two-digit year, never day/month
            assert found and 1 <= int(found[1]) <= 12, written
            assert 0 < abs(int(found[2]) * 12 + int(found[1]) - (year * 12 + month)) <= 13, written
