"""The difference between two figures: two places, statuses, periods or types, or the estimated
and the awarded value, each side measured and the second subtracted from the first; a difference
with no two sides to it is refused."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame, Refusal

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
