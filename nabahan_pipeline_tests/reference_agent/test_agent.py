"""The reference agent: execution match against hand-written gold SQL, refusals, grounded insights,
robustness, filters, threads."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from datetime import date
from pathlib import Path

import pytest

from nabahan_pipeline.etimad_db.store import connect_readonly
from nabahan_pipeline.arabic.normalize import arabic_letter_share
from nabahan_pipeline.reference_agent.parser import QueryFrame, Refusal
from nabahan_pipeline.reference_agent.agent import ReferenceAgent, nabahan_agent
from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
from nabahan_pipeline.evaluation.execution_match import gold_is_ordered, rows_match
from nabahan_pipeline.evaluation.grounding import ungrounded_numbers
from nabahan_pipeline.evaluation.tables import CATEGORIES

SUITE = Path(__file__).parents[1] / "data" / "agent_questions.json"
SHIPPED_CASES = Path(__file__).parents[2] / "nabahan_pipeline" / "data" / "test_cases.json"
REQUIRED_MATCH_RATE = 0.95


def _cases() -> list[dict]:
    return json.loads(SUITE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def answers(default_db: Path) -> dict[str, dict]:
    """Every suite question answered once by ``nabahan_agent`` on the default database."""
    return {case["id"]: nabahan_agent(case["question"], case.get("filters")) for case in _cases()}


@pytest.fixture(scope="module")
def gold(default_db: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    con = connect_readonly(default_db)
    results = {}
    for case in _cases():
        if case["expected_sql"]:
            cursor = con.execute(case["expected_sql"])
            results[case["id"]] = ([d[0] for d in cursor.description], cursor.fetchall())
    con.close()
    return results


# --- the suite itself -------------------------------------------------------------------------


def test_suite_is_large_and_well_formed() -> None:
    cases = _cases()
    assert len(cases) >= 120
    assert len({c["id"] for c in cases}) == len(cases)
    assert {c["category"] for c in cases} == set(CATEGORIES)
    for case in cases:
        assert case["question"].strip()
        if case["category"] == "out_of_scope":
            assert case["expected_table"] is None and case["expected_sql"] is None
        else:
            assert case["expected_table"] and case["expected_sql"]
            check_read_only_select(case["expected_sql"])
    per_category = {cat: sum(c["category"] == cat for c in cases) for cat in CATEGORIES}
    assert min(per_category.values()) >= 10, per_category


# --- execution match ------------------------------------------------------------------------------


def test_execution_match_on_the_suite(answers: dict, gold: dict) -> None:
    cases = [c for c in _cases() if c["expected_sql"]]
    failures = []
    for case in cases:
        answer = answers[case["id"]]
        columns, rows = gold[case["id"]]
        ok = answer["status"] == "success" and rows_match(
            answer["data"], columns, rows, ordered=gold_is_ordered(case["expected_sql"])
        )
        if not ok:
            failures.append(f"{case['id']} {case['question']}\n  agent: {answer['sql']}\n  gold:  {case['expected_sql']}")
    matched = len(cases) - len(failures)
    print(f"execution match: {matched}/{len(cases)}")
    for failure in failures:
        print(failure)
    assert matched / len(cases) >= REQUIRED_MATCH_RATE, "\n".join(failures)


def test_out_of_scope_questions_are_refused(answers: dict) -> None:
    for case in _cases():
        if case["category"] != "out_of_scope":
            continue
        answer = answers[case["id"]]
        assert answer["status"] == "out_of_scope", (case["question"], answer)
        assert answer["sql"] is None and answer["data"] == []
        assert answer["insights"].startswith("عذراً")


def test_no_in_scope_question_is_refused(answers: dict) -> None:
    refused = [c["question"] for c in _cases() if c["category"] != "out_of_scope" and answers[c["id"]]["status"] != "success"]
    assert not refused


def test_generated_sql_is_one_read_only_select(answers: dict) -> None:
    for answer in answers.values():
        if answer["status"] == "success":
            check_read_only_select(answer["sql"])


# --- insights -------------------------------------------------------------------------------------


def test_insights_are_arabic_and_state_only_grounded_numbers(answers: dict) -> None:
    problems = []
    for case in _cases():
        answer = answers[case["id"]]
        if answer["status"] != "success":
            continue
        insight = answer["insights"]
        if len(insight) <= 30 or arabic_letter_share(insight) < 0.5:
            problems.append(f"{case['id']}: too short or not Arabic: {insight}")
        ungrounded = ungrounded_numbers(insight, answer["data"], case["question"])
        if ungrounded:
            problems.append(f"{case['id']}: ungrounded {ungrounded}: {insight}")
    assert not problems, "\n".join(problems)


def test_an_empty_result_says_nothing_was_found(default_db: Path) -> None:
    answer = nabahan_agent("اعرض المناقصات النشطة في الباحة اللي قيمتها أكثر من مليار")
    assert answer["status"] == "success" and answer["data"] == []
    assert "لم أجد" in answer["insights"]


# The agent writes 1,234,567.89; the same figures as other writers type them: every thousands
# separator (none, comma, point, spaces, apostrophes, the Arabic one), every decimal separator
# different from it, in Western, Arabic-Indic and Persian digits.
_AGENT_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_SCRIPTS = (str.maketrans("", ""), str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"), str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
_RETYPINGS = [
    (thousands, point, script)
    for thousands in ("", ",", ".", " ", "\u00a0", "\u2009", "\u202f", "’", "'", "٬")
    for point in (".", ",", "٫")
    if point != thousands
    for script in _SCRIPTS
]


def _retyped(insight: str, thousands: str, point: str, script: dict[int, str]) -> str:
    def one(m: re.Match[str]) -> str:
        integer, _, fraction = m.group(0).partition(".")
        return (integer.replace(",", thousands) + (point + fraction if fraction else "")).translate(script)

    return _AGENT_NUMBER.sub(one, insight)


def test_the_agents_answers_retyped_in_every_digit_style_stay_grounded(answers: dict) -> None:
    asked = [(case["question"], answers[case["id"]]) for case in _cases()]
    shipped = json.loads(SHIPPED_CASES.read_text(encoding="utf-8"))
    asked += [(case["question"], nabahan_agent(case["question"], case.get("filters"))) for case in shipped]
    problems, grouped = [], 0
    for question, answer in asked:
        if answer["status"] != "success":
            continue
        grouped += bool(re.search(r"\d,\d{3}", answer["insights"]))
        # One text per answer, each retyping on its own line: one grounding pass reads them all.
        # Each distinct line once: a figure under 1,000 with no fraction reads alike in every
        # separator, and a line read twice is the same reading (over half the lines are repeats).
        retyped = "\n".join(dict.fromkeys(_retyped(answer["insights"], *style) for style in _RETYPINGS))
        ungrounded = ungrounded_numbers(retyped, answer["data"], question)
        if ungrounded:
            problems.append(f"{question}: {ungrounded}\n{answer['insights']}")
    assert grouped >= 20  # the styles were tried on many grouped figures, not only small numbers
    assert not problems, "\n".join(problems)


def test_a_distribution_states_shares_computed_from_its_rows(default_db: Path) -> None:
    answer = nabahan_agent("ما توزيع المناقصات حسب الحالة؟")
    assert "%" in answer["insights"]
    assert not ungrounded_numbers(answer["insights"], answer["data"], "ما توزيع المناقصات حسب الحالة؟")


# --- frames: superlatives, limits, lists -----------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("أكثر جهة طرحت مناقصات", 1),
        ("ما هي المنطقة الأعلى في قيمة المناقصات", 1),
        ("أعلى ٥ مناقصات قيمة", 5),
        ("أكبر 10 مناقصات", 10),
        ("أكثر الجهات طرحاً للمناقصات", 5),
        ("أعلى المناقصات قيمة", 5),
        ("اعرض المناقصات النشطة في الرياض", None),
    ],
)
def test_superlatives_and_lists_set_the_limit(default_db: Path, question: str, limit: int | None) -> None:
    frame = ReferenceAgent().parser.parse(question)
    assert isinstance(frame, QueryFrame)
    assert frame.limit == limit
    sql = nabahan_agent(question)["sql"]
    assert ("LIMIT" in sql) == (limit is not None)


def test_as_of_date_anchors_relative_years(default_db: Path) -> None:
    agent = ReferenceAgent(as_of=date(2024, 3, 1))
    answer = agent.ask("كم مناقصة هذا العام؟")
    assert "publish_date >= '2024-01-01' AND publish_date < '2025-01-01'" in answer["sql"]
    default = nabahan_agent("كم مناقصة العام الماضي؟")
    assert "publish_date >= '2025-01-01'" in default["sql"]


def test_agency_and_activity_names_resolve_to_ids_despite_quirks(default_db: Path) -> None:
    # Persian yeh in the agency's name, tabs around the activity's name.
    con = connect_readonly(default_db)
    health_affairs = con.execute("SELECT agency_id FROM government_agencies WHERE name_ar LIKE '%الحرس الوطني%' AND name_ar LIKE 'الشؤون%'").fetchone()[0]
    answer = nabahan_agent("كم مناقصة للشؤون الصحية بوزارة الحرس الوطني؟")
    assert f"agency_id = {health_affairs}" in answer["sql"]
    answer = nabahan_agent("كم مناقصة في نشاط مستودعات الأدوية والصيدليات - الأدوية؟")
    assert "activity_id = 13" in answer["sql"]


# --- filters ---------------------------------------------------------------------------------------


def test_filters_narrow_the_question(default_db: Path) -> None:
    answer = nabahan_agent("كم مناقصة؟", {"region": "مكة المكرمة", "year": "2024", "status": 1, "type": "منافسة عامة"})
    assert answer["status"] == "success"
    for part in ("region_id = 2", "status_id = 1", "tender_type_id = 1", "publish_date >= '2024-01-01'"):
        assert part in answer["sql"]
    hijri = nabahan_agent("كم مناقصة؟", {"year": "1446هـ"})
    assert "'2024-07-07'" in hijri["sql"] and "'2025-06-26'" in hijri["sql"]


@pytest.mark.parametrize(
    "filters",
    [
        ["الرياض"],
        "الرياض",
        42,
        {"region": "المريخ"},
        {"region": []},
        {"year": "أمس"},
        {"year": 3.5},
        {"status": {"id": 1}},
        {"type": True},
    ],
)
def test_bad_filters_give_an_error_answer(default_db: Path, filters: object) -> None:
    answer = nabahan_agent("كم مناقصة في الرياض؟", filters)  # type: ignore[arg-type]
    assert answer["status"] == "error"
    assert answer["error"] and answer["insights"].startswith("عذراً")
    assert answer["sql"] is None and answer["data"] == []


def test_unknown_and_empty_filter_keys_are_ignored(default_db: Path) -> None:
    answer = nabahan_agent("كم مناقصة في الرياض؟", {"colour": "blue", "region": None, "year": ""})
    assert answer["status"] == "success"
    assert answer["sql"].endswith("WHERE region_id = 1")


# --- robustness ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "",
        "   ",
        "؟",
        "😀😀😀🎉",
        "hello, how are you?",
        "SELECT * FROM regions",
        "كم " * 5000,
        "مناقصة " * 1500,
        "\u200f\u200e\u202b",
        None,
        12345,
        ["كم مناقصة؟"],
    ],
)
def test_odd_questions_never_raise(default_db: Path, question: object) -> None:
    answer = nabahan_agent(question)  # type: ignore[arg-type]
    assert set(answer) == {"status", "sql", "data", "columns", "rows", "insights", "error"}
    assert answer["status"] in ("out_of_scope", "error")
    assert answer["sql"] is None and answer["data"] == []
    assert answer["insights"].startswith("عذراً")


def test_refusal_reasons(default_db: Path) -> None:
    parser = ReferenceAgent().parser
    assert parser.parse("احذف المناقصات الملغاة") == Refusal("mutation")
    assert parser.parse("DROP TABLE regions; SELECT 1 FROM tenders_full_details") == Refusal("sql")
    assert parser.parse("اكتب قصيدة عن المناقصات") == Refusal("off_task")
    assert parser.parse("كم درجة الحرارة في الرياض") == Refusal("off_topic")
    assert isinstance(parser.parse("المناقصات غير الملغاة في الرياض"), QueryFrame)


def test_a_database_error_becomes_an_error_answer(tmp_path: Path) -> None:
    agent = ReferenceAgent(database=tmp_path / "missing.sqlite")
    answer = agent.ask("كم مناقصة في الرياض؟")
    assert answer["status"] == "error" and answer["error"]


def test_concurrent_calls_agree(default_db: Path) -> None:
    questions = [c["question"] for c in _cases()[:40]]
    expected = {q: nabahan_agent(q) for q in questions}
    mismatches: list[str] = []

    def worker(offset: int) -> None:
        for q in questions[offset:] + questions[:offset]:
            if nabahan_agent(q) != expected[q]:
                mismatches.append(q)

    threads = [threading.Thread(target=worker, args=(i * 5,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not mismatches


def test_works_on_another_database(small_db: Path) -> None:
    agent = ReferenceAgent(database=small_db)
    answer = agent.ask("كم عدد المناقصات الكلي؟")
    assert answer["status"] == "success"
    assert answer["data"][0]["tender_count"] == 2_000


def test_close_closes_every_threads_connection_and_the_agent_still_answers(small_db: Path):
    from concurrent.futures import ThreadPoolExecutor

    agent = ReferenceAgent(database=small_db)
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(agent.ask, ["كم عدد المناقصات؟"] * 6))
    assert all(answer["status"] == "success" for answer in answers)
    connections = list(agent._connections)
    assert connections, "each asking thread opened a connection"
    agent.close()
    for con in connections:
        with pytest.raises(sqlite3.ProgrammingError):
            con.execute("SELECT 1")
    assert agent.ask("كم عدد المناقصات؟")["status"] == "success"


def test_an_agent_dropped_without_close_closes_its_connections(small_db: Path):
    # Python 3.13 reports a connection left to the garbage collector as an unclosed database.
    import gc

    agent = ReferenceAgent(database=small_db)
    assert agent.ask("كم عدد المناقصات؟")["status"] == "success"
    connections = list(agent._connections)
    assert connections
    del agent
    gc.collect()
    for con in connections:
        with pytest.raises(sqlite3.ProgrammingError):
            con.execute("SELECT 1")


@pytest.mark.parametrize("question", ["كم مشروع مستقبلي ملغي؟", "كم مشروع نشط في الرياض؟"])
def test_a_condition_the_table_cannot_hold_refuses(default_db: Path, question: str) -> None:
    # Future projects have no status: answering without it would count every project.
    answer = ReferenceAgent().ask(question)
    assert answer["status"] == "out_of_scope"
    assert answer["sql"] is None
    assert "ذات الحالة" in answer["insights"]


# --- issue 41: a question as people type it ----------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "unused"),
    [
        ("بصراحة محتار، كم منافسة مرساة في 2022؟", "محتار"),
        ("أبي أفهم الصورة: ما متوسط قيمة منافسات الباحة؟", "الصوره"),
    ],
)
def test_a_clause_of_words_beside_the_question_is_answered_around_and_named(
    agent: ReferenceAgent, question: str, unused: str
) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success"
    assert f"لم أستخدم من السؤال" in answer["insights"] and f"«{unused}»" in answer["insights"]
    assert not ungrounded_numbers(answer["insights"], answer["data"], question)


@pytest.mark.parametrize(
    "question",
    [
        # An unknown word where a filter would stand: after the question, after a preposition.
        "كم منافسة في جدة، المستعجلة فقط",
        "في الزلفاوية، كم منافسة؟",
        "بالزلفاوية، كم منافسة؟",
        "كم منافسة مستعجلة في جدة؟",
    ],
)
def test_an_unknown_word_that_could_change_the_answer_still_refuses(agent: ReferenceAgent, question: str) -> None:
    assert agent.ask(question)["status"] == "out_of_scope"


@pytest.mark.parametrize(
    "question",
    [
        "مساء الخير، كم منافسة في تبوك؟",
        "كم منافسة في تبوك من فضلك؟",
        "في منطقة تبوك، كم منافسة؟",
        "سؤال: كم منافسة في تبوك؟",
        "ممكن تطلع لي عدد المنافسات في تبوك دلوقتي؟",
    ],
)
def test_greetings_wrappers_and_a_fronted_place_keep_the_answer(agent: ReferenceAgent, db: sqlite3.Connection, question: str) -> None:
    (gold,) = db.execute("SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 7").fetchone()
    answer = agent.ask(question)
    assert answer["status"] == "success" and answer["rows"] == [[gold]]


@pytest.mark.parametrize(
    ("question", "start", "end", "said"),
    [
        ("كم منافسة في آخر شهر في البيانات؟", "2026-10-01", "2026-11-01", "أكتوبر كاملاً"),
        ("كم منافسة طرحت في الأسبوع الماضي؟", "2026-10-18", "2026-10-25", "من الأحد إلى السبت"),
        ("كم منافسة نشرت في آخر 30 يوم؟", "2026-10-02", "2026-11-01", "حتى آخر تاريخ"),
    ],
)
def test_calendar_words_mean_the_calendar_and_the_insight_says_the_period(
    agent: ReferenceAgent, question: str, start: str, end: str, said: str
) -> None:
    answer = agent.ask(question)
    assert f"publish_date >= '{start}' AND publish_date < '{end}'" in answer["sql"]
    assert said in answer["insights"]


def test_an_ordinal_rank_is_answered_with_its_rank_said(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    answer = agent.ask("ما رابع منطقة من حيث عدد المنافسات؟")
    gold = db.execute(
        "SELECT region_name, COUNT(*) AS n FROM tenders_full_details WHERE region_id IS NOT NULL"
        " GROUP BY region_id ORDER BY n DESC LIMIT 1 OFFSET 3"
    ).fetchone()
    assert [row[-2:] for row in answer["rows"]] == [list(gold)]
    assert "في المرتبة الرابعة" in answer["insights"]
    assert not ungrounded_numbers(answer["insights"], answer["data"], "ما رابع منطقة من حيث عدد المنافسات؟")


def test_a_tender_is_looked_up_by_its_whole_name(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    name = "أعمال الإصلاح والترميم بالعلا"
    answer = agent.ask(f"من الجهة التي طرحت منافسة {name}؟")
    (agency,) = db.execute("SELECT agency_name FROM tenders_full_details WHERE tender_name = ?", (name,)).fetchone()
    assert answer["status"] == "success" and [row["agency_name"] for row in answer["data"]] == [agency]
    (count,) = db.execute("SELECT COUNT(*) FROM tenders_full_details WHERE tender_name = 'توريد أجهزة طبية'").fetchone()
    answer = agent.ask("كم منافسة اسمها توريد أجهزة طبية؟")
    assert answer["rows"] == [[count]] and "«توريد أجهزة طبية»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "count_sql"),
    [
        ("كم منافسة قيمتها أعلى من المتوسط؟",
         "SELECT COUNT(*) FROM tenders_full_details WHERE estimated_value > (SELECT AVG(estimated_value) FROM tenders_full_details)"),
        ("كم منافسة في الرياض قيمتها فوق متوسط القيم؟",
         "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1 AND estimated_value >"
         " (SELECT AVG(estimated_value) FROM tenders_full_details WHERE region_id = 1)"),
    ],
)
def test_a_value_against_the_average_of_the_rows_asked_about(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str, count_sql: str
) -> None:
    (gold,) = db.execute(count_sql).fetchone()
    assert agent.ask(question)["rows"] == [[gold]]


def test_groups_against_the_overall_average(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    answer = agent.ask("المناطق اللي متوسط قيمة منافساتها أعلى من المتوسط العام")
    gold = db.execute(
        "SELECT region_name FROM tenders_full_details WHERE region_id IS NOT NULL GROUP BY region_id"
        " HAVING AVG(estimated_value) > (SELECT AVG(estimated_value) FROM tenders_full_details)"
    ).fetchall()
    assert sorted(row["region_name"] for row in answer["data"]) == sorted(name for (name,) in gold)
    assert "متوسطها" in answer["insights"]
