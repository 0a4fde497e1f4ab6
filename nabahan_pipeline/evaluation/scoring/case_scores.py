"""The case_scores table: every answer walked through the scorers, in order, then the consistency
over each case's repeats.

Each scorer fills the columns it declares and may read the scores of those before it (the
verdicts read them all); the columns of the answer itself (case, status, SQL, latency ...) are
copied here. ``CASE_SCORES``, the table's schema, is derived from what each scorer declares.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.contract import ContractError, ResultTable, result_table
from nabahan_pipeline.agents.responses_table import AGENT_RESPONSES, non_text_dtypes
from nabahan_pipeline.etimad_db.sql_safety import QueryResult, UnsafeSQLError
from nabahan_pipeline.evaluation.agent_sql import (
    DEFAULT_MAX_ROWS,
    DEFAULT_SQL_TIMEOUT_S,
    QueryRunner,
    SQLRun,
    check_agent_sql,
)
from nabahan_pipeline.evaluation.case_table import TEST_CASES
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.scoring import consistency
from nabahan_pipeline.evaluation.scoring.claims import claims
from nabahan_pipeline.evaluation.scoring.answer import Answer, data_rows, present, text_or_none
from nabahan_pipeline.evaluation.scoring.declare import Column, Scorer, count
from nabahan_pipeline.evaluation.scoring.execution import execution
from nabahan_pipeline.evaluation.scoring.fidelity import fidelity
from nabahan_pipeline.evaluation.scoring.hallucination import hallucination
from nabahan_pipeline.evaluation.scoring.judge import judge_off, judge_scorer
from nabahan_pipeline.evaluation.scoring.latency import latency
from nabahan_pipeline.evaluation.scoring.location import error_location
from nabahan_pipeline.evaluation.scoring.refusals import refusals
from nabahan_pipeline.evaluation.scoring.retrieval import retrieval
from nabahan_pipeline.evaluation.scoring.verdicts import correct, overall_passed

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.judge import Judge

# In the order they run: each may read the scores of those before it. The judge's comes last (no
# verdict reads it), off unless score_responses is given a judge.
SCORERS: tuple[Scorer, ...] = (
    retrieval, claims, hallucination, fidelity, latency, execution, refusals, overall_passed, correct, error_location,
    judge_off,
)

_RESPONSE = AGENT_RESPONSES.columns
_CASE = TEST_CASES.columns
# The columns of the answer itself and of its case, copied into case_scores (with its CSV header).
ANSWER_COLUMNS: tuple[Column, ...] = (
    count("query_num", "The case's number, 1-based in file order.", "Query #", at_least=1),
    Column("case_id", _RESPONSE["case_id"], "Case ID"),
    Column("repeat", _RESPONSE["repeat"], "Repeat"),
    Column("timestamp", pa.Column(str, description="When the run scored its answers (ISO 8601, one per run)."),
           "Timestamp"),
    Column("question", _CASE["question"], "Question"),
    Column("category", pa.Column(str, description=_CASE["category"].description), "Category"),
    Column("expected_table", _CASE["expected_table"], "Expected Table"),
    *(Column(name, _RESPONSE[name], header) for name, header in (
        ("status", "Status"), ("sql", "SQL Generated"), ("dialect", "SQL Dialect"), ("data_rows", "Data Rows"),
        ("insights", "Insights"), ("error", "Error"), ("latency_s", "Latency (s)"), ("cached", "Cached"),
        ("prompt_tokens", "Prompt Tokens"), ("completion_tokens", "Completion Tokens"))),
    Column("result_digest", pa.Column(str, description="Order-blind digest of the result rows.")),
)
# case_scores' column order, as earlier runs stored it (their Parquet files, the UI's previews); a
# column declared but not named here follows the named ones, in SCORERS order, before the repeats'.
LAYOUT: tuple[str, ...] = (
    "query_num", "case_id", "repeat", "timestamp", "question", "category", "expected_table", "status", "sql",
    "dialect", "data_rows", "insights", "error", "latency_s", "cached", "prompt_tokens", "completion_tokens",
    "result_digest", "sql_valid", "table_match", "has_rows", "retrieval_points", "retrieval_accuracy",
    "status_match", "arabic_text", "numbers_present", "no_hallucination", "fidelity_points", "generation_fidelity",
    "latency_tier", "latency_score", "execution_match", "ungrounded_numbers", "hallucination_markers",
    "claims_checked", "claims_contradicted", "claim_details", "false_refusal", "false_answer", "overall_passed",
    "unsafe_sql", "sql_problem", "rows_verified", "test_suite_match", "correct", "not_correct_because",
    "error_location", "judge_verdict", "judge_reason",
)
# Every column of case_scores as declared (the answer's, each scorer's, the repeats'), in table order.
DECLARED: dict[str, Column] = {column.name: column for column in (
    *ANSWER_COLUMNS, *(column for one in SCORERS for column in one.columns), *consistency.DECLARED)}
_SCORED = [column for one in SCORERS for column in one.column_names]
REPEAT_COLUMNS: tuple[str, ...] = consistency.COLUMNS
# Every column but those over a case's repeats, in table order.
CASE_SCORE_COLUMNS: tuple[str, ...] = (*LAYOUT, *(name for name in _SCORED if name not in LAYOUT))
# What score_answer returns, in the table's order.
SCORE_COLUMNS: tuple[str, ...] = tuple(column for column in CASE_SCORE_COLUMNS if column in _SCORED)
# What scored_row returns, in this order: an answer's scores and the columns read from its result.
ROW_SCORE_COLUMNS: tuple[str, ...] = (*SCORE_COLUMNS, "data_rows", "result_digest")


CASE_SCORES = pa.DataFrameSchema(
    {name: DECLARED[name].schema for name in (*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS)},
    name="case_scores",
    description="Each answer scored: one row per case and repeat, in file order.",
    strict=True,
    ordered=True,
)
CASE_SCORE_DTYPES: dict[str, str] = non_text_dtypes(CASE_SCORES)
# Answers scored at a time: what scoring holds besides the table stays flat as answers grow.
BATCH_ROWS = 2_000
# The seed's verdict as the console shows it the moment an answer arrives, and the scorers it takes
# (in SCORERS order; overall_passed reads retrieval's and fidelity's verdicts, fidelity the markers, the
# markers the claims' reading of each number).
SEED_VERDICT_COLUMNS = ("retrieval_accuracy", "generation_fidelity", "latency_tier", "overall_passed")
SEED_SCORERS: tuple[Scorer, ...] = (retrieval, claims, hallucination, fidelity, latency, overall_passed)


def score_answer(
    case: Mapping[str, Any],
    answer: Mapping[str, Any],
    latency_s: float,
    gold: QueryResult | ExpectedResult | None = None,
    *,
    replay: SQLRun | None = None,
    suite: Sequence[tuple[ExpectedResult, SQLRun]] = (),
    scorers: Sequence[Scorer] | None = None,
) -> dict[str, Any]:
    """The score columns of one answer to one case (pure): every scorer of ``scorers`` (all of
    SCORERS unless told), in order, on the answer as ``Answer.read`` reads it (``gold`` is required
    when the case has expected_sql)."""
    read = Answer.read(case, answer, latency_s, gold, replay=replay, suite=suite)
    scores: dict[str, Any] = {}
    for one in SCORERS if scorers is None else scorers:
        filled = one(read, scores)
        if set(filled) != set(one.column_names):
            raise RuntimeError(f"scorer {one.name} filled {sorted(filled)}, not its columns {sorted(one.column_names)}")
        scores.update(filled)
    return {column: scores[column] for column in SCORE_COLUMNS if column in scores}


def seed_verdict(case: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """The seed's verdict of one stored response (retrieval, fidelity, latency tier, Overall
    Passed): ``score_answer`` with the scorers it reads, which run no query, so the console can
    show it the moment an answer arrives."""
    scores = score_answer({**case, "expected_sql": None}, _stored_answer(response), float(response["latency_s"]),
                          scorers=SEED_SCORERS)
    return {column: scores[column] for column in SEED_VERDICT_COLUMNS}


def score_responses(
    cases: pd.DataFrame,
    responses: pd.DataFrame,
    database: str | Path | None,
    *,
    suite: Sequence[str | Path] = (),
    timestamp: str | None = None,
    sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
    golds: Mapping[str, list[ExpectedResult]] | None = None,
    judge: Judge | None = None,
    scored: Mapping[tuple[str, int], Sequence[Any]] | None = None,
) -> pd.DataFrame:
    """The case_scores table: every response (case x repeat) scored against its case, in file
    order. An answer whose scores ``scored`` holds (keyed by case id and repeat, in
    ``ROW_SCORE_COLUMNS`` order: scored as it arrived, ``scoring.on_arrival``) is assembled, not
    scored again. The others' SQL and gold SQL run on ``database`` and on the test-suite databases
    ``suite``, each distinct query once per database; a gold SQL whose results ``golds`` holds
    (the case file's check ran it under the same limits) is not run again; ``judge`` (none: off)
    is asked about each distinct answer once. A gold SQL that fails raises."""
    unknown = sorted(set(responses["case_id"]) - set(cases["case_id"]))
    if unknown:
        raise ValueError(f"responses for unknown case ids: {', '.join(map(str, unknown[:5]))}")
    gold_sql = [text_or_none(sql) for sql in _values(cases, "expected_sql")]
    case_values = {name: cases[name].tolist() for name in cases.columns}
    first_case: dict[str | None, str] = {}  # the first case of each gold SQL, named when it fails
    for case_id, sql in zip(case_values["case_id"], gold_sql):
        if sql is not None and database is None:
            raise ValueError(f"case {case_id}: has expected_sql but no database was given")
        first_case.setdefault(sql, case_id)
    timestamp = timestamp or datetime.now().astimezone().isoformat(timespec="seconds")
    position = {case_id: index for index, case_id in enumerate(cases["case_id"])}
    ordered = responses.assign(_position=responses["case_id"].map(position)).sort_values(
        ["_position", "repeat"], kind="stable"
    )
    # Each distinct gold SQL and agent SQL runs once here; its results are held until its last answer.
    agent_sql = list(zip(map(text_or_none, _values(ordered, "sql")), map(text_or_none, _values(ordered, "dialect"))))
    done = scored or {}
    keys = list(zip(_values(ordered, "case_id"), (int(repeat) for repeat in _values(ordered, "repeat"))))
    unscored = [key not in done for key in keys]
    checked_golds = golds or {}
    gold_runs = _UntilLastUse(gold_sql[index] for index, left in zip(ordered["_position"], unscored) if left)
    agent_runs = _UntilLastUse(sql for sql, left in zip(agent_sql, unscored) if left)
    scorers = None if judge is None else tuple(judge_scorer(judge) if one is judge_off else one for one in SCORERS)
    batches = []
    runner_or_none = (QueryRunner(database, suite, timeout_s=sql_timeout_s, max_rows=max_rows)
                      if database and any(unscored) else None)
    with runner_or_none or nullcontext() as runner:

        def gold_of(index: int) -> list[ExpectedResult]:
            sql = gold_sql[index]
            if sql is not None and sql in checked_golds:
                return checked_golds[sql]
            return gold_runs.take(sql, lambda: gold_results(first_case[sql], sql, runner) if runner else [])

        def runs_of(sql: tuple[str | None, str | None]) -> list[SQLRun]:
            return agent_runs.take(sql, lambda: runner.agent_runs(check_agent_sql(*sql)) if runner else [])

        for start in range(0, len(ordered), BATCH_ROWS):  # what scoring holds besides the table stays flat
            batch = ordered.iloc[start : start + BATCH_ROWS].reset_index(drop=True)
            positions, sql_of = batch["_position"].tolist(), agent_sql[start : start + BATCH_ROWS]
            rows = [
                dict(zip(ROW_SCORE_COLUMNS, done[key])) if key in done else
                scored_row({name: values[index] for name, values in case_values.items()}, response,
                           gold_of(index), runs_of(sql), scorers)
                for response, index, sql, key in zip(batch.to_dict("records"), positions, sql_of,
                                                     keys[start : start + BATCH_ROWS])
            ]
            batches.append(_scores_frame(_answer_table(batch, case_values, timestamp), rows))
    table = pd.concat(batches, ignore_index=True) if batches else _scores_frame(_answer_table(ordered, {}, timestamp), [])
    return consistency.add_repeat_consistency(table)[list(CASE_SCORES.columns)]


class _UntilLastUse:
    """Each key's value made once and handed to each of the key's uses (counted ahead), then let go
    at the last: a run's distinct queries each run once, and what is held stays flat as answers grow."""

    def __init__(self, uses: Iterable[Hashable]) -> None:
        self._left = Counter(uses)
        self._made: dict[Hashable, Any] = {}

    def take(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value of ``key`` (``make()`` the first time), let go after its last use."""
        value = self._made.pop(key) if key in self._made else make()
        self._left[key] -= 1
        if self._left[key] > 0:
            self._made[key] = value
        return value


def scored_row(
    case: Mapping[str, Any], response: Mapping[str, Any], gold: list[ExpectedResult], runs: list[SQLRun],
    scorers: Sequence[Scorer] | None = None,
) -> dict[str, Any]:
    """One response's scores (``score_answer``'s) against the gold's results and its SQL's runs
    (evaluation database first), and the columns read from its result (data_rows, result_digest):
    ``ROW_SCORE_COLUMNS``."""
    answer = _stored_answer(response)
    scores = score_answer(case, answer, float(response["latency_s"]), gold[0] if gold else None,
                          replay=runs[0] if runs else None, suite=list(zip(gold[1:], runs[1:])), scorers=scorers)
    return {**scores, "data_rows": data_rows(response, answer["rows"]),
            "result_digest": consistency.result_digest(answer["rows"])}


def gold_results(case_id: str, sql: str | None, runner: QueryRunner) -> list[ExpectedResult]:
    """The gold SQL's result on every database (the evaluation database first); [] without gold."""
    if sql is None:
        return []
    try:
        expected = runner.expected(sql)
    except (UnsafeSQLError, OSError) as error:
        raise ValueError(f"case {case_id}: expected_sql fails on {runner.databases[0]}: {error}") from error
    if any(result.truncated for result in expected):
        raise ValueError(f"case {case_id}: expected_sql returns more rows than can be compared")
    return expected


def _stored_answer(response: Mapping[str, Any]) -> dict[str, Any]:
    """A stored response as ``score_answer`` reads it: its result parsed as ``columns`` + ``rows``."""
    columns, rows = _stored_result(response)
    return {**response, "columns": columns, "rows": rows, "data": None}


def _answer_table(responses: pd.DataFrame, case_values: Mapping[str, list], timestamp: str) -> pd.DataFrame:
    """The columns of case_scores that are the answers' own and their cases' (all but data_rows and
    result_digest, read from each result), column by column; ``_position`` is each answer's case."""
    positions = responses["_position"].tolist() if "_position" in responses else []

    def of_case(name: str) -> list:
        values = case_values.get(name)
        return [values[position] for position in positions] if values is not None else [None] * len(positions)

    return pd.DataFrame(
        {
            "query_num": [position + 1 for position in positions],
            "case_id": _values(responses, "case_id"),
            "repeat": [int(repeat) for repeat in _values(responses, "repeat")],
            "timestamp": [timestamp] * len(responses),
            "question": of_case("question"),
            "category": of_case("category"),
            "expected_table": [text_or_none(table) for table in of_case("expected_table")],
            "status": _values(responses, "status"),
            "sql": [text_or_none(sql) for sql in _values(responses, "sql")],
            "dialect": [text_or_none(dialect) for dialect in _values(responses, "dialect")],
            "insights": [text_or_none(text) or "" for text in _values(responses, "insights")],
            "error": [text_or_none(error) for error in _values(responses, "error")],
            "latency_s": [float(seconds) for seconds in _values(responses, "latency_s")],
            "cached": [present(cached) and bool(cached) for cached in _values(responses, "cached")],
            "prompt_tokens": [_token_count(tokens) for tokens in _values(responses, "prompt_tokens")],
            "completion_tokens": [_token_count(tokens) for tokens in _values(responses, "completion_tokens")],
        },
        index=responses.index,
        dtype=object,  # as records give them; _scores_frame types the columns that are not text
    )


def _scores_frame(answers: pd.DataFrame, scored: list[dict[str, Any]]) -> pd.DataFrame:
    """A batch's answer columns and scores as a table of case_scores' columns and dtypes, but
    those over repeats."""
    dtypes = {column: dtype for column, dtype in CASE_SCORE_DTYPES.items() if column in CASE_SCORE_COLUMNS}
    scores = pd.DataFrame.from_records(scored, columns=[*SCORE_COLUMNS, "data_rows", "result_digest"])
    return pd.concat([answers, scores.set_axis(answers.index)], axis=1)[list(CASE_SCORE_COLUMNS)].astype(dtypes)


def _values(responses: pd.DataFrame, name: str) -> list:
    """The column ``name`` of ``responses`` as a list; None for each where the table lacks it."""
    return responses[name].tolist() if name in responses else [None] * len(responses)


def _token_count(value: Any) -> float:
    return float(value) if present(value) else math.nan


def _stored_result(response: Mapping[str, Any]) -> ResultTable:
    """A stored response's result: the ``columns`` + ``rows`` JSON texts, or a ``data`` JSON text
    of row objects (responses written by hand or by an older version)."""
    case_id = response.get("case_id", "?")
    if present(response.get("rows")):
        parsed = {"columns": _json_list(response.get("columns"), case_id), "rows": _json_list(response["rows"], case_id)}
    else:
        parsed = {"data": _json_list(response.get("data"), case_id)}
    try:
        return result_table(parsed)
    except ContractError as error:
        raise ValueError(f"case {case_id}: stored result is malformed: {error}") from error


def _json_list(value: Any, case_id: str) -> list:
    if not present(value) or value == "":
        return []
    if isinstance(value, list):
        return value
    try:
        parsed = json.loads(value)
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"case {case_id}: response data is not JSON: {error}") from error
    if not isinstance(parsed, list):
        raise ValueError(f"case {case_id}: response data is not a JSON list")
    return parsed
