"""An agent of varied answers, for checking that a change leaves every output the same
(``check_outputs.py``): ``--agent python:varied_agent:answer`` with bench/ on PYTHONPATH.

The reference agent answers each question (right answers, refusals, its own errors); then, chosen
by a digest of the question (the same choice in every process and every version of the code), one
answer in two is spoiled in one of many ways: wrong SQL and a wrong number, SQL that writes, two
statements, SQL that does not parse, a table we lack, another dialect (Postgres, and one that does
not exist), reported rows its SQL does not return, no rows, an ungrounded or a percentage number,
a disclaimer, a placeholder, an English text, a refusal of an in-scope question, an answer to an out-of-scope one, a needless error,
an exception, a malformed answer, repeated column names.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

_AGENT: Any = None
_LOCK = threading.Lock()


def _reference() -> Any:
    global _AGENT
    with _LOCK:
        if _AGENT is None:
            from nabahan_pipeline.reference_agent.agent import ReferenceAgent

            _AGENT = ReferenceAgent()
    return _AGENT


def choice(question: str, ways: int) -> int:
    """A number 0..ways-1 chosen by the question's text alone."""
    return int(hashlib.sha256(question.encode("utf-8")).hexdigest()[:8], 16) % ways


def answer(question: str, filters: dict | None = None) -> Any:
    """The reference agent's answer, spoiled in one of SPOILERS' ways for half the questions."""
    given = dict(_reference().ask(question, filters))
    way = choice(question, 2 * len(SPOILERS))
    if way >= len(SPOILERS):
        return given
    return SPOILERS[way](given)


def _wrong(answer: dict) -> dict:
    if not answer.get("sql"):
        return answer
    return {**answer, "sql": "SELECT COUNT(*) + 1 AS n FROM tenders_full_details", "data": None,
            "columns": ["n"], "rows": [[123457]], "insights": "بلغ عدد المناقصات 123457 مناقصة في المنصة كلها."}


def _writes(answer: dict) -> dict:
    return {**answer, "sql": "DELETE FROM tenders_full_details WHERE tender_id = 1"}


def _two_statements(answer: dict) -> dict:
    return {**answer, "sql": f"{answer.get('sql') or 'SELECT 1'}; DROP TABLE tenders_full_details"}


def _unparseable(answer: dict) -> dict:
    return {**answer, "sql": "SELEC COUNT(* FROM WHERE"}


def _missing_table(answer: dict) -> dict:
    return {**answer, "sql": "SELECT COUNT(*) AS n FROM no_such_table"}


def _postgres(answer: dict) -> dict:
    sql = answer.get("sql")
    return {**answer, "dialect": "postgres"} if sql else answer


def _klingon(answer: dict) -> dict:
    return {**answer, "dialect": "klingon"} if answer.get("sql") else answer


def _false_rows(answer: dict) -> dict:
    if not answer.get("rows"):
        return answer
    rows = [[("x" if isinstance(v, str) else (v or 0) + 1) for v in row] for row in answer["rows"]]
    return {**answer, "data": None, "rows": rows}


def _no_rows(answer: dict) -> dict:
    return {**answer, "data": [], "rows": [], "columns": answer.get("columns") or []}


def _ungrounded(answer: dict) -> dict:
    return {**answer, "insights": (answer.get("insights") or "") + " وارتفع العدد بنسبة 37.5% عن العام الماضي، أي 98765 مناقصة."}


def _disclaimer(answer: dict) -> dict:
    return {**answer, "insights": "كنموذج لغوي لا يمكنني الوصول إلى الإنترنت، لكن " + (answer.get("insights") or "")}


def _placeholder(answer: dict) -> dict:
    return {**answer, "insights": (answer.get("insights") or "") + " في منطقة [REGION] بعدد {count} مناقصة، TODO."}


def _english(answer: dict) -> dict:
    return {**answer, "insights": "There are 12 tenders in total, as of my last update, in the whole platform."}


def _refused(answer: dict) -> dict:
    return {"status": "out_of_scope", "sql": None, "data": [], "insights": "عذراً، لا أستطيع الإجابة عن هذا السؤال.",
            "error": None}


def _refused_with_sql(answer: dict) -> dict:
    return {**answer, "status": "out_of_scope", "insights": "للأسف هذا خارج النطاق."}


def _error(answer: dict) -> dict:
    return {**answer, "status": "error", "error": "upstream model timed out after 30 s " + "x" * 250}


def _raises(answer: dict) -> dict:
    raise RuntimeError("database is locked")


def _malformed(answer: dict) -> Any:
    return ["not", "a", "dict"]


def _same_names(answer: dict) -> dict:
    return {**answer, "sql": "SELECT r.name_ar, r.name_ar FROM regions r ORDER BY r.region_id LIMIT 3",
            "data": None, "columns": ["name_ar", "name_ar"],
            "rows": [["منطقة الرياض", "منطقة الرياض"], ["منطقة مكة المكرمة", "منطقة مكة المكرمة"],
                     ["المنطقة الشرقية", "المنطقة الشرقية"]],
            "insights": "أول 3 مناطق: الرياض ومكة المكرمة والشرقية."}


def _answers_anyway(answer: dict) -> dict:
    if answer.get("status") != "out_of_scope":
        return answer
    return {"status": "success", "sql": "SELECT COUNT(*) AS n FROM tenders_full_details", "data": [{"n": 5}],
            "insights": "الجواب هو 5 مناقصات فقط حسب البيانات المتاحة في المنصة.", "error": None}


def _mysql_quotes(answer: dict) -> dict:
    sql = answer.get("sql")
    return {**answer, "sql": sql.replace('"', "`"), "dialect": "mysql"} if sql else answer


SPOILERS = (_wrong, _writes, _two_statements, _unparseable, _missing_table, _postgres, _klingon, _false_rows,
            _no_rows, _ungrounded, _disclaimer, _placeholder, _english, _refused, _refused_with_sql, _error,
            _raises, _malformed, _same_names, _mysql_quotes, _answers_anyway)
