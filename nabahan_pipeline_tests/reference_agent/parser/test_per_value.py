"""Questions asked of each of several values, or comparing two years, are grouped by that field:
one figure per value rather than one total over them."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser


def _frame(parser: QuestionParser, question: str) -> QueryFrame:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), (question, frame)
    return frame


@pytest.mark.parametrize(
    ("question", "group", "measure"),
    [
        ("قارن بين عدد المناقصات في 2022 و2023", ("year",), "count"),
        ("قارن متوسط القيمة التقديرية بين 2023 و 2024", ("year",), "avg"),
        ("إجمالي قيم المناقصات في كل من 2022 و2024", ("year",), "sum"),
        ("كم مناقصة نشطة في كل من الشرقية والقصيم؟", ("region",), "count"),
    ],
)
def test_each_of_several_values_is_a_group(parser: QuestionParser, question: str, group: tuple, measure: str) -> None:
    frame = _frame(parser, question)
    assert frame.group_by == group
    assert frame.measure == measure


def test_compared_years_are_the_two_years_not_the_span(parser: QuestionParser) -> None:
    frame = _frame(parser, "قارن عدد المناقصات بين 2022 و 2024")
    assert [(c.op, c.values) for c in frame.conditions if c.field == "date"] == [("year_in", (2022, 2024))]


@pytest.mark.parametrize(
    "question",
    ["كم مناقصة بين 2022 و 2024", "كم مناقصة في 2023 و2024", "كم مناقصة في الرياض وجدة"],
)
def test_without_each_or_a_comparison_it_is_one_total(parser: QuestionParser, question: str) -> None:
    frame = _frame(parser, question)
    assert frame.group_by == () and frame.measure == "count"
