"""Scores kept by what they were computed from, so that an answer seen again is scored once: the
console scores each answer's seed verdict as it arrives and case_scores finds it kept; an agent
that answers a repeated question alike (``--repeat``, a suite of near-copies) is scored once per
distinct answer.

An answer is known by a digest of the values its scores read (texts, numbers, None, in order),
never by its case id: two answers with the same values get the same scores, whatever case they
belong to.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

# The kinds of value a key is made of (bytes: another key); any other (a list, a NumPy scalar) is
# not kept.
_PLAIN = (str, bytes, int, float, bool, type(None))


def content_key(values: Iterable[Any]) -> bytes | None:
    """A 16-byte digest that tells these values apart (their kinds, values and order); None when
    one of them is not a text, bytes, a number, a boolean or None (its scores are then not kept)."""
    values = tuple(values)
    if not all(type(value) in _PLAIN for value in values):
        return None
    # repr tells apart what == would not ("1" and 1, 1 and 1.0 and True) and quotes every text.
    return hashlib.blake2b(repr(values).encode("utf-8", "surrogatepass"), digest_size=16).digest()


class KeptScores:
    """At most ``size`` entries, by key; the least recently used goes first. Safe between threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[bytes, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes | None) -> tuple | None:
        """The entry kept under ``key``, or None."""
        if key is None:
            return None
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def put(self, key: bytes | None, value: tuple) -> None:
        """Keep ``value`` under ``key`` (nothing when ``key`` is None)."""
        if key is None:
            return
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
