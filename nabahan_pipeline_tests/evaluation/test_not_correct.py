"""The answers not Correct as people read them: failures first, the agent's rows beside the gold's
(a few rows, cut), literal text in Markdown, one log line each."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.not_correct import (
    KEY_COLUMNS,
    case_scores_preview,
    failures_first,
    log_lines,
    not_correct_answers,
    not_correct_markdown,
    rows_text,
)
from nabahan_fixtures.synthetic import make_scores

GOLD = "SELECT COUNT(*) AS n FROM t"


def _scores() -> pd.DataFrame:
    """Four answers: a Correct, b passed but a wrong result, c failed (an error), d Correct."""
    scores = make_scores(4, fail_share=0.0, error_share=0.0).assign(case_id=["a", "b", "c", "d"], category="count")
    scores.loc[1, ["correct", "not_correct_because"]] = [False, "wrong result"]
    scores.loc[2, ["overall_passed", "correct", "not_correct_because"]] = [False, False, "error: boom"]
    return scores


def _responses(rows: dict[str, list]) -> pd.DataFrame:
    return pd.DataFrame([{"case_id": case_id, "repeat": 0, "columns": json.dumps(["label", "n"]),
                          "rows": json.dumps(value, ensure_ascii=False)} for case_id, value in rows.items()])


def test_failures_come_first_then_the_wrong_then_the_correct_in_file_order():
    scores = _scores()
    assert failures_first(scores)["case_id"].tolist() == ["c", "b", "a", "d"]
    preview = case_scores_preview(scores, rows=3)
    assert preview["case_id"].tolist() == ["c", "b", "a"]
    assert list(preview.columns[: len(KEY_COLUMNS)]) == list(KEY_COLUMNS)
    assert sorted(preview.columns) == sorted(scores.columns), "the other columns follow"


def test_a_result_is_a_few_rows_each_value_cut_and_no_control_character():
    assert rows_text(["n"], []) == "no rows"
    assert rows_text(["n"], [[1], [2], [3], [4], [5]]) == "n: (1); (2); (3) … of 5 rows"
    text = rows_text(["label", "n"], [["x" * 100 + "\x1b[2J", 7]])
    assert text == "label, n: (" + "x" * 39 + "…, 7)"
    assert "\x1b" not in rows_text(["a\x1b[31m"], [["\x9b1m"]])


def test_the_agents_rows_beside_the_golds_from_the_check_or_run_here(tmp_path: Path):
    scores = _scores()
    cases = pd.DataFrame({"case_id": ["a", "b", "c", "d"], "expected_sql": [None, GOLD, GOLD, None]})
    responses = _responses({"a": [], "b": [["<b>x</b>", 7]], "c": [], "d": []})
    checked = {GOLD: [ExpectedResult(["n"], [(20000,)])]}
    table = not_correct_answers(scores, responses, cases, golds=checked)
    assert table["case_id"].tolist() == ["c", "b"]
    assert table.set_index("case_id")["why"].to_dict() == {"c": "error: boom", "b": "wrong result"}
    assert table.set_index("case_id")["result"].to_dict() == {"c": "no rows", "b": "label, n: (<b>x</b>, 7)"}
    assert table["expected"].tolist() == ["n: (20000)"] * 2

    database = tmp_path / "db.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);")
    connection.close()
    run_here = not_correct_answers(scores, responses, cases, database=database, limit=1)
    assert run_here["case_id"].tolist() == ["c"] and run_here["expected"].tolist() == ["n: (3)"]
    broken = not_correct_answers(scores, responses, cases.assign(expected_sql=[None, "SELECT nope FROM t", None, None]),
                                 database=database)
    assert broken.set_index("case_id")["expected"]["b"].startswith("the gold SQL did not run: ")


def test_the_markdown_is_literal_text_and_says_what_it_leaves_out():
    scores = _scores()
    cases = pd.DataFrame({"case_id": ["a", "b", "c", "d"], "expected_sql": [None] * 4})
    hostile = "<img src=x onerror=alert(1)> | [link](http://e.x) **bold**"
    table = not_correct_answers(scores.assign(sql=hostile), _responses({"b": [[hostile, 7]]}), cases, limit=1)
    text = not_correct_markdown(table, total=2)
    assert "<img" not in text and "&lt;img" in text and "\\[link\\]" in text and "\\*\\*bold" in text
    assert text.endswith("The first 1 of 2 answers not Correct; case_scores holds them all.")
    assert len(text.splitlines()) == 2 + 1 + 2, "header, rule, one row, the note"
    assert not_correct_markdown(table.head(0), total=0) == "Every answer is Correct."


def test_one_log_line_per_answer_not_correct_then_how_many_more():
    scores = _scores()
    assert log_lines(scores) == [
        "case 3 c (count): failed: error: boom",
        "case 2 b (count): passed the seed's checks, not correct: wrong result",
    ]
    assert log_lines(scores, limit=1)[1:] == ["... and 1 more answers not Correct (case_scores holds them all)"]


def test_the_table_says_each_answers_claims_and_where_the_llm_judge_disagrees():
    scores = _scores()
    scores.loc[1, ["claims_checked", "claims_verified", "claims_contradicted", "claims_unverified"]] = [
        3, 1, 1, json.dumps(["… والمجموع 912 منافسة."], ensure_ascii=False)]
    scores["judge_verdict"] = [None, "supported", None, None]
    cases = pd.DataFrame({"case_id": ["a", "b", "c", "d"], "expected_sql": [None, None, None, None]})
    table = not_correct_answers(scores, _responses({"a": [], "b": [], "c": [], "d": []}), cases).set_index("case_id")
    assert table.at["b", "claims"] == ("claims: 3 read, 1 verified, 1 contradicted, 1 unverified; "
                                       "the LLM judge finds the insight supported; the claims checker does not")
    assert table.at["c", "claims"] == "", "no claim read, the judge off: nothing to say"
