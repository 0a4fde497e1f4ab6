"""Every word of a question accounted for: what each part of the parse consumed, the content words
left over, the refusal that names them, data the schema lacks refused by name, and, over every
question set in the repository, no question answered with a word left over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.insights import UNHELD_NAMES, apology
from nabahan_pipeline.reference_agent.parser import QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.accounting import account_intent, consumed_words

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
        # (The awarded value against the estimated one is read now: ``column_comparison``.)
        ("كم منافسة رسيت بقيمة أعلى من سعر كراستها؟", "اعلي"),
        # Two tables joined: a frame reads one, the other would go unanswered.
        ("كم مناقصة ومشروع في الرياض؟", "ومشروع"),
        ("عدد المشاريع القادمة والمنافسات النشطة", "والمنافسات"),
        ("كم مناقصة أو مشروع في جدة", "مشروع"),
        # A dimension noun nothing is grouped by, counted by or filtered on.
        # ("رتب لي المناطق حسب ... من الأكثر للأقل" is read now: ``parser.ordering``.)
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
