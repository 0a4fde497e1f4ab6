"""The HTTP client behind the HTTP agents, against real loopback servers: transient faults are
retried within one time budget, others fail at once with a clear message, connections are pooled
and reused across threads, a connection the server closed is replaced."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, closed_port, http_agent

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


@pytest.fixture(autouse=True)
def _no_token(no_agent_token: None) -> None:
    """No NABAHAN_AGENT_TOKEN from the shell (agents/conftest.py)."""


def test_500_is_retried_then_succeeds(server: LoopbackServer) -> None:
    server.script(Reply(500, "internal error"))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    assert len(server.requests) == 2


def test_dropped_connection_is_retried(server: LoopbackServer) -> None:
    server.script(Reply(drop=True))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    assert len(server.requests) == 2


def test_persistent_503_gives_up_after_three_retries(server: LoopbackServer) -> None:
    server.script(*[Reply(503, "overloaded")] * 5)
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "error"
    assert answer.error == f"HTTP 503 from {server.url()}: overloaded (4 attempts)"
    assert len(server.requests) == 4


def test_429_waits_for_retry_after(server: LoopbackServer) -> None:
    server.script(Reply(429, "slow down", headers={"Retry-After": "1"}))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    first, second = server.requests
    assert second.received_at - first.received_at >= 0.95
    assert second.received_at - first.received_at < 2.0


def test_retry_after_beyond_the_budget_fails_at_once(server: LoopbackServer) -> None:
    server.script(Reply(429, "come back later", headers={"Retry-After": "120"}))
    start = time.perf_counter()
    answer = normalize_answer(http_agent(server.url(), timeout_s=2.0).ask(QUESTION))
    assert time.perf_counter() - start < 1.0
    assert answer.status == "error"
    assert answer.error.startswith(f"HTTP 429 from {server.url()}: come back later (1 attempt; no time left")
    assert len(server.requests) == 1


def test_slow_server_times_out_quickly_without_piling_up_retries(server: LoopbackServer) -> None:
    server.script(Reply(delay_s=3.0))
    start = time.perf_counter()
    answer = normalize_answer(http_agent(server.url(), timeout_s=0.5).ask(QUESTION))
    elapsed = time.perf_counter() - start
    assert answer.status == "error"
    assert answer.error == f"timeout: no response from {server.url()} within 0.5 s"
    assert 0.4 < elapsed < 1.5
    assert len(server.requests) == 1


def test_refused_connection_is_retried_then_reported() -> None:
    with closed_port() as port:
        url = f"http://127.0.0.1:{port}/ask"
        start = time.perf_counter()
        answer = normalize_answer(http_agent(url).ask(QUESTION))
        elapsed = time.perf_counter() - start
    assert answer.status == "error"
    assert answer.error == f"connection refused by {url} (4 attempts)"
    assert elapsed < 1.0  # 3 backoffs of at most 0.01, 0.02, 0.04 s


def test_404_fails_at_once(server: LoopbackServer) -> None:
    server.script(Reply(404, "no such path\n"))
    answer = normalize_answer(http_agent(server.url("/nope")).ask(QUESTION))
    assert answer.status == "error"
    assert answer.error == f"HTTP 404 from {server.url('/nope')}: no such path"
    assert len(server.requests) == 1


def test_connections_are_kept_alive_and_reused(server: LoopbackServer) -> None:
    agent = http_agent(server.url())
    for _ in range(5):
        assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert len(server.requests) == 5
    assert len(server.client_ports) == 1

    # The runner calls from fresh threads; the pool is shared, so at most one connection per worker.
    cases = pd.DataFrame(
        {"case_id": [f"c{i}" for i in range(16)], "question": [QUESTION] * 16, "filters": [None] * 16}
    )
    responses = run_agent(cases, agent, concurrency=4, timeout_s=5.0)
    assert (responses["status"] == "success").all()
    assert len(server.requests) == 21
    assert len(server.client_ports) <= 5


def test_concurrent_calls_share_the_pool_safely(server: LoopbackServer) -> None:
    agent = http_agent(server.url())
    results: list[str] = []

    def worker() -> None:
        for _ in range(5):
            results.append(normalize_answer(agent.ask(QUESTION)).status)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["success"] * 20
    assert len(server.client_ports) <= 4


@pytest.mark.parametrize("precheck", [True, False], ids=["seen-idle", "found-on-use"])
def test_connection_closed_by_server_while_idle_is_replaced(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch, precheck: bool
) -> None:
    if not precheck:  # the close goes unnoticed until the request fails on the dead connection
        monkeypatch.setattr("nabahan_pipeline.agents.http_client._dropped", lambda conn: False)
    server.script(Reply(200, {"status": "success", "sql": None, "data": [], "insights": "أ"}, close_after=True))
    agent = http_agent(server.url(), max_retries=0)  # a stale connection must not need a retry
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    time.sleep(0.05)
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert len(server.requests) == 2
    assert len(server.client_ports) == 2
