"""A tender's awarded value against its own estimated value, in either word order, turned around
when the estimated value is the subject, with a margin ("بأكثر من 30%") read only when it says
"at least"."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.parser.column_comparison import read_column_comparisons
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.arabic.normalize import normalize_arabic


def _read(question: str) -> tuple[str, list[Condition]]:
    return read_column_comparisons(normalize_arabic(question))


@pytest.mark.parametrize(
    ("question", "op", "factor"),
    [
        ("كم مناقصة في جدة قيمة ترسيتها تزيد على قيمتها التقديرية", "column>", 1.0),
        ("عدد المنافسات التي انخفضت قيمة ترسيتها عن التقديرية بأكثر من 30%", "column<", 0.7),
        ("المنافسات اللي ترسيتها فاقت التقديرية بنسبة تزيد عن 5 %", "column>", 1.05),
        # The estimated value as the subject: the comparison is turned around.
        ("كم منافسة قيمتها التقديرية أقل من قيمة الترسية", "column>", 1.0),
        ("وش عدد العقود المرساة بمبلغ دون القيمة التقديرية", "column<", 1.0),
        # No subject after an award verb: the awarded value.
        ("متوسط قيمة الترسية للمنافسات التي رست بأقل من قيمتها التقديرية", "column<", 1.0),
    ],
)
def test_awarded_against_estimated_is_one_condition(question: str, op: str, factor: float) -> None:
    text, conditions = _read(question)
    assert [(c.field, c.op, c.values) for c in conditions] == [("awarded", op, ("value", factor))]
    assert "تقديري" not in text  # the phrase is read whole


@pytest.mark.parametrize(
    "question",
    [
        # A figure, not the other column.
        "كم منافسة قيمة ترسيتها أعلى من مليون",
        # "أعلى قيمة تقديرية": a superlative, no comparison of two columns.
        "ما أعلى قيمة تقديرية لمنافسة في تبوك",
        # One value (its estimated one) against a figure.
        "كم منافسة تتخطى قيمتها التقديرية نصف مليون",
    ],
)
def test_other_phrases_are_left_to_other_passes(question: str) -> None:
    text, conditions = _read(question)
    assert conditions == []
    assert text == normalize_arabic(question)


def test_a_margin_that_may_be_exact_is_left_unread() -> None:
    # "بـ 10%" could be exactly 10%: the comparison is read without it, and the figure is left
    # in the text for the accounting to refuse.
    text, conditions = _read("كم منافسة تجاوزت قيمة ترسيتها القيمة التقديرية بـ 10%")
    assert [c.values for c in conditions] == [("value", 1.0)]
    assert "10%" in text


@pytest.mark.parametrize("question", ["كم منافسة انتهت بدون ترسية", "المنافسات الملغاة من غير ترسيتها في جدة"])
def test_no_award_is_an_empty_awarded_value(question: str) -> None:
    _, conditions = _read(question)
    assert [(c.field, c.op) for c in conditions] == [("awarded", "is_null")]
