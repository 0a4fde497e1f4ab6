"""A duration said in years or months, read in months right after a duration word."""

from __future__ import annotations

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.durations import read_durations


@pytest.mark.parametrize(
    ("text", "op", "months"),
    [
        ("المشاريع التي مدتها سنتين فأكثر", ">=", 24.0),
        ("مشاريع مدة تنفيذها أقل من 6 أشهر", "<", 6.0),
        ("كم مشروع مدته لا تزيد عن ثلاث سنوات", "<=", 36.0),
        ("مشروع مدته عام", "=", 12.0),
        ("المشاريع اللي مدتها أطول من 18 شهرا", ">", 18.0),
        # The verb before the duration word.
        ("كم مشروع تزيد مدته عن سنتين", ">", 24.0),
        ("مشاريع لا تتجاوز مدتها 9 أشهر", "<=", 9.0),
    ],
)
def test_a_duration_is_a_condition_in_months(text: str, op: str, months: float) -> None:
    rest, conditions = read_durations(normalize_arabic(text))
    assert [(c.field, c.op, c.values) for c in conditions] == [("duration", op, (months,))]
    assert not any(w in rest for w in ("سن", "شهر", "عام"))


@pytest.mark.parametrize(
    "text",
    [
        # No duration word: "سنة" is a date.
        "كم مشروع في سنة 2027",
        # Two comparators around one span.
        "مشاريع مدتها أكثر من سنة أو أقل",
    ],
)
def test_other_spans_are_left_alone(text: str) -> None:
    rest, conditions = read_durations(normalize_arabic(text))
    assert conditions == [] and rest == normalize_arabic(text)
