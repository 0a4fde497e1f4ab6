"""The answers not Correct told for people, failures first (the seed's failures, then those it
passes but we do not; file order within): why, and the agent's SQL and rows beside the gold's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pandas as pd

from nabahan_pipeline.escaping import markdown_table, one_line
from nabahan_pipeline.etimad_db.sql_safety import UnsafeSQLError
from nabahan_pipeline.evaluation.agent_sql import DEFAULT_MAX_ROWS, DEFAULT_SQL_TIMEOUT_S, QueryRunner
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.scoring.claims import coverage, judge_disagreement

ROWS_SHOWN = 3
VALUE_CHARS = 40
# The UI's table and the run log name this many answers; case_scores holds them all.
SHOWN = 50
CELL_CHARS = 160
PREVIEW_ROWS = 10
# What a person reads first of an answer's scores: which answer, the verdicts and why, what it did.
KEY_COLUMNS: tuple[str, ...] = (
    "query_num", "case_id", "repeat", "category", "correct", "overall_passed", "not_correct_because",
    "question", "status", "execution_match", "sql", "insights", "error", "latency_s",
)
COLUMNS: tuple[str, ...] = ("query_num", "case_id", "repeat", "category", "question", "why", "claims", "sql",
                            "result", "expected")


def failures_first(scores: pd.DataFrame) -> pd.DataFrame:
    """``scores`` reordered: not Overall Passed, then passed but not Correct, then Correct."""
    rank = scores["correct"].astype(bool).astype(int) + scores["overall_passed"].astype(bool).astype(int)
    return scores.iloc[rank.reset_index(drop=True).sort_values(kind="stable").index]


def case_scores_preview(scores: pd.DataFrame, rows: int = PREVIEW_ROWS) -> pd.DataFrame:
    """The first ``rows`` answers, failures first, the key columns first (the rest after them)."""
    shown = failures_first(scores).head(rows)
    key = [name for name in KEY_COLUMNS if name in shown.columns]
    return shown[key + [name for name in shown.columns if name not in key]]


def rows_text(columns: Sequence[Any], rows: Sequence[Sequence[Any]], *, total: int | None = None,
              shown: int = ROWS_SHOWN, value_chars: int = VALUE_CHARS) -> str:
    """A result in one line, its first ``shown`` rows (of ``total``, default all given), each value
    cut: ``n: (7); (8) … of 12 rows``."""
    total = len(rows) if total is None else total
    if not rows:
        return "no rows"
    cells = ["(" + ", ".join(_cut(value, value_chars) for value in row) + ")" for row in rows[:shown]]
    more = f" … of {total} rows" if total > shown else ""
    return ", ".join(_cut(name, value_chars) for name in columns) + ": " + "; ".join(cells) + more


def not_correct_answers(
    scores: pd.DataFrame,
    responses: pd.DataFrame,
    cases: pd.DataFrame,
    *,
    database: str | Path | None = None,
    golds: Mapping[str, Sequence[ExpectedResult]] | None = None,
    limit: int | None = None,
    sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """The answers not Correct, failures first (the first ``limit``), with COLUMNS: why, the
    claims' coverage (and where the LLM judge, when on, disagrees with the checker), the agent's SQL, its rows (``result``) and the gold SQL's on the evaluation database (``expected``;
    empty without gold SQL). A gold's rows come from ``golds`` (the case file's check), else its SQL
    is run on ``database`` here; a gold that fails is said in its cell, never raised."""
    wrong = failures_first(scores[~scores["correct"].astype(bool)])
    if limit is not None:
        wrong = wrong.head(limit)
    gold_sql = dict(zip(cases["case_id"], cases["expected_sql"])) if "expected_sql" in cases else {}
    answers = {(case_id, int(repeat)): (columns, rows) for case_id, repeat, columns, rows
               in responses[["case_id", "repeat", "columns", "rows"]].itertuples(index=False)}
    expected: dict[str, str] = {}
    records = []
    runner = QueryRunner(database, timeout_s=sql_timeout_s, max_rows=max_rows) if database is not None else None
    with runner or nullcontext():
        for row, record in zip(wrong.itertuples(index=False), wrong.to_dict("records")):
            sql = gold_sql.get(row.case_id)
            if isinstance(sql, str) and sql not in expected:
                expected[sql] = _gold_text(sql, golds or {}, runner)
            columns, rows = answers.get((row.case_id, int(row.repeat)), ("[]", "[]"))
            records.append({
                "query_num": int(row.query_num), "case_id": row.case_id, "repeat": int(row.repeat),
                "category": row.category, "question": row.question, "why": row.not_correct_because,
                "claims": "; ".join(part for part in (coverage(record), judge_disagreement(record)) if part),
                "sql": row.sql, "result": _stored_rows_text(columns, rows),
                "expected": expected.get(sql, "") if isinstance(sql, str) else "",
            })
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))


def not_correct_markdown(table: pd.DataFrame, total: int) -> str:
    """``not_correct_answers``' table as Markdown, every cell literal text and cut; says when it
    shows only the first of ``total``."""
    if not total:
        return "Every answer is Correct."
    shown = markdown_table(table, cell_chars=CELL_CHARS)
    if len(table) < total:
        shown += f"\n\nThe first {len(table)} of {total} answers not Correct; case_scores holds them all."
    return shown


def log_lines(scores: pd.DataFrame, limit: int = SHOWN) -> list[str]:
    """One line per answer not Correct (failures first, the first ``limit``), then how many more."""
    wrong = failures_first(scores[~scores["correct"].astype(bool)])
    lines = []
    for row in wrong.head(limit).itertuples(index=False):
        again = f" repeat {int(row.repeat) + 1}" if int(row.repeat) else ""
        verdict = "failed" if not row.overall_passed else "passed the seed's checks, not correct"
        lines.append(f"case {int(row.query_num)}{again} {_one_line(row.case_id)} ({row.category}): {verdict}: "
                     f"{_one_line(row.not_correct_because)}")
    if len(wrong) > limit:
        lines.append(f"... and {len(wrong) - limit} more answers not Correct (case_scores holds them all)")
    return lines


def _gold_text(sql: str, golds: Mapping[str, Sequence[ExpectedResult]], runner: QueryRunner | None) -> str:
    results = golds.get(sql)
    if not results and runner is not None:
        try:
            results = runner.expected(sql)[:1]
        except (UnsafeSQLError, OSError) as error:
            return f"the gold SQL did not run: {_cut(error, 120)}"
    return rows_text(results[0].columns, results[0].rows) if results else ""


def _stored_rows_text(columns: Any, rows: Any) -> str:
    """An agent_responses row's result (its JSON texts, read as the HTML report reads them) in one line."""
    # The page's module (and Jinja2) imported when a wrong answer is shown, not before the first question.
    from nabahan_pipeline.evaluation.html_report import stored_result

    result = stored_result(columns, rows)
    return rows_text(result.columns, [row if isinstance(row, (list, tuple)) else [row] for row in result.rows],
                     total=result.total)


def _cut(value: object, chars: int) -> str:
    return one_line(value, chars).translate(_CONTROLS)


def _one_line(value: object) -> str:
    """``value`` as one line of text no terminal acts on (its control characters replaced)."""
    return " ".join(str(value).split()).translate(_CONTROLS)


_CONTROLS = dict.fromkeys([*range(0x20), 0x7F, *range(0x80, 0xA0)], "\ufffd")
