"""Small agents with the contract, named by `python:nabahan_pipeline_tests.sample_agents:NAME` in tests."""

from __future__ import annotations

import threading
import time

CALLS: list[str] = []
_LOCK = threading.Lock()


def _record(question: str) -> None:
    with _LOCK:
        CALLS.append(question)


def counting_agent(question: str, filters: dict | None = None) -> dict:
    """Answers every question with one row that its SQL really returns and a grounded Arabic
    insight; records each call."""
    _record(question)
    return {
        "status": "success",
        "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
        "data": [{"n": 7}],
        "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def slow_agent(question: str, filters: dict | None = None) -> dict:
    """Sleeps 0.2 s, then answers like counting_agent."""
    time.sleep(0.2)
    return counting_agent(question, filters)


def hanging_agent(question: str, filters: dict | None = None) -> dict:
    """Never answers within any test timeout (and records nothing when it wakes up, so that a
    later test's count of calls is not disturbed by this thread)."""
    time.sleep(30)
    return {"status": "error", "sql": None, "data": [], "insights": "", "error": "woke up too late"}


def sleepy_agent(question: str, filters: dict | None = None) -> dict:
    """Answers after 4 s, as a slow model does (and records nothing)."""
    time.sleep(4)
    return {"status": "success", "sql": None, "data": [], "insights": "نعم", "error": None}


def raising_agent(question: str, filters: dict | None = None) -> dict:
    """Raises, as a buggy agent does."""
    raise RuntimeError("database is locked")


def malformed_agent(question: str, filters: dict | None = None) -> object:
    """Returns a list instead of the contract's object."""
    return ["not", "a", "dict"]


def question_only_agent(question: str) -> dict:
    """Takes no filters argument; the adapter must call it with the question alone."""
    return counting_agent(question)


def always_error_agent(question: str, filters: dict | None = None) -> dict:
    """Errors on every question, with valid SQL on the main table, no rows and a long Arabic apology:
    the seed's points alone would pass it."""
    _record(question)
    return {
        "status": "error",
        "sql": "SELECT COUNT(*) FROM tenders_full_details",
        "data": [],
        "insights": "عذراً، حدث خطأ غير متوقع أثناء تنفيذ الاستعلام على قاعدة البيانات.",
        "error": "upstream timeout",
    }


def made_up_number_agent(question: str, filters: dict | None = None) -> dict:
    """Runs honest SQL, reports its row, and writes a number that is not in it (31,415)."""
    _record(question)
    return {
        "status": "success",
        "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
        "data": [{"n": 7}],
        "insights": "بلغ عدد المناقصات المطابقة 31,415 مناقصة وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def dropping_agent(question: str, filters: dict | None = None) -> dict:
    """Answers with SQL that writes, and claims a row for it."""
    _record(question)
    return {
        "status": "success",
        "sql": "DROP TABLE tenders_full_details",
        "data": [{"n": 7}],
        "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def token_echo_agent(question: str, filters: dict | None = None) -> dict:
    """Echoes the bearer token ($NABAHAN_AGENT_TOKEN) in its error, insight, SQL comment and rows."""
    import os

    token = os.environ.get("NABAHAN_AGENT_TOKEN", "")
    return {
        "status": "error",
        "sql": f"SELECT 7 AS n FROM tenders_full_details LIMIT 1 -- {token}",
        "columns": ["n", f"col_{token}"],
        "rows": [[7, token]],
        "insights": f"بلغ العدد 7، والمفتاح {token}",
        "error": f"upstream said: Authorization: Bearer {token}",
    }


def token_raising_agent(question: str, filters: dict | None = None) -> dict:
    """Raises with the bearer token in the exception's message."""
    import os

    raise PermissionError(f"rejected credentials {os.environ.get('NABAHAN_AGENT_TOKEN', '')} for {question}")


def million_rows_agent(question: str, filters: dict | None = None) -> dict:
    """Answers with 1,000,000 rows."""
    return {"status": "success", "sql": "SELECT 1", "columns": ["n"], "rows": [[i] for i in range(1_000_000)],
            "insights": "بلغ العدد مليون صف.", "error": None}


def huge_insight_agent(question: str, filters: dict | None = None) -> dict:
    """Answers with an insight of 50 MB."""
    return {"status": "success", "sql": "SELECT 7 AS n", "data": [{"n": 7}],
            "insights": "بلغ العدد 7 " * 4_500_000, "error": None}


def odd_values_agent(question: str, filters: dict | None = None) -> dict:
    """Rows holding NaN, infinities and bytes (valid UTF-8 and not)."""
    return {"status": "success", "sql": "SELECT 7 AS n", "columns": ["a", "b", "c", "d", "e"],
            "rows": [[float("nan"), float("inf"), float("-inf"), "نص".encode(), b"\xff\xfe"]],
            "insights": "بلغ العدد 7 مناقصات في البيانات المتاحة للمنصة.", "error": None}


# Hostile SQL by name; {dir} is $HOSTILE_DIR, where a file must never appear.
HOSTILE_SQL = {
    "drop": "DROP TABLE tenders_full_details",
    "delete": "DELETE FROM tenders_full_details",
    "update": "UPDATE tenders_full_details SET estimated_value = 0",
    "insert": "INSERT INTO regions (region_id, name_ar) VALUES (99, 'x')",
    "attach": "ATTACH DATABASE '{dir}/attached.sqlite' AS evil",
    "writable_schema": "PRAGMA writable_schema = ON",
    "vacuum_into": "VACUUM INTO '{dir}/copy.sqlite'",
    "load_extension": "SELECT load_extension('{dir}/evil.so') AS n",
    "two_statements": "SELECT 1 AS n; DROP TABLE tenders_full_details",
    "with_delete": "WITH doomed AS (SELECT 1) DELETE FROM tenders_full_details",
    "recursive_cte": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) AS n FROM c",
    "cross_join_count": "SELECT COUNT(*) AS n FROM tenders_full_details a, tenders_full_details b, tenders_full_details c",
    "cross_join_rows": "SELECT * FROM tenders_full_details a, tenders_full_details b",
}


def hostile_sql(question: str) -> str:
    """The hostile SQL named in brackets at the end of ``question``."""
    import os

    name = question.rsplit("[", 1)[1].rstrip("]")
    return HOSTILE_SQL[name].format(dir=os.environ.get("HOSTILE_DIR", "/nonexistent"))


def hostile_sql_agent(question: str, filters: dict | None = None) -> dict:
    """Answers with the hostile SQL its question names, and claims the right count (20,000) for it."""
    return {
        "status": "success",
        "sql": hostile_sql(question),
        "columns": ["n"],
        "rows": [[20000]],
        "insights": "بلغ عدد المناقصات 20000 مناقصة وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def paced_agent(question: str, filters: dict | None = None) -> dict:
    """Takes 0.8 s per answer, then answers like counting_agent: for live output."""
    time.sleep(0.8)
    return counting_agent(question, filters)


def markup_agent(question: str, filters: dict | None = None) -> dict:
    """Answers like counting_agent (7, which its SQL returns), its rows holding Markdown, a link
    and HTML: what the UI must show as text, never render."""
    _record(question)
    label = "<b>x</b> | [link](http://evil.example) ![i](http://evil.example/i.png)"
    return {
        "status": "success",
        "sql": f"SELECT '{label}' AS label, 7 AS n FROM tenders_full_details LIMIT 1",
        "columns": ["label", "n"],
        "rows": [[label, 7]],
        "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


# --- two scripted agents for the comparison: each answer chosen per question ---------------------

SCRIPT_CASES = [
    {"id": "total", "question": "كم عدد المناقصات في المنصة؟", "category": "count",
     "expected_table": "tenders_full_details", "expected_sql": "SELECT COUNT(*) FROM tenders_full_details"},
    {"id": "riyadh", "question": "كم عدد المناقصات في منطقة الرياض؟", "category": "region_filter",
     "expected_table": "tenders_full_details",
     "expected_sql": "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"},
    {"id": "weather", "question": "ما حالة الطقس في جدة اليوم؟", "category": "out_of_scope",
     "expected_response": "عذراً، هذا السؤال خارج نطاق البيانات."},
    {"id": "active", "question": "كم عدد المناقصات النشطة الآن؟", "category": "count",
     "expected_table": "tenders_full_details"},
    {"id": "big", "question": "كم عدد المناقصات التي تزيد قيمتها عن مليون ريال؟", "category": "value_filter",
     "expected_table": "tenders_full_details"},
]
_CASE_OF = {case["question"]: case["id"] for case in SCRIPT_CASES}
COUNT_ALL = "SELECT COUNT(*) AS n FROM tenders_full_details"
USAGE = {"prompt_tokens": 100, "completion_tokens": 20}


def _honest(sql: str, number_written: object = None) -> dict:
    """Runs ``sql`` on the embedded database and answers with its rows and an Arabic insight
    naming the count (or ``number_written`` instead)."""
    from nabahan_pipeline.etimad_db.store import connect_readonly, ensure_database

    connection = connect_readonly(ensure_database())
    try:
        cursor = connection.execute(sql)
        columns, rows = [d[0] for d in cursor.description], [list(row) for row in cursor.fetchall()]
    finally:
        connection.close()
    written = rows[0][0] if number_written is None else number_written
    return {"status": "success", "sql": sql, "columns": columns, "rows": rows,
            "insights": f"بلغ عدد المناقصات المطابقة {written} مناقصة وفق البيانات المتاحة في المنصة.", "error": None}


def scripted_agent_a(question: str, filters: dict | None = None) -> dict:
    """total, riyadh: right; weather: refuses; active: an error; big: SQL that writes. Reports
    100 prompt and 20 completion tokens per answer."""
    case = _CASE_OF[question]
    if case == "total":
        answer = _honest(COUNT_ALL)
    elif case == "riyadh":
        answer = _honest(COUNT_ALL + " WHERE region_id = 1")
    elif case == "weather":
        answer = {"status": "out_of_scope", "sql": None, "data": [], "error": None,
                  "insights": "عذراً، لا أستطيع الإجابة عن هذا السؤال لأنه خارج نطاق بيانات المنافسات الحكومية."}
    elif case == "active":
        answer = {"status": "error", "sql": None, "data": [], "insights": "", "error": "model overloaded"}
    else:
        answer = {"status": "success", "sql": "DROP TABLE tenders_full_details", "data": [{"n": 5}],
                  "insights": "بلغ عدد المناقصات المطابقة 5 مناقصات وفق البيانات المتاحة في المنصة.", "error": None}
    return {**answer, "usage": USAGE}


def scripted_agent_b(question: str, filters: dict | None = None) -> dict:
    """Sleeps 0.05 s; total: right; riyadh: forgets the region; weather: answers it; active: right
    (no gold SQL, grounded); big: writes a number its rows do not hold (31415). No token counts."""
    time.sleep(0.05)
    case = _CASE_OF[question]
    if case in ("total", "riyadh", "weather"):
        return _honest(COUNT_ALL)
    if case == "active":
        return _honest(COUNT_ALL + " WHERE status_id = 1")
    return _honest(COUNT_ALL + " WHERE estimated_value > 1000000", number_written=31415)
