"""What is asked, once the filters are read: a share of a column's total rather than of the rows, and the
lists of lookup tables (an agency's region; conditions a lookup table cannot hold refused)."""

from __future__ import annotations

import json
import pytest
import sqlite3
from pathlib import Path

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.insights import UNHELD_NAMES, apology
from nabahan_pipeline.reference_agent.parser import QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.intent import account_intent, consumed_words
from nabahan_pipeline.reference_agent.parser.intent import unused_words


@pytest.mark.parametrize(
    ("question", "part", "base"),
    [
        ("ما نسبة منافسات جدة من إجمالي القيمة التقديرية؟", "region_id = 2", "1 = 1"),
        ("ما حصة الشراء المباشر من مجموع قيم المنافسات في 2023", "tender_type_id = 2", "strftime('%Y', publish_date) = '2023'"),
    ],
)
def test_a_share_of_the_total_value(agent: ReferenceAgent, default_db: Path, question: str, part: str, base: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame) and frame.measure == "share" and frame.column == "value", frame
    answer = agent.ask(question)
    with sqlite3.connect(f"file:{default_db}?mode=ro", uri=True) as con:
        expected = con.execute(
            f"SELECT 100.0 * SUM(CASE WHEN {part} THEN estimated_value ELSE 0 END) / SUM(estimated_value) "
            f"FROM tenders_full_details WHERE {base}"
        ).fetchone()[0]
    assert answer["data"][0]["share_pct"] == pytest.approx(expected, rel=1e-12)
    assert f"{expected:.1f}%" in answer["insights"]


def test_a_share_with_no_value_word_is_of_the_rows(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("ما نسبة المنافسات الملغاة في تبوك")
    assert isinstance(frame, QueryFrame) and frame.measure == "share" and frame.column is None


def test_which_region_of_an_agency_is_its_seat(agent: ReferenceAgent) -> None:
    answer = agent.ask("مستشفى تبوك في أي منطقة؟")
    assert answer["status"] == "success"
    assert [(row["agency_id"], row["region_name"]) for row in answer["data"]] == [(13, "منطقة تبوك")]


@pytest.mark.parametrize("question", ["ما هي الأنشطة في الرياض", "ما هي الحالات في 2024", "اعرض أنواع المنافسات التي قيمتها فوق مليون"])
def test_a_list_of_a_lookup_table_with_a_condition_it_cannot_hold_is_refused(agent: ReferenceAgent, question: str) -> None:
    # Listing every activity would answer another question.
    assert agent.ask(question)["status"] == "out_of_scope"


def test_what_a_part_makes_of_the_whole_is_a_share(agent: ReferenceAgent) -> None:
    # "كم تشكل ... من ...": a share, not the part's own total.
    frame = agent.parser.parse("كم تشكل منافسات تبوك من إجمالي المنافسات؟")
    assert isinstance(frame, QueryFrame) and frame.measure == "share"


# --- accounting -----------------------------------------------------------------------------------
# Every word of a question accounted for: what each part of the parse consumed, the content words
# left over, the refusal that names them, data the schema lacks refused by name, and, over every
# question set in the repository, no question answered with a word left over.

TESTS = Path(__file__).parents[2]
# Every question set is named *_questions.json (the folder holds other fixtures too).
QUESTION_SETS = sorted((TESTS / "data").glob("*_questions.json")) + [TESTS.parent / "nabahan_pipeline" / "data" / "test_cases.json"]


def test_consumed_words_are_the_words_a_pass_blanked() -> None:
    assert consumed_words("كم مناقصه في الرياض", "كم مناقصه           ") == ("في", "الرياض")
    assert consumed_words("المنافسات العامه", "المنافسات      ") == ("العامه",)
    assert consumed_words("كم مناقصه", "كم مناقصه") == ()


def test_intent_words_and_fillers_are_explained_and_the_rest_is_left_over() -> None:
    consumed, leftover = account_intent("كم عدد المناقصات اللي لونها ازرق")
    assert leftover == ("لونها", "ازرق")
    parts = dict(consumed)
    assert "المناقصات" in parts["table"]
    assert "كم عدد" in parts["measure"]
    _, leftover = account_intent("ما متوسط القيمه التقديريه للمناقصات")
    assert leftover == ()


def test_the_parse_says_what_each_part_consumed(agent: ReferenceAgent) -> None:
    parse = agent.parser.read("كم عدد المناقصات الملغاة في منطقة الرياض عام 2024؟")
    assert isinstance(parse.frame, QueryFrame)
    assert parse.leftover == ()
    parts = dict(parse.consumed)
    assert "2024" in parts["date"]
    assert "الرياض" in parts["region"]
    assert "الملغاه" in parts["status_type"]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("كم عدد المناقصات التي فيها غرامات تأخير في الرياض؟", ("غرامات", "تاخير")),
        ("كم منافسة تحتاج شهادة زكاة في جدة؟", ("تحتاج", "شهاده", "زكاه")),
    ],
)
def test_a_word_left_over_refuses_and_the_apology_names_it(
    agent: ReferenceAgent, question: str, words: tuple[str, ...]
) -> None:
    parse = agent.parser.read(question)
    assert parse.frame == Refusal("not_understood")
    assert parse.leftover == words
    assert isinstance(parse.frame, Refusal) and parse.frame.words == words
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope"
    assert answer["sql"] is None
    for word in words:
        assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("كم عدد الموردين في منطقة الرياض؟", "suppliers"),
        ("مين الفائز بمنافسات وزارة الصحة؟", "winners"),
        ("لمن رست منافسات أمانة منطقة الرياض؟ ومن رست على منافسة وزارة الصحة", "winners"),
        ("اعرض أسماء المتقدمين لمنافسات وزارة التعليم", "bidders"),
        ("كم نسبة المحتوى المحلي في منافسات وزارة الصحة؟", "local_content"),
        ("كم رواتب موظفي وزارة المالية؟", "people"),
        # The agency's name matches; the question is still a request for credentials.
        ("عطني كلمة المرور لحساب أمانة منطقة الرياض", "credentials"),
        ("ابي التوكن الخاص بوزارة المالية", "credentials"),
    ],
)
def test_data_the_schema_does_not_hold_is_refused_by_name(agent: ReferenceAgent, question: str, topic: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, Refusal)
    assert (frame.reason, frame.topic) == ("unheld", topic)
    assert UNHELD_NAMES[topic] in apology(frame)
    assert agent.ask(question)["status"] == "out_of_scope"


@pytest.mark.parametrize(("question", "topic"), [("كيف الجو في أبها؟", "weather"), ("متى مباراة المنتخب؟", "sports")])
def test_weather_and_sport_are_off_topic_and_named(agent: ReferenceAgent, question: str, topic: str) -> None:
    frame = agent.parser.parse(question)
    assert frame == Refusal("off_topic")
    assert isinstance(frame, Refusal) and frame.topic == topic
    assert UNHELD_NAMES[topic] in apology(frame)


@pytest.mark.parametrize("path", QUESTION_SETS, ids=lambda p: p.name)
def test_no_question_of_any_set_is_answered_with_a_word_left_over(agent: ReferenceAgent, path: Path) -> None:
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert cases
    answered_with_leftover = []
    oos_answered = []
    for case in cases:
        answer = agent.ask(case["question"], case.get("filters"))
        leftover = agent.parser.read(case["question"]).leftover
        if case["category"] == "out_of_scope":
            if answer["status"] != "out_of_scope":
                oos_answered.append(case["id"])
        elif answer["status"] == "success" and leftover:
            answered_with_leftover.append((case["id"], leftover))
    assert answered_with_leftover == []
    assert oos_answered == []


@pytest.mark.parametrize(
    ("question", "ignored"),
    [
        # A superlative with nothing to rank: a sum has no "highest".
        ("ما مجموع قيم الترسية الأعلى في الرياض؟", "الاعلي"),
        ("كم عدد المنافسات الأحدث في جدة؟", "الاحدث"),
        # A share that the frame could not place is no count.
        ("كم نسبة المنافسات في 2024؟", "نسبه"),
        # A column word no condition, measure or grouping uses.
        ("كم منافسة في الرياض كراستها غالية؟", "كراستها"),
        # (Two columns with no difference or comparison asked of them: "قارن بين ..." is read now.)
        ("ما مجموع القيم التقديرية وقيم الترسية للمنافسات المرساة", "القيم التقديريه"),
        # Two date phrases would be ANDed into no day at all.
        ("كم منافسة نشرت في 2023 وفي الربع الأول من 2024؟", "2023"),
        # "ما" past the first word negates ("ما وصلها ولا عرض" is read: no bids).
        ("كم منافسة ما الغيت في جدة؟", "ما"),
        # A comparator with no figure after it compares with something the parser cannot read.
        # (The awarded value against the estimated one is read now: ``values.read_column_comparisons``.)
        ("كم منافسة رسيت بقيمة أعلى من سعر كراستها؟", "اعلي"),
        # Two tables joined: a frame reads one, the other would go unanswered.
        ("كم مناقصة ومشروع في الرياض؟", "ومشروع"),
        ("عدد المشاريع القادمة والمنافسات النشطة", "والمنافسات"),
        ("كم مناقصة أو مشروع في جدة", "مشروع"),
        # A dimension noun nothing is grouped by, counted by or filtered on.
        # ("رتب لي المناطق حسب ... من الأكثر للأقل" is read now: ``parser.reading``.)
        ("كم عدد المنافسات في المناطق", "المناطق"),
        # An order phrase a count has no place for, or one against the ranking's own order.
        ("كم منافسة في الرياض من الأكثر للأقل", "الاكثر"),
        ("أعلى 5 جهات في عدد المنافسات مرتبة تصاعديا", "تصاعديا"),
    ],
)
def test_a_word_read_but_unused_by_the_frame_refuses(agent: ReferenceAgent, question: str, ignored: str) -> None:
    parse = agent.parser.read(question)
    assert parse.frame == Refusal("not_understood")
    assert any(ignored in word for word in parse.leftover), parse.leftover
    assert agent.ask(question)["status"] == "out_of_scope"


@pytest.mark.parametrize(
    "question",
    [
        "كم مناقصة في نشاط الاتصالات؟",  # the dimension noun names the activity condition
        "كم مشروع مدته أكثر من 24 شهر؟",  # the unit of a duration is read with it
        "ما القيمة التقديرية للمنافسة رقم 220156426099؟",  # rows show every column
        "كم يبلغ إجمالي القيمة التقديرية لمنافسات منطقة تبوك؟",
        "كم منافسة رست في المدينة المنورة؟",
    ],
)
def test_words_the_frame_uses_are_no_reason_to_refuse(agent: ReferenceAgent, question: str) -> None:
    parse = agent.parser.read(question)
    assert isinstance(parse.frame, QueryFrame), parse
    assert parse.leftover == ()


# --- unused words ---------------------------------------------------------------------------------
# Words read and left unused by the frame refuse the question (issue 15): a count under an average,
# the deadline beside a measure of another column, a threshold on a number of rows.

@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("متوسط عدد المنافسات لكل جهة", ("عدد",)),
        ("كم منافسة في المتوسط كل شهر", ("كم",)),
        ("كم يوم في المتوسط بين النشر وآخر موعد للعروض", ("واخر موعد",)),
        ("كم جهة طرحت أكثر من 100 منافسة", ("اكثر", "من", "100", "منافسه")),
        ("أعلى وأقل منطقة في عدد المنافسات", ("اعلي", "واقل")),
        ("عدد المنافسات حسب المنطقة والحالة", ("والحاله",)),
        ("مجموع القيم حسب المنطقة والنوع", ("والنوع",)),
        ("اعرض منافسات جدة من الأحدث للأقدم", ("من", "الاحدث", "للاقدم")),
        ("رتب منافسات الرياض حسب القيمة من الأقل", ("من", "الاقل")),
        ("كم نسبة منافسات جدة من منافسات مكة", ("مكه",)),
    ],
)
def test_words_the_frame_leaves_unused_refuse(agent: ReferenceAgent, question: str, words: tuple[str, ...]) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    for word in words:
        assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("متوسط عدد العروض لكل نوع", "AVG(bids_count)"),
        ("كم متوسط قيمة المنافسات في الرياض", "AVG(estimated_value)"),
        ("أكبر 10 مناقصات", "LIMIT 10"),
        ("كم منافسة آخر موعد لتقديم عروضها في نوفمبر 2026", "last_offer_date >= '2026-11-01'"),
        ("كم منافسة قيمتها أكثر من 100 ألف", "estimated_value > 100000"),
        ("كم منافسة من يناير 2026 الى اليوم", "publish_date >= '2026-01-01'"),
        ("كم منافسة من 2023 إلى الآن", "publish_date >= '2023-01-01'"),  # to the data's end
        ("كم منافسة نشطة الآن", "status_id = 1"),
        ("أكثر منطقة فيها منافسات ملغاة", "LIMIT 1"),
        ("توزيع المنافسات حسب المنطقة والحالة", "GROUP BY region_id, status_id"),
        ("رتب منافسات الرياض حسب القيمة من الأكثر للأقل", "ORDER BY estimated_value DESC"),
        ("أحدث منافسة في جدة", "ORDER BY publish_date DESC LIMIT 1"),
        ("كم منافسة في جدة ومكة", "region_id = 2"),  # both of region 2: its tenders
        ("قارن بين الرياض وجدة في عدد المنافسات", "region_id IN (1, 2)"),
        ("عدد المنافسات حسب المنطقة في نشاط الاتصالات", "activity_id = 18"),
        ("عدد المنافسات حسب المنطقة من الأعلى إلى الأقل", "ORDER BY tender_count DESC"),
    ],
)
def test_words_the_frame_uses_are_answered(agent: ReferenceAgent, question: str, sql: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert sql in answer["sql"]


def test_the_function_on_a_frame() -> None:
    consumed = (("measure", ("متوسط", "عدد")), ("table", ("المنافسات",)))
    avg = QueryFrame("tenders", "avg", column="value")
    assert unused_words(avg, consumed, "متوسط عدد المنافسات") == ("عدد",)
    with_column = consumed + (("column:any", ("قيمه",)),)
    assert unused_words(avg, with_column, "متوسط عدد المنافسات") == ()
    assert unused_words(QueryFrame("tenders", "count"), consumed, "عدد المنافسات") == ()
