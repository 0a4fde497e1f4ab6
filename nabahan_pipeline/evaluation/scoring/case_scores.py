"""The case_scores table: every answer walked through the scorers, in order, then the consistency
over each case's repeats.

Each scorer fills the columns it declares and may read the scores of those before it (the
verdicts read them all); the columns of the answer itself (case, status, SQL, latency ...) are
copied here. The column order is the schema's (``evaluation.tables.CASE_SCORES``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from nabahan_pipeline.agents.contract import ContractError, result_table
from nabahan_pipeline.etimad_db.sql_safety import QueryResult, UnsafeSQLError
from nabahan_pipeline.evaluation.agent_sql import (
    DEFAULT_MAX_ROWS,
    DEFAULT_SQL_TIMEOUT_S,
    QueryRunner,
    SQLRun,
    check_agent_sql,
)
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.scoring import consistency
from nabahan_pipeline.evaluation.scoring.claims import claims
from nabahan_pipeline.evaluation.scoring.answer import Answer, Scorer, data_rows, present, text_or_none
from nabahan_pipeline.evaluation.scoring.execution import execution
from nabahan_pipeline.evaluation.scoring.fidelity import fidelity
from nabahan_pipeline.evaluation.scoring.hallucination import hallucination
from nabahan_pipeline.evaluation.scoring.kept_scores import KeptScores, content_key
from nabahan_pipeline.evaluation.scoring.latency import latency, latency_tier
from nabahan_pipeline.evaluation.scoring.refusals import refusals
from nabahan_pipeline.evaluation.scoring.retrieval import retrieval
from nabahan_pipeline.evaluation.scoring.verdicts import correct, overall_passed
from nabahan_pipeline.evaluation.tables import CASE_SCORE_DTYPES, CASE_SCORES

# In the order they run: each may read the scores of those before it.
SCORERS: tuple[Scorer, ...] = (
    retrieval, hallucination, claims, fidelity, latency, execution, refusals, overall_passed, correct
)

REPEAT_COLUMNS: tuple[str, ...] = consistency.COLUMNS
_SCORED = {column for one in SCORERS for column in one.columns}
# What score_answer returns, in the table's order.
SCORE_COLUMNS: tuple[str, ...] = tuple(column for column in CASE_SCORES.columns if column in _SCORED)
# Every column but those over a case's repeats.
CASE_SCORE_COLUMNS: tuple[str, ...] = tuple(column for column in CASE_SCORES.columns if column not in REPEAT_COLUMNS)
# Answers scored at a time: what scoring holds besides the table stays flat as answers grow.
BATCH_ROWS = 2_000
# The seed's verdict as the console shows it the moment an answer arrives, and the scorers it takes
# (in SCORERS order; overall_passed reads retrieval's and fidelity's verdicts, fidelity the markers).
SEED_VERDICT_COLUMNS = ("retrieval_accuracy", "generation_fidelity", "latency_tier", "overall_passed")
SEED_SCORERS: tuple[Scorer, ...] = (retrieval, hallucination, fidelity, latency, overall_passed)

# An answer is scored in three parts: the seed's scorers but latency (they read neither the
# latency nor any database: kept across calls, so that case_scores finds what the console scored),
# the latency (different for every answer: never kept), and the rest (kept within one
# score_responses, which runs the SQL on its own databases). No scorer of a part reads a later part.
_SEED_PART: tuple[Scorer, ...] = tuple(one for one in SEED_SCORERS if one is not latency)
_REST: tuple[Scorer, ...] = tuple(one for one in SCORERS if one not in SEED_SCORERS)
_SEED_PART_COLUMNS = tuple(column for one in _SEED_PART for column in one.columns)
# What the seed part reads of a case and of a stored response.
_SEED_CASE_FIELDS = ("question", "category", "expected_table")
_SEED_RESPONSE_FIELDS = ("status", "sql", "dialect", "columns", "rows", "data", "data_rows", "insights")
# Answers whose seed scores are kept: a 100,000-answer run's, from the console to case_scores (past
# the bound, case_scores scores each answer's seed part again, 0.2 ms). Each entry is a 16-byte key
# and the scores' values, about 1 KB (the texts an answer sent are not held).
ANSWERS_KEPT = 131_072
_KEPT_SEED_PARTS = KeptScores(ANSWERS_KEPT)
# Whole rows kept within one score_responses: for answers alike across cases and repeats (a case's
# repeats are scored one after the other).
ROWS_KEPT = 4_096


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
    SCORERS unless told), in order.

    ``answer`` has the contract's keys (its result as ``data`` or as ``columns`` + ``rows``, and
    an optional ``dialect``); ``gold`` is the result of the case's expected_sql on the evaluation
    database, required when the case has one; ``replay`` is the agent's SQL re-run there, and
    ``suite`` pairs the gold's and the agent's results on each test-suite database.
    """
    read = Answer.read(case, answer, latency_s, gold, replay=replay, suite=suite)
    scores = _run_scorers(SCORERS if scorers is None else scorers, read, {})
    return {column: scores[column] for column in SCORE_COLUMNS if column in scores}


def _run_scorers(scorers: Sequence[Scorer], read: Answer, scores: dict[str, Any]) -> dict[str, Any]:
    """``scores`` filled by each of ``scorers``, in order."""
    for one in scorers:
        filled = one(read, scores)
        if set(filled) != set(one.columns):
            raise RuntimeError(f"scorer {one.name} filled {sorted(filled)}, not its columns {sorted(one.columns)}")
        scores.update(filled)
    return scores


def seed_verdict(case: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """The seed's verdict of one stored response (retrieval, fidelity, latency tier, Overall
    Passed): it needs no query run, so the console can show it the moment an answer arrives.
    ``case_scores`` finds the scores it took kept (``_seed_part``)."""
    scores = _seed_part(case, response)
    tier, _ = latency_tier(float(response["latency_s"]))
    return {"retrieval_accuracy": scores["retrieval_accuracy"], "generation_fidelity": scores["generation_fidelity"],
            "latency_tier": tier, "overall_passed": scores["overall_passed"]}


def _seed_key(case: Mapping[str, Any], response: Mapping[str, Any]) -> bytes | None:
    """The key of what the seed part reads of an answer and its case."""
    return content_key([*(case.get(name) for name in _SEED_CASE_FIELDS),
                        *(response.get(name) for name in _SEED_RESPONSE_FIELDS)])


def _seed_part(case: Mapping[str, Any], response: Mapping[str, Any], key: bytes | None = None) -> dict[str, Any]:
    """The scores of the seed's scorers but latency (as ``score_answer`` gives them, without a
    database), kept by the values they read (``key``: ``_seed_key``, when the caller has it)."""
    key = key if key is not None else _seed_key(case, response)
    kept = _KEPT_SEED_PARTS.get(key)
    if kept is None:
        columns, rows = _stored_result(response)
        answer = {**response, "columns": columns, "rows": rows, "data": None}
        read = Answer.read({**case, "expected_sql": None}, answer, 0.0)
        scores = _run_scorers(_SEED_PART, read, {})
        kept = tuple(scores[column] for column in _SEED_PART_COLUMNS)
        _KEPT_SEED_PARTS.put(key, kept)
    return dict(zip(_SEED_PART_COLUMNS, kept))


def score_responses(
    cases: pd.DataFrame,
    responses: pd.DataFrame,
    database: str | Path | None,
    *,
    suite: Sequence[str | Path] = (),
    timestamp: str | None = None,
    sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """The case_scores table: every response (case x repeat) scored against its case, in file
    order. The agent's SQL and each gold SQL run on ``database`` and on the test-suite databases
    ``suite``, each distinct query once per database. A gold SQL that fails raises."""
    unknown = sorted(set(responses["case_id"]) - set(cases["case_id"]))
    if unknown:
        raise ValueError(f"responses for unknown case ids: {', '.join(map(str, unknown[:5]))}")
    timestamp = timestamp or datetime.now().astimezone().isoformat(timespec="seconds")
    runner = QueryRunner(database, suite, timeout_s=sql_timeout_s, max_rows=max_rows) if database else None
    try:
        golds = _gold_results(cases, runner)
        position = {case_id: index for index, case_id in enumerate(cases["case_id"])}
        ordered = responses.assign(_position=responses["case_id"].map(position)).sort_values(
            ["_position", "repeat"], kind="stable"
        )
        case_values = {name: cases[name].tolist() for name in cases.columns}
        kept = KeptScores(ROWS_KEPT)
        batches = []
        for start in range(0, len(ordered), BATCH_ROWS):  # a batch of answers at a time
            batch = ordered.iloc[start : start + BATCH_ROWS].reset_index(drop=True)
            if runner is not None:  # the batch's SQL on two threads; each answer then finds its runs
                runner.run_ahead(check_agent_sql(text_or_none(sql), text_or_none(dialect))
                                 for sql, dialect in zip(_values(batch, "sql"), _values(batch, "dialect")))
            scored = [
                _scored_row({name: values[response["_position"]] for name, values in case_values.items()},
                            response, golds, runner, kept)
                for response in batch.to_dict("records")
            ]
            batches.append(_scores_frame(_answer_table(batch, case_values, timestamp), scored))
    finally:
        if runner is not None:
            runner.close()
    table = pd.concat(batches, ignore_index=True) if batches else _scores_frame(_answer_table(ordered, {}, timestamp), [])
    return consistency.add_repeat_consistency(table)[list(CASE_SCORES.columns)]


# What _scored_row keeps of an answer: every column it fills but the latency's.
_KEPT_ROW_COLUMNS = (*(column for column in SCORE_COLUMNS if column not in latency.columns), "data_rows", "result_digest")


def _scored_row(
    case: Mapping[str, Any],
    response: Mapping[str, Any],
    golds: Mapping[str, list[ExpectedResult]],
    runner: QueryRunner | None,
    kept: KeptScores,
) -> dict[str, Any]:
    """One response's scores (``score_answer``'s), and the columns read from its result
    (data_rows, result_digest). All but the latency's are kept in ``kept`` by the values they
    read, for the other answers of the same ``runner``."""
    seed_key = _seed_key(case, response)
    key = content_key([seed_key, case.get("expected_sql"), response.get("error")]) if seed_key is not None else None
    row = kept.get(key)
    if row is None:
        columns, rows = _stored_result(response)
        answer = {**response, "columns": columns, "rows": rows, "data": None}
        expected = golds.get(text_or_none(case.get("expected_sql")) or "", [])
        checked = check_agent_sql(text_or_none(answer.get("sql")), text_or_none(answer.get("dialect")))
        runs = runner.agent_runs(checked) if runner else []
        read = Answer.read(
            case,
            answer,
            float(response["latency_s"]),
            expected[0] if expected else None,
            replay=runs[0] if runs else None,
            suite=list(zip(expected[1:], runs[1:])),
        )
        scores = _run_scorers(_REST, read, _seed_part(case, response, seed_key))
        scores.update(data_rows=data_rows(response, rows), result_digest=consistency.result_digest(rows))
        row = tuple(scores[column] for column in _KEPT_ROW_COLUMNS)
        kept.put(key, row)
    tier, score = latency_tier(float(response["latency_s"]))
    return {**dict(zip(_KEPT_ROW_COLUMNS, row)), "latency_tier": tier, "latency_score": score}


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


def _gold_results(cases: pd.DataFrame, runner: QueryRunner | None) -> dict[str, list[ExpectedResult]]:
    """Each distinct gold SQL's result on every database (the evaluation database first)."""
    results: dict[str, list[ExpectedResult]] = {}
    gold_sql = cases["expected_sql"].tolist() if "expected_sql" in cases else []
    for case_id, sql in zip(cases["case_id"].tolist(), map(text_or_none, gold_sql)):
        if sql is None or sql in results:
            continue
        if runner is None:
            raise ValueError(f"case {case_id}: has expected_sql but no database was given")
        try:
            expected = runner.expected(sql)
        except (UnsafeSQLError, OSError) as error:
            raise ValueError(f"case {case_id}: expected_sql fails on {runner.databases[0]}: {error}") from error
        if any(result.truncated for result in expected):
            raise ValueError(f"case {case_id}: expected_sql returns more rows than can be compared")
        results[sql] = expected
    return results


def _stored_result(response: Mapping[str, Any]) -> tuple[list[str], list[list]]:
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
