"""Verdicts users can trust: no pass for a wrong or unsafe answer, no flag on a right one.

Scripted answers against the real embedded database (and its test-suite databases): an agent that
errors, SQL that writes, a claimed row its SQL does not return, a wrong number, a filter that drops
one tender, ties under ORDER BY, two columns of one name, another SQL dialect.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.runner import CallResult, _response_row
from nabahan_pipeline.etimad_db.store import database_hash, ensure_database, suite_databases
from nabahan_pipeline.evaluation.agent_sql import QueryRunner, check_agent_sql, rows_verified
from nabahan_pipeline.evaluation.execution_match import expected_result, result_matches
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.cases import TestCaseError, check_against_database, load_test_cases
from nabahan_pipeline.settings import SHIPPED_TEST_CASES

T = "tenders_full_details"
INSIGHT = "بلغ عدد المناقصات المطابقة {n} مناقصة وفق بيانات منصة اعتماد الحكومية."


def response(case_id: str, raw: dict[str, Any], repeat: int = 0) -> dict[str, Any]:
    """A stored agent_responses row, made the way the runner makes it."""
    return _response_row(case_id, repeat, CallResult(normalize_answer(raw), 0.05))


def success(sql: str, columns: list[str], rows: list[list], insight: str, **extra: Any) -> dict[str, Any]:
    return {"status": "success", "sql": sql, "columns": columns, "rows": rows, "insights": insight, **extra}


def case(case_id: str, question: str, expected_sql: str | None, table: str = T, category: str = "count") -> dict:
    return {
        "case_id": case_id, "question": question, "category": category, "expected_table": table,
        "expected_response": None, "description": None, "filters": None, "expected_sql": expected_sql, "tags": "[]",
    }


def score(cases: list[dict], responses: list[dict], database: Path, suite: list[Path] | None = None) -> pd.DataFrame:
    return score_responses(pd.DataFrame(cases), pd.DataFrame(responses), database, suite=suite or [])


@pytest.fixture(scope="module")
def db() -> Path:
    return ensure_database()


@pytest.fixture(scope="module")
def suite() -> list[Path]:
    return suite_databases(3)


def one_row(database: Path, sql: str) -> Any:
    connection = sqlite3.connect(database)
    try:
        return connection.execute(sql).fetchone()
    finally:
        connection.close()


# --- 1. the seed's rules, and our two hardenings -------------------------------------------------


def test_an_agent_that_always_errors_scores_zero_of_twenty(db: Path) -> None:
    cases = load_test_cases(SHIPPED_TEST_CASES)
    # Valid SQL on the right table, no rows, a long Arabic apology: the seed's points alone pass it.
    responses = [
        response(
            row.case_id,
            {
                "status": "error",
                "sql": f"SELECT COUNT(*) FROM {row.expected_table or T}",
                "data": [],
                "insights": "عذراً، حدث خطأ غير متوقع أثناء تنفيذ الاستعلام على قاعدة البيانات.",
                "error": "connection reset",
            },
        )
        for row in cases.itertuples()
    ]
    scores = score_responses(cases, pd.DataFrame(responses), db)
    assert len(scores) == 20
    assert int(scores["overall_passed"].sum()) == 0 and int(scores["correct"].sum()) == 0
    assert (scores["numbers_present"] == 0).all(), "no rows, no numbers point (the seed's rule)"
    assert scores["not_correct_because"].str.startswith("error: connection reset").all()
    overall = summarize(scores).iloc[0]
    assert (overall["pass_rate"], overall["correct_rate"], overall["errors"]) == (0.0, 0.0, 20)


@pytest.mark.parametrize(
    "sql",
    [
        f"DROP TABLE {T}",
        f"DELETE FROM {T} WHERE region_id = 1",
        f"UPDATE {T} SET estimated_value = 0",
        f"SELECT COUNT(*) FROM {T}; DELETE FROM {T}",
        f"SELECT COUNT(*) FROM {T}; SELECT 1",
        f"INSERT INTO {T} (tender_id) VALUES (999999)",
        "PRAGMA writable_schema = ON",
        f"WITH gone AS (DELETE FROM {T} RETURNING *) SELECT COUNT(*) FROM gone",
    ],
)
def test_sql_that_writes_never_passes_and_never_runs(tmp_path: Path, db: Path, sql: str) -> None:
    copy = Path(shutil.copyfile(db, tmp_path / "copy.sqlite"))
    before = database_hash(copy)
    count = one_row(copy, f"SELECT COUNT(*) FROM {T}")[0]
    claimed = success(sql, ["n"], [[count]], INSIGHT.format(n=count))
    scores = score([case("c", "كم عدد المناقصات؟", f"SELECT COUNT(*) FROM {T}")], [response("c", claimed)], copy)
    row = scores.iloc[0]
    assert bool(row["unsafe_sql"]) and row["sql_valid"] == 0
    assert not row["overall_passed"] and not row["correct"], "our hardening: unsafe SQL never passes"
    assert row["execution_match"] == 0.0, "claimed rows of SQL that never ran are no result"
    assert pd.isna(row["rows_verified"]), "never run, so nothing verified"
    assert row["not_correct_because"].startswith("unsafe SQL: ")
    assert database_hash(copy) == before and one_row(copy, f"SELECT COUNT(*) FROM {T}")[0] == count


def test_latency_bounds_follow_the_seeds_table(db: Path) -> None:
    good = success(f"SELECT COUNT(*) AS n FROM {T}", ["n"], [[20000]], INSIGHT.format(n=20000))
    rows = [dict(response("c", good), latency_s=seconds, repeat=i) for i, seconds in enumerate((2.0, 5.0, 10.0, 10.5))]
    scores = score([case("c", "كم عدد المناقصات؟", None)], rows, db)
    assert list(scores["latency_tier"]) == ["Good", "Good", "Acceptable", "Poor"]


# --- 2. the agent's SQL is run: unsafe SQL, rows verified ------------------------------------------


def test_rows_verified_true_false_and_empty(db: Path) -> None:
    total = one_row(db, f"SELECT COUNT(*) FROM {T}")[0]
    honest = success(f"SELECT COUNT(*) AS n FROM {T}", ["n"], [[total]], INSIGHT.format(n=total))
    liar = success(f"SELECT COUNT(*) AS n FROM {T}", ["n"], [[31415]], INSIGHT.format(n="31,415"))
    elsewhere = success("SELECT COUNT(*) AS n FROM winning_companies", ["n"], [[12]], INSIGHT.format(n=12))
    responses = [response("c", honest), response("c", liar, 1), response("c", elsewhere, 2)]
    scores = score([case("c", "كم عدد المناقصات؟", None)], responses, db)
    assert list(scores["rows_verified"]) == [True, False, pd.NA]
    # SQL that does not run on the evaluation database proves nothing of the rows beside it.
    assert list(scores["correct"]) == [True, False, False]
    assert "reported rows its SQL does not return" in scores.loc[1, "not_correct_because"]
    assert "no such table: winning_companies" in scores.loc[2, "sql_problem"]
    assert scores.loc[2, "not_correct_because"] == (
        "its SQL gave no result here: query failed: no such table: winning_companies"
    )
    assert summarize(scores).iloc[0]["rows_not_verified"] == 1


def test_reported_rows_must_be_what_the_sql_returns_column_for_column(db: Path) -> None:
    with QueryRunner(db) as runner:
        result = runner.agent_runs(check_agent_sql("SELECT region_id, name_ar FROM regions ORDER BY region_id"))[0]
    rows = [list(row) for row in result.result.rows]
    assert rows_verified(["region_id", "name_ar"], rows, result) is True
    assert rows_verified(["name_ar"], [row[1:] for row in rows], result) is True  # a subset of the columns
    assert rows_verified(["region_id", "name_ar"], rows[:-1], result) is False  # a row left out
    assert rows_verified(["region_id", "name_ar"], [[i, n + " "] for i, n in rows[:1]] + rows[1:], result) is True
    assert rows_verified(["region_id", "name_ar"], [[rows[0][0], rows[1][1]], [rows[1][0], rows[0][1]], *rows[2:]],
                         result) is False  # values moved between rows
    assert rows_verified(["x"], [[1]], None) is None


def test_another_dialect_is_transpiled_and_run(db: Path) -> None:
    riyadh = one_row(db, f"SELECT COUNT(*) FROM {T} WHERE region_id = 1")[0]
    postgres = success(
        f"SELECT COUNT(*)::int AS n FROM {T} WHERE region_id = 1 AND publish_date >= DATE '2022-01-01'",
        ["n"], [[riyadh]], INSIGHT.format(n=riyadh), dialect="postgres",
    )
    undeclared = {**postgres, "dialect": None}
    unknown = {**postgres, "dialect": "klingon"}
    gold = f"SELECT COUNT(*) FROM {T} WHERE region_id = 1"
    scores = score(
        [case("c", "كم عدد المناقصات في منطقة الرياض؟", gold)],
        [response("c", postgres), response("c", undeclared, 1), response("c", unknown, 2)],
        db,
    )
    assert bool(scores.loc[0, "rows_verified"]) and scores.loc[0, "execution_match"] == 1.0
    assert bool(scores.loc[0, "correct"]) and scores.loc[0, "dialect"] == "postgres"
    assert not bool(scores.loc[2, "correct"]) and "unknown SQL dialect 'klingon'" in scores.loc[2, "sql_problem"]


def test_date_parts_of_another_dialect_are_run_as_sqlite(db: Path) -> None:
    gold = (f"SELECT CAST(STRFTIME('%m', publish_date) AS INTEGER) AS m, COUNT(*) AS n FROM {T} "
            "WHERE STRFTIME('%Y', publish_date) = '2024' GROUP BY m ORDER BY m")
    rows = [list(row) for row in expected_result(db, gold).rows]
    insight = "توزيع مناقصات عام 2024 حسب الشهر كما في الجدول، وأعلاها في الشهر {m} بعدد {n} مناقصة."
    top = max(rows, key=lambda row: row[1])
    answers = {
        "postgres": f"SELECT EXTRACT(MONTH FROM publish_date) AS m, COUNT(*) AS n FROM {T} "
                    "WHERE EXTRACT(YEAR FROM publish_date) = 2024 GROUP BY 1 ORDER BY 1",
        "mysql": f"SELECT MONTH(publish_date) AS m, COUNT(*) AS n FROM {T} WHERE YEAR(publish_date) = 2024 "
                 "GROUP BY MONTH(publish_date) ORDER BY m",
        "tsql": f"SELECT DATEPART(month, publish_date) AS m, COUNT(*) AS n FROM {T} "
                "WHERE YEAR(publish_date) = 2024 GROUP BY DATEPART(month, publish_date) ORDER BY m",
        "duckdb": f"SELECT date_part('month', publish_date) AS m, count(*) AS n FROM {T} "
                  "WHERE date_trunc('year', publish_date) = '2024-01-01' GROUP BY 1 ORDER BY 1",
    }
    responses = [response("c", success(sql, ["m", "n"], rows, insight.format(m=top[0], n=top[1]), dialect=dialect), i)
                 for i, (dialect, sql) in enumerate(answers.items())]
    scores = score([case("c", "ما توزيع مناقصات 2024 حسب الشهر؟", gold, category="distribution")], responses, db)
    assert scores["execution_match"].tolist() == [1.0] * 4 and scores["rows_verified"].tolist() == [True] * 4
    assert scores["correct"].all(), scores["not_correct_because"].tolist()


def test_sql_we_could_not_run_as_sqlite_is_not_blamed_on_the_agent(db: Path) -> None:
    count = one_row(db, f"SELECT COUNT(*) FROM {T}")[0]
    insight = INSIGHT.format(n=count)
    # An ISO week has no SQLite equal (EXTRACT stays), GROUP BY ALL is DuckDB's alone: the agent's
    # SQL parsed in its dialect, and what we made of it fails here.
    week = success(f"SELECT COUNT(*) AS n FROM {T} WHERE EXTRACT(WEEK FROM publish_date) > 0", ["n"], [[count]],
                   insight, dialect="postgres")
    group_all = success(f"SELECT COUNT(*) AS n FROM {T} GROUP BY ALL", ["n"], [[count]], insight, dialect="duckdb")
    # A table or column its own text names that the database lacks is the agent's, in any dialect.
    no_table = success("SELECT COUNT(*) AS n FROM winning_companies", ["n"], [[count]], insight, dialect="postgres")
    no_column = success(f"SELECT COUNT(winner) AS n FROM {T}", ["n"], [[count]], insight, dialect="mysql")
    scores = score([case("c", "كم عدد المناقصات؟", f"SELECT COUNT(*) FROM {T}")],
                   [response("c", one, i) for i, one in enumerate((week, group_all, no_table, no_column))], db)
    assert not scores["correct"].any() and scores["rows_verified"].isna().all()
    because = scores["not_correct_because"].tolist()
    ours = "the pipeline could not run its {} SQL as SQLite: query failed: near {}: syntax error"
    assert because[0] == ours.format("postgres", '"FROM"')
    assert because[1] == ours.format("duckdb", '"ALL"')
    assert because[2] == "its SQL gave no result here: query failed: no such table: winning_companies"
    assert because[3] == "its SQL gave no result here: query failed: no such column: winner"


# --- 3. Correct, and why not ------------------------------------------------------------------


def test_a_wrong_number_passes_the_seed_but_is_not_correct(db: Path) -> None:
    total = one_row(db, f"SELECT COUNT(*) FROM {T}")[0]
    gold = f"SELECT COUNT(*) FROM {T}"
    # Right SQL, right rows, a made-up number in the insight.
    made_up = success(gold, ["n"], [[total]], "بلغ إجمالي عدد المناقصات 31,415 مناقصة وفق بيانات منصة اعتماد.")
    # Wrong SQL and the rows of the agent's own wrong query.
    wrong = success(f"SELECT COUNT(*) * 2 AS n FROM {T}", ["n"], [[31415]],
                    "بلغ إجمالي عدد المناقصات 31,415 مناقصة وفق بيانات منصة اعتماد.")
    scores = score([case("c", "كم عدد المناقصات الكلي؟", gold)], [response("c", made_up), response("c", wrong, 1)], db)
    assert list(scores["overall_passed"]) == [True, True], "the seed's formula: fidelity 3 of 4 still passes"
    assert list(scores["correct"]) == [False, False]
    assert scores.loc[0, "not_correct_because"] == "unverified: … إجمالي عدد المناقصات 31,415 مناقصة وفق بيانات …"
    # The insight is read against the rows its SQL really returns (twice the total): 31,415 is none of them.
    assert scores.loc[1, "not_correct_because"] == (
        "wrong result; reported rows its SQL does not return; "
        "unverified: … إجمالي عدد المناقصات 31,415 مناقصة وفق بيانات …")


def test_an_out_of_scope_question_answered_with_an_unrelated_count_is_not_correct(db: Path) -> None:
    total = one_row(db, f"SELECT COUNT(*) FROM {T}")[0]
    answered = success(f"SELECT COUNT(*) AS n FROM {T}", ["n"], [[total]], INSIGHT.format(n=total))
    refused = {"status": "out_of_scope", "sql": None, "data": [],
               "insights": "عذراً، لا تتضمن البيانات المتاحة أسماء الشركات الفائزة بالمناقصات."}
    question = "ما هي الشركات الفائزة بأكبر عدد من المناقصات؟"
    scores = score(
        [case("w", question, None, table=None, category="out_of_scope")],
        [response("w", answered), response("w", refused, 1)],
        db,
    )
    assert list(scores["correct"]) == [False, True]
    assert scores.loc[0, "not_correct_because"].startswith("answered an out-of-scope question")


def test_an_insight_that_is_not_arabic_is_not_correct(db: Path) -> None:
    total = one_row(db, f"SELECT COUNT(*) FROM {T}")[0]
    sql = f"SELECT COUNT(*) AS n FROM {T}"
    english = success(sql, ["n"], [[total]], f"The platform lists {total:,} tenders in total across all regions.")
    mixed = success(sql, ["n"], [[total]], f"تضم منصة Etimad ما مجموعه {total:,} منافسة في جميع المناطق.")
    refused_in_english = {"status": "out_of_scope", "sql": None, "data": [],
                          "insights": "Sorry, I can only answer questions about government tenders."}
    scores = score(
        [case("c", "كم عدد المناقصات؟", sql), case("w", "ما حالة الطقس في جدة اليوم؟", None, table=None,
                                                    category="out_of_scope")],
        [response("c", english), response("c", mixed, 1), response("w", refused_in_english)],
        db,
    )
    assert list(scores["overall_passed"]) == [True, True, False], "the seed's verdict as it was"
    assert list(scores["correct"]) == [False, True, False]
    assert scores.loc[0, "not_correct_because"] == "not Arabic"
    # A refusal in English to an Arabic question is not the Arabic assistant's answer either.
    assert scores.loc[2, "not_correct_because"] == "not Arabic"


@pytest.mark.parametrize(
    "apology",
    ["معليش، ما عندي بيانات عن الطقس.", "المعذرة، هذا خارج ما أعرفه.", "يؤسفني أنني لا أملك هذه المعلومة.",
     "نأسف، بيانات الطقس ليست لدينا.", "عفواً، لا أستطيع الإجابة عن الطقس.", "مع الاعتذار، السؤال خارج النطاق.",
     "وبالمعذرة منك، لا أملك ذلك.", "آسفة، لا تتوفر لدي هذه البيانات.", "نعتذر عن عدم توفر البيانات."],
)
def test_a_refusal_with_any_apology_passes_and_without_one_says_so(db: Path, apology: str) -> None:
    question = "ما حالة الطقس في جدة اليوم؟"
    without = "هذا السؤال عن الطقس خارج نطاق بيانات المنافسات الحكومية."
    refusals = [{"status": "out_of_scope", "sql": None, "data": [], "insights": text} for text in (apology, without)]
    scores = score([case("w", question, None, table=None, category="out_of_scope")],
                   [response("w", one, i) for i, one in enumerate(refusals)], db)
    assert list(scores["status_match"]) == [1, 0] and list(scores["retrieval_accuracy"]) == [1, 1]
    # The seed's formula, unchanged: a refusal passes on its fidelity, which an apology decides.
    assert list(scores["overall_passed"]) == [True, False] and list(scores["correct"]) == [True, False]
    assert scores.loc[1, "not_correct_because"] == "no apology recognized", "not the retrieval points"


# --- 4. execution match: tolerance, ties, repeated column names ------------------------------------


def test_dropping_one_tender_from_a_large_sum_fails_execution_match(db: Path, suite: list[Path]) -> None:
    tender_id, value = one_row(db, f"SELECT tender_id, estimated_value FROM {T} WHERE region_id = 1 "
                                   "ORDER BY estimated_value, tender_id LIMIT 1")
    gold = f"SELECT SUM(estimated_value) FROM {T} WHERE region_id = 1"
    wrong_sql = f"SELECT SUM(estimated_value) AS total FROM {T} WHERE region_id = 1 AND tender_id <> {tender_id}"
    total, wrong_total = one_row(db, gold)[0], one_row(db, wrong_sql)[0]
    assert abs(total - wrong_total) / total < 1e-6, "inside the old 1e-6 relative tolerance"
    insight = f"بلغ إجمالي القيمة التقديرية لمناقصات منطقة الرياض {wrong_total:,.2f} ريال."
    scores = score([case("c", "ما إجمالي قيمة مناقصات الرياض؟", gold)],
                   [response("c", success(wrong_sql, ["total"], [[wrong_total]], insight))], db, suite)
    row = scores.iloc[0]
    assert (row["execution_match"], row["test_suite_match"], bool(row["correct"])) == (0.0, 0.0, False)
    assert row["not_correct_because"] == "wrong result"
    assert value == 300.0


def test_summation_noise_and_two_decimals_still_match(db: Path) -> None:
    gold = f"SELECT SUM(estimated_value) AS total, AVG(estimated_value) AS mean FROM {T} WHERE region_id = 1"
    total, mean = one_row(db, gold)
    expected = expected_result(db, gold)
    assert result_matches([(total * (1 + 4e-15), mean)], expected)
    assert result_matches([(round(total, 2), round(mean, 2))], expected)
    assert not result_matches([(total, round(mean, 1))], expected)


@pytest.fixture
def tied(tmp_path: Path) -> Path:
    path = tmp_path / "tied.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE t (name TEXT, n INTEGER, region TEXT);
        INSERT INTO t VALUES ('a', 9, 'x'), ('b', 7, 'y'), ('c', 7, 'z'), ('d', 7, 'x'), ('e', 3, 'y'), ('f', 1, 'z');
        """
    )
    connection.commit()
    connection.close()
    return path


def test_tied_rows_under_order_by_match_in_any_order_within_the_tie(tied: Path) -> None:
    expected = expected_result(tied, "SELECT name FROM t ORDER BY n DESC")
    assert expected.groups == [0, 1, 1, 1, 2, 3]
    assert result_matches([("a",), ("d",), ("b",), ("c",), ("e",), ("f",)], expected)
    assert not result_matches([("b",), ("a",), ("c",), ("d",), ("e",), ("f",)], expected), "groups keep their order"
    assert not result_matches([("a",), ("b",), ("c",), ("d",), ("f",), ("e",)], expected)


def test_a_tie_across_the_limit_accepts_any_of_the_tied_rows(tied: Path) -> None:
    expected = expected_result(tied, "SELECT name, n FROM t ORDER BY n DESC LIMIT 3")
    assert [row[0] for row in expected.rows] == ["a", "b", "c"] and expected.alternates == [("d", 7)]
    assert result_matches([("a", 9), ("d", 7), ("b", 7)], expected)
    assert result_matches([("a", 9), ("c", 7), ("d", 7)], expected)
    assert not result_matches([("a", 9), ("d", 7), ("d", 7)], expected), "one tied row twice"
    assert not result_matches([("a", 9), ("b", 7), ("e", 3)], expected), "a row outside the tie"


def test_order_by_a_key_not_in_the_output_and_by_position(tied: Path) -> None:
    by_hidden_key = expected_result(tied, "SELECT name FROM t ORDER BY region")
    assert by_hidden_key.groups == [0, 0, 1, 1, 2, 2]
    assert result_matches([("d",), ("a",), ("e",), ("b",), ("f",), ("c",)], by_hidden_key)
    assert not result_matches([("a",), ("b",), ("d",), ("e",), ("c",), ("f",)], by_hidden_key)
    by_position = expected_result(tied, "SELECT n, name FROM t ORDER BY 1 DESC")
    assert by_position.groups == [0, 1, 1, 1, 2, 3]
    assert result_matches([(9, "a"), (7, "c"), (7, "b"), (7, "d"), (3, "e"), (1, "f")], by_position)


def test_two_result_columns_of_one_name_are_both_compared(db: Path) -> None:
    from nabahan_pipeline.evaluation.scoring.case_scores import score_answer

    gold = ("SELECT g.name_ar, r.name_ar FROM government_agencies g JOIN regions r ON r.region_id = g.region_id "
            "WHERE g.region_id IN (1, 5)")
    with QueryRunner(db) as runner:
        result = runner.agent_runs(check_agent_sql(gold))[0].result
    assert result.columns == ["name_ar", "name_ar"]
    rows = [list(row) for row in result.rows]
    lossless = success(gold, result.columns, rows, "هذه قائمة الجهات الحكومية ومناطقها في الرياض والشرقية كما وردت.")
    as_objects = {**lossless, "columns": None, "rows": None,
                  "data": [dict(zip(result.columns, row)) for row in rows]}  # one key: the region wins
    stored = response("c", lossless)
    assert json.loads(stored["columns"]) == ["name_ar", "name_ar"]
    # Compared on the rows the agent reported (its SQL not re-run): only the lossless form holds both.
    the_case = case("c", "ما الجهات في الرياض والشرقية ومناطقها؟", gold, category="lookup")
    gold_result = expected_result(db, gold)
    assert score_answer(the_case, lossless, 0.1, gold_result)["execution_match"] == 1.0
    assert score_answer(the_case, as_objects, 0.1, gold_result)["execution_match"] == 0.0
    # Through the pipeline, from the stored response, with the SQL re-run.
    scores = score([the_case], [stored], db)
    assert scores.loc[0, "execution_match"] == 1.0 and bool(scores.loc[0, "rows_verified"])


# --- 5. the test suite ----------------------------------------------------------------------------


def test_the_test_suite_catches_a_threshold_read_as_at_least(db: Path, suite: list[Path]) -> None:
    gold = f"SELECT COUNT(*) FROM {T} WHERE estimated_value > 1000000"
    near_miss = f"SELECT COUNT(*) AS n FROM {T} WHERE estimated_value >= 1000000"
    count = one_row(db, near_miss)[0]
    assert count == one_row(db, gold)[0], "the same count on the evaluation database"
    answer = success(near_miss, ["n"], [[count]], INSIGHT.format(n=count))
    scores = score([case("c", "كم مناقصة تتجاوز قيمتها مليون ريال؟", gold, category="value_filter")],
                   [response("c", answer)], db, suite)
    row = scores.iloc[0]
    assert (row["execution_match"], row["test_suite_match"], bool(row["correct"])) == (1.0, 0.0, False)
    assert row["not_correct_because"] == "right on the evaluation database only (test suite)"


def test_the_reference_agents_right_answers_pass_the_test_suite(db: Path, suite: list[Path]) -> None:
    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.agents.runner import run_agent

    cases = load_test_cases(SHIPPED_TEST_CASES)
    scores = score_responses(cases, run_agent(cases, resolve_agent("embedded")), db, suite=suite)
    with_gold = scores[scores["execution_match"].notna()]
    assert len(with_gold) == 17 and (with_gold["test_suite_match"] == 1.0).all()
    assert scores["correct"].all(), scores.loc[~scores["correct"], "not_correct_because"].tolist()


def _tiny(path: Path, columns: str, rows: list[tuple]) -> Path:
    connection = sqlite3.connect(path)
    connection.execute(f"CREATE TABLE deals ({columns})")
    connection.executemany(f"INSERT INTO deals VALUES ({', '.join('?' * len(rows[0]))})", rows)
    connection.commit()
    connection.close()
    return path


def test_sql_that_fails_on_a_test_suite_database_is_a_test_suite_mismatch(tmp_path: Path) -> None:
    # The agent's query reads a column the second test-suite database lacks: right on the evaluation
    # database and the first suite database, no result on the second. That is no right answer there.
    evaluation = _tiny(tmp_path / "evaluation.sqlite", "id INTEGER, amount REAL, note TEXT",
                       [(1, 10.0, "a"), (2, 25.0, "b"), (3, 40.0, "c")])
    suite = [_tiny(tmp_path / "suite1.sqlite", "id INTEGER, amount REAL, note TEXT", [(1, 30.0, "x"), (2, 5.0, "y")]),
             _tiny(tmp_path / "suite2.sqlite", "id INTEGER, amount REAL", [(1, 50.0), (2, 60.0)])]
    gold = "SELECT COUNT(*) FROM deals WHERE amount > 20"
    agent_sql = "SELECT COUNT(note) AS n FROM deals WHERE amount > 20"
    answer = success(agent_sql, ["n"], [[2]], "يبلغ عدد الصفقات التي تتجاوز قيمتها 20 ريالاً صفقتين اثنتين فقط: 2.")
    scores = score([case("c", "كم صفقة تتجاوز 20 ريالاً؟", gold, table="deals")], [response("c", answer)],
                   evaluation, suite)
    row = scores.iloc[0]
    assert (row["execution_match"], row["test_suite_match"]) == (1.0, 0.0), "no longer NaN"
    assert bool(row["overall_passed"]) and not bool(row["correct"])
    assert row["not_correct_because"] == "test suite: fails on test-suite database 2: no such column: note"
    assert bool(row["rows_verified"]) and pd.isna(row["sql_problem"]), "it ran here: nothing wrong on this database"
    overall = summarize(scores).iloc[0]
    assert (overall["test_suite_cases"], overall["test_suite_accuracy"]) == (1, 0.0)


def test_sql_that_fails_on_the_evaluation_database_is_not_a_test_suite_mismatch(tmp_path: Path) -> None:
    evaluation = _tiny(tmp_path / "evaluation.sqlite", "id INTEGER, amount REAL", [(1, 10.0), (2, 25.0)])
    suite = [_tiny(tmp_path / "suite1.sqlite", "id INTEGER, amount REAL, note TEXT", [(1, 30.0, "x")])]
    answer = success("SELECT COUNT(note) AS n FROM deals", ["n"], [[2]], "يبلغ عدد الصفقات المسجلة صفقتين: 2 صفقة.")
    scores = score([case("c", "كم صفقة؟", "SELECT COUNT(*) FROM deals", table="deals")], [response("c", answer)],
                   evaluation, suite)
    row = scores.iloc[0]
    assert row["execution_match"] == 0.0 and pd.isna(row["test_suite_match"]), "unknown there: it did not run here"
    assert row["not_correct_because"] == "its SQL gave no result here: query failed: no such column: note"


def test_suite_databases_are_deterministic_and_round_some_money(tmp_path: Path, monkeypatch) -> None:
    from nabahan_pipeline.files import file_sha256

    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(tmp_path / "a"))
    first = suite_databases(2)
    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(tmp_path / "b"))
    second = suite_databases(2)
    assert [file_sha256(p) for p in first] == [file_sha256(p) for p in second]
    assert first[0].name != first[1].name
    round_millions = one_row(first[0], f"SELECT COUNT(*) FROM {T} WHERE estimated_value = 1000000")[0]
    assert round_millions > 0


# --- 6. the suite is checked before any agent call ---------------------------------------------------


def test_a_gold_sql_that_fails_names_the_file_case_number_id_and_the_database_message(tmp_path: Path, db: Path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([
        {"id": "fine", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": T,
         "expected_sql": f"SELECT COUNT(*) FROM {T}"},
        {"id": "typo", "question": "كم قيمة المناقصات؟", "category": "aggregation", "expected_table": T,
         "expected_sql": f"SELECT SUM(estimated_valu) FROM {T}"},
    ], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TestCaseError) as info:
        check_against_database(load_test_cases(path), path, db)
    assert str(info.value) == (
        f"{path}: case 2 (id 'typo'): field 'expected_sql': fails on {db.name}: "
        "query failed: no such column: estimated_valu"
    )


def test_expected_table_must_be_a_table_of_the_database(tmp_path: Path, db: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"question": "كم عدد الشركات؟", "category": "count",
                                 "expected_table": "companies"}], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TestCaseError, match=r"case 1 \(id 'c-[0-9a-f]+'\): field 'expected_table': 'companies' is not "
                                            r"a table of .*\(tables: activities, future_projects, "):
        check_against_database(load_test_cases(path), path, db)


@pytest.mark.parametrize("bad_table_at, reported", [(None, 2), (4, 2), (2, 2), (1, 1)])
def test_the_first_problem_in_file_order_is_reported(tmp_path: Path, db: Path, bad_table_at: int | None,
                                                     reported: int) -> None:
    # The gold queries run on two threads; whichever finishes first, the lowest case number is named.
    cases = [{"id": f"c{number}", "question": f"كم عدد المناقصات رقم {number}؟", "category": "count",
              "expected_table": T, "expected_sql": f"SELECT COUNT(*) FROM {T} WHERE tender_id > {number}"}
             for number in range(1, 9)]
    for number in (2, 3, 6):
        cases[number - 1]["expected_sql"] = f"SELECT SUM(no_column_{number}) FROM {T}"
    if bad_table_at is not None:
        cases[bad_table_at - 1]["expected_table"] = "companies"
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TestCaseError) as info:
        check_against_database(load_test_cases(path), path, db)
    assert f": case {reported} (id 'c{reported}'): " in str(info.value)
    assert ("expected_table" in str(info.value)) == (bad_table_at == reported)
