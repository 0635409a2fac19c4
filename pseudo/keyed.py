"""Keyed, stateless randomness: every choice is an HMAC-SHA256 of the key and what it is about.

Two runs, processes or machines with the same key and input make the same choices; nothing
depends on Python's `random` module, the clock or the order in which documents are read.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from bisect import bisect_right
from functools import lru_cache
from typing import Sequence, TypeVar

T = TypeVar("T")

_SEPARATOR = b"\x1f"


class KeyedStream:
    """An endless byte stream in counter mode, drawn from one HMAC derivation."""

    __slots__ = ("_keyed", "_seed", "_counter", "_buffer")

    def __init__(self, keyed: "hmac.HMAC", seed: bytes):
        self._keyed = keyed  # HMAC state after the key: copied per block, never rehashing the key
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._keyed.copy()
            block.update(self._seed + self._counter.to_bytes(8, "big"))
            self._buffer += block.digest()
            self._counter += 1
        taken, self._buffer = self._buffer[:n], self._buffer[n:]
        return taken

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = int.from_bytes(self._take(8), "big")
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted_index(self, cumulative: Sequence[int]) -> int:
        """An index drawn in proportion to integer weights given as running totals."""
        return bisect_right(cumulative, self.below(cumulative[-1]))

    def digit(self, exclude: str = "") -> str:
        return self.choice(_digits_without(exclude))


@lru_cache(maxsize=64)
def _digits_without(exclude: str) -> str:
    return "".join(d for d in "0123456789" if d not in exclude)


class Keyring:
    """Derives streams from the secret key; `reroll` gives another, equally reproducible draw."""

    def __init__(self, key: bytes, reroll: int | None = None):
        if not key:
            raise ValueError("the key is empty")
        if reroll is not None:
            key = hmac.new(key, b"pseudo-reroll" + _SEPARATOR + str(reroll).encode(), hashlib.sha256).digest()
        self._key = key
        self._keyed = hmac.new(key, digestmod=hashlib.sha256)

    def __reduce__(self):  # an HMAC object does not pickle; worker processes rebuild it from the key
        return (Keyring, (self._key,))

    @classmethod
    def fresh(cls) -> "Keyring":
        return cls(secrets.token_bytes(32))

    def stream(self, *parts: str | int) -> KeyedStream:
        seed = _SEPARATOR.join(str(part).encode("utf-8") for part in parts) + _SEPARATOR
        return KeyedStream(self._keyed, seed)
