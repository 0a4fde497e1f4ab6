"""One-letter slips: each of Damerau's four edits is one edit; two edits, or none, are not."""

from __future__ import annotations

import pytest

from nabahan_pipeline.arabic.spelling import one_edit_apart


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("المنافسسات", "المنافسات"),  # a letter inserted
        ("المشرعات", "المشروعات"),  # a letter left out
        ("الجوق", "الجوف"),  # a letter replaced
        ("التريسه", "الترسيه"),  # two neighbours swapped
        ("ابكت", "ابتك"),  # swapped at the end
    ],
)
def test_each_of_the_four_edits_is_one_edit(typed: str, meant: str) -> None:
    assert one_edit_apart(typed, meant) and one_edit_apart(meant, typed)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("المنافسات", "المنافسات"),  # no edit
        ("المنفسسات", "المنافسات"),  # two
        ("تبوك", "تبوكات"),  # two letters more
        ("الرياض", "الضايرل"),
        ("سعر", "عرس"),  # letters swapped that are not neighbours
    ],
)
def test_none_or_two_edits_is_not_one(a: str, b: str) -> None:
    assert not one_edit_apart(a, b)
