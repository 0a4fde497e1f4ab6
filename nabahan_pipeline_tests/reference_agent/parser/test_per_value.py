"""Questions asked of each of several values, or comparing two years, are grouped by that field:
one figure per value rather than one total over them; a comparison with nothing side by side is
refused rather than answered with one figure."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser, Refusal


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


@pytest.mark.parametrize(
    ("question", "group"),
    [
        ("كم منافسة نشطة وكم منافسة ملغاة؟", ("status",)),
        ("عدد المنافسات الملغاة كم، وعدد النشطة كم؟", ("status",)),
        ("كم عدد المنافسات في الرياض وكم في جدة؟", ("region",)),
    ],
)
def test_two_questions_in_one_are_answered_each_never_summed(agent: ReferenceAgent, question: str, group: tuple) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame) and frame.group_by == group
    answer = agent.ask(question)
    assert answer["status"] == "success" and len(answer["rows"]) == 2


@pytest.mark.parametrize(
    "question", ["كم منافسة في الرياض وكم قيمتها؟", "كم منافسة في الرياض، وما متوسط قيمتها؟"]
)
def test_two_questions_of_different_figures_are_refused_with_the_reason(agent: ReferenceAgent, question: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, Refusal) and frame.reason == "two_questions"
    assert "سؤالان" in agent.ask(question)["insights"]


def test_a_difference_and_a_negated_conjunct_are_no_second_question(agent: ReferenceAgent) -> None:
    assert isinstance(agent.parser.parse("كم الفرق بين عدد المنافسات المرساة وعدد الملغاة؟"), QueryFrame)
    frame = agent.parser.parse("كم منافسة محدودة وما هي منتهية")
    assert not (isinstance(frame, Refusal) and frame.reason == "two_questions")


def test_two_years_asked_each_are_one_figure_per_year(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("كم منافسة طرحت في 2023 وكم في 2024؟")
    assert isinstance(frame, QueryFrame) and frame.group_by == ("year",)
    assert [c.values for c in frame.conditions if c.field == "date"] == [(2023, 2024)]
