"""Ask an agent every case, concurrently and bounded, each call timed alone and limited in time.

A call that raises, times out, answers outside the contract or over a cap becomes an ``error``
row; the run goes on. The runner is the one door agents' text comes in by: every text of an
answer (SQL, insight, error, column names, values) is scrubbed of secrets here, before it is
stored, cached or printed. The result is the ``agent_responses`` table (``responses_table``).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

import pandas as pd

from nabahan_pipeline.agents.call_threads import Call, CallFeed, start_call
from nabahan_pipeline.agents.contract import Agent, AgentAnswer, AnswerLimits, normalize_answer
from nabahan_pipeline.agents.responses_table import RESPONSE_COLUMNS, RESPONSE_DTYPES
from nabahan_pipeline.agents.secrets import scrubber

# An error message is kept, not refused, whatever its length: cut (after scrubbing) to this.
MAX_ERROR_CHARS = 2_000
# Rows per agent_responses batch, and how many calls may be queued ahead of the oldest unfinished
# one (far more than any concurrency, so that a slow call holds up no other).
BATCH_ROWS = 2_000
IN_FLIGHT_ROWS = 8_192


class ResponseStore(Protocol):
    """A response cache: answers keyed by case content, agent fingerprint and database hash."""

    def get(self, key: str) -> dict | None: ...

    def put(self, key: str, record: dict) -> None: ...


@dataclass(frozen=True)
class CallResult:
    """One timed call: the normalized answer and the seconds the call took."""

    answer: AgentAnswer
    latency_s: float


def call_agent(
    agent: Agent,
    question: str,
    filters: dict | None,
    timeout_s: float,
    limits: AnswerLimits = AnswerLimits(),
    abandon: threading.Event | None = None,
) -> CallResult:
    """Call the agent once with a time limit; the latency is measured around the call alone.
    The answer comes back normalized, within ``limits`` and scrubbed of secrets. When ``abandon``
    is set (the run was interrupted) the call is given up at once.

    The call runs on a call thread (``call_threads``) so that a hung agent costs one thread, not the run.
    """
    started = time.perf_counter()
    call = start_call(partial(_asker(agent), question, filters))
    deadline = started + timeout_s
    while not call.wait(min(0.05, max(0.0, deadline - time.perf_counter()))):
        if abandon is not None and abandon.is_set() and call.give_up():
            return CallResult(AgentAnswer.failure("interrupted"), time.perf_counter() - started)
        if time.perf_counter() >= deadline and call.give_up():
            return _timed_out(timeout_s)
    return _outcome(call, limits)


def _outcome(call: Call, limits: AnswerLimits) -> CallResult:
    """A finished call's answer, normalized, within ``limits`` and scrubbed; its failure as an error.
    The call's value is (the raw answer, the latency the agent measured or None: ``_asker``)."""
    if call.error is not None:
        exc = call.error
        return CallResult(scrubbed(AgentAnswer.failure(f"{type(exc).__name__}: {exc}")), call.latency_s)
    raw, latency_s = call.value
    return CallResult(scrubbed(normalize_answer(raw, limits)), call.latency_s if latency_s is None else latency_s)


def _timed_out(timeout_s: float) -> CallResult:
    return CallResult(AgentAnswer.failure(f"timeout: no answer within {timeout_s:g} s"), timeout_s)


def scrubbed(answer: AgentAnswer) -> AgentAnswer:
    """``answer`` with every known secret removed from every text in it (see ``agents.secrets``),
    and its error message cut to ``MAX_ERROR_CHARS``."""

    scrub = scrubber()  # the secrets looked up once for every text of the answer

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
    on_answer: Callable[[dict], None] | None = None,
    limits: AnswerLimits = AnswerLimits(),
) -> pd.DataFrame:
    """Ask ``agent`` every case ``repeat`` times with at most ``concurrency`` calls at once: the
    agent_responses table, every batch of ``answer_batches`` in one.

    With a ``cache`` (and ``cache_key`` giving each case-and-repeat its key), a cached answer is
    reused and marked ``cached``; it keeps the latency measured when it was fetched.
    Rows come back in case order, repeats together; ``on_answer`` sees each row as it completes.
    """
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
    on_answer: Callable[[dict], None] | None = None,
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

    # This thread queues the calls on a feed (``call_threads.CallFeed``) whose threads each take the
    # next the moment their last is done, and does the rest of every answer itself: the time limit,
    # normalizing, scrubbing, the row, the cache, ``on_answer``. Up to ``concurrency`` calls wait
    # queued beyond those running, so that a thread never waits for this one.
    feed = CallFeed()
    ask = _asker(agent)
    asked: dict[int, _Asked] = {}  # the calls queued or running
    ready: dict[int, dict] = {}  # rows finished ahead of the next one due
    jobs = enumerate(_jobs(cases, repeat, batch_rows))
    started = due = 0  # jobs taken; the number of the next row due
    more = True
    rows: list[dict] = []

    def finish(number: int, row: dict) -> None:
        if on_answer is not None:
            on_answer(row)
        ready[number] = row

    def start(number: int, case: Mapping[str, Any], r: int) -> None:
        key = cache_key(case, r) if cache is not None and cache_key is not None else None
        cached = cache.get(key) if key is not None else None
        if cached is not None:
            finish(number, {**cached, "case_id": case["case_id"], "repeat": r, "cached": True})
            return
        filters = json.loads(case["filters"]) if isinstance(case.get("filters"), str) else None
        asked[number] = _Asked(case["case_id"], r, key)
        feed.put(number, partial(ask, case["question"], filters))

    def answered(number: int, result: CallResult) -> None:
        whose = asked.pop(number)
        row = _response_row(whose.case_id, whose.repeat, result)
        if whose.key is not None and row["status"] != "error":
            cache.put(whose.key, row)
        finish(number, row)

    finished = False
    try:
        while True:
            while more and len(asked) < 2 * concurrency and started - due < IN_FLIGHT_ROWS:
                job = next(jobs, None)
                if job is None:
                    more = False
                    break
                number, (case, r) = job
                started = number + 1
                start(number, case, r)
            while feed.threads < concurrency and feed.threads < len(asked):
                feed.add_thread()
            while due in ready:
                rows.append(ready.pop(due))
                due += 1
                if len(rows) >= batch_rows:
                    yield _responses_frame(rows)
                    rows = []
            if not asked:
                if not more:
                    break
                continue
            oldest = feed.oldest()  # the first to reach its time limit; a call started later ends later
            wait = timeout_s if oldest is None else oldest[1].started + timeout_s - time.perf_counter()
            try:
                number = feed.done.get(timeout=max(0.0, wait))
            except queue.Empty:
                if oldest is not None and feed.give_up(oldest[0]):  # else it finished this very moment
                    answered(oldest[0], _timed_out(timeout_s))
                continue
            answered(number, _outcome(feed.finished(number), limits))
        if rows:
            yield _responses_frame(rows)
        finished = True
    finally:
        # Finished: the threads wait for calls, and end. Else (interrupted, failed, or the batches no
        # longer wanted) the calls not started are dropped and those running given up on, unwaited.
        feed.close(wait_s=1.0 if finished else 0.0)


@dataclass(frozen=True)
class _Asked:
    """A call queued or running: whose answer it is, its cache key."""

    case_id: str
    repeat: int
    key: str | None


def _asker(agent: Agent) -> Callable[[str, dict | None], tuple[Any, float | None]]:
    """``agent.ask`` as (its raw answer, None); an agent's own ``ask_timed`` when it has one (the
    latency it measured closer to the wire than a timer around the call, e.g. the HTTP agent's)."""
    timed = getattr(agent, "ask_timed", None)
    if callable(timed):
        return timed
    ask = agent.ask
    return lambda question, filters: (ask(question, filters), None)


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
