"""Each answer scored the moment it arrives, beside the agent calls, and that score is the case's.

The runner hands every row it finishes (``run_agent``'s ``on_answer``) to ``ScoringOnArrival``,
which scores it on one worker thread with ``case_scores.scored_row``, the one path, against the
gold's results (the case file's check's, else each distinct gold SQL run once) and its SQL re-run
on every database. The console's live line shows that score; ``case_scores`` assembles the table
from the scores held (``score_responses(scored=...)``) and scores only what they lack.

One thread, not a process pool: the scorers are Python (the GIL), and with a slow agent the
runner's threads are idle, so one thread scores in the gaps and its work hides behind the calls
(bench/README.md, issue 40). A process pool would pickle every answer and its gold results to
workers that each open the databases, on the same two cores; with an instant agent, where this
thread is the bottleneck, it is the next thing to measure. SQLite releases the GIL while a query
runs, so the re-runs overlap the calls.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from nabahan_pipeline.agents.contract import ResultTable
from nabahan_pipeline.evaluation.agent_sql import (
    DEFAULT_MAX_ROWS,
    DEFAULT_SQL_TIMEOUT_S,
    QueryRunner,
    SQLRun,
    check_agent_sql,
)
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.scoring.answer import text_or_none
from nabahan_pipeline.evaluation.scoring.case_scores import (
    ROW_SCORE_COLUMNS,
    SCORERS,
    gold_results,
    scored_row,
)
from nabahan_pipeline.evaluation.scoring.judge import judge_off, judge_scorer

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.judge import Judge

# Distinct agent queries whose runs are kept for the answers after them: a suite's repeats and
# agents that answer alike run each query once, and what is held stays flat as answers grow.
RECENT_QUERIES = 256
# What one answer's scores are told with: the response row and its scores (None when scoring it
# failed: ``case_scores`` scores it again, and its error stops that step).
Scored = Callable[[Mapping[str, Any], "Mapping[str, Any] | None"], None]


class ScoringOnArrival:
    """Scores each answer as it arrives on one worker thread; ``results`` waits for them all and
    gives each answer's scores keyed by (case id, repeat), in ``ROW_SCORE_COLUMNS`` order.

    Use it as a context manager: leaving it stops the worker (answers not scored yet are dropped
    when the block failed)."""

    def __init__(
        self,
        cases: pd.DataFrame,
        database: str | Path | None,
        suite: Sequence[str | Path] = (),
        *,
        sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
        max_rows: int = DEFAULT_MAX_ROWS,
        golds: Mapping[str, list[ExpectedResult]] | None = None,
        judge: Judge | None = None,
        on_scored: Scored | None = None,
    ) -> None:
        self._cases = {record["case_id"]: record for record in cases.to_dict("records")}
        self._database, self._suite = database, tuple(suite)
        self._limits = {"timeout_s": sql_timeout_s, "max_rows": max_rows}
        self._golds: dict[str | None, list[ExpectedResult]] = dict(golds or {})
        self._scorers = None if judge is None else tuple(judge_scorer(judge) if one is judge_off else one
                                                         for one in SCORERS)
        self._on_scored = on_scored
        self._recent: OrderedDict[tuple[str | None, str | None], list[SQLRun]] = OrderedDict()
        self._scores: dict[tuple[str, int], tuple] = {}
        self._runner: QueryRunner | None = None  # opened on the worker's first query
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nabahan-scoring")

    def submit(self, row: Mapping[str, Any], result: ResultTable | None = None) -> None:
        """Score ``row`` (an agent_responses row) on the worker, after those submitted before it;
        ``result``, the (columns, rows) its ``columns`` and ``rows`` JSON texts were made from
        (``runner.Answered``), is scored as it is rather than parsed again from those texts."""
        self._executor.submit(self._score, dict(row), result)

    def results(self) -> dict[tuple[str, int], tuple]:
        """Every answer submitted scored (waits for the worker), keyed by (case id, repeat); an
        answer whose scoring failed is left out."""
        self._executor.shutdown(wait=True)
        self._close_runner()
        return self._scores

    def __enter__(self) -> ScoringOnArrival:
        return self

    def __exit__(self, kind: object, *exc_info: object) -> None:
        # Failed or interrupted: the answers not scored yet are not wanted.
        self._executor.shutdown(wait=True, cancel_futures=kind is not None)
        self._close_runner()

    # --- on the worker thread --------------------------------------------------------------------

    def _score(self, row: dict[str, Any], result: ResultTable | None) -> None:
        scores: dict[str, Any] | None
        try:
            case = self._cases[row["case_id"]]
            sql = text_or_none(case.get("expected_sql"))
            # scored_row reads a result given as lists as it is (the row itself is what is told)
            answer = row if result is None else {**row, "columns": result[0], "rows": result[1]}
            scores = scored_row(case, answer, self._gold(row["case_id"], sql), self._runs(row), self._scorers)
        except Exception:  # case_scores scores it again, and its error stops that step with its own words
            scores = None
        else:
            self._scores[(row["case_id"], int(row["repeat"]))] = tuple(scores[name] for name in ROW_SCORE_COLUMNS)
        if self._on_scored is not None:
            self._on_scored(row, scores)

    def _gold(self, case_id: str, sql: str | None) -> list[ExpectedResult]:
        if sql is None:
            return []
        if sql not in self._golds:
            runner = self._query_runner()
            self._golds[sql] = gold_results(case_id, sql, runner) if runner is not None else []
        return self._golds[sql]

    def _runs(self, row: Mapping[str, Any]) -> list[SQLRun]:
        key = (text_or_none(row.get("sql")), text_or_none(row.get("dialect")))
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        runner = self._query_runner()
        runs = runner.agent_runs(check_agent_sql(*key)) if runner is not None else []
        self._recent[key] = runs
        if len(self._recent) > RECENT_QUERIES:
            self._recent.popitem(last=False)
        return runs

    def _query_runner(self) -> QueryRunner | None:
        if self._runner is None and self._database is not None:
            self._runner = QueryRunner(self._database, self._suite, **self._limits)
        return self._runner

    def _close_runner(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None
