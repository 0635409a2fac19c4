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
    """An endless byte stream in counter mode: block i is HMAC-SHA256(key, seed + i)."""

    __slots__ = ("_key", "_seed", "_counter", "_buffer", "_offset")

    def __init__(self, key: bytes, seed: bytes):
        self._key = key
        self._seed = seed
        self._counter = 0
        self._buffer = b""
        self._offset = 0  # bytes of the buffer already taken

    def _take(self, n: int) -> bytes:
        end = self._offset + n
        while len(self._buffer) < end:  # one-shot HMACs: no HMAC object per block
            block = hmac.digest(self._key, self._seed + self._counter.to_bytes(8, "big"), "sha256")
            self._buffer, end, self._offset = self._buffer[self._offset :] + block, end - self._offset, 0
            self._counter += 1
        taken, self._offset = self._buffer[self._offset : end], end
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

    @classmethod
    def fresh(cls) -> "Keyring":
        return cls(secrets.token_bytes(32))

    def stream(self, *parts: str | int) -> KeyedStream:
        seed = ("\x1f".join(map(str, parts)) + "\x1f").encode("utf-8")  # the parts, each ended by _SEPARATOR
        return KeyedStream(self._key, seed)
