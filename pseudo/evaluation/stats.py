"""Small exact statistics for judgment studies: no dependency beyond the standard library."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for k successes in n trials; stays inside [0, 1] for small n."""
    if n == 0:
        return None
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def binomial_test(k: int, n: int, p: Fraction = Fraction(1, 2)) -> float | None:
    """Two-sided exact binomial test: the chance, under success rate p, of an outcome no more
    likely than k of n. Computed in integers, so it holds for any n without underflow."""
    if n == 0:
        return None
    a, b = p.numerator, p.denominator
    weights = [math.comb(n, i) * a**i * (b - a) ** (n - i) for i in range(n + 1)]
    observed = weights[k]
    tail = sum(w for w in weights if w <= observed)
    return min(1.0, float(Fraction(tail, b**n)))


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> float | None:
    """Agreement of two raters on the same items beyond what their own answer rates predict."""
    if len(first) != len(second):
        raise ValueError("two raters must rate the same items")
    n = len(first)
    if n == 0:
        return None
    observed = sum(a == b for a, b in zip(first, second)) / n
    expected = sum(first.count(c) * second.count(c) for c in set(first) | set(second)) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> float | None:
    """Agreement of a fixed number of raters per item; counts[i][j] raters put item i in category j."""
    if not counts:
        return None
    raters = sum(counts[0])
    if raters < 2 or any(sum(row) != raters for row in counts):
        raise ValueError("every item needs the same number of raters, at least two")
    items = len(counts)
    agreement = sum((sum(c * c for c in row) - raters) / (raters * (raters - 1)) for row in counts) / items
    shares = [sum(row[j] for row in counts) / (items * raters) for j in range(len(counts[0]))]
    expected = sum(s * s for s in shares)
    if expected == 1:
        return None
    return (agreement - expected) / (1 - expected)
