"""The answers to date questions state no number the question or the rows do not: a Hijri month,
a relative period or a part of a period is worded as the question said it, never with the
Gregorian days it was read as (the evaluation's grounding check would call those made up)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from nabahan_pipeline.evaluation.grounding import ungrounded_numbers
from nabahan_pipeline.reference_agent.agent import ReferenceAgent


@pytest.fixture(scope="module")
def agent(small_db: Path) -> Iterator[ReferenceAgent]:
    agent = ReferenceAgent(small_db)
    yield agent
    agent.close()


@pytest.mark.parametrize(
    "question",
    [
        "كم مناقصة طرحت في شوال 1446هـ؟",
        "كم مناقصة في رمضان الماضي",
        "عدد المناقصات منذ بداية محرم 1446",
        "كم مناقصة في الأشهر الأربعة الأولى من 2024",
        "كم مناقصة في الأسبوع الثاني من الشهر الماضي",
        "كم مناقصة في الربع الرابع من السنة الماضية",
        "كم مناقصة طرحت في أغسطس الماضي",
        "كم مناقصة من 2023 لين الحين",
        "كم مناقصة طرحت أمس",
        "كم مناقصة بعد 3 مارس 2024",
        "كم مناقصة لم ينته موعد تقديم عروضها بعد",
        "ما أقرب موعد نهائي لتقديم العروض؟",
        "كم مشروع مستقبلي خلال السنوات الثلاث القادمة",
        "كم مشروع مستقبلي خلال 18 شهر قادمة",
        "كم مناقصة تغلق خلال الأسبوع القادم",
        "كم مناقصة في السنة الهجرية الحالية",
        "كم مناقصة في النصف الثاني من العام الحالي",
    ],
)
def test_date_answers_state_only_grounded_numbers(agent: ReferenceAgent, question: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert ungrounded_numbers(answer["insights"], answer["data"], question) == [], answer["insights"]


def test_tenders_ranked_by_a_deadline_are_listed_with_it(agent: ReferenceAgent) -> None:
    answer = agent.ask("أقرب 3 مناقصات ينتهي موعد تقديم عروضها")
    assert answer["status"] == "success"
    deadlines = [row["last_offer_date"] for row in answer["data"]]
    assert deadlines == sorted(deadlines) and len(deadlines) == 3
    assert answer["insights"].startswith("أقرب 3 مناقصات")
    assert all(day in answer["insights"] for day in deadlines)
