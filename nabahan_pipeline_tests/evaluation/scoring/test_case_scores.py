"""score_answer walks every scorer; score_responses builds the case_scores table end to end on a
small SQLite file."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.scoring import case_scores
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.case_scores import (
    CASE_SCORE_COLUMNS, DECLARED, REPEAT_COLUMNS, SCORE_COLUMNS, SCORERS, score_responses,
)
from nabahan_pipeline.evaluation.scoring.declare import scorer
from nabahan_pipeline.evaluation.tables import CASE_SCORES
from nabahan_pipeline_tests.evaluation.scoring.answers import COUNT_CASE, OUT_OF_SCOPE_CASE, REFUSAL, answer, score


def test_a_good_answer_passes_everything() -> None:
    result = score()
    assert set(result) == set(SCORE_COLUMNS)
    assert (result["sql_valid"], result["table_match"], result["has_rows"]) == (1, 1, 1)
    assert (result["retrieval_points"], result["retrieval_accuracy"]) == (3, 1)
    fidelity = ("status_match", "arabic_text", "numbers_present", "no_hallucination")
    assert [result[point] for point in fidelity] == [1, 1, 1, 1]
    assert (result["fidelity_points"], result["generation_fidelity"]) == (4, 1)
    assert result["overall_passed"] is True
    assert result["false_refusal"] is False and result["false_answer"] is False
    assert math.isnan(result["execution_match"])
    assert json.loads(result["ungrounded_numbers"]) == [] and json.loads(result["hallucination_markers"]) == []


def test_overall_needs_both() -> None:
    retrieval_only = score(reply=answer(insights="In Riyadh: 537"))
    assert retrieval_only["retrieval_accuracy"] == 1 and retrieval_only["overall_passed"] is False
    fidelity_only = score(reply=answer(sql=None, data=[], insights="لا توجد مناقصات مطابقة في منطقة الرياض حالياً"))
    assert fidelity_only["generation_fidelity"] == 1 and fidelity_only["overall_passed"] is False


@pytest.fixture
def queries_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every query a read-only connection runs from here on, in order (on every database)."""
    import nabahan_pipeline.evaluation.agent_sql as agent_sql

    ran: list[str] = []

    class Counted(agent_sql.ReadOnlyConnection):
        def run(self, sql: str, **limits: object) -> agent_sql.QueryResult:
            ran.append(sql)
            return super().run(sql, **limits)

    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    return ran


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "procurement.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE regions (region_id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT);
        INSERT INTO regions VALUES (1, 'منطقة الرياض', 'Riyadh'), (2, 'منطقة مكة المكرمة', 'Makkah');
        CREATE TABLE tenders_full_details (tender_id INTEGER PRIMARY KEY, region_id INTEGER, estimated_value REAL);
        INSERT INTO tenders_full_details VALUES (1, 1, 100.0), (2, 1, 250.0), (3, 2, 50.0);
        """
    )
    conn.commit()
    conn.close()
    return path


def cases_frame(**gold_sql: str | None) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {**COUNT_CASE, "case_id": "a", "expected_sql": gold_sql.get("a")},
            {**OUT_OF_SCOPE_CASE, "case_id": "b"},
            {**COUNT_CASE, "case_id": "c", "expected_sql": gold_sql.get("c")},
        ]
    )


def response(case_id: str, repeat: int = 0, **changes: Any) -> dict[str, Any]:
    data = changes.pop("data", [{"n": 2}])
    base = {
        "case_id": case_id,
        "repeat": repeat,
        "status": "success",
        "sql": "SELECT COUNT(*) AS n FROM tenders_full_details WHERE region_id = 1",
        "data": json.dumps(data, ensure_ascii=False),
        "data_rows": len(data),
        "insights": "بلغ عدد المناقصات في منطقة الرياض 2 مناقصة حسب البيانات المتاحة.",
        "error": None,
        "latency_s": 1.0,
        "cached": False,
        "prompt_tokens": float("nan"),
        "completion_tokens": float("nan"),
    }
    return {**base, **changes}


def test_score_responses_table(db: Path) -> None:
    cases = cases_frame(a="SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1")
    responses = pd.DataFrame(
        [
            response("c", latency_s=6.0),
            response("b", status="out_of_scope", sql=None, data=[], insights=REFUSAL),
            response(
                "a",
                1,
                sql="SELECT COUNT(*) AS n FROM tenders_full_details",
                data=[{"n": 3}],
                insights="بلغ عدد المناقصات في منطقة الرياض 3 مناقصات حسب البيانات.",
            ),
            response("a", repeat=0),
        ]
    )
    scores = score_responses(cases, responses, db, timestamp="2026-01-01T02:00:00+03:00")
    assert list(scores.columns) == [*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS]
    assert list(zip(scores["case_id"], scores["repeat"])) == [("a", 0), ("a", 1), ("b", 0), ("c", 0)]
    assert list(scores["query_num"]) == [1, 1, 2, 3]
    assert set(scores["timestamp"]) == {"2026-01-01T02:00:00+03:00"}
    assert list(scores["execution_match"].fillna(-1)) == [1.0, 0.0, -1, -1]
    assert list(scores["overall_passed"]) == [True, True, True, True]
    assert list(scores["latency_tier"]) == ["Excellent", "Excellent", "Excellent", "Acceptable"]
    assert pd.isna(scores.loc[2, "sql"]) and pd.isna(scores.loc[2, "expected_table"])
    assert scores["retrieval_points"].dtype == "int64" and scores["overall_passed"].dtype == bool
    assert scores["execution_match"].dtype == "float64"


def test_each_gold_sql_runs_once(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nabahan_pipeline.evaluation.agent_sql as agent_sql

    calls: list[str] = []
    real = agent_sql.expected_result
    monkeypatch.setattr(
        agent_sql, "expected_result", lambda database, sql, **options: calls.append(sql) or real(database, sql, **options)
    )
    gold = "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"
    responses = pd.DataFrame([response("a"), response("a", repeat=1), response("c")])
    score_responses(cases_frame(a=gold, c=gold), responses, db)
    assert calls == [gold]


def test_each_agent_sql_runs_once_per_database(db: Path, queries_run: list[str]) -> None:
    ran = queries_run
    shared, other = response("a")["sql"], "SELECT COUNT(*) AS n FROM tenders_full_details"
    # a's two repeats and c share one SQL; b's differs; a's SQL comes back after b's, at c.
    responses = pd.DataFrame([response("a"), response("a", repeat=1), response("b", sql=other), response("c")])
    scores = score_responses(cases_frame(), responses, db, suite=[db])
    assert sorted(ran) == sorted([shared, shared, other, other]), "each distinct query once on each database"
    assert list(scores["rows_verified"]) == [True, True, False, True]


def test_one_answer_to_two_cases_is_judged_against_each_gold(db: Path) -> None:
    # Cases a and c ask the same question; the same answer is right for a's gold, wrong for c's.
    region_1, every = response("a")["sql"], "SELECT COUNT(*) FROM tenders_full_details"
    scores = score_responses(cases_frame(a=region_1, c=every),
                             pd.DataFrame([response("a"), response("c", latency_s=6.5)]), db)
    assert list(scores["execution_match"]) == [1.0, 0.0]
    assert list(scores["correct"]) == [True, False]
    assert list(scores["latency_tier"]) == ["Excellent", "Acceptable"]


def test_broken_gold_sql_raises_naming_the_case(db: Path) -> None:
    cases = cases_frame(c="SELECT COUNT(*) FROM no_such_table")
    with pytest.raises(ValueError, match="case c: expected_sql fails.*no such table"):
        score_responses(cases, pd.DataFrame([response("c")]), db)


def test_gold_sql_without_database_raises() -> None:
    with pytest.raises(ValueError, match="case a: has expected_sql but no database"):
        score_responses(cases_frame(a="SELECT 1"), pd.DataFrame([response("a")]), None)


def test_responses_for_unknown_cases_raise(db: Path) -> None:
    with pytest.raises(ValueError, match="unknown case ids: zzz"):
        score_responses(cases_frame(), pd.DataFrame([response("zzz")]), db)


def test_each_scorer_fills_its_own_columns_and_together_they_fill_the_table(db: Path) -> None:
    declared = [column for one in SCORERS for column in one.column_names]
    assert len(declared) == len(set(declared)), "no column is filled by two scorers"
    assert set(declared) == set(SCORE_COLUMNS) and not set(declared) & set(REPEAT_COLUMNS)
    assert list(CASE_SCORES.columns) == [*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS]
    responses = pd.DataFrame([response("a"), response("b", status="out_of_scope", sql=None, data=[], insights=REFUSAL),
                              response("c", status="error", sql=None, data=[], insights="", error="timeout")])
    CASE_SCORES.validate(score_responses(cases_frame(), responses, db), lazy=True)


def test_a_scorer_that_fills_a_column_it_did_not_declare_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    @scorer(DECLARED["latency_tier"])
    def sloppy(answer: Answer, scores: Any) -> dict[str, Any]:
        return {"latency_tier": "Excellent", "latency_score": 1.0}

    monkeypatch.setattr(case_scores, "SCORERS", (sloppy,))
    with pytest.raises(RuntimeError, match=r"scorer sloppy filled \['latency_score', 'latency_tier'\], not its columns"):
        score()


@pytest.mark.parametrize("batch_rows", [case_scores.BATCH_ROWS, 4, 1])
def test_the_pinned_evaluation_scores_as_it_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch_rows: int) -> None:
    # Every column, dtype and value of case_scores as pinned, however many answers are scored at a
    # time (a query's results are passed on across batches).
    from nabahan_pipeline_tests.evaluation.scoring import pinned

    monkeypatch.setattr(case_scores, "BATCH_ROWS", batch_rows)

    expected = json.loads(pinned.PINNED.read_text(encoding="utf-8"))["case_scores"]
    now = json.loads(json.dumps(pinned.scored(tmp_path)["case_scores"], ensure_ascii=False))
    assert now["dtypes"] == expected["dtypes"]
    columns = list(expected["dtypes"])
    for row_now, row_pinned in zip(now["rows"], expected["rows"], strict=True):
        assert dict(zip(columns, row_now)) == dict(zip(columns, row_pinned))


def test_the_seed_verdict_the_console_shows_is_the_one_the_table_holds(tmp_path: Path) -> None:
    # seed_verdict runs only the scorers the seed's verdict reads; every answer of the pinned
    # evaluation gets from it what score_answer, with every scorer, gives it (without a database).
    from nabahan_pipeline.evaluation.scoring.case_scores import SEED_VERDICT_COLUMNS, score_answer, seed_verdict
    from nabahan_pipeline.evaluation.scoring.case_scores import _stored_result
    from nabahan_pipeline_tests.evaluation.scoring import pinned

    cases = {case["case_id"]: {**case, "expected_sql": None} for case in pinned.CASES}
    for response in pinned.responses():
        case = cases[response["case_id"]]
        columns, rows = _stored_result(response)
        whole = score_answer(case, {**response, "columns": columns, "rows": rows, "data": None}, response["latency_s"])
        assert seed_verdict(case, response) == {name: whole[name] for name in SEED_VERDICT_COLUMNS}


def test_no_answers_is_an_empty_table_of_the_same_columns_and_dtypes(db: Path) -> None:
    responses = pd.DataFrame([response("a"), response("b", status="out_of_scope", sql=None, data=[], insights=REFUSAL)])
    scored = score_responses(cases_frame(), responses, db)
    none = score_responses(cases_frame(), responses.iloc[0:0], db)
    assert none.empty and list(none.dtypes.items()) == list(scored.dtypes.items())
    CASE_SCORES.validate(none)
