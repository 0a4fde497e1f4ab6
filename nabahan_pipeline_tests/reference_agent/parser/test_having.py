"""A threshold on each group's count or total (issue 30): the groups named first, then "التي"
and a comparator with a figure, answered with HAVING and the same rows as an analyst's query; a
threshold on each row's value, or a count of the groups, is no HAVING."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.evaluation.execution_match import execution_match, expected_result
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.having import read_threshold

T = "tenders_full_details"


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        (
            "ما الأنشطة التي تتجاوز مجموع قيمها التقديرية 3 مليارات ريال؟",
            f"SELECT activity_name, SUM(estimated_value) FROM {T} GROUP BY activity_id HAVING SUM(estimated_value) > 3000000000",
        ),
        (
            "المناطق اللي فيها أقل من 300 منافسة",
            f"SELECT region_name, COUNT(*) FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id HAVING COUNT(*) < 300",
        ),
        (
            "الجهات اللي طرحت أكثر من 500 منافسة في منطقة الرياض",
            f"SELECT agency_name, COUNT(*) FROM {T} WHERE region_id = 1 GROUP BY agency_id HAVING COUNT(*) > 500",
        ),
        (
            "الوزارات التي طرحت أكثر من 100 منافسة",
            f"SELECT agency_name, COUNT(*) FROM {T} WHERE agency_name LIKE 'وزارة%' GROUP BY agency_id HAVING COUNT(*) > 100",
        ),
        (
            "المناطق التي عدد منافساتها الملغاة أكثر من 300",
            f"SELECT region_name, COUNT(*) FROM {T} WHERE status_id = 5 AND region_id IS NOT NULL GROUP BY region_id HAVING COUNT(*) > 300",
        ),
        (
            # The rows' noun before the comparator: still a count (once read as each row's value > 50).
            "الجهات اللي عندها منافسات ملغاة أكثر من 50",
            f"SELECT agency_name, COUNT(*) FROM {T} WHERE status_id = 5 GROUP BY agency_id HAVING COUNT(*) > 50",
        ),
        (
            "ما المناطق التي يزيد عدد مشاريعها المستقبلية على 200",
            "SELECT region_name, COUNT(*) FROM future_projects WHERE region_id IS NOT NULL GROUP BY region_id HAVING COUNT(*) > 200",
        ),
    ],
)
def test_a_threshold_on_each_group_is_a_having(agent: ReferenceAgent, default_db, question: str, gold: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert " HAVING " in answer["sql"]
    assert execution_match(answer["rows"], expected_result(default_db, gold), gold)


def test_the_insight_says_the_threshold_and_names_the_groups(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    answer = agent.ask("المناطق التي لديها أكثر من 2000 منافسة")
    names = [r[0] for r in db.execute(f"SELECT region_name FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id HAVING COUNT(*) > 2000")]
    assert len(names) == 3
    assert "أكثر من 2,000" in answer["insights"] and "أخرى" not in answer["insights"]
    assert all(name in answer["insights"] for name in names)


def test_no_group_passing_says_so(agent: ReferenceAgent) -> None:
    answer = agent.ask("الأنشطة التي يتجاوز عدد منافساتها 90000")
    assert answer["status"] == "success" and answer["rows"] == []
    assert answer["insights"].startswith("لم أجد") and "90,000" in answer["insights"]


@pytest.mark.parametrize(
    "question",
    [
        "اعرض أنواع المنافسات التي قيمتها فوق مليون",  # each tender's value
        "كم جهة طرحت أكثر من 100 منافسة",  # a count of the groups
        "المناطق التي في شمال المملكة",  # no threshold
    ],
)
def test_what_is_no_threshold_on_a_group_is_not_read_as_one(agent: ReferenceAgent, question: str) -> None:
    answer = agent.ask(question)
    assert "HAVING" not in (answer["sql"] or "")


def test_the_threshold_is_read_with_its_scale() -> None:
    threshold = read_threshold("المناطق التي يتجاوز اجمالي القيمه التقديريه لمنافساتها 2.5 مليار ريال")
    assert threshold is not None and not threshold.counted
    assert threshold.having.op == ">" and threshold.having.values == (2.5e9,)
    assert threshold.dimension == "region" and threshold.question.endswith("حسب المنطقه")


@pytest.mark.parametrize(
    ("text", "op", "value", "counted"),
    [
        ("المناطق اللي مجموع قيم منافساتها اكثر من خمسه مليارات", ">", 5e9, False),
        ("اي المناطق متوسط قيمه المنافسات فيها اكثر من مليوني ريال", ">", 2e6, False),
        ("ما انواع المنافسات التي طرح منها اكثر من الفين منافسه", ">", 2e3, True),
    ],
)
def test_a_threshold_in_words_or_the_dual_and_after_which(text: str, op: str, value: float, counted: bool) -> None:
    threshold = read_threshold(text)
    assert threshold is not None and threshold.counted == counted
    assert threshold.having.op == op and threshold.having.values == (value,)


def test_a_small_number_word_alone_is_no_threshold() -> None:
    assert read_threshold("المناطق التي فيها اكثر من خمس") is None
