"""The agent server: POST /ask and GET /health over real loopback sockets, bad requests, keep-alive,
the embedded agent behind it, and `nabahan agent serve --port 0` as a real process."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import nabahan_pipeline
from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.http import HttpAgent
from nabahan_pipeline.agents.python_callable import PythonCallableAgent
from nabahan_pipeline.agents.server import AgentServer

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"
ECHO_SPEC = "python:nabahan_pipeline_tests.loopback:echo_agent"
REPO_ROOT = Path(__file__).resolve().parents[2]


class FailingAgent:
    spec = "python:tests:failing"

    def ask(self, question: str, filters: dict | None = None) -> Any:
        raise RuntimeError("the model is down")

    def fingerprint(self) -> str:
        return self.spec


@contextmanager
def running(agent: Any) -> Iterator[AgentServer]:
    server = AgentServer(("127.0.0.1", 0), agent)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def server() -> Iterator[AgentServer]:
    with running(PythonCallableAgent(ECHO_SPEC)) as srv:
        yield srv


def exchange(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None
) -> tuple[int, dict[str, str], Any]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    return response.status, dict(response.getheaders()), json.loads(payload.decode("utf-8"))


def connect(server: AgentServer) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)


def test_ask_returns_the_contract_in_utf8(server: AgentServer) -> None:
    conn = connect(server)
    body = json.dumps({"question": QUESTION, "filters": {"region": "الرياض"}}, ensure_ascii=False).encode()
    status, headers, answer = exchange(conn, "POST", "/ask", body)
    assert status == 200
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    assert answer == {
        "status": "success",
        "sql": "SELECT 1 AS one",
        "data": [{"one": 1, "filters": '{"region": "الرياض"}'}],
        "columns": ["one", "filters"],
        "rows": [[1, '{"region": "الرياض"}']],
        "insights": f"سؤالك: {QUESTION}",
        "error": None,
    }


def test_health(server: AgentServer) -> None:
    status, _, payload = exchange(connect(server), "GET", "/health")
    assert status == 200
    assert payload == {"status": "ok", "agent": ECHO_SPEC, "version": nabahan_pipeline.__version__}


@pytest.mark.parametrize(
    "body, message",
    [
        (b"", "empty body"),
        (b"{not json", "body is not JSON"),
        (b'["a list"]', "body must be a JSON object, got list"),
        (b'{"filters": {}}', "missing 'question'"),
        (b'{"question": 42}', "'question' must be a string, got int"),
        (b'{"question": "  "}', "'question' is empty"),
        ('{"question": "سؤال", "filters": "الرياض"}'.encode(), "'filters' must be an object or null, got str"),
    ],
)
def test_bad_bodies_are_400_and_the_connection_stays_usable(server: AgentServer, body: bytes, message: str) -> None:
    conn = connect(server)
    status, _, payload = exchange(conn, "POST", "/ask", body)
    assert status == 400
    assert payload["error"].startswith(message)
    status, _, answer = exchange(conn, "POST", "/ask", json.dumps({"question": QUESTION}).encode())
    assert status == 200 and answer["status"] == "success"


def test_unknown_paths_and_methods(server: AgentServer) -> None:
    conn = connect(server)
    status, _, payload = exchange(conn, "POST", "/v1/ask", b'{"question": "x"}')
    assert status == 404 and "POST /ask" in payload["error"]
    status, _, payload = exchange(conn, "GET", "/")
    assert status == 404
    status, headers, payload = exchange(conn, "GET", "/ask")
    assert status == 405 and headers["Allow"] == "POST"


def test_oversized_body_is_refused_and_the_connection_closed(server: AgentServer) -> None:
    conn = connect(server)
    conn.putrequest("POST", "/ask")
    conn.putheader("Content-Length", str(10 << 20))
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 413
    assert response.getheader("Connection") == "close"
    response.read()


def test_an_agent_that_raises_gives_an_error_answer() -> None:
    with running(FailingAgent()) as server:
        answer = HttpAgent(f"{server.url}/ask", timeout_s=5).ask(QUESTION)
    assert answer["status"] == "error"
    assert answer["error"] == "RuntimeError: the model is down"


class CountingAgent:
    spec = "python:tests:counting"

    def ask(self, question: str, filters: dict | None = None) -> Any:
        from nabahan_pipeline_tests.loopback import echo_agent

        return {**echo_agent(question, filters), "usage": {"prompt_tokens": 12, "completion_tokens": 3}}

    def fingerprint(self) -> str:
        return self.spec


def test_token_usage_passes_through() -> None:
    with running(CountingAgent()) as server:
        raw = HttpAgent(f"{server.url}/ask", timeout_s=5).ask(QUESTION)
    assert raw["usage"] == {"prompt_tokens": 12.0, "completion_tokens": 3.0}
    answer = normalize_answer(raw)
    assert (answer.prompt_tokens, answer.completion_tokens) == (12.0, 3.0)


def test_keep_alive_many_requests_one_connection(server: AgentServer) -> None:
    agent = HttpAgent(f"{server.url}/ask", timeout_s=5)
    ports: set[int] = set()
    original = server.process_request

    def spy(request: Any, client_address: tuple) -> None:
        ports.add(client_address[1])
        original(request, client_address)

    server.process_request = spy  # type: ignore[method-assign]
    answers = [normalize_answer(agent.ask(f"{QUESTION} {i}")) for i in range(5)]
    assert [a.insights for a in answers] == [f"سؤالك: {QUESTION} {i}" for i in range(5)]
    assert len(ports) == 1


def test_serves_the_embedded_agent(tmp_path: Path) -> None:
    from nabahan_pipeline.agents.embedded import EmbeddedAgent
    from nabahan_pipeline.etimad_db.generator import build_database

    database = build_database(tmp_path / "small.sqlite", tenders=500)
    with running(EmbeddedAgent(database=database)) as server:
        client = HttpAgent(f"{server.url}/ask", timeout_s=10)
        answer = normalize_answer(client.ask(QUESTION))
        refused = normalize_answer(client.ask("ما هي عاصمة فرنسا؟"))
    assert answer.status == "success", answer.error
    assert answer.sql and "tenders_full_details" in answer.sql
    assert answer.data and answer.insights
    assert refused.status == "out_of_scope"
    assert refused.insights.startswith("عذراً")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_nabahan_agent_serve_as_a_process(stop: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "agent", "serve", "--port", "0", "--agent", ECHO_SPEC],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=REPO_ROOT,
    )
    try:
        line = process.stdout.readline().strip()
        match = re.fullmatch(rf"serving {re.escape(ECHO_SPEC)} on (http://127\.0\.0\.1:(\d+)/ask)", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        assert int(match.group(2)) > 0
        answer = normalize_answer(HttpAgent(match.group(1), timeout_s=5).ask(QUESTION))
        assert answer.status == "success" and answer.insights == f"سؤالك: {QUESTION}"
        process.send_signal(stop)
        assert process.wait(timeout=5) == 0
        stderr = process.stderr.read()
        assert "Traceback" not in stderr
        assert '"POST /ask HTTP/1.1" 200' in stderr  # the access log goes to stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()


@pytest.mark.faults
@pytest.mark.parametrize("body", [b"[" * 500_000 + b"]" * 500_000,
                                  b'{"question": "q", "filters": ' + b'{"a": ' * 100_000 + b"1" + b"}" * 100_001])
def test_a_body_nested_500000_deep_is_400_with_its_reason(server: AgentServer, body: bytes) -> None:
    # The parser's RecursionError ended the handler: the connection closed with no answer.
    conn = connect(server)
    status, _, payload = exchange(conn, "POST", "/ask", body)
    assert (status, payload["error"]) == (400, "body nested deeper than 32 levels")
    status, _, answer = exchange(conn, "POST", "/ask", json.dumps({"question": QUESTION}).encode())
    assert status == 200 and answer["status"] == "success"
