"""The seed's retrieval accuracy: three points (valid SQL, the expected table, rows), 2 of 3 pass.
An out-of-scope case passes exactly when the agent refused (out_of_scope, no SQL); its points
still record what the agent ran, and decide nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.etimad_db.sql_safety import read_sql
from nabahan_pipeline.evaluation.scoring.answer import Answer, text_or_none
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, by_case, mean_of, point, scorer


@scorer(
    point("sql_valid", "Retrieval point: SQL present and one read-only SELECT.", "SQL Valid"),
    point("table_match", "Retrieval point: the SQL reads the expected table.", "Table Match"),
    point("has_rows", "Retrieval point: the result has rows.", "Has Rows"),
    Column("retrieval_points", pa.Column(int, pa.Check.in_range(0, 3), description="The three retrieval points summed."),
           "Retrieval Points"),
    point("retrieval_accuracy", "The seed's retrieval verdict: 2 of 3 points; out of scope, the refusal.",
          "Retrieval Accuracy"),
    figures=[Figure("avg_retrieval_accuracy", "Avg Retrieval Accuracy", "rate", "Mean retrieval accuracy.",
                    mean_of("retrieval_accuracy"), by_case(lambda scores: scores["retrieval_accuracy"]), trend=True)],
)
def retrieval(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The three retrieval points, their sum and the seed's verdict on them."""
    sql_valid = int(answer.sql is not None and not answer.checked.unsafe)
    table_match = int(references(answer.sql, answer.dialect, text_or_none(answer.case.get("expected_table"))))
    has_rows = int(answer.data_rows > 0)
    points = sql_valid + table_match + has_rows
    return {
        "sql_valid": sql_valid,
        "table_match": table_match,
        "has_rows": has_rows,
        "retrieval_points": points,
        "retrieval_accuracy": int(points >= 2) if answer.in_scope else int(answer.refused),
    }


def references(sql: str | None, dialect: str | None, table: str | None) -> bool:
    """``sql`` (parsed in its dialect, SQLite by default) reads ``table``, in any letter case."""
    if sql is None or table is None:
        return False
    tables = read_sql(sql, dialect).tables  # None: it does not parse in its dialect
    return tables is not None and table.strip().lower() in tables
