"""Secrets never reach a file or a line of output: the agent token echoed by a loopback service
in 401, 500 and 200 bodies, by a Python agent in its own error field and exceptions, and the
OpenAI key echoed by a chat-completions server. No piece of a secret longer than four characters
may appear anywhere on disk (reports, Parquet and its history, Dagster's storage, the response
cache) or on stdout/stderr."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.agents.secrets import register_secret, scrub

from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, Request
from nabahan_pipeline_tests.commands import REPO

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

TOKEN = "tk-Zq8Vx3Lm9Wp2Rn7Ks4Hd6Jf1"
API_KEY = "sk-Yh5Tg2Qw8Er4Cv7Bn1Mx3Lp9"


def pieces(secret: str) -> set[str]:
    return {secret[i : i + 5] for i in range(len(secret) - 4)}


def leaks(text: str, secret: str) -> list[str]:
    return sorted(piece for piece in pieces(secret) if piece in text)


def test_scrub_removes_the_secret_every_piece_of_it_and_any_credential():
    register_secret(TOKEN)
    assert scrub(f"HTTP 401: bad token {TOKEN}.") == "HTTP 401: bad token ***."
    cut = f"echo {TOKEN[:14]} and {TOKEN[9:21]} and the tail {TOKEN[-6:]}"
    assert leaks(scrub(cut), TOKEN) == [] and scrub(cut).count("***") == 3
    assert scrub("Authorization: Bearer some-other-credential") == "Authorization: Bearer ***"
    assert scrub('{"authorization": "Basic dXNlcjpwYXNz"}') == '{"authorization": "Basic ***"}'
    assert scrub("GET /v1?api_key=abc123&x=1") == "GET /v1?api_key=***&x=1"
    assert scrub("بلغ عدد المناقصات 1,234 مناقصة") == "بلغ عدد المناقصات 1,234 مناقصة"


def answer_for(request: Request) -> Reply:
    question = request.json()["question"]
    if "401" in question:
        return Reply(401, f"invalid bearer token {TOKEN}; you sent Authorization: Bearer {TOKEN}")
    if "500" in question:  # the token straddles the 200 characters an excerpt keeps
        return Reply(500, "x" * 190 + f" token={TOKEN} " + "y" * 100)
    return Reply(200, {
        "status": "success",
        "sql": f"SELECT 7 AS n FROM tenders_full_details LIMIT 1 -- {TOKEN}",
        "columns": ["n", f"echo_{TOKEN}"],
        "rows": [[7, f"{TOKEN} and {TOKEN[:15]}"]],
        "insights": f"بلغ العدد 7 مناقصات، ورمزك {TOKEN} وجزء منه {TOKEN[3:16]}",
        "error": f"echo {TOKEN}",
    })


def chat_for(request: Request) -> Reply:
    body = request.body.decode("utf-8")
    if "401" in body:
        return Reply(401, {"error": {"message": f"Incorrect API key provided: {API_KEY}. " + "z" * 300}})
    content = (f"```sql\nSELECT 7 AS n FROM tenders_full_details LIMIT 1 -- {API_KEY}\n```"
               if "You write SQL" in body else f"بلغ العدد 7 مناقصات، والمفتاح {API_KEY}")
    return Reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}})


def everything_written(root: Path) -> list[tuple[str, str]]:
    """(where, text) for every file under ``root``: its bytes as text, the cells of Parquet files,
    the text of every SQLite table."""
    found = []
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        found.append((str(path), path.read_bytes().decode("utf-8", errors="replace")))
        if path.suffix == ".parquet":
            found.append((f"{path} (cells)", pd.read_parquet(path).to_json(force_ascii=False)))
        elif path.suffix in (".db", ".sqlite"):
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                    rows = con.execute(f'SELECT * FROM "{table}"').fetchall()
                    found.append((f"{path}:{table}", json.dumps(rows, ensure_ascii=False, default=str)))
            finally:
                con.close()
    return found


def run_eval(tmp_path: Path, agent: str, questions: list[str], **env: str) -> subprocess.CompletedProcess:
    cases = tmp_path / f"cases_{len(list(tmp_path.glob('cases_*')))}.json"
    cases.write_text(json.dumps([{"question": q, "category": "count", "expected_table": "tenders_full_details"}
                                 for q in questions], ensure_ascii=False), encoding="utf-8")
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), **env}
    for name in ("DAGSTER_HOME", "NABAHAN_AGENT", "OPENAI_BASE_URL", "OPENAI_API_KEY", "NABAHAN_AGENT_TOKEN"):
        if name not in env:
            environment.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", agent, "--test-file", str(cases),
         "--output-dir", str(tmp_path / "out"), "--test-suite", "0", "--concurrency", "1", "--cache"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.slow
def test_no_piece_of_the_token_or_the_key_is_stored_or_printed(tmp_path: Path):
    printed = []
    with LoopbackServer(answer_for) as service:
        result = run_eval(tmp_path, service.url(), ["سؤال 401؟", "سؤال 500؟", "سؤال 200؟"],
                          NABAHAN_AGENT_TOKEN=TOKEN)
        assert result.returncode == 0, result.stderr[-3000:]
        printed.append(result.stdout + result.stderr)
        assert "HTTP 401" in result.stdout and "HTTP 500" in result.stdout, "the failures are still told"
    for agent in ("token_echo_agent", "token_raising_agent"):
        result = run_eval(tmp_path, f"python:nabahan_pipeline_tests.sample_agents:{agent}", ["سؤال؟"],
                          NABAHAN_AGENT_TOKEN=TOKEN)
        assert result.returncode == 0, result.stderr[-3000:]
        printed.append(result.stdout + result.stderr)
    with LoopbackServer(chat_for) as llm:
        result = run_eval(tmp_path, "openai:test-model", ["سؤال 401؟", "سؤال 200؟"],
                          OPENAI_BASE_URL=llm.url("/v1"), OPENAI_API_KEY=API_KEY)
        assert result.returncode == 0, result.stderr[-3000:]
        printed.append(result.stdout + result.stderr)

    written = everything_written(tmp_path / "out") + everything_written(tmp_path / "home")
    assert any("evaluation_results" in where for where, _ in written)
    assert any(where.endswith("agent_responses.parquet (cells)") for where, _ in written)
    assert any("response_cache" in where for where, _ in written), "the cache was written and is checked"
    for secret in (TOKEN, API_KEY):
        found = {where: leaks(text, secret) for where, text in written + [("output", "\n".join(printed))]}
        assert {where: hit for where, hit in found.items() if hit} == {}
