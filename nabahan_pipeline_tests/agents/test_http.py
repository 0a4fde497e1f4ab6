"""The HTTP agent against real loopback servers: the request it sends, Arabic intact, the token
sent and never shown, answers outside the contract, bad specs. The transport (retries, time
budget, pooling) is tested in test_http_client."""

from __future__ import annotations

import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.http import HttpAgent
from nabahan_pipeline.agents.registry import resolve_agent
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, http_agent

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


@pytest.fixture(autouse=True)
def _no_token(no_agent_token: None) -> None:
    """No NABAHAN_AGENT_TOKEN from the shell (agents/conftest.py)."""


def test_success_and_arabic_round_trip(server: LoopbackServer) -> None:
    filters = {"region": "منطقة الرياض", "year": 2024}
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION, filters))
    assert answer.status == "success", answer.error
    assert answer.insights == f"سؤالك: {QUESTION}"
    (request,) = server.requests
    assert request.method == "POST" and request.path == "/ask"
    assert request.json() == {"question": QUESTION, "filters": filters}
    assert request.headers["content-type"] == "application/json; charset=utf-8"
    assert QUESTION.encode("utf-8") in request.body  # UTF-8 on the wire, not \u escapes
    assert "authorization" not in request.headers


def test_non_json_body_is_a_clear_error_row(server: LoopbackServer) -> None:
    server.script(Reply(200, "<html>Bad Gateway</html>", headers={"Content-Type": "text/html"}))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "error"
    assert answer.error.startswith("malformed answer: response is not JSON (Expecting value; text/html;")
    assert "<html>Bad Gateway</html>" in answer.error
    assert len(server.requests) == 1


def test_json_that_is_not_an_object_is_malformed(server: LoopbackServer) -> None:
    server.script(Reply(200, ["not", "an", "answer"]))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.error == "malformed answer: expected a JSON object, got list"


def test_bearer_token_is_sent_and_never_shown(server: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "s3cr3t-Xq9vB2kLm0123456789"
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", token)
    agent = resolve_agent(server.url(), agent_version="v7", timeout_s=5.0)
    assert isinstance(agent, HttpAgent)
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert server.requests[0].headers["authorization"] == f"Bearer {token}"

    server.script(Reply(401, f"invalid token {token}"))
    answer = normalize_answer(agent.ask(QUESTION))
    assert answer.error == f"HTTP 401 from {server.url()}: invalid token ***"
    assert token not in repr(agent)
    assert token not in agent.fingerprint()
    assert agent.fingerprint() == f"{server.url()}|v7"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("http://user:pw@127.0.0.1:1/ask", "credentials in the URL are not supported"),
        ("http:///ask", "has no host"),
        ("http://127.0.0.1:99999999/ask", "invalid port"),
    ],
)
def test_bad_specs_are_user_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message) as raised:
        HttpAgent(spec)
    assert "pw" not in str(raised.value)
