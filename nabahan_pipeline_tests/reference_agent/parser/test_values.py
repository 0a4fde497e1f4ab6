"""Figures in a question: comparators, thresholds, ranges, the column a figure is about,
reference numbers and the N of a top-N."""

from __future__ import annotations

import re

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.values import (
    Comparison,
    comparator_before,
    read_ordinal,
    read_top_n,
    read_values,
    value_field,
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
