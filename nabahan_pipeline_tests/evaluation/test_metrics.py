"""The seed's metrics rule by rule, with hand-built answers; then score_responses end to end on a
small SQLite file."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline.evaluation.scoring import (
    CASE_SCORE_COLUMNS,
    REPEAT_COLUMNS,
    SCORE_COLUMNS,
    latency_tier,
    score_answer,
    score_responses,
)

COUNT_CASE = {
    "case_id": "riyadh-count",
    "question": "كم عدد المناقصات في منطقة الرياض؟",
    "category": "count",
    "expected_table": "tenders_full_details",
    "expected_sql": None,
}
OUT_OF_SCOPE_CASE = {
    "case_id": "weather",
    "question": "ما حالة الطقس في جدة اليوم؟",
    "category": "out_of_scope",
    "expected_table": None,
    "expected_sql": None,
}
GOOD_SQL = "SELECT COUNT(*) AS n FROM tenders_full_details WHERE region_id = 1"
GOOD_INSIGHT = "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة وفق بيانات منصة اعتماد."
REFUSAL = "عذراً، هذا السؤال خارج نطاق بيانات المنافسات الحكومية."


def answer(**changes: Any) -> dict[str, Any]:
    base = {"status": "success", "sql": GOOD_SQL, "data": [{"n": 523}], "insights": GOOD_INSIGHT, "error": None}
    return {**base, **changes}


def refusal(**changes: Any) -> dict[str, Any]:
    return {**{"status": "out_of_scope", "sql": None, "data": [], "insights": REFUSAL, "error": None}, **changes}


def score(case=COUNT_CASE, reply=None, latency: float = 0.5, gold=None) -> dict[str, Any]:
    return score_answer(case, reply if reply is not None else answer(), latency, gold)


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


# --- latency tiers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "tier"),
    [
        (0.0, ("Excellent", 1.0)),
        (1.999, ("Excellent", 1.0)),
        (2.0, ("Good", 0.8)),
        (4.999, ("Good", 0.8)),
        (5.0, ("Good", 0.8)),  # the seed's "2-5 Good": a bound belongs to the tier below it
        (5.001, ("Acceptable", 0.5)),
        (9.999, ("Acceptable", 0.5)),
        (10.0, ("Acceptable", 0.5)),  # "> 10 Poor": 10.0 s is Acceptable
        (10.001, ("Poor", 0.2)),
        (120.0, ("Poor", 0.2)),
        (float("nan"), ("Poor", 0.2)),
    ],
)
def test_latency_tier_boundaries(seconds: float, tier: tuple[str, float]) -> None:
    assert latency_tier(seconds) == tier
    if not math.isnan(seconds):
        result = score(latency=seconds)
        assert (result["latency_tier"], result["latency_score"]) == tier


def test_latency_does_not_decide_the_pass() -> None:
    assert score(latency=30.0)["overall_passed"] is True


# --- retrieval -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM tenders_full_details",
        "SELECT COUNT(*) FROM tenders_full_details; DROP TABLE regions",
        "SELEC COUNT(*) FROM tenders_full_details",
        None,
        "",
    ],
)
def test_sql_valid_point(sql: str | None) -> None:
    assert score(reply=answer(sql=sql))["sql_valid"] == 0


def test_table_match_point_is_parsed_and_case_insensitive() -> None:
    assert score(reply=answer(sql="SELECT COUNT(*) FROM TENDERS_FULL_DETAILS"))["table_match"] == 1
    assert score(reply=answer(sql="SELECT COUNT(*) FROM future_projects"))["table_match"] == 0
    # The name in a string literal or a column alias is not a reference.
    assert score(reply=answer(sql="SELECT 'tenders_full_details' AS t FROM regions"))["table_match"] == 0
    cte_only = "WITH tenders_full_details AS (SELECT 1) SELECT * FROM tenders_full_details"
    assert score(reply=answer(sql=cte_only))["table_match"] == 0


def test_has_rows_point() -> None:
    assert score(reply=answer(data=[]))["has_rows"] == 0
    assert score(reply=answer(data=[], data_rows=4))["has_rows"] == 1  # the recorded count wins


@pytest.mark.parametrize(
    ("reply", "points", "accuracy"),
    [
        (answer(), 3, 1),
        (answer(data=[]), 2, 1),  # valid SQL, right table, no rows
        (answer(sql="SELECT COUNT(*) FROM future_projects"), 2, 1),  # wrong table
        (answer(sql="SELECT COUNT(*) FROM future_projects", data=[]), 1, 0),
        (answer(sql="DELETE FROM tenders_full_details", data=[]), 1, 0),  # right table only
        (answer(sql=None), 1, 0),  # rows only
        (answer(sql=None, data=[]), 0, 0),
    ],
)
def test_retrieval_passes_at_two_of_three(reply: dict, points: int, accuracy: int) -> None:
    result = score(reply=reply)
    assert (result["retrieval_points"], result["retrieval_accuracy"]) == (points, accuracy)


def test_out_of_scope_retrieval_is_the_refusal() -> None:
    refused = score(OUT_OF_SCOPE_CASE, refusal())
    assert refused["retrieval_accuracy"] == 1
    assert [refused[point] for point in ("sql_valid", "table_match", "has_rows", "retrieval_points")] == [0, 0, 0, 0]
    assert refused["overall_passed"] is True
    assert refused["false_answer"] is False


def test_out_of_scope_answered_fails_retrieval_and_records_what_it_ran() -> None:
    answered = score(OUT_OF_SCOPE_CASE, answer())
    assert answered["retrieval_accuracy"] == 0
    assert (answered["sql_valid"], answered["has_rows"]) == (1, 1)
    assert answered["false_answer"] is True
    assert answered["overall_passed"] is False


def test_out_of_scope_status_with_sql_is_not_a_refusal() -> None:
    assert score(OUT_OF_SCOPE_CASE, refusal(sql="SELECT 1"))["retrieval_accuracy"] == 0


def test_out_of_scope_error_is_not_a_refusal() -> None:
    result = score(OUT_OF_SCOPE_CASE, refusal(status="error", insights="", error="timeout"))
    assert result["retrieval_accuracy"] == 0
    assert result["false_answer"] is False


def test_false_refusal() -> None:
    result = score(COUNT_CASE, refusal())
    assert result["false_refusal"] is True
    assert result["retrieval_accuracy"] == 0
    assert result["overall_passed"] is False


# --- generation fidelity -------------------------------------------------------------------------


def test_status_match_success_needs_more_than_30_characters() -> None:
    assert score(reply=answer(insights="ع" * 30))["status_match"] == 0
    assert score(reply=answer(insights="  " + "ع" * 30 + "  "))["status_match"] == 0  # stripped
    assert score(reply=answer(insights="ع" * 31))["status_match"] == 1


@pytest.mark.parametrize(
    "text",
    ["عذراً، لا أستطيع المساعدة في ذلك.", "عذرا لا يمكنني", "نعتذر، السؤال خارج النطاق", "أعتذر عن ذلك",
     "آسف، لا أملك هذه البيانات", "للأسف هذا خارج نطاقي", "Sorry, I can only answer procurement questions"],
)
def test_status_match_refusal_needs_an_apology(text: str) -> None:
    assert score(OUT_OF_SCOPE_CASE, refusal(insights=text))["status_match"] == 1


def test_status_match_refusal_without_apology() -> None:
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="هذا السؤال خارج نطاق بيانات المنافسات"))["status_match"] == 0
    # أسفل (below) contains the letters of آسف but is not an apology.
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="انظر الجدول أسفل الصفحة"))["status_match"] == 0


def test_status_match_error_is_zero() -> None:
    assert score(reply=answer(status="error", insights=GOOD_INSIGHT))["status_match"] == 0


def test_arabic_text_point() -> None:
    english = "There are 523 tenders in the Riyadh region according to the data."
    assert score(reply=answer(insights=english))["arabic_text"] == 0
    # Mostly Arabic with a Latin name is still Arabic.
    assert score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حسب Etimad"))["arabic_text"] == 1


def test_numbers_present_point() -> None:
    assert score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض عدداً كبيراً جداً"))["numbers_present"] == 0
    for digits in ("٥٢٣", "۵۲۳"):  # Arabic-Indic, Persian
        insight = f"بلغ عدد المناقصات في منطقة الرياض {digits} مناقصة حسب البيانات"
        assert score(reply=answer(insights=insight))["numbers_present"] == 1
    # The seed's rule: `data_rows > 0 and has_numbers(insights)`, so no rows, no point.
    no_rows = answer(data=[], insights="لا توجد مناقصات مطابقة في منطقة الرياض حالياً")
    assert score(reply=no_rows)["numbers_present"] == 0
    assert score(reply=answer(data=[], insights=GOOD_INSIGHT))["numbers_present"] == 0


@pytest.mark.parametrize(
    ("insight", "marker"),
    [
        ("كنموذج لغوي، أرى أن عدد المناقصات في الرياض 523 مناقصة", "disclaimer: كنموذج لغوي"),
        ("بصفتي نموذج ذكاء اصطناعي لا أملك بيانات حية، لكن العدد 523", "disclaimer: بصفتي نموذج"),
        ("لا يمكنني الوصول إلى الإنترنت، لكن العدد 523 مناقصة في الرياض", "disclaimer: لا يمكنني الوصول"),
        ("As an AI, I think there are 523 tenders in Riyadh region", "disclaimer: as an ai"),
        ("I don’t have access to live data, but 523 tenders were found", "disclaimer: i don't have access"),
        ("عدد المناقصات في منطقة الرياض هو {count} مناقصة", "placeholder: {count}"),
        ("عدد المناقصات في منطقة الرياض هو {{ n }} مناقصة", "placeholder: {{ n }}"),
        ("عدد المناقصات في [REGION] هو 523 مناقصة حسب البيانات", "placeholder: [REGION]"),
        ("عدد المناقصات في <placeholder> هو 523 مناقصة حسب البيانات", "placeholder: <placeholder>"),
        ("عدد المناقصات في منطقة الرياض هو XXX مناقصة حسب البيانات", "placeholder: XXX"),
        ("عدد المناقصات في منطقة الرياض هو N/A مناقصة حسب البيانات", "placeholder: N/A"),
        ("عدد المناقصات في منطقة الرياض 523 مناقصة TODO أكمل التحليل", "placeholder: TODO"),
        ("عدد المناقصات في منطقة الرياض هو $1 مناقصة حسب البيانات", "placeholder: $1"),
        ("بلغ عدد المناقصات في منطقة الرياض 537 مناقصة وفق البيانات", "ungrounded number: 537"),
    ],
)
def test_hallucination_markers(insight: str, marker: str) -> None:
    result = score(reply=answer(insights=insight))
    assert marker in json.loads(result["hallucination_markers"])
    assert result["no_hallucination"] == 0


def test_ungrounded_numbers_column() -> None:
    result = score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض 537 مناقصة، منها ٤١٢ نشطة"))
    assert json.loads(result["ungrounded_numbers"]) == ["537", "٤١٢"]


def test_prose_that_only_looks_like_a_placeholder_is_not_one() -> None:
    insight = "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة [انظر الملاحظة] <br> todo"
    assert score(reply=answer(insights=insight))["no_hallucination"] == 1


@pytest.mark.parametrize(
    ("insight", "marker"),
    [
        ("كنموذج لغوي كبير لا أستطيع الوصول إلى الإنترنت، لكن العدد 523", "disclaimer: لا استطيع الوصول"),
        ("لا يمكنني الوصول للبيانات الحية، لكن في الرياض 523 مناقصة", "disclaimer: لا يمكنني الوصول"),
        ("I am an AI and I cannot access real-time data; Riyadh has 523 tenders", "disclaimer: i cannot access"),
        ("As of my last update, Riyadh had 523 tenders in the data", "disclaimer: as of my last update"),
        ("عدد المناقصات في <region> هو 523 مناقصة حسب البيانات", "placeholder: <region>"),
        ("عدد المناقصات في <REGION_NAME> هو 523 مناقصة حسب البيانات", "placeholder: <REGION_NAME>"),
    ],
)
def test_markers_are_whole_phrases(insight: str, marker: str) -> None:
    assert marker in json.loads(score(reply=answer(insights=insight))["hallucination_markers"])


@pytest.mark.parametrize(
    "insight",
    [
        # An honest refusal says what the agent cannot reach: a statement of scope, not a disclaimer.
        "لا يمكنني الوصول إلى بيانات الطقس؛ أجيب عن بيانات المناقصات فقط، وفي الرياض 523 مناقصة",
        "I cannot access weather data; I answer about tenders only: Riyadh has 523 of them",
        # A phrase inside other words: "as an ai" in "has an airport", "حسب علمي" in "حسب علمية".
        "The region has an airport and 523 tenders according to the data",
        "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حسب علمية البيانات المنشورة",
        # Data freshness is no claim about the model.
        "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حتى تاريخ آخر تحديث للبيانات",
        # HTML tags: open, close, headings, attributes.
        "<table><thead><tr><th>المنطقة</th></tr></thead><tbody><tr><td>الرياض: 523</td></tr></tbody></table>",
        '<h3>منطقة الرياض</h3><p>عدد المناقصات 523 حسب <a href="https://tenders.etimad.sa">اعتماد</a></p>',
    ],
)
def test_what_only_looks_like_a_marker_is_not_one(insight: str) -> None:
    assert json.loads(score(reply=answer(insights=insight))["hallucination_markers"]) == []


@pytest.mark.parametrize(
    ("reply", "points", "fidelity"),
    [
        (answer(), 4, 1),
        (answer(insights="الرياض: 523"), 3, 1),  # too short
        (answer(insights="In Riyadh there are 523 tenders according to Etimad data."), 3, 1),  # not Arabic
        (answer(insights="بلغ عدد المناقصات في منطقة الرياض 537 مناقصة وفق البيانات"), 3, 1),  # ungrounded
        (answer(insights="In Riyadh: 523"), 2, 0),  # too short and not Arabic
        (answer(insights="الرياض فيها عدد كبير"), 2, 0),  # too short and no number
        (answer(insights="In Riyadh: 537"), 1, 0),  # too short, not Arabic, ungrounded
        (answer(status="error", insights=""), 1, 0),  # nothing said: no marker, nothing else
        (answer(status="error", insights="Riyadh: {n}"), 0, 0),
    ],
)
def test_fidelity_passes_at_three_of_four(reply: dict, points: int, fidelity: int) -> None:
    result = score(reply=reply)
    assert (result["fidelity_points"], result["generation_fidelity"]) == (points, fidelity)


def test_overall_needs_both() -> None:
    retrieval_only = score(reply=answer(insights="In Riyadh: 537"))
    assert retrieval_only["retrieval_accuracy"] == 1 and retrieval_only["overall_passed"] is False
    fidelity_only = score(reply=answer(sql=None, data=[], insights="لا توجد مناقصات مطابقة في منطقة الرياض حالياً"))
    assert fidelity_only["generation_fidelity"] == 1 and fidelity_only["overall_passed"] is False


# --- execution match -----------------------------------------------------------------------------

GOLD_SQL = "SELECT region_id, COUNT(*) FROM tenders_full_details GROUP BY region_id ORDER BY region_id"
GOLD = QueryResult(columns=["region_id", "COUNT(*)"], rows=[(1, 523), (2, 300)])
GOLD_CASE = {**COUNT_CASE, "expected_sql": GOLD_SQL}
GOLD_ROWS = [{"count": 523, "region": 1}, {"count": 300, "region": 2}]
GOLD_INSIGHT = "في منطقة الرياض 523 مناقصة، وفي منطقة مكة المكرمة 300 مناقصة حسب البيانات."


def test_execution_match_nan_without_gold_sql() -> None:
    assert math.isnan(score(COUNT_CASE, answer())["execution_match"])


def test_execution_match_rules() -> None:
    assert score(GOLD_CASE, answer(data=GOLD_ROWS, insights=GOLD_INSIGHT), gold=GOLD)["execution_match"] == 1.0
    # The gold orders its rows, so the reverse order does not match.
    assert score(GOLD_CASE, answer(data=GOLD_ROWS[::-1], insights=GOLD_INSIGHT), gold=GOLD)["execution_match"] == 0.0
    # Right rows, but the status is not success.
    assert score(GOLD_CASE, answer(status="error", data=GOLD_ROWS), gold=GOLD)["execution_match"] == 0.0
    assert score(GOLD_CASE, refusal(), gold=GOLD)["execution_match"] == 0.0


def test_execution_match_needs_the_gold_result() -> None:
    with pytest.raises(ValueError, match="no gold result"):
        score(GOLD_CASE, answer())


# --- score_responses -----------------------------------------------------------------------------


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
