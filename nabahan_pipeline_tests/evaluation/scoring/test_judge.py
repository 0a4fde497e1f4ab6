"""The judge's columns of case_scores: off by default (no call), asked once per distinct answer
when given, and beside Correct, never changing it, even when every call fails."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.judge import Judge
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.tables import CASE_SCORES
from nabahan_pipeline_tests.evaluation.scoring.answers import COUNT_CASE, OUT_OF_SCOPE_CASE, REFUSAL
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, chat_completion

RIGHT = "بلغ عدد المناقصات في منطقة الرياض 2 مناقصة حسب البيانات المتاحة."
WRONG = "بلغ عدد المناقصات في منطقة الرياض 5 مناقصات حسب البيانات المتاحة."


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "procurement.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE regions (region_id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT);
            INSERT INTO regions VALUES (1, 'منطقة الرياض', 'Riyadh'), (2, 'منطقة مكة المكرمة', 'Makkah');
            CREATE TABLE tenders_full_details (tender_id INTEGER PRIMARY KEY, region_id INTEGER, estimated_value REAL);
            INSERT INTO tenders_full_details VALUES (1, 1, 100.0), (2, 1, 250.0), (3, 2, 50.0);
            """
        )
    return path


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopbackServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-Hx7Qm2Wp9Lz4Rt6Vb3")

    def by_insight(request: Any) -> Reply:  # supported unless the insight says 5
        data = json.loads(request.json()["messages"][1]["content"])
        supported = " 5 " not in data["insight"]
        return chat_completion(json.dumps({"verdict": "supported" if supported else "unsupported",
                                           "reason": "matches the row" if supported else "the row says 2"}))

    with LoopbackServer(by_insight) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url("/v1"))
        yield server


def cases() -> pd.DataFrame:
    return pd.DataFrame([{**COUNT_CASE, "case_id": "a", "expected_sql": None},
                         {**OUT_OF_SCOPE_CASE, "case_id": "b"}])


def response(case_id: str, repeat: int = 0, **changes: Any) -> dict[str, Any]:
    return {"case_id": case_id, "repeat": repeat, "status": "success",
            "sql": "SELECT COUNT(*) AS n FROM tenders_full_details WHERE region_id = 1",
            "data": json.dumps([{"n": 2}]), "data_rows": 1, "insights": RIGHT, "error": None, "latency_s": 1.0,
            "cached": False, "prompt_tokens": float("nan"), "completion_tokens": float("nan"), **changes}


def answers() -> pd.DataFrame:
    refusal = {"status": "out_of_scope", "sql": None, "data": "[]", "data_rows": 0, "insights": REFUSAL}
    return pd.DataFrame([response("a"), response("a", 1), response("a", 2, insights=WRONG),
                         response("b", **refusal)])


def judge(**kwargs: Any) -> Judge:
    return Judge("openai:judge-model", timeout_s=kwargs.pop("timeout_s", 5.0), backoff_base_s=0.01, **kwargs)


def test_off_by_default_no_call_and_empty_columns(db: Path, llm: LoopbackServer) -> None:
    scores = score_responses(cases(), answers(), db)
    assert llm.requests == []
    assert scores["judge_verdict"].isna().all() and scores["judge_reason"].isna().all()
    assert summarize(scores).loc[0, "judged"] == 0


def test_the_judge_is_asked_once_per_distinct_answer_and_recorded_beside_correct(db: Path, llm: LoopbackServer) -> None:
    off = score_responses(cases(), answers(), db)
    scores = score_responses(cases(), answers(), db, judge=judge())
    CASE_SCORES.validate(scores)
    assert len(llm.requests) == 2, "repeats 0 and 1 say the same over the same rows; the refusal is not judged"
    sent = [json.loads(request.json()["messages"][1]["content"]) for request in llm.requests]
    assert [(one["question"], one["rows"], one["insight"]) for one in sent] == [
        (COUNT_CASE["question"], [[2]], RIGHT), (COUNT_CASE["question"], [[2]], WRONG)]
    assert list(scores["judge_verdict"].fillna("-")) == ["supported", "supported", "unsupported", "-"]
    assert list(scores["judge_reason"].fillna("-")) == ["matches the row", "matches the row", "the row says 2", "-"]
    # every other column as without the judge; the timestamp is each answers() call's own second
    pd.testing.assert_frame_equal(scores.drop(columns=["judge_verdict", "judge_reason", "timestamp"]),
                                  off.drop(columns=["judge_verdict", "judge_reason", "timestamp"]))


def test_a_failing_judge_leaves_correct_unchanged_and_says_why(db: Path, llm: LoopbackServer) -> None:
    llm.handler = lambda request: Reply(503, "overloaded")
    off = score_responses(cases(), answers(), db)
    scores = score_responses(cases(), answers(), db, judge=judge(max_retries=0))
    assert list(scores["correct"]) == list(off["correct"]) and list(scores["not_correct_because"]) == list(
        off["not_correct_because"])
    assert scores["judge_verdict"].isna().all()
    assert all(reason.startswith("judge failed: LLM request failed: HTTP 503") for reason in scores["judge_reason"][:3])
    assert summarize(scores).loc[0, "judged"] == 0


def test_the_summary_reports_the_judges_agreement_with_the_claims(db: Path, llm: LoopbackServer) -> None:
    scores = score_responses(cases(), answers(), db, judge=judge())
    # The third insight's 5 is ungrounded, not contradicted (no row is labelled): the judge's
    # unsupported disagrees with "no contradicted claim" there.
    assert list(scores["claims_contradicted"][:3]) == [0, 0, 0]
    overall = summarize(scores).iloc[0]
    assert (overall["judged"], overall["judge_agreement"]) == (3, pytest.approx(2 / 3))
    scores.loc[2, "claims_contradicted"] = 1
    overall = summarize(scores).iloc[0]
    assert (overall["judged"], overall["judge_agreement"]) == (3, 1.0)
