"""The question parser: the frame each kind of question is read into, refusals, and the caller's filters."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.reference_agent.sql_builder import unanswerable
from nabahan_pipeline.reference_agent.parser import (
    MAX_QUESTION_CHARS,
    Condition,
    QueryFrame,
    QuestionParser,
    Refusal,
    apply_filters,
)

AS_OF = date(2025, 6, 15)


def _region(*ids: int, label: str) -> Condition:
    return Condition("region", "in", ids, label)


def _year(year: int) -> Condition:
    return Condition("date", "date_range", (f"{year}-01-01", f"{year + 1}-01-01"), f"عام {year}")


# --- what is asked: measures ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("كم عدد المناقصات الكلي؟", QueryFrame("tenders", "count", column="value")),
        ("كم عدد المشاريع المستقبلية؟", QueryFrame("projects", "count", column="value")),
        (
            "ما إجمالي القيمة التقديرية للمناقصات في المنطقة الشرقية؟",
            QueryFrame("tenders", "sum", column="value", conditions=(_region(5, label="في المنطقة الشرقية"),)),
        ),
        ("ما متوسط قيمة الترسية للمناقصات؟", QueryFrame("tenders", "avg", column="awarded")),
        ("كم جهة طرحت مناقصات", QueryFrame("tenders", "count_distinct", distinct_of="agency")),
        (
            "ما نسبة المناقصات الملغاة في الرياض",
            QueryFrame(
                "tenders",
                "share",
                conditions=(_region(1, label="في منطقة الرياض"),),
                share_of=(Condition("status", "in", (5,), "ذات الحالة ملغاة"),),
            ),
        ),
    ],
)
def test_count_sum_average_distinct_and_share(parser: QuestionParser, question: str, frame: QueryFrame) -> None:
    assert parser.parse(question) == frame


# --- filters read from the question ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        # Places: a region's name, a city in it (with its clitics), several of them.
        ("كم مناقصة في منطقة الرياض؟", _region(1, label="في منطقة الرياض")),
        ("كم مناقصة بجدة؟", _region(2, label="في منطقة مكة المكرمة")),
        ("كم مناقصة في أملج؟", _region(7, label="في منطقة تبوك")),
        ("كم مناقصة في الرياض والدمام", _region(1, 5, label="في منطقة الرياض والمنطقة الشرقية")),
        # Statuses, by their name, a spoken form, a negation.
        ("كم عدد المناقصات الملغاة؟", Condition("status", "in", (5,), "ذات الحالة ملغاة")),
        ("كم مناقصة مفتوحة", Condition("status", "in", (1,), "ذات الحالة نشطة")),
        ("كم مناقصة تمت ترسيتها؟", Condition("status", "in", (4,), "ذات الحالة تمت الترسية")),
        ("كم مناقصة غير ملغاة", Condition("status", "in", (1, 2, 3, 4, 6), "غير ملغاة")),
        # Tender types.
        ("كم مناقصة من نوع شراء مباشر؟", Condition("type", "in", (2,), "من نوع شراء مباشر")),
        # Dates: a year, a Hijri year, a month with and without a year, a quarter, relative and
        # rolling periods counted from as_of (2025-06-15), a deadline instead of the publish date.
        ("كم مناقصة في 2024؟", _year(2024)),
        ("كم مناقصة في عام 1446هـ", Condition("date", "date_range", ("2024-07-07", "2025-06-26"), "عام 1446هـ")),
        ("كم مناقصة في مارس 2024", Condition("date", "date_range", ("2024-03-01", "2024-04-01"), "شهر مارس 2024")),
        ("كم مناقصة في شهر مارس", Condition("date", "month_in", (3,), "شهر مارس")),
        (
            "كم مناقصة في الربع الأول من 2024",
            Condition("date", "date_range", ("2024-01-01", "2024-04-01"), "الربع الأول من عام 2024"),
        ),
        ("كم مناقصة العام الماضي", Condition("date", "date_range", ("2024-01-01", "2025-01-01"), "العام الماضي")),
        ("كم مناقصة هذا الشهر", Condition("date", "date_range", ("2025-06-01", "2025-07-01"), "هذا الشهر")),
        (
            "كم مناقصة خلال آخر 3 أشهر",
            Condition("date", "date_range", ("2025-03-15", "2025-06-16"), "خلال آخر 3 اشهر"),
        ),
        ("كم مناقصة تغلق في 2025", Condition("deadline", "date_range", ("2025-01-01", "2026-01-01"), "عام 2025")),
        # Figures: a threshold, a trailing comparator, a range, bids in words, a reference number.
        (
            "كم مناقصة قيمتها أكثر من مليون ريال",
            Condition("value", ">", (1_000_000.0,), "بقيمة تقديرية أكثر من مليون ريال"),
        ),
        (
            "كم مناقصة قيمتها مليون فأكثر",
            Condition("value", ">=", (1_000_000.0,), "بقيمة تقديرية لا تقل عن مليون ريال"),
        ),
        (
            "كم مناقصة بين 100 ألف و500 ألف ريال",
            Condition("value", "between", (100_000.0, 500_000.0), "بقيمة تقديرية بين 100 ألف و500 ألف ريال"),
        ),
        ("كم مناقصة عدد العروض فيها أكثر من 5", Condition("bids", ">", (5.0,), "بعدد عروض أكثر من 5")),
        ("كم مناقصة بعرض واحد", Condition("bids", "=", (1.0,), "بعرض واحد")),
        (
            "المناقصة رقم 123456789012",
            Condition("reference", "in", ("123456789012",), "ذات الرقم المرجعي 123456789012"),
        ),
    ],
)
def test_a_filter_in_the_question_becomes_one_condition(
    parser: QuestionParser, question: str, condition: Condition
) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame) and frame.entity == "tenders"
    assert frame.conditions == (condition,)


def test_an_agency_named_in_the_question_is_a_condition_on_its_ids(parser: QuestionParser) -> None:
    # Its whole name selects that agency alone, not also one whose longer name holds it.
    frame = parser.parse("كم مناقصة لوزارة الحرس الوطني")
    assert isinstance(frame, QueryFrame) and frame.measure == "count"
    (condition,) = frame.conditions
    ids = {i for i, name in parser.catalog.agencies.items() if name == "وزارة الحرس الوطني"}
    holding = {i for i, name in parser.catalog.agencies.items() if "الحرس الوطني" in name}
    assert len(ids) == 1 and len(holding) > 1
    assert condition.field == "agency" and condition.op == "in" and set(condition.values) == ids
    # Asked for as a group, every agency that holds it, each named.
    frame = parser.parse("كم مناقصة لكل جهات الحرس الوطني")
    assert isinstance(frame, QueryFrame) and frame.measure == "count" and not frame.group_by
    (condition,) = frame.conditions
    assert set(condition.values) == holding
    assert all(parser.catalog.agencies[i].replace("ی", "ي") in condition.label.replace("ی", "ي") for i in holding)


def test_filters_combine(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة ملغاة في جدة عام 2024")
    assert frame == QueryFrame(
        "tenders",
        "count",
        column="value",
        conditions=(
            _region(2, label="في منطقة مكة المكرمة"),
            Condition("status", "in", (5,), "ذات الحالة ملغاة"),
            _year(2024),
        ),
    )


def test_projects_keep_the_conditions_they_have_no_column_for(parser: QuestionParser) -> None:
    # Future projects have no status: "الملغاة" cannot narrow them, and dropping it would answer
    # about every project; the frame keeps it and the SQL builder names it as unanswerable.
    frame = parser.parse("المشاريع المستقبلية الملغاة في الرياض")
    assert isinstance(frame, QueryFrame) and frame.entity == "projects"
    assert [c.field for c in unanswerable(frame)] == ["status"]


# --- rankings, groups, lookups ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("أعلى 5 مناقصات قيمة", QueryFrame("tenders", "rows", column="value", order="desc", limit=5, ranked=True)),
        ("أكبر خمس مناقصات", QueryFrame("tenders", "rows", column="value", order="desc", limit=5, ranked=True)),
        ("أحدث مناقصة", QueryFrame("tenders", "rows", column="date", order="desc", limit=1, ranked=True)),
        ("أقدم 3 مناقصات", QueryFrame("tenders", "rows", column="date", order="asc", limit=3, ranked=True)),
        (
            "أطول المشاريع المستقبلية مدة",
            QueryFrame("projects", "rows", column="duration", order="desc", limit=5, ranked=True),
        ),
    ],
)
def test_superlatives_and_top_n_rank_rows(parser: QuestionParser, question: str, frame: QueryFrame) -> None:
    assert parser.parse(question) == frame


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("ما توزيع المناقصات حسب المنطقة", QueryFrame("tenders", "count", group_by=("region",), order="desc")),
        (
            "إجمالي قيمة المناقصات حسب السنة",
            QueryFrame("tenders", "sum", column="value", group_by=("year",), order="desc"),
        ),
        (
            "عدد المناقصات شهريا في 2024",
            QueryFrame("tenders", "count", group_by=("month",), conditions=(_year(2024),), order="desc"),
        ),
        ("أعلى قيمة في كل منطقة", QueryFrame("tenders", "max", column="value", group_by=("region",), order="desc")),
        # A superlative on a dimension: the top group(s), one for a singular noun, five for a plural.
        (
            "أكثر جهة طرحت مناقصات",
            QueryFrame("tenders", "count", group_by=("agency",), order="desc", limit=1, ranked=True),
        ),
        (
            "أكثر الجهات طرحاً للمناقصات",
            QueryFrame("tenders", "count", group_by=("agency",), order="desc", limit=5, ranked=True),
        ),
        # Comparing named regions groups by region.
        (
            "قارن بين الرياض وجدة في عدد المناقصات",
            QueryFrame(
                "tenders",
                "count",
                group_by=("region",),
                conditions=(_region(1, 2, label="في منطقة الرياض ومنطقة مكة المكرمة"),),
                order="desc",
            ),
        ),
    ],
)
def test_group_by(parser: QuestionParser, question: str, frame: QueryFrame) -> None:
    assert parser.parse(question) == frame


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("ما هي المناطق", QueryFrame("regions", "rows")),
        ("كم عدد الجهات الحكومية؟", QueryFrame("agencies", "count")),
        ("كم عدد أنواع المناقصات", QueryFrame("tender_types", "count")),
        ("ما هي حالات المناقصات", QueryFrame("tender_statuses", "rows")),
    ],
)
def test_a_dimension_noun_alone_asks_for_its_lookup_table(
    parser: QuestionParser, question: str, frame: QueryFrame
) -> None:
    assert parser.parse(question) == frame


# --- refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("", "empty"),
        ("  \n ", "empty"),
        (None, "empty"),
        ("مناقصة " * (MAX_QUESTION_CHARS // 7 + 1), "too_long"),
        ("how many tenders are there?", "not_arabic"),
        # SQL, alone or smuggled into an Arabic question.
        ("SELECT * FROM tenders_full_details", "sql"),
        ("كم مناقصة'; DROP TABLE tenders_full_details; --", "sql"),
        ("DROP TABLE regions; SELECT 1 FROM tenders_full_details", "sql"),
        # Requests to change the data.
        ("احذف المناقصات الملغاة", "mutation"),
        ("غير حالة المناقصة إلى ملغاة", "mutation"),
        ("عدل قيمة المناقصة", "mutation"),
        # Tasks that are no data question, and questions about something else.
        ("اكتب قصيدة عن المناقصات", "off_task"),
        ("كم درجة الحرارة في الرياض", "off_topic"),
        ("ما لون السماء", "unknown"),
    ],
)
def test_refusals(parser: QuestionParser, question: object, reason: str) -> None:
    assert parser.parse(question) == Refusal(reason)


def test_a_negation_is_no_mutation(parser: QuestionParser) -> None:
    # غير at the head of a request is "change"; before a status it is "not".
    assert isinstance(parser.parse("المناقصات غير الملغاة في الرياض"), QueryFrame)


def test_a_question_at_the_length_limit_is_read(parser: QuestionParser) -> None:
    question = "كم مناقصة في الرياض؟"
    assert isinstance(parser.parse(question + " " * (MAX_QUESTION_CHARS - len(question))), QueryFrame)


# --- the caller's filters ---------------------------------------------------------------------------


def test_apply_filters_adds_conditions_by_name_or_id(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة؟")
    assert isinstance(frame, QueryFrame)
    narrowed = apply_filters(frame, {"region": "جدة", "status": 1, "type": [1, "شراء مباشر"], "year": "2024"}, parser)
    assert narrowed.conditions == (
        _region(2, label="في منطقة مكة المكرمة"),
        Condition("status", "in", (1,), "ذات الحالة نشطة"),
        Condition("type", "in", (1, 2), "من نوع منافسة عامة وشراء مباشر"),
        Condition("date", "date_range", ("2024-01-01", "2025-01-01"), "في السنة المحددة"),
    )
    hijri = apply_filters(frame, {"year": "1446هـ"}, parser)
    assert hijri.conditions == (Condition("date", "date_range", ("2024-07-07", "2025-06-26"), "في السنة المحددة"),)


def test_apply_filters_keeps_only_what_the_table_has(parser: QuestionParser) -> None:
    projects = parser.parse("كم مشروع مستقبلي؟")
    assert isinstance(projects, QueryFrame)
    assert [c.field for c in apply_filters(projects, {"status": 1, "region": 3}, parser).conditions] == ["region"]
    regions = parser.parse("ما هي المناطق")
    assert isinstance(regions, QueryFrame)
    assert apply_filters(regions, {"region": 3}, parser) == regions


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"region": "المريخ"}, "unknown region"),
        ({"region": 99}, "no region with id 99"),
        ({"status": []}, "is empty"),
        ({"year": "أمس"}, "must be a year"),
        ({"type": True}, "must be a name or an id"),
    ],
)
def test_apply_filters_names_the_filter_it_cannot_read(
    parser: QuestionParser, filters: dict, message: str
) -> None:
    frame = parser.parse("كم مناقصة؟")
    assert isinstance(frame, QueryFrame)
    with pytest.raises(ValueError, match=message):
        apply_filters(frame, filters, parser)


# --- negation of every filter --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "field", "op", "values"),
    [
        ("ما عدد المنافسات في منطقة الرياض باستثناء الشراء المباشر؟", "type", "not_in", (2,)),
        ("كم منافسة نشطة بالرياض نوعها غير المنافسة المحدودة؟", "type", "not_in", (4,)),
        ("المنافسات اللي مو منافسة عامة ولا شراء مباشر، كم عددها؟", "type", "not_in", (1, 2)),
        ("كم عدد المنافسات المطروحة في المناطق الأخرى غير مكة المكرمة؟", "region", "not_in", (2,)),
        ("متوسط قيمة المنافسات في غير منطقة الرياض", "region", "not_in", (1,)),
        ("كم منافسة خارج المنطقة الشرقية؟", "region", "not_in", (5,)),
        ("وش عدد المنافسات اللي ما لها منطقة محددة؟", "region", "is_null", ()),
        ("كم منافسة مرساة لم تُحدَّد لها منطقة؟", "region", "is_null", ()),
        ("كم مشروع مستقبلي بدون منطقة؟", "region", "is_null", ()),
        ("كم منافسة حالتها لا ملغاة ولا منتهية؟", "status", "in", (1, 2, 3, 4)),
    ],
)
def test_negation_of_a_filter(parser: QuestionParser, question: str, field: str, op: str, values: tuple) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert [(c.op, c.values) for c in frame.conditions if c.field == field] == [(op, values)]


@pytest.mark.parametrize(
    ("question", "field", "values"),
    [
        # Places joined to a negated one are negated with it.
        ("كم مناقصة في غير القصيم وتبوك؟", "region", (4, 7)),
        ("عدد المناقصات عدا الشرقية، جازان أو نجران", "region", (5, 10, 11)),
        # The preposition after the negation, the noun between, "و" on the negation.
        ("كم مناقصة ليست في منطقة حائل؟", "region", (8,)),
        ("كم مناقصة باستثناء مناقصات الجوف", "region", (13,)),
        ("كم مناقصة ليست من نوع مسابقة", "type", (12,)),
    ],
)
def test_negation_reaches_what_is_joined_to_it(parser: QuestionParser, question: str, field: str, values: tuple) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert [(c.op, c.values) for c in frame.conditions if c.field == field] == [("not_in", values)]


def test_a_negation_joined_by_and_negates_both_statuses(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة غير نشطة وغير ملغاة؟")
    assert isinstance(frame, QueryFrame), frame
    assert [(c.op, c.values) for c in frame.conditions if c.field == "status"] == [("in", (2, 3, 4, 6))]


def test_a_place_after_a_negated_one_with_its_own_preposition_stays_a_place(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة في غير الرياض وفي القصيم؟")
    assert isinstance(frame, QueryFrame), frame
    assert [(c.op, c.values) for c in frame.conditions if c.field == "region"] == [("not_in", (1,)), ("in", (4,))]


@pytest.mark.parametrize(
    ("question", "limit"),
    [("ما هي أول 4 مناقصات نشرت في 2023؟", 4), ("أول مناقصة طرحت في منطقة حائل", 1), ("ما أول المناقصات في الجوف", 5)],
)
def test_the_first_tenders_are_the_earliest_published(parser: QuestionParser, question: str, limit: int) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert (frame.measure, frame.column, frame.order, frame.limit) == ("rows", "date", "asc", limit)


def test_a_negated_agency_is_excluded(parser: QuestionParser) -> None:
    frame = parser.parse("كم منافسة في تبوك ما طرحتها أمانة منطقة تبوك؟")
    assert isinstance(frame, QueryFrame)
    agency = [c for c in frame.conditions if c.field == "agency"]
    assert [c.op for c in agency] == ["not_in"] and agency[0].label.startswith("من غير")
    assert [(c.op, c.values) for c in frame.conditions if c.field == "region"] == [("in", (7,))]


def test_spoken_or_is_no_negation(parser: QuestionParser) -> None:
    # "ولا" alone is "or": no region is excluded (the question is refused for its other words).
    frame = parser.parse("أيهما طرح منافسات أكثر: تبوك ولا جازان؟")
    assert not (isinstance(frame, QueryFrame) and any(c.op == "not_in" for c in frame.conditions))


@pytest.mark.parametrize(
    ("question", "measure"),
    [
        ("أيهما طرح منافسات أكثر: تبوك ولا جازان؟", "count"),
        ("وش الأعلى في مجموع قيم الترسية، الرياض أو مكة؟", "sum"),
    ],
)
def test_which_of_two_places_is_a_ranked_comparison(parser: QuestionParser, question: str, measure: str) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert (frame.group_by, frame.measure, frame.ranked, frame.limit) == (("region",), measure, True, 1)


@pytest.mark.parametrize(
    ("question", "agency"),
    [("أمانة الشرقية كم منافسة طرحت؟", 58), ("كم منافسة نشطة لأمانة جدة؟", 55), ("كم منافسة لأمانة الرياض؟", 20)],
)
def test_the_word_after_a_shared_name_picks_the_agency(parser: QuestionParser, question: str, agency: int) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert [(c.field, c.values) for c in frame.conditions if c.field in ("agency", "region")] == [("agency", (agency,))]


def test_two_names_of_one_kind_are_either_of_them(parser: QuestionParser) -> None:
    # ANDed, two agencies at once would match no tender.
    frame = parser.parse("كم منافسة لوزارة الصحة ووزارة التعليم")
    assert isinstance(frame, QueryFrame)
    (agency,) = [c for c in frame.conditions if c.field == "agency"]
    health = {i for i, name in parser.catalog.agencies.items() if name.startswith("وزارة الصحة")}
    education = {i for i, name in parser.catalog.agencies.items() if name.startswith("وزارة التعليم")}
    assert health and education and set(agency.values) == health | education


def test_baladiya_alone_is_no_name_but_the_ministrys_name_is(parser: QuestionParser) -> None:
    # Issue 15: "كم منافسة طرحتها البلدية" was answered for the ministry of municipal affairs.
    assert isinstance(parser.parse("كم منافسة طرحتها البلدية"), Refusal)
    frame = parser.parse("كم منافسة لوزارة الشؤون البلدية")
    assert isinstance(frame, QueryFrame)
    (condition,) = frame.conditions
    assert condition.field == "agency" and "البلدية" in parser.catalog.label("agency", condition.values)
