"""The OpenAI-compatible agent against a loopback server that speaks chat completions with scripted
replies: the requests' shape, SQL run on a real database, refusals, unsafe SQL, repair, usage."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.openai_compat import OpenAICompatibleAgent, extract_sql
from nabahan_pipeline.agents.registry import AgentSpecError, resolve_agent
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply
from nabahan_pipeline_tests.loopback import chat_completion as completion

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"
RIYADH_SQL = "SELECT COUNT(*) AS tenders_count FROM tenders_full_details WHERE region_id = 1;"
INSIGHT = "يبلغ عدد المناقصات في منطقة الرياض {n} مناقصة."
API_KEY = "sk-test-0123456789abcdef"


def no_script(request: Any) -> Reply:
    return Reply(500, "the test did not script this request")


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from nabahan_pipeline.etimad_db.generator import build_database

    return build_database(tmp_path_factory.mktemp("db") / "small.sqlite", tenders=500)


@pytest.fixture(scope="module")
def riyadh_count(database: Path) -> int:
    with closing(sqlite3.connect(database)) as con:
        return con.execute("SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1").fetchone()[0]


@pytest.fixture
def llm():
    with LoopbackServer(no_script) as server:
        yield server


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)


def make_agent(llm: LoopbackServer, database: Path, **kwargs: Any) -> OpenAICompatibleAgent:
    kwargs.setdefault("timeout_s", 10.0)
    kwargs.setdefault("backoff_base_s", 0.01)
    return OpenAICompatibleAgent(
        "openai:test-model", database=database, base_url=llm.url("/v1"), **kwargs
    )


def test_sql_then_insight(llm: LoopbackServer, database: Path, riyadh_count: int) -> None:
    llm.script(
        completion(f"Here you go:\n```sql\n{RIYADH_SQL}\n```", 1200, 30),
        completion(INSIGHT.format(n=riyadh_count), 300, 25),
    )
    raw = make_agent(llm, database).ask(QUESTION)
    answer = normalize_answer(raw)
    assert answer.status == "success", answer.error
    assert answer.sql == RIYADH_SQL
    assert answer.data == [{"tenders_count": riyadh_count}]
    assert (raw["columns"], raw["rows"]) == (["tenders_count"], [[riyadh_count]]), "the lossless result form"
    assert answer.insights == INSIGHT.format(n=riyadh_count)
    assert raw["usage"] == {"prompt_tokens": 1500, "completion_tokens": 55}
    assert (answer.prompt_tokens, answer.completion_tokens) == (1500.0, 55.0)

    sql_request, insight_request = llm.requests
    assert sql_request.path == "/v1/chat/completions" and sql_request.method == "POST"
    assert sql_request.headers["authorization"] == f"Bearer {API_KEY}"
    body = sql_request.json()
    assert body["model"] == "test-model" and body["temperature"] == 0
    system, user = body["messages"]
    assert system["role"] == "system" and user == {"role": "user", "content": QUESTION}
    assert "CREATE TABLE tenders_full_details" in system["content"]
    assert "1=منطقة الرياض / Riyadh" in system["content"]  # lookup values
    assert "OUT_OF_SCOPE" in system["content"] and "Q: " in system["content"]  # instructions, examples

    body = insight_request.json()
    assert body["model"] == "test-model" and body["temperature"] == 0
    system, user = body["messages"]
    assert "Arabic" in system["content"]
    assert QUESTION in user["content"]
    assert json.dumps([{"tenders_count": riyadh_count}]) in user["content"]


def test_filters_reach_the_model(llm: LoopbackServer, database: Path) -> None:
    llm.script(completion(RIYADH_SQL), completion("نص"))
    make_agent(llm, database).ask(QUESTION, {"region": "الرياض", "year": 2024})
    user = llm.requests[0].json()["messages"][-1]["content"]
    assert user.startswith(QUESTION)
    assert '{"region": "الرياض", "year": 2024}' in user


@pytest.mark.parametrize("reply", ["OUT_OF_SCOPE", "  `OUT_OF_SCOPE`.", "```\nOUT_OF_SCOPE\n```"])
def test_out_of_scope(llm: LoopbackServer, database: Path, reply: str) -> None:
    llm.script(completion(reply, 900, 3))
    raw = make_agent(llm, database).ask("ما هي عاصمة فرنسا؟")
    answer = normalize_answer(raw)
    assert answer.status == "out_of_scope" and answer.sql is None and answer.data == []
    assert answer.insights.startswith("عذراً")
    assert raw["usage"] == {"prompt_tokens": 900, "completion_tokens": 3}
    assert len(llm.requests) == 1


def test_unsafe_sql_is_refused_without_running_it(llm: LoopbackServer, database: Path) -> None:
    llm.script(completion("```sql\nDROP TABLE tenders_full_details;\n```"))
    answer = normalize_answer(make_agent(llm, database).ask(QUESTION))
    assert answer.status == "error" and answer.sql is None
    assert answer.error.startswith("unsafe SQL from the model, not run: not a read-only query")
    assert "DROP TABLE tenders_full_details" in answer.error
    assert len(llm.requests) == 1  # no repair round for a writing statement
    with closing(sqlite3.connect(database)) as con:
        assert con.execute("SELECT COUNT(*) FROM tenders_full_details").fetchone()[0] == 500


def test_failing_sql_gets_one_repair_round(llm: LoopbackServer, database: Path, riyadh_count: int) -> None:
    broken = "SELECT COUNT(*) AS tenders_count FROM tenders WHERE region_id = 1"
    llm.script(
        completion(f"```sql\n{broken}\n```", 1000, 20),
        completion(f"```sql\n{RIYADH_SQL}\n```", 1100, 20),
        completion(INSIGHT.format(n=riyadh_count), 200, 15),
    )
    raw = make_agent(llm, database).ask(QUESTION)
    answer = normalize_answer(raw)
    assert answer.status == "success", answer.error
    assert answer.sql == RIYADH_SQL and answer.data == [{"tenders_count": riyadh_count}]
    assert raw["usage"] == {"prompt_tokens": 2300, "completion_tokens": 55}
    repair = llm.requests[1].json()["messages"]
    assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
    assert repair[2]["content"] == f"```sql\n{broken}\n```"
    assert "no such table: tenders" in repair[3]["content"]


def test_syntax_error_is_repaired_too(llm: LoopbackServer, database: Path) -> None:
    llm.script(completion("SELECT COUNT(* FROM tenders_full_details"), completion(RIYADH_SQL), completion("نص"))
    answer = normalize_answer(make_agent(llm, database).ask(QUESTION))
    assert answer.status == "success", answer.error
    assert "SQL does not parse" in llm.requests[1].json()["messages"][-1]["content"]


def test_sql_failing_after_the_repair_is_an_error(llm: LoopbackServer, database: Path) -> None:
    llm.script(completion("SELECT nope FROM tenders_full_details"), completion("SELECT still_nope FROM tenders_full_details"))
    raw = make_agent(llm, database).ask(QUESTION)
    answer = normalize_answer(raw)
    assert answer.status == "error"
    assert answer.error == "SQL failed after one repair: query failed: no such column: still_nope"
    assert answer.sql == "SELECT still_nope FROM tenders_full_details"
    assert raw["usage"] == {"prompt_tokens": 200, "completion_tokens": 20}
    assert len(llm.requests) == 2


def test_llm_errors_are_retried_and_never_show_the_key(llm: LoopbackServer, database: Path) -> None:
    llm.script(Reply(503, "busy"), completion(RIYADH_SQL), completion("نص"))
    agent = make_agent(llm, database)
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert len(llm.requests) == 3

    llm.script(Reply(401, {"error": {"message": f"Incorrect API key provided: {API_KEY}"}}))
    answer = normalize_answer(agent.ask(QUESTION))
    assert answer.status == "error"
    assert answer.error.startswith(f"LLM request failed: HTTP 401 from {llm.url('/v1/chat/completions')}: ")
    assert API_KEY not in answer.error and "***" in answer.error
    assert API_KEY not in agent.fingerprint() and API_KEY not in repr(agent)


def test_malformed_completion_is_an_error(llm: LoopbackServer, database: Path) -> None:
    llm.script(Reply(200, {"choices": []}))
    answer = normalize_answer(make_agent(llm, database).ask(QUESTION))
    assert answer.error == f"malformed chat completion from {llm.url('/v1/chat/completions')}: no choices[0].message.content"


def test_resolved_from_the_spec_with_env_base_url(
    llm: LoopbackServer, database: Path, monkeypatch: pytest.MonkeyPatch, riyadh_count: int
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", llm.url("/v1/"))
    monkeypatch.delenv("OPENAI_API_KEY")
    agent = resolve_agent("openai:test-model", agent_version="v2", database=database, timeout_s=10.0)
    assert isinstance(agent, OpenAICompatibleAgent)
    assert agent.fingerprint() == f"openai:test-model|127.0.0.1:{llm.port}|v2"

    llm.script(*[completion(RIYADH_SQL, 10, 1), completion(INSIGHT.format(n=riyadh_count), 5, 1)] * 2)
    cases = pd.DataFrame({"case_id": ["a", "b"], "question": [QUESTION] * 2, "filters": [None] * 2})
    responses = run_agent(cases, agent, concurrency=1, timeout_s=10.0)
    assert list(responses["status"]) == ["success", "success"]
    assert list(responses["prompt_tokens"]) == [15.0, 15.0]
    assert list(responses["completion_tokens"]) == [2.0, 2.0]
    assert "authorization" not in llm.requests[0].headers  # no key: none sent


def test_bad_specs(database: Path, tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="expected 'openai:MODEL'"):
        OpenAICompatibleAgent("openai:", database=database)
    with pytest.raises(AgentSpecError, match="not found"):
        OpenAICompatibleAgent("openai:m", database=tmp_path / "missing.sqlite")
    with pytest.raises(AgentSpecError, match="OPENAI_BASE_URL"):
        OpenAICompatibleAgent("openai:m", database=database, base_url="localhost:8000/v1")


@pytest.mark.parametrize(
    "reply, sql",
    [
        ("```sql\nSELECT 1;\n```", "SELECT 1;"),
        ("```SQLite\nSELECT 1\n```\nand also ```sql\nSELECT 2\n```", "SELECT 1"),
        ("Some prose\n```\nSELECT 3\n```", "SELECT 3"),
        ("The query is: SELECT 4 AS four", "SELECT 4 AS four"),
        ("```SELECT 5```", "SELECT 5"),
        ("WITH t AS (SELECT 1) SELECT * FROM t", "WITH t AS (SELECT 1) SELECT * FROM t"),
        ("OUT_OF_SCOPE", None),
        ("out_of_scope.", None),
        ("I cannot help with that.", ""),
    ],
)
def test_extract_sql(reply: str, sql: str | None) -> None:
    assert extract_sql(reply) == sql
