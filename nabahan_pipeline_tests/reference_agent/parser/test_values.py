"""Figures in a question: comparators, thresholds, ranges, the column a figure is about,
reference numbers and the N of a top-N."""

from __future__ import annotations

import pytest
import re
import sqlite3

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.evaluation.execution_match import execution_match, expected_result
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.values import read_column_comparisons
from nabahan_pipeline.reference_agent.parser.values import read_durations
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.values import read_threshold
from nabahan_pipeline.reference_agent.parser.values import (
    Comparison, comparator_before, read_ordinal, read_top_n, read_values, value_field,
)


@pytest.mark.parametrize(
    ("before", "op"),
    [
        ("اكثر من ", ">"),
        ("اعلي من ", ">"),
        ("تتجاوز ", ">"),
        ("فوق ", ">"),
        ("اقل من ", "<"),
        ("دون ", "<"),
        ("لا تقل عن ", ">="),
        ("لا تتجاوز ", "<="),
        ("تساوي ", "="),
        ("اكثر من ريال ", ">"),  # a currency word before the number is read past
        ("قيمتها اكبر من القيمه التقديريه ", ">"),  # so are value words after the comparator
        ("في ", None),
        ("اكثر من مناقصات ", None),
    ],
)
def test_comparator_before(before: str, op: str | None) -> None:
    assert comparator_before(before) == op


@pytest.mark.parametrize(
    ("phrase", "comparison"),
    [
        ("أكثر من مليون ريال", Comparison("value", ">", (1_000_000.0,), "بقيمة تقديرية أكثر من مليون ريال")),
        ("لا تتجاوز 5 ملايين", Comparison("value", "<=", (5_000_000.0,), "بقيمة تقديرية لا تتجاوز 5 ملايين ريال")),
        ("مليون فأكثر", Comparison("value", ">=", (1_000_000.0,), "بقيمة تقديرية لا تقل عن مليون ريال")),
        ("1000 أو أقل", Comparison("value", "<=", (1000.0,), "بقيمة تقديرية لا تتجاوز 1000 ريال")),
        # The scale word of the second bound serves the first.
        ("بين 10 و 20 مليون", Comparison("value", "between", (10_000_000.0, 20_000_000.0), "بقيمة تقديرية بين 10 و20 مليون ريال")),
        ("من 100 ألف إلى 500 ألف", Comparison("value", "between", (100_000.0, 500_000.0), "بقيمة تقديرية بين 100 ألف و500 ألف ريال")),
        # The column, from the words around the figure.
        ("قيمة الترسية أكثر من مليون", Comparison("awarded", ">", (1_000_000.0,), "بقيمة ترسية أكثر من مليون ريال")),
        ("سعر الكراسة أقل من 500", Comparison("booklet", "<", (500.0,), "بسعر كراسة أقل من 500 ريال")),
        ("أكثر من 5 عروض", Comparison("bids", ">", (5.0,), "بعدد عروض أكثر من 5")),
        ("مدتها أكثر من 12 شهر", Comparison("duration", ">", (12.0,), "بمدة أكثر من 12 شهراً")),
        ("بعرض واحد", Comparison("bids", "=", (1.0,), "بعرض واحد")),
        ("بعرضين", Comparison("bids", "=", (2.0,), "بعرضين")),
    ],
)
def test_each_comparison_is_read_and_blanked(phrase: str, comparison: Comparison) -> None:
    text = normalize_arabic(phrase)
    left, references, comparisons = read_values(text)
    assert references == [] and comparisons == [comparison]
    assert len(left) == len(text), "blanking keeps every offset"
    assert not any(ch.isdigit() for ch in left)


def test_a_reference_number_is_a_condition() -> None:
    left, references, comparisons = read_values(normalize_arabic("المناقصة رقم 123456789012"))
    assert references == [Condition("reference", "in", ("123456789012",), "ذات الرقم المرجعي 123456789012")]
    assert comparisons == [] and left.split() == ["المناقصه"]  # "رقم" belongs to the reference number


def test_a_number_without_a_comparator_is_no_comparison() -> None:
    text = normalize_arabic("كم مناقصة بقيمة مليون")
    assert read_values(text) == (text, [], [])


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("اكثر من 9 عروض", "bids"),
        ("اكثر من 9 شهر", "duration"),
        ("سعر الكراسه اقل من 9", "booklet"),
        ("قيمه الترسيه اكثر من 9", "awarded"),
        ("تمت الترسيه واكثر من 9", "value"),  # the status "awarded", not the awarded value
        ("عدد العروض اكثر من 9", "bids"),
        ("مده التنفيذ اكثر من 9", "duration"),
        ("اكثر من 9", "value"),
    ],
)
def test_value_field(text: str, field: str) -> None:
    start = text.index("9")
    assert value_field(text, start, start + 1) == field


@pytest.mark.parametrize(
    ("phrase", "n", "left"),
    [
        ("أعلى 5 مناقصات", 5, "اعلي   مناقصات"),
        ("أكبر خمس جهات", 5, "اكبر     جهات"),
        ("أكثر 3 جهات", 3, "اكثر   جهات"),
        ("10 مشاريع", 10, "   مشاريع"),
    ],
)
def test_top_n(phrase: str, n: int, left: str) -> None:
    assert read_top_n(normalize_arabic(phrase)) == (left, n)


@pytest.mark.parametrize("phrase", ["كم مناقصة في 2024", "الربع الأول", "مناقصات بقيمة مليون"])
def test_no_top_n(phrase: str) -> None:
    text = normalize_arabic(phrase)
    assert read_top_n(text) == (text, None)


@pytest.mark.parametrize(
    ("phrase", "op", "value"),
    [
        ("تزيد قيمتها عن مليون", ">", 1e6),
        ("تزيد قيمتها التقديرية على مليون", ">", 1e6),
        ("لا تقل قيمتها عن 500 ألف", ">=", 5e5),
        ("تتعدى 3 ملايين", ">", 3e6),
        ("تفوق مليونين", ">", 2e6),
        ("تتخطى مليوني ريال", ">", 2e6),
        ("قيمتها تتجاوز ألفي ريال", ">", 2e3),
        ("تقل قيمتها عن ألفي ريال", "<", 2e3),
        ("تتخطى حاجز 100 مليون", ">", 1e8),
        ("أكثر من 2024 ريال", ">", 2024.0),
    ],
)
def test_value_wordings(phrase: str, op: str, value: float) -> None:
    left, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.field, c.op, c.values) for c in comparisons] == [("value", op, (value,))]
    assert not re.search(r"تزيد|تقل|تتعدي|تفوق|تتخطي|تتجاوز|حاجز|اكثر|مليون|الف", left)


def test_a_comparator_before_the_booklet_noun_and_its_preposition() -> None:
    left, _, comparisons = read_values(normalize_arabic("يزيد سعر كراسة الشروط فيها على 1000 ريال"))
    assert [(c.field, c.op, c.values) for c in comparisons] == [("booklet", ">", (1000.0,))]
    assert left.strip() == "ريال" or left.strip() == ""


@pytest.mark.parametrize(
    ("phrase", "op", "value"),
    [
        ("كراسة الشروط فيها مجانية", "=", 0.0),
        ("كراستها بفلوس", ">", 0.0),
        ("كراسة شروطها مدفوعة", ">", 0.0),
        ("سعر كراستها 500 ريال", "=", 500.0),
    ],
)
def test_a_free_paid_or_priced_booklet(phrase: str, op: str, value: float) -> None:
    left, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.field, c.op, c.values) for c in comparisons] == [("booklet", op, (value,))]
    assert not re.search(r"مجاني|بفلوس|مدفوع|500", left)


def test_free_is_a_booklet_word_only_beside_a_booklet() -> None:
    assert read_values(normalize_arabic("المنافسات المجانية"))[2] == []


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("منافسه رست بمبلغ اقل من 9", "awarded"),
        ("ترست بقيمه تتجاوز 9", "awarded"),
        ("اترست عليها ب اكثر من 9", "awarded"),
        ("رست وقيمتها اكثر من 9", "value"),  # awarded, and its estimated value over 9
    ],
)
def test_a_figure_the_award_verb_is_said_at_is_the_awarded_value(text: str, field: str) -> None:
    start = text.index("9")
    assert value_field(text, start, start + 1) == field


def test_or_more_followed_by_from_begins_the_next_comparison() -> None:
    # "أقل من مليون أو أكثر من 5 ملايين": two comparisons, not "مليون أو أكثر" (>=).
    _, _, comparisons = read_values(normalize_arabic("قيمتها أقل من مليون أو أكثر من 5 ملايين"))
    assert [(c.op, c.values) for c in comparisons] == [("<", (1_000_000.0,)), (">", (5_000_000.0,))]
    _, _, comparisons = read_values(normalize_arabic("قيمتها مليون أو أكثر"))
    assert [(c.op, c.values) for c in comparisons] == [(">=", (1_000_000.0,))]


@pytest.mark.parametrize(
    ("phrase", "op", "values", "written"),
    [
        ("قيمتها تعدت حاجز المائة ألف", ">", (1e5,), "المئة ألف"),
        ("قيمتها ما تتجاوز الخمسين مليون", "<=", (5e7,), "الخمسين مليون"),
        ("قيمتها تحت المليون", "<", (1e6,), "المليون"),
        ("قيمتها بين العشرين ألف والمليون", "between", (2e4, 1e6), "العشرين ألف"),
    ],
)
def test_a_figure_written_with_the_article(phrase: str, op: str, values: tuple, written: str) -> None:
    text, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.field, c.op, c.values) for c in comparisons] == [("value", op, values)]
    assert written in comparisons[0].label
    assert not re.search(r"\d|الف|مليون", text)


@pytest.mark.parametrize(
    "phrase",
    [
        "المنافسات اللي ما وصلتها ولا عرض",
        "لم يتقدم لها أي متقدم",
        "التي لم تستقبل أي عروض",
        "منافسات بلا عروض",
        "ما عليها ولا عرض",
        "خالية من العروض",
        "بصفر عروض",
        "عدد عروضها صفر",
    ],
)
def test_no_bids_at_all(phrase: str) -> None:
    text, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.field, c.op, c.values) for c in comparisons] == [("bids", "=", (0.0,))]
    assert not re.search(r"عرض|عروض|متقدم", text)


@pytest.mark.parametrize("phrase", ["اكثر من 3 عروض", "بعرض واحد", "المنافسات اللي وصلها عرض"])
def test_some_bids_are_not_no_bids(phrase: str) -> None:
    _, _, comparisons = read_values(normalize_arabic(phrase))
    assert ("bids", "=", (0.0,)) not in [(c.field, c.op, c.values) for c in comparisons]


@pytest.mark.parametrize(
    ("phrase", "op", "value"),
    [
        ("قيمتها اصغر من او تساوي 40 الف", "<=", 4e4),
        ("قيمتها اعلي من او يساوي مليونين", ">=", 2e6),
        ("قيمتها علي الاقل 300 الف", ">=", 3e5),
        ("قيمتها 300 الف علي الاكثر", "<=", 3e5),
        ("بحد ادني مليار", ">=", 1e9),
        ("قيمتها كحد اقصي 75 الف ريال", "<=", 7.5e4),
        ("قيمتها ما تتخطي 5 ملايين", "<=", 5e6),
        ("قيمتها تعدت ال 8 ملايين", ">", 8e6),
        ("قيمتها فوق 25M", ">", 2.5e7),
    ],
)
def test_more_comparator_wordings(phrase: str, op: str, value: float) -> None:
    text, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.op, c.values) for c in comparisons] == [(op, (value,))]
    assert not re.search(r"\d|اقل|اكثر|حد|ادني|اقصي", text)


@pytest.mark.parametrize(
    ("phrase", "bounds"),
    [
        ("قيمتها اكثر من 2 مليون واقل من 4 ملايين", [(">", 2e6), ("<", 4e6)]),
        ("قيمتها فوق 100 الف وتحت 200 الف", [(">", 1e5), ("<", 2e5)]),
        ("قيمتها اقل من مليون واكبر من 300 الف", [("<", 1e6), (">", 3e5)]),
        ("قيمتها مليون واقل", [("<=", 1e6)]),  # "or less": no second figure
    ],
)
def test_two_bounds_of_one_figure(phrase: str, bounds: list) -> None:
    _, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.op, c.values[0]) for c in comparisons] == bounds


@pytest.mark.parametrize(
    ("phrase", "field", "op", "value"),
    [
        ("مدته 18 شهر على الاقل", "duration", ">=", 18.0),
        ("فيها 4 عروض فاكثر", "bids", ">=", 4.0),
        ("مدته 9 اشهر او اقل", "duration", "<=", 9.0),
    ],
)
def test_a_trailing_comparator_after_the_unit(phrase: str, field: str, op: str, value: float) -> None:
    text, _, comparisons = read_values(normalize_arabic(phrase))
    assert [(c.field, c.op, c.values) for c in comparisons] == [(field, op, (value,))]
    assert not re.search(r"\d|اقل|اكثر", text)


@pytest.mark.parametrize(
    ("phrase", "rank", "words"),
    [
        ("ما رابع منطقه من حيث العدد", (4, 1), ("رابع",)),
        ("المنطقه الرابعه او الخامسه", (4, 2), ("الرابعه", "او", "الخامسه")),
        ("ثالث اعلي منطقه", (3, 1), ("ثالث",)),
    ],
)
def test_an_ordinal_rank_is_read(phrase: str, rank: tuple, words: tuple) -> None:
    text, read, read_words = read_ordinal(phrase)
    assert read == rank and read_words == words
    assert len(text) == len(phrase)  # offsets kept for the passes after


@pytest.mark.parametrize("phrase", ["الربع الثاني من 2025", "كم منافسه في المرحله الثانيه"])
def test_an_ordinal_beside_no_group_nor_superlative_is_no_rank(phrase: str) -> None:
    assert read_ordinal(phrase) == (phrase, None, ())


# --- having ---------------------------------------------------------------------------------------
# A threshold on each group's count or total (issue 30): the groups named first, then "التي" and a
# comparator with a figure, answered with HAVING and the same rows as an analyst's query; a
# threshold on each row's value, or a count of the groups, is no HAVING.

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


# --- column comparison ----------------------------------------------------------------------------
# A tender's awarded value against its own estimated value, in either word order, turned around when
# the estimated value is the subject, with a margin ("بأكثر من 30%") read only when it says "at
# least".

def _read(question: str) -> tuple[str, list[Condition]]:
    return read_column_comparisons(normalize_arabic(question))


@pytest.mark.parametrize(
    ("question", "op", "factor"),
    [
        ("كم مناقصة في جدة قيمة ترسيتها تزيد على قيمتها التقديرية", "column>", 1.0),
        ("عدد المنافسات التي انخفضت قيمة ترسيتها عن التقديرية بأكثر من 30%", "column<", 0.7),
        ("المنافسات اللي ترسيتها فاقت التقديرية بنسبة تزيد عن 5 %", "column>", 1.05),
        # The estimated value as the subject: the comparison is turned around.
        ("كم منافسة قيمتها التقديرية أقل من قيمة الترسية", "column>", 1.0),
        ("وش عدد العقود المرساة بمبلغ دون القيمة التقديرية", "column<", 1.0),
        # No subject after an award verb: the awarded value.
        ("متوسط قيمة الترسية للمنافسات التي رست بأقل من قيمتها التقديرية", "column<", 1.0),
    ],
)
def test_awarded_against_estimated_is_one_condition(question: str, op: str, factor: float) -> None:
    text, conditions = _read(question)
    assert [(c.field, c.op, c.values) for c in conditions] == [("awarded", op, ("value", factor))]
    assert "تقديري" not in text  # the phrase is read whole


@pytest.mark.parametrize(
    "question",
    [
        # A figure, not the other column.
        "كم منافسة قيمة ترسيتها أعلى من مليون",
        # "أعلى قيمة تقديرية": a superlative, no comparison of two columns.
        "ما أعلى قيمة تقديرية لمنافسة في تبوك",
        # One value (its estimated one) against a figure.
        "كم منافسة تتخطى قيمتها التقديرية نصف مليون",
    ],
)
def test_other_phrases_are_left_to_other_passes(question: str) -> None:
    text, conditions = _read(question)
    assert conditions == []
    assert text == normalize_arabic(question)


def test_a_margin_that_may_be_exact_is_left_unread() -> None:
    # "بـ 10%" could be exactly 10%: the comparison is read without it, and the figure is left
    # in the text for the accounting to refuse.
    text, conditions = _read("كم منافسة تجاوزت قيمة ترسيتها القيمة التقديرية بـ 10%")
    assert [c.values for c in conditions] == [("value", 1.0)]
    assert "10%" in text


@pytest.mark.parametrize("question", ["كم منافسة انتهت بدون ترسية", "المنافسات الملغاة من غير ترسيتها في جدة"])
def test_no_award_is_an_empty_awarded_value(question: str) -> None:
    _, conditions = _read(question)
    assert [(c.field, c.op) for c in conditions] == [("awarded", "is_null")]


# --- durations ------------------------------------------------------------------------------------
# A duration said in years or months, read in months right after a duration word.

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
