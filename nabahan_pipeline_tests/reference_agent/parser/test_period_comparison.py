"""Years compared are grouped by year over the years named; a comparison with nothing side by
side is refused rather than answered with one figure."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


@pytest.mark.parametrize(
    ("question", "years", "measure"),
    [
        ("قارن متوسط قيمة المنافسات بين 2023 و2024", (2023, 2024), "avg"),
        ("مقارنة عدد منافسات جدة في 2022 وفي 2026", (2022, 2026), "count"),
        ("قارن مجموع قيم الترسية في الأعوام 2023 و2024 و2025", (2023, 2024, 2025), "sum"),
    ],
)
def test_years_compared_are_grouped_by_year(agent: ReferenceAgent, question: str, years: tuple, measure: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.group_by == ("year",) and frame.measure == measure
    assert [c.values for c in frame.conditions if c.field == "date"] == [years]
    answer = agent.ask(question)
    assert [row["year"] for row in answer["data"]] == [str(y) for y in years]


@pytest.mark.parametrize("question", ["قارن عدد المنافسات في تبوك", "قارن قيمة المنافسات الملغاة"])
def test_a_comparison_of_nothing_side_by_side_is_refused(agent: ReferenceAgent, question: str) -> None:
    assert agent.ask(question)["status"] == "out_of_scope"


def test_which_of_two_agencies_has_more(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("أيهما طرح منافسات أكثر: وزارة المالية أو وزارة العدل؟")
    assert isinstance(frame, QueryFrame) and frame.group_by == ("agency",) and frame.limit == 1
