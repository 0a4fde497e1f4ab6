"""The seed's retrieval points, 2 of 3 pass; out of scope, the refusal."""

from __future__ import annotations

import pytest

from nabahan_pipeline_tests.evaluation.scoring.answers import OUT_OF_SCOPE_CASE, answer, refusal, score


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
