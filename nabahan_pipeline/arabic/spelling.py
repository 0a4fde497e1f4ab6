"""One-letter slips between two normalized words: an insertion, a deletion, a substitution or a
transposition of two neighbouring letters (Damerau's four edits), for reading a typed word as
the one word of a vocabulary it was meant to be."""

from __future__ import annotations


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with exactly one letter inserted, deleted, replaced, or two
    neighbouring letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    if a[i + 1 :] == b[i + 1 :]:
        return True
    return i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
