"""Questions asked of each of several values, or comparing two years, are grouped by that field:
one figure per value rather than one total over them; a comparison with nothing side by side is
refused rather than answered with one figure."""

from __future__ import annotations

import pytest
import sqlite3

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


# --- difference -----------------------------------------------------------------------------------
# The difference between two figures: two places, statuses, periods or types, or the estimated and
# the awarded value, each side measured and the second subtracted from the first; a difference with
# no two sides to it is refused.

T = "tenders_full_details"


def _one(db: sqlite3.Connection, sql: str) -> float:
    return db.execute(sql).fetchone()[0]


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        # Two places, "الفرق في عدد ... بين".
        (
            "ما الفرق في عدد المناقصات بين منطقة القصيم ومنطقة حائل؟",
            f"SELECT COUNT(*) FROM {T} WHERE region_id = 4",
            f"SELECT COUNT(*) FROM {T} WHERE region_id = 8",
        ),
        # Two statuses with "بكم تزيد ... على".
        (
            "بكم تزيد المناقصات الملغاة على المنتهية؟",
            f"SELECT COUNT(*) FROM {T} WHERE status_id = 5",
            f"SELECT COUNT(*) FROM {T} WHERE status_id = 6",
        ),
        # "قلت": the second side is the larger, so it comes first.
        (
            "كم قلت منافسات 2023 عن منافسات 2024؟",
            f"SELECT COUNT(*) FROM {T} WHERE publish_date >= '2024-01-01' AND publish_date < '2025-01-01'",
            f"SELECT COUNT(*) FROM {T} WHERE publish_date >= '2023-01-01' AND publish_date < '2024-01-01'",
        ),
        # Totals of two types, with a shared place.
        (
            "الفرق بين مجموع القيمة التقديرية للمنافسات المحدودة ومجموعها للمنافسات العامة في الشرقية",
            f"SELECT SUM(estimated_value) FROM {T} WHERE tender_type_id = 4 AND region_id = 5",
            f"SELECT SUM(estimated_value) FROM {T} WHERE tender_type_id = 1 AND region_id = 5",
        ),
        # Two names, each its own condition, in the question's order (a whole name is that agency
        # alone, not also the one whose longer name holds it).
        (
            "كم الفرق بين عدد منافسات وزارة الصحة وجامعة الملك سعود؟",
            f"SELECT COUNT(*) FROM {T} WHERE agency_name LIKE 'وزارة الصحة%'",
            f"SELECT COUNT(*) FROM {T} WHERE agency_id = 91",
        ),
        # A value named with no measure is a total; "متوسطها" an average.
        (
            "ما الفرق بين قيمة ترسية منافسات الرياض وجدة",
            f"SELECT SUM(awarded_value) FROM {T} WHERE region_id = 1",
            f"SELECT SUM(awarded_value) FROM {T} WHERE region_id = 2",
        ),
        (
            "كم يزيد متوسط قيمة المنافسات في الشرقية عن متوسطها في عسير",
            f"SELECT AVG(estimated_value) FROM {T} WHERE region_id = 5",
            f"SELECT AVG(estimated_value) FROM {T} WHERE region_id = 6",
        ),
        # "عدد العروض" is the bids column: its totals.
        (
            "كم يزيد عدد العروض في الرياض عن جدة",
            f"SELECT SUM(bids_count) FROM {T} WHERE region_id = 1",
            f"SELECT SUM(bids_count) FROM {T} WHERE region_id = 2",
        ),
        # The estimated against the awarded value: of the tenders awarded, even unsaid.
        (
            "كم الفرق بين القيمة التقديرية وقيمة الترسية في 2023",
            f"SELECT SUM(estimated_value) FROM {T} WHERE awarded_value IS NOT NULL AND publish_date LIKE '2023%'",
            f"SELECT SUM(awarded_value) FROM {T} WHERE publish_date LIKE '2023%'",
        ),
        # Two columns of the same rows.
        (
            "كم الفرق بين مجموع القيمة التقديرية ومجموع قيمة الترسية لمنافسات الرياض المرساة؟",
            f"SELECT SUM(estimated_value) FROM {T} WHERE region_id = 1 AND status_id = 4",
            f"SELECT SUM(awarded_value) FROM {T} WHERE region_id = 1 AND status_id = 4",
        ),
    ],
)
def test_a_difference_is_both_figures_and_the_first_less_the_second(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str, first: str, second: str
) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    row = answer["data"][0]
    a, b = _one(db, first), _one(db, second)
    assert row["first_value"] == pytest.approx(a, rel=1e-12)
    assert row["second_value"] == pytest.approx(b, rel=1e-12)
    assert row["difference"] == pytest.approx(a - b, rel=1e-12)
    # The answer states both figures and the difference.
    insight = answer["insights"]
    for value in (a, b, abs(a - b)):
        assert f"{value:,.0f}" in insight or f"{value:,.2f}" in insight, (value, insight)


def test_savings_are_the_estimated_less_the_awarded_as_a_share_of_the_estimated(
    agent: ReferenceAgent, db: sqlite3.Connection
) -> None:
    answer = agent.ask("كم نسبة التوفير في منافسات 2025؟")
    assert answer["status"] == "success", answer["insights"]
    row = answer["data"][0]
    where = "WHERE awarded_value IS NOT NULL AND publish_date >= '2025-01-01' AND publish_date < '2026-01-01'"
    estimated = _one(db, f"SELECT SUM(estimated_value) FROM {T} {where}")
    awarded = _one(db, f"SELECT SUM(awarded_value) FROM {T} {where}")
    assert row["difference_pct"] == pytest.approx(100.0 * (estimated - awarded) / estimated, rel=1e-9)
    assert f"{row['difference_pct']:.1f}%" in answer["insights"]


def test_two_years_listed_are_the_two_sides_alone(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("هل يوجد فرق بين عدد منافسات 2023 و2026")
    assert isinstance(frame, QueryFrame) and frame.conditions == ()
    assert [side.conditions[0].values for side in frame.sides] == [(2023,), (2026,)]


def test_a_savings_rate_is_a_share_of_the_estimated(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("ما معدل التوفير في منافسات الرياض المرساة")
    assert isinstance(frame, QueryFrame) and frame.relative and frame.measure == "sum"


def test_a_comparison_of_the_two_values_is_a_difference_too(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("قارن بين متوسط القيمة التقديرية ومتوسط قيمة الترسية للمناقصات المرساة في جدة")
    assert isinstance(frame, QueryFrame) and frame.measure == "avg"
    assert [side.column for side in frame.sides] == ["value", "awarded"]


@pytest.mark.parametrize(
    "question",
    [
        # One side only.
        "كم الفرق في المنافسات بمنطقة الرياض؟",
        # Two ways to split: the places or the years.
        "الفرق بين منافسات الرياض وجدة في 2024 و2025",
        # A difference of rows listed makes no figure to subtract.
        "ما الفرق بين الجهات في الرياض وحائل",
    ],
)
def test_a_difference_without_two_sides_is_refused(agent: ReferenceAgent, question: str) -> None:
    parse = agent.parser.read(question)
    assert isinstance(parse.frame, Refusal)
    assert agent.ask(question)["status"] == "out_of_scope"
