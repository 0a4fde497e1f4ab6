"""The agent contract's normalization and the concurrent, timed, bounded runner."""

from __future__ import annotations

import enum
import json
import threading
import time

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.registry import AgentSpecError, resolve_agent
from nabahan_pipeline.agents import runner
from nabahan_pipeline.agents.runner import answer_batches, run_agent

GOOD = {"status": "success", "sql": "SELECT 1", "data": [{"n": 1}], "insights": "نص", "error": None}


def cases(n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"case_id": [f"c{i}" for i in range(n)], "question": [f"سؤال {i}" for i in range(n)], "filters": [None] * n}
    )


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (["x"], "expected a JSON object"),
        ({"status": "success", "sql": None, "data": []}, "missing key(s) insights"),
        ({**GOOD, "status": "done"}, "status 'done'"),
        ({**GOOD, "sql": 5}, "'sql' must be a string"),
        ({**GOOD, "data": [1, 2]}, "'data' must be a list of row objects"),
        ({**GOOD, "data": {"n": 1}}, "'data' must be a list of row objects"),
        ({**GOOD, "insights": 3}, "'insights' must be a string"),
        ({**GOOD, "data": [{"x": object()}]}, "not JSON-serializable"),
    ],
)
def test_malformed_answers_become_errors_naming_the_problem(raw, fragment):
    answer = normalize_answer(raw)
    assert answer.status == "error"
    assert fragment in answer.error


def test_a_good_answer_is_kept_and_usage_is_read():
    answer = normalize_answer({**GOOD, "usage": {"prompt_tokens": 10, "completion_tokens": 4}})
    assert answer.status == "success" and answer.data == [{"n": 1}] and answer.insights == "نص"
    assert (answer.prompt_tokens, answer.completion_tokens) == (10.0, 4.0)


def test_null_data_and_insights_are_read_as_empty():
    answer = normalize_answer({"status": "out_of_scope", "sql": None, "data": None, "insights": None})
    assert answer.status == "out_of_scope" and answer.data == [] and answer.insights == ""


def test_exception_timeout_and_malformed_answer_become_error_rows():
    for name, fragment in [("raising_agent", "RuntimeError: database is locked"), ("malformed_agent", "JSON object")]:
        agent = resolve_agent(f"python:nabahan_pipeline_tests.sample_agents:{name}")
        (row,) = run_agent(cases(1), agent, timeout_s=5).to_dict("records")
        assert row["status"] == "error" and fragment in row["error"]
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:hanging_agent")
    started = time.perf_counter()
    (row,) = run_agent(cases(1), agent, timeout_s=0.3).to_dict("records")
    assert time.perf_counter() - started < 2, "the run did not wait for the hung call"
    assert (row["status"], row["error"], row["latency_s"]) == ("error", "timeout: no answer within 0.3 s", 0.3)


def test_latency_is_measured_around_the_call():
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:slow_agent")
    assert 0.19 <= run_agent(cases(1), agent, timeout_s=5)["latency_s"].iloc[0] < 0.5


def test_runs_concurrently_and_keeps_case_order():
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:slow_agent")
    started = time.perf_counter()
    responses = run_agent(cases(8), agent, concurrency=8, timeout_s=5)
    elapsed = time.perf_counter() - started
    assert elapsed < 0.2 * 8 / 2, f"8 calls of 0.2 s with concurrency 8 took {elapsed:.2f} s"
    assert responses["case_id"].tolist() == [f"c{i}" for i in range(8)]
    assert (responses["status"] == "success").all()
    assert json.loads(responses["columns"].iloc[0]) == ["n"] and json.loads(responses["rows"].iloc[0]) == [[7]]
    assert (responses["latency_s"] >= 0.19).all()


def test_repeats_ask_each_case_n_times():
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:counting_agent")
    responses = run_agent(cases(3), agent, repeat=3)
    assert len(responses) == 9
    assert responses.groupby("case_id")["repeat"].apply(list).tolist() == [[0, 1, 2]] * 3


def test_batches_come_in_case_order_and_the_calls_run_on_across_them():
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:slow_agent")
    started = time.perf_counter()
    batches = list(answer_batches(cases(8), agent, concurrency=8, timeout_s=5, batch_rows=2))
    elapsed = time.perf_counter() - started
    assert [len(batch) for batch in batches] == [2, 2, 2, 2]
    assert pd.concat(batches)["case_id"].tolist() == [f"c{i}" for i in range(8)]
    # Four batches of 0.2 s calls, one after another, would take 0.8 s.
    assert elapsed < 0.6, f"8 calls of 0.2 s with concurrency 8 in batches of 2 took {elapsed:.2f} s"
    assert list(run_agent(cases(3), agent, concurrency=3).dtypes) == list(batches[0].dtypes)


class CountingAgent:
    spec = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def ask(self, question: str, filters: dict | None = None) -> dict:
        self.calls += 1
        return GOOD

    def fingerprint(self) -> str:
        return self.spec


class _Kind(enum.IntEnum):
    ONE = 1


class _Shouting(str):
    def __str__(self) -> str:
        return self.upper()


class _Tenth(float):
    def __repr__(self) -> str:
        return "a tenth"


def test_a_cells_value_is_of_jsons_own_types_the_value_its_text_reads_back_as():
    # Scoring reads the result either as the runner read it or parsed from its JSON text: one value.
    raw = {**GOOD, "data": None, "columns": [_Shouting("n"), "b"],
           "rows": [[_Kind.ONE, _Shouting("riyadh")], [_Tenth(0.1), True], [2**70, None]]}
    answer = normalize_answer(raw)
    assert answer.status == "success"
    read_back = json.loads(json.dumps(answer.rows)), json.loads(json.dumps(answer.columns))
    assert (answer.rows, answer.columns) == read_back == ([[1, "riyadh"], [0.1, True], [2**70, None]], ["n", "b"])
    assert [type(value) for row in answer.rows for value in row] == [int, str, float, bool, int, type(None)]
    assert [type(name) for name in answer.columns] == [str, str]


class _Store(dict):
    def get(self, key: str) -> dict | None:  # type: ignore[override]
        return super().get(key)

    def put(self, key: str, record: dict) -> None:
        self[key] = record


def test_on_answer_is_told_each_row_with_its_result_as_read_and_a_cached_row_without():
    told: list[tuple[dict, tuple | None]] = []
    store = _Store()
    run = run_agent(cases(2), CountingAgent(), cache=store, cache_key=lambda case, r: case["case_id"],
                    on_answer=lambda row, result: told.append((row, result)))
    assert [row["case_id"] for row, _ in told] == ["c0", "c1"] and run["case_id"].tolist() == ["c0", "c1"]
    for row, result in told:
        assert result == (json.loads(row["columns"]), json.loads(row["rows"])) == (["n"], [[1]])
    told.clear()
    run_agent(cases(2), CountingAgent(), cache=store, cache_key=lambda case, r: case["case_id"],
              on_answer=lambda row, result: told.append((row, result)))
    assert [(row["case_id"], row["cached"], result) for row, result in told] == [("c0", True, None), ("c1", True, None)]


def test_calls_are_queued_a_bounded_way_ahead_and_stop_when_the_batches_are_no_longer_wanted(monkeypatch):
    monkeypatch.setattr(runner, "IN_FLIGHT_ROWS", 5)
    agent = CountingAgent()
    batches = answer_batches(cases(200), agent, concurrency=1, batch_rows=1)
    first = next(batches)
    assert first["case_id"].tolist() == ["c0"]
    time.sleep(0.3)  # the pool works on while the first batch is read
    assert agent.calls <= 1 + 5 + 1, "no more than IN_FLIGHT_ROWS calls queued past the oldest"
    batches.close()
    time.sleep(0.3)
    assert agent.calls <= 1 + 5 + 1, "the calls not started are cancelled"


def test_an_agent_without_filters_parameter_is_called_with_the_question_only():
    agent = resolve_agent("python:nabahan_pipeline_tests.sample_agents:question_only_agent")
    assert normalize_answer(agent.ask("سؤال", {"region": 1})).status == "success"


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("ftp://x", "unknown agent spec"),
        ("python:nomodule_here_xyz:f", "cannot import module"),
        ("python:nabahan_pipeline_tests.sample_agents:missing", "has no 'missing'"),
        ("python:nabahan_pipeline_tests.sample_agents", "expected 'python:package.module:function'"),
        ("python:nabahan_pipeline_tests.sample_agents:CALLS", "is not callable"),
    ],
)
def test_bad_specs_are_user_errors(spec, fragment):
    with pytest.raises(AgentSpecError, match=fragment):
        resolve_agent(spec)


def test_fingerprint_changes_with_agent_version():
    spec = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
    assert resolve_agent(spec).fingerprint() != resolve_agent(spec, agent_version="2").fingerprint()
    assert resolve_agent(spec).fingerprint() == resolve_agent(spec).fingerprint()


def test_a_finished_run_leaves_no_thread_behind():
    class Instant:
        spec = "instant"

        def ask(self, question, filters=None):
            return GOOD

    before = set(threading.enumerate())  # a call given up on in another test may still be running
    assert (run_agent(cases(20), Instant(), concurrency=4)["status"] == "success").all()
    assert [t.name for t in set(threading.enumerate()) - before] == []


def test_a_call_over_its_time_limit_is_an_error_row_and_its_place_is_taken():
    release = threading.Event()
    hung: list[int] = []

    class HangsOnce:
        spec = "hangs-once"

        def ask(self, question, filters=None):
            if question == "سؤال 1":
                hung.append(threading.get_ident())
                release.wait(10)
            return GOOD

    try:
        started = time.perf_counter()
        responses = run_agent(cases(12), HangsOnce(), concurrency=2, timeout_s=0.3)
        elapsed = time.perf_counter() - started
    finally:
        release.set()
    assert responses["case_id"].tolist() == [f"c{i}" for i in range(12)]
    assert responses["error"].iloc[1] == "timeout: no answer within 0.3 s"
    assert (responses.drop(index=1)["status"] == "success").all(), "the other calls went on"
    assert elapsed < 2, "the run did not wait for the hung call"
    thread = next((t for t in threading.enumerate() if t.ident == hung[0]), None)
    if thread is not None:
        thread.join(5)
        assert not thread.is_alive(), "the thread left in the call ends once it returns"


def test_a_call_that_starts_while_the_runner_waits_is_given_its_whole_time_limit(monkeypatch):
    """A call that starts while the runner waits for it to start (0.1 s) and still runs when that
    wait ends is not timed out then: it has its whole limit (a python: agent's call that starts a
    new child process takes that long)."""
    timed = runner._timed

    def late_start(call, ask):  # the worker takes up each call 0.05 s late
        time.sleep(0.05)
        return timed(call, ask)

    monkeypatch.setattr(runner, "_timed", late_start)

    class TakesAWhile:
        spec = "takes-a-while"

        def ask(self, question, filters=None):
            time.sleep(0.15)
            return GOOD

    responses = run_agent(cases(10), TakesAWhile(), concurrency=1, timeout_s=5)
    assert (responses["status"] == "success").all(), responses["error"].dropna().tolist()


def test_when_hung_calls_hold_every_thread_the_run_goes_on_on_new_ones():
    release = threading.Event()

    class HangsTwice:
        spec = "hangs-twice"

        def ask(self, question, filters=None):
            if question in ("سؤال 0", "سؤال 1"):
                release.wait(10)
            return GOOD

    try:
        started = time.perf_counter()
        responses = run_agent(cases(6), HangsTwice(), concurrency=2, timeout_s=0.3)
        elapsed = time.perf_counter() - started
    finally:
        release.set()
    assert responses["status"].tolist() == ["error", "error"] + ["success"] * 4
    assert elapsed < 2, "the four others were asked on fresh threads, not after the hung calls"


def test_at_most_concurrency_calls_run_at_once():
    lock = threading.Lock()
    running, peak = [0], [0]

    class Counting:
        spec = "counting-in-flight"

        def ask(self, question, filters=None):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            time.sleep(0.01)
            with lock:
                running[0] -= 1
            return GOOD

    assert (run_agent(cases(60), Counting(), concurrency=3)["status"] == "success").all()
    assert peak[0] == 3


def test_the_embedded_agent_opens_a_connection_per_thread_not_per_call(default_db) -> None:
    agent = resolve_agent("embedded", database=default_db)
    questions = pd.DataFrame({"case_id": [f"c{i}" for i in range(40)], "question": ["كم عدد المناقصات؟"] * 40,
                              "filters": [None] * 40})
    try:
        responses = run_agent(questions, agent, concurrency=2)
        assert (responses["status"] == "success").all()
        assert len(agent._agent._connections) < 10, "one per thread (two or so here), not one per call (40)"
    finally:
        agent.close()
