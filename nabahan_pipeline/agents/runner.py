"""Ask an agent every case, concurrently and bounded, each call timed alone and limited in time.

A call that raises, times out, answers outside the contract or over a cap becomes an ``error``
row; the run goes on. The runner is the one door agents' text comes in by: every text of an
answer (SQL, insight, error, column names, values) is scrubbed of secrets here, before it is
stored, cached or printed. The result is the ``agent_responses`` table (``responses_table``).

The calls run on a ``concurrent.futures.ThreadPoolExecutor`` of ``concurrency`` threads. A thread
cannot be killed: a call past its time limit becomes an error row at once, but its thread stays in
the agent until the agent returns. An HTTP agent's call ends by its own time budget, a ``python:``
agent's a little past the limit (it runs in a child process: ``child_process``); only an agent run
``--in-process`` that never returns holds its thread for good, and the process waits for it at exit
(a second Ctrl-C leaves at once). While such calls hold some of the threads, fewer calls run at
once; once they hold them all, the run goes on with a new executor.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Protocol

import pandas as pd

from nabahan_pipeline.agents.contract import Agent, AgentAnswer, AnswerLimits, ResultTable, normalize_answer
from nabahan_pipeline.agents.responses_table import RESPONSE_COLUMNS, RESPONSE_DTYPES
from nabahan_pipeline.agents.secrets import scrubber

# An error message is kept, not refused, whatever its length: cut (after scrubbing) to this.
MAX_ERROR_CHARS = 2_000
# Rows per agent_responses batch, and how many calls may be queued ahead of the oldest unfinished
# one (far more than any concurrency, so that a slow call holds up no other).
BATCH_ROWS = 2_000
IN_FLIGHT_ROWS = 8_192
# How often the runner looks again when the oldest call has not started yet.
_START_POLL_S = 0.1


# What ``on_answer`` is told of each answer: its agent_responses row and, for an answer the agent
# gave in this run, its result as read (column names, rows of JSON-safe values: what the row's
# ``columns`` and ``rows`` JSON texts read back as), so that the result is not parsed again from
# those texts (a 30 MiB result held once as objects, not twice); None for a cached answer.
Answered = Callable[[dict, "ResultTable | None"], None]


class ResponseStore(Protocol):
    """A response cache: answers keyed by case content, agent fingerprint and database hash."""

    def get(self, key: str) -> dict | None: ...

    def put(self, key: str, record: dict) -> None: ...


@dataclass(frozen=True)
class CallResult:
    """One timed call: the normalized answer and the seconds the call took."""

    answer: AgentAnswer
    latency_s: float


def scrubbed(answer: AgentAnswer, scrub: Callable[[str], str]) -> AgentAnswer:
    """``answer`` with ``scrub`` (``secrets.scrubber``) applied to every text in it, and its error
    message cut to ``MAX_ERROR_CHARS``."""

    def clean(value: Any) -> Any:
        return scrub(value) if isinstance(value, str) else value

    error = scrub(answer.error) if answer.error else answer.error
    if error and len(error) > MAX_ERROR_CHARS:
        error = error[: MAX_ERROR_CHARS - 1] + "…"
    return replace(
        answer,
        sql=clean(answer.sql),
        insights=scrub(answer.insights),
        error=error,
        columns=[scrub(name) for name in answer.columns],
        rows=[[clean(value) for value in row] for row in answer.rows],
        dialect=clean(answer.dialect),
    )


def run_agent(
    cases: pd.DataFrame,
    agent: Agent,
    *,
    concurrency: int = 8,
    timeout_s: float = 30.0,
    repeat: int = 1,
    cache: ResponseStore | None = None,
    cache_key: Callable[[Mapping[str, Any], int], str] | None = None,
    on_answer: Answered | None = None,
    limits: AnswerLimits = AnswerLimits(),
) -> pd.DataFrame:
    """Ask ``agent`` every case ``repeat`` times with at most ``concurrency`` calls at once: the
    agent_responses table, every batch of ``answer_batches`` in one.

    With a ``cache`` (and ``cache_key`` giving each case-and-repeat its key), a cached answer is
    reused and marked ``cached``; it keeps the latency measured when it was fetched.
    Rows come back in case order, repeats together; ``on_answer`` sees each row as it completes
    (``Answered``: the row and its result as read)."""
    batches = list(
        answer_batches(
            cases, agent, concurrency=concurrency, timeout_s=timeout_s, repeat=repeat, cache=cache,
            cache_key=cache_key, on_answer=on_answer, limits=limits,
        )
    )
    if not batches:
        return _responses_frame([])
    return pd.concat(batches, ignore_index=True) if len(batches) > 1 else batches[0]


def answer_batches(
    cases: pd.DataFrame,
    agent: Agent,
    *,
    concurrency: int = 8,
    timeout_s: float = 30.0,
    repeat: int = 1,
    cache: ResponseStore | None = None,
    cache_key: Callable[[Mapping[str, Any], int], str] | None = None,
    on_answer: Answered | None = None,
    limits: AnswerLimits = AnswerLimits(),
    batch_rows: int = BATCH_ROWS,
) -> Iterator[pd.DataFrame]:
    """``run_agent``'s rows as agent_responses tables of at most ``batch_rows`` rows, in case
    order, each as soon as its calls are done; the calls go on concurrently across batches.

    What a run holds besides the answers stays flat as cases grow: the cases are read a batch at
    a time and no more than ``IN_FLIGHT_ROWS`` calls are queued ahead of the oldest unfinished one.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")

    # This thread submits the calls, up to ``concurrency`` queued beyond those running so that a
    # worker never waits for it, and does the rest of every answer itself: the time limit,
    # normalizing, scrubbing, the row, the cache, ``on_answer``.
    scrub = scrubber()  # the secrets known now: the agent registered its own when it was made
    ask = agent.ask
    executor = _executor(concurrency)
    done: queue.SimpleQueue[tuple[int, Future]] = queue.SimpleQueue()
    calls: dict[int, _Call] = {}  # submitted, not yet answered, in the order submitted (and started)
    held: set[int] = set()  # calls given up on whose thread of this executor is still in them
    ready: dict[int, dict] = {}  # rows finished ahead of the next one due
    jobs = enumerate(_jobs(cases, repeat, batch_rows))
    started = due = 0  # jobs taken; the number of the next row due
    more = True
    rows: list[dict] = []

    def submit(number: int, call: _Call) -> None:
        call.future = executor.submit(_timed, call, ask)
        call.future.add_done_callback(lambda future: done.put((number, future)))

    def finish(number: int, row: dict, result: ResultTable | None = None) -> None:
        if on_answer is not None:
            on_answer(row, result)
        ready[number] = row

    def start(number: int, case: Mapping[str, Any], r: int) -> None:
        key = cache_key(case, r) if cache is not None and cache_key is not None else None
        cached = cache.get(key) if key is not None else None
        if cached is not None:
            finish(number, {**cached, "case_id": case["case_id"], "repeat": r, "cached": True})
            return
        filters = json.loads(case["filters"]) if isinstance(case.get("filters"), str) else None
        calls[number] = call = _Call(case["case_id"], r, key, case["question"], filters)
        submit(number, call)

    def answered(number: int, result: CallResult) -> None:
        call = calls.pop(number)
        row = _response_row(call.case_id, call.repeat, result)
        if call.key is not None and row["status"] != "error":
            cache.put(call.key, row)
        finish(number, row, (result.answer.columns, result.answer.rows))

    finished = False
    try:
        while True:
            while more and len(calls) < 2 * concurrency and started - due < IN_FLIGHT_ROWS:
                job = next(jobs, None)
                if job is None:
                    more = False
                    break
                number, (case, r) = job
                started = number + 1
                start(number, case, r)
            while due in ready:
                rows.append(ready.pop(due))
                due += 1
                if len(rows) >= batch_rows:
                    yield _responses_frame(rows)
                    rows = []
            if not calls:
                if not more:
                    break
                continue
            oldest_number, oldest = next(iter(calls.items()))  # calls start in the order submitted
            if oldest.started is None:
                wait = _START_POLL_S
            else:
                wait = oldest.started + timeout_s - time.perf_counter()
            try:
                number, future = done.get(timeout=max(0.0, wait))
            except queue.Empty:
                if oldest.started is None or oldest.future.done() or time.perf_counter() < oldest.started + timeout_s:
                    continue  # not started yet, done this very moment, or started while we waited
                held.add(oldest_number)
                answered(oldest_number, _timed_out(timeout_s))
                if len(held) >= concurrency:  # every thread is in a call given up on
                    executor.shutdown(wait=False, cancel_futures=True)
                    executor, held = _executor(concurrency), set()
                    for waiting_number, call in calls.items():
                        if call.future.cancelled():  # queued there: asked here instead
                            submit(waiting_number, call)
                continue
            call = calls.get(number)
            if call is None or call.future is not future:  # a call given up on returned, or one cancelled
                held.discard(number)
                continue
            answered(number, _outcome(future.result(), scrub, limits))
        if rows:
            yield _responses_frame(rows)
        finished = True
    finally:
        # Finished: the threads end (not waited for when one is still in a call given up on). Else
        # (interrupted, failed, or the batches no longer wanted) the calls not started are dropped.
        executor.shutdown(wait=finished and not held, cancel_futures=True)


@dataclass(slots=True)
class _Call:
    """A call submitted: whose answer it is, its cache key, what is asked; once it runs, when it
    started (perf_counter) and its future."""

    case_id: str
    repeat: int
    key: str | None
    question: str
    filters: dict | None
    started: float | None = None
    future: Future | None = None


def _executor(concurrency: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="nabahan-agent-call")


def _timed(call: _Call, ask: Callable[[str, dict | None], Any]) -> tuple[Any, BaseException | None, float]:
    """Ask, on a worker thread: (the raw answer, or the exception the agent raised; the seconds the call took)."""
    call.started = start = time.perf_counter()
    try:
        return ask(call.question, call.filters), None, time.perf_counter() - start
    except BaseException as exc:  # an agent's failure is data, never the run's
        return None, exc, time.perf_counter() - start


def _outcome(timed: tuple[Any, BaseException | None, float], scrub: Callable[[str], str], limits: AnswerLimits) -> CallResult:
    """A finished call's answer, normalized, within ``limits`` and scrubbed; its failure as an error."""
    raw, error, latency_s = timed
    if error is not None:
        return CallResult(scrubbed(AgentAnswer.failure(f"{type(error).__name__}: {error}"), scrub), latency_s)
    return CallResult(scrubbed(normalize_answer(raw, limits), scrub), latency_s)


def _timed_out(timeout_s: float) -> CallResult:
    return CallResult(AgentAnswer.failure(f"timeout: no answer within {timeout_s:g} s"), timeout_s)


def _jobs(cases: pd.DataFrame, repeat: int, batch_rows: int) -> Iterator[tuple[dict, int]]:
    """Each case and repeat in order, the cases read as records a batch at a time."""
    for start in range(0, len(cases), batch_rows):
        for case in cases.iloc[start : start + batch_rows].to_dict("records"):
            for r in range(repeat):
                yield case, r


def _responses_frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(RESPONSE_COLUMNS)).astype(RESPONSE_DTYPES)


def _response_row(case_id: str, repeat: int, result: CallResult) -> dict:
    answer = result.answer
    return {
        "case_id": case_id,
        "repeat": repeat,
        "status": answer.status,
        "sql": answer.sql,
        "dialect": answer.dialect,
        "columns": json.dumps(answer.columns, ensure_ascii=False),
        "rows": json.dumps(answer.rows, ensure_ascii=False, allow_nan=False),
        "data_rows": len(answer.rows),
        "insights": answer.insights,
        "error": answer.error,
        "latency_s": float(result.latency_s),
        "cached": False,
        "prompt_tokens": answer.prompt_tokens,
        "completion_tokens": answer.completion_tokens,
    }
