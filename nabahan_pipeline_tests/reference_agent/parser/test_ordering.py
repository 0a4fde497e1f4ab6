"""An order worded as a phrase ("من الأكثر للأقل", "تصاعدياً") orders every group; it never turns
a ranking's highest into its lowest."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


@pytest.mark.parametrize(
    ("question", "group", "order"),
    [
        ("رتب الأنشطة حسب عدد المنافسات من الأقل للأكثر", ("activity",), "asc"),
        ("رتب لي الجهات حسب مجموع القيمة التقديرية تنازليا", ("agency",), "desc"),
        ("رتب المناطق حسب عدد المشاريع المستقبلية بالترتيب التصاعدي", ("region",), "asc"),
    ],
)
def test_an_order_phrase_orders_every_group(agent: ReferenceAgent, question: str, group: tuple, order: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.group_by == group and frame.order == order and frame.limit is None
    answer = agent.ask(question)
    figures = [row[-1] if frame.measure == "count" else row[-2] for row in answer["rows"]]
    assert figures == sorted(figures, reverse=order == "desc")


def test_an_order_phrase_that_agrees_with_a_ranking_is_read(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("أكثر 3 مناطق في عدد المنافسات من الأكثر للأقل")
    assert isinstance(frame, QueryFrame) and frame.ranked and frame.order == "desc" and frame.limit == 3


@pytest.mark.parametrize(
    ("question", "column", "order"),
    [
        ("رتب المنافسات النشطة حسب القيمة التقديرية", "value", "desc"),
        ("رتب المشاريع القادمة حسب المدة من الأقل للأكثر", "duration", "asc"),
        ("اعرض منافسات تبوك مرتبة حسب عدد العروض", "bids", "desc"),
    ],
)
def test_rows_sorted_by_a_column(agent: ReferenceAgent, question: str, column: str, order: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.measure == "rows" and frame.column == column and frame.order == order and frame.limit is None


def test_rows_sorted_by_a_column_their_table_lacks_are_refused(agent: ReferenceAgent) -> None:
    # Future projects have no bids: sorted by date instead would be another question.
    assert agent.ask("رتب المشاريع حسب عدد العروض")["status"] == "out_of_scope"
