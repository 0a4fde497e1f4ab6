"""Figures an insight relates by arithmetic: a part, its whole and its share; a difference and its
two sides; places compared ("الأول ... الثاني"); a rise or fall between its two figures; an exact
figure of an approximation, and a rounding of an exact one."""

from __future__ import annotations

from nabahan_pipeline.evaluation.claims.arithmetic import arithmetic_contradictions
from nabahan_pipeline.evaluation.claims.folding import Folded


def said(insight: str) -> list[str]:
    return [text for _, _, text, _ in arithmetic_contradictions(Folded.of(insight))]


def test_a_part_of_a_whole_is_the_share_the_sentence_says() -> None:
    assert said("ألغيت 1,450 منافسة من أصل 9,800، أي 14.8%.") == []
    assert said("الحصة 14.8% (9,800 من أصل 9,800 منافسة).") == ["9,800 من أصل 9,800"]
    assert said("ارتفع العدد 300 من 2,000 إلى 2,300 (15%).") == []  # a change, not a whole


def test_a_difference_is_the_difference_of_two_figures_before_it() -> None:
    assert said("جدة 1,204 والدمام 860، بفارق 344 منافسة.") == []
    assert said("جدة 1,204 والدمام 860، بفارق 1,204 منافسات.") == ["1,204"]
    # a side said about is as precise as its last digit
    assert said("جدة نحو 1,200 والدمام 860، بفارق 344 منافسة.") == []


def test_places_compared_name_the_figures_said_before_in_order() -> None:
    assert said("حائل 512 وتبوك 430؛ تتفوق الأولى على الثانية. يزيد الأول على الثاني بمقدار 82.") == []
    assert said("حائل 512 وتبوك 430؛ يزيد الثاني على الثاني بمقدار 82.") == ["يزيد الثاني على الثاني"]
    assert said("حائل 512 وتبوك 430؛ يزيد الأول على الثالث بمقدار 82.") == ["يزيد الأول على الثالث"]
    assert said("حائل 512 وتبوك 430، أي أن الأولى أقل من الثانية.") == ["الأولى أقل من الثانية"]


def test_a_rise_or_fall_goes_the_way_its_two_figures_do() -> None:
    assert said("تراجعت المنافسات من 2,870 في 2023 إلى 2,640 في 2024.") == []
    assert said("بلغت 2,640 في 2024 ثم ارتفعت إلى 2,510 في 2025.") == ["ثم ارتفعت إلى 2,510"]


def test_an_exact_figure_and_its_rounding_are_of_one_figure() -> None:
    assert said("قرابة أربعة آلاف منافسة (بالضبط 3,921).") == []
    assert said("قرابة أربعة آلاف منافسة (بالضبط 921).") == ["921"]
    assert said("القيمة 7,306,118,000 ريال (نحو 7.31 مليار ريال).") == []
    assert said("القيمة 7,306,118,000 ريال (نحو 6.1 مليار ريال).") == ["6.1 مليار"]
