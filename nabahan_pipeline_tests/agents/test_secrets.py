"""Secrets never reach a file or a line of output: the agent token echoed by a loopback service
in 401, 500 and 200 bodies, by a Python agent in its own error field and exceptions, and the
OpenAI key echoed by a chat-completions server. No piece of a secret longer than four characters
may appear anywhere on disk (reports, Parquet and its history, Dagster's storage, the response
cache) or on stdout/stderr."""

from __future__ import annotations

import json
import os
import re
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


# A picture's base64 (the dashboard's preview in the UI's Markdown) holds any five characters by
# chance now and then: a piece found there is no leak, so pictures are left out of the search.
_PICTURE = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")


def leaks(text: str, secret: str) -> list[str]:
    text = _PICTURE.sub("", text)
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


# --- placeholders, credentials in a spec, a token per agent, what an in-process agent prints -------

from nabahan_pipeline.agents.secrets import is_secret, redacted_url, scrubber, url_credentials  # noqa: E402
from nabahan_pipeline_tests.sample_agents import _honest  # noqa: E402

# A token per agent of a comparison, and the default one none of them is given.
TOKEN_A = "tkA-Pq7Ws2Ed9Rf4Tg6Yh1Uj3"
TOKEN_B = "tkB-Lk8Mj5Nh2Bg7Vf4Cd9Xs6"
DEFAULT_TOKEN = "tkD-Qa1Zw2Sx3Ed4Rc5Fv6Tg7"
# What a secret in a spec's query string or fragment looks like, by parameter.
SPEC_SECRET = "Vb8Nm3Kj6Hg1Fd4Sa7Qw2Er5"
CREDENTIAL_PARAMETERS = ["api_key", "token", "key", "access_token", "sig", "password", "X-Amz-Signature",
                         "apiKey", "client_secret"]


def test_a_short_value_or_a_known_placeholder_is_no_secret():
    for placeholder in ("x", "EMPTY", "dummy", "none", "ollama", "lm-studio", "sk-no-key-required", "1234567",
                        "xxxxxxxxxxxx", "  LM-Studio  "):
        assert not is_secret(placeholder), placeholder
        assert scrubber([placeholder])("SELECT max(x) AS m FROM t -- EMPTY dummy none ollama") == \
            "SELECT max(x) AS m FROM t -- EMPTY dummy none ollama"
    assert is_secret("sk-abcd1234") and is_secret(TOKEN)
    register_secret("x")  # registered or not, a placeholder redacts nothing
    assert scrub("max(x)") == "max(x)"


def test_a_credential_in_a_url_is_found_by_its_parameter_and_shown_redacted():
    for name in CREDENTIAL_PARAMETERS:
        url = f"http://127.0.0.1:9/ask?lang=ar&{name}={SPEC_SECRET}"
        assert url_credentials(url) == [name]
        assert redacted_url(url) == f"http://127.0.0.1:9/ask?lang=ar&{name}=***"
    assert url_credentials(f"http://u:{SPEC_SECRET}@h/ask#access_token=1") == ["userinfo", "access_token"]
    assert SPEC_SECRET not in redacted_url(f"http://u:{SPEC_SECRET}@h/ask")
    for plain in ("http://h/ask?lang=ar&monkey=1&limit=5", "http://h/ask?token", "embedded", "openai:gpt-4o-mini"):
        assert url_credentials(plain) == [], plain


def nabahan_env(tmp_path: Path, **env: str) -> dict[str, str]:
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), **env}
    for name in ("DAGSTER_HOME", "NABAHAN_AGENT", "OPENAI_BASE_URL", "OPENAI_API_KEY", "NABAHAN_AGENT_TOKEN",
                 "NABAHAN_AGENT_TOKEN_ENV"):
        if name not in env:
            environment.pop(name, None)
    return environment


def nabahan(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nabahan_pipeline", *args], cwd=tmp_path,
                          env=nabahan_env(tmp_path, **env), capture_output=True, text=True, timeout=300)


def write_cases(path: Path, cases: list[dict]) -> Path:
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", CREDENTIAL_PARAMETERS + ["fragment", "userinfo"])
def test_a_spec_holding_a_credential_is_refused_in_one_line_and_nothing_is_written(tmp_path: Path, name: str):
    url = {"fragment": f"http://127.0.0.1:9/ask#access_token={SPEC_SECRET}",
           "userinfo": f"http://agent:{SPEC_SECRET}@127.0.0.1:9/ask"}.get(name, f"http://127.0.0.1:9/ask?{name}={SPEC_SECRET}")
    cases = write_cases(tmp_path / "cases.json", [{"question": "كم؟", "category": "count"}])
    printed = []
    commands = [
        (["eval", "--agent", url, "--test-file", str(cases), "--output-dir", "out"], {}),
        (["eval", "--agent", f"mine={url}", "--agent", "embedded", "--test-file", str(cases)], {}),
        (["eval", "--test-file", str(cases)], {"NABAHAN_AGENT": url}),
        (["agents", "add", f"mine={url}"], {}),
        (["agent", "ask", "كم؟", "--agent", url], {}),
    ]
    for args, env in commands if name in ("api_key", "userinfo") else commands[:1]:  # every door, then every kind
        result = nabahan(tmp_path, *args, **env)
        assert result.returncode == 2, (args, result.stdout, result.stderr[-2000:])
        (line,) = result.stderr.strip().splitlines()
        assert "credential" in line and ("--agent-token" in line or name == "userinfo"), line
        printed.append(result.stdout + result.stderr)
    assert leaks("\n".join(printed), SPEC_SECRET) == []
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists(), "no state, no report"


def max_answer(request: Request) -> Reply:
    """Right, by SQL whose text holds ``max(`` and many an ``x``."""
    return Reply(200, _honest("SELECT max(n) AS n FROM (SELECT COUNT(*) AS n FROM tenders_full_details) AS x"))


@pytest.mark.slow
def test_a_placeholder_key_changes_no_answer_and_no_verdict(tmp_path: Path):
    cases = write_cases(tmp_path / "cases.json", [
        {"question": "كم عدد المناقصات في المنصة؟", "category": "count", "expected_table": "tenders_full_details",
         "expected_sql": "SELECT COUNT(*) FROM tenders_full_details"}])
    results = {}
    with LoopbackServer(max_answer) as service:
        for run, env in (("plain", {}), ("placeholder", {"NABAHAN_AGENT_TOKEN": "x", "OPENAI_API_KEY": "EMPTY"}),
                         ("local", {"NABAHAN_AGENT_TOKEN": "sk-no-key-required", "OPENAI_API_KEY": "lm-studio"})):
            folder = tmp_path / run
            folder.mkdir()
            result = nabahan(folder, "eval", "--agent", service.url(), "--test-file", str(cases), "--output-dir",
                             "out", "--test-suite", "0", **env)
            assert result.returncode == 0, result.stderr[-3000:]
            assert "ma***" not in result.stdout
            (report,) = (folder / "out").glob("evaluation_results_*.csv")
            table = pd.read_csv(report, encoding="utf-8-sig")
            results[run] = table.drop(columns=[c for c in table.columns if "latency" in c.lower()
                                               or "time" in c.lower()])
        sent = [request.headers.get("authorization") for request in service.requests if request.method == "POST"]
    assert sent == [None, "Bearer x", "Bearer sk-no-key-required"], "the placeholder is still sent as the token"
    for run in ("placeholder", "local"):
        pd.testing.assert_frame_equal(results[run], results["plain"])
    assert bool(results["plain"]["Correct"].iloc[0]) is True
    assert any("max(n)" in str(value) for value in results["plain"].iloc[0]), "the SQL is in the report, whole"


def bearer_recorder(request: Request) -> Reply:
    return Reply(200, _honest("SELECT COUNT(*) AS n FROM tenders_full_details"))


@pytest.mark.slow
def test_each_agent_gets_only_its_own_token_and_none_is_kept_or_shown(tmp_path: Path):
    cases = write_cases(tmp_path / "cases.json", [
        {"question": "كم عدد المناقصات في المنصة؟", "category": "count", "expected_table": "tenders_full_details"}])
    env = {"AGENT_A_TOKEN": TOKEN_A, "AGENT_B_TOKEN": TOKEN_B, "NABAHAN_AGENT_TOKEN": DEFAULT_TOKEN}
    with LoopbackServer(bearer_recorder) as a, LoopbackServer(bearer_recorder) as b, \
            LoopbackServer(bearer_recorder) as vendor:
        result = nabahan(tmp_path, "eval", "--agent", f"a={a.url()}", "--agent", f"b={b.url()}",
                         "--agent", f"vendor={vendor.url()}", "--agent-token", "a=AGENT_A_TOKEN",
                         "--agent-token", "b=AGENT_B_TOKEN", "--test-file", str(cases), "--output-dir", "out",
                         "--test-suite", "0", "--register", **env)
        assert result.returncode == 0, result.stderr[-3000:]
        single = nabahan(tmp_path, "eval", "--agent", vendor.url(), "--test-file", str(cases), "--output-dir",
                         "out", "--test-suite", "0", "--register", **env)
        assert single.returncode == 0, single.stderr[-3000:]
        listed = nabahan(tmp_path, "agents", "list", **env)
        received = {name: {request.headers.get("authorization") for request in server.requests}
                    for name, server in (("a", a), ("b", b), ("vendor", vendor))}
    # The default token went to the vendor only when it was the run's only agent.
    assert received == {"a": {f"Bearer {TOKEN_A}"}, "b": {f"Bearer {TOKEN_B}"},
                        "vendor": {None, f"Bearer {DEFAULT_TOKEN}"}}
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        f"a\t{a.url()}\ttoken from $AGENT_A_TOKEN", f"b\t{b.url()}\ttoken from $AGENT_B_TOKEN",
        f"vendor\t{vendor.url()}", f"{vendor.url()}\t{vendor.url()}\ttoken from $NABAHAN_AGENT_TOKEN",
    ], "the registry keeps each variable's name; the vendor named in the comparison, none"
    printed = "\n".join(run.stdout + run.stderr for run in (result, listed, single))
    written = everything_written(tmp_path / "out") + everything_written(tmp_path / "home")
    assert any("runs.db" in where or "index.db" in where or ".db:" in where for where, _ in written)
    for secret in (TOKEN_A, TOKEN_B, DEFAULT_TOKEN):
        found = {where: leaks(text, secret) for where, text in written + [("output", printed)]}
        assert {where: hit for where, hit in found.items() if hit} == {}


def test_a_token_variable_is_given_by_name_and_a_bad_one_is_one_line(tmp_path: Path):
    cases = write_cases(tmp_path / "cases.json", [{"question": "كم؟", "category": "count"}])
    base = ["eval", "--test-file", str(cases), "--output-dir", "out", "--agent", "a=http://127.0.0.1:9/ask",
            "--agent", "b=http://127.0.0.1:9/other"]
    for extra, needle in (
        (["--agent-token", TOKEN_A], "without a label"),  # the token itself, not its variable's name
        (["--agent-token", f"a={TOKEN_A}"], "not the name of an environment variable"),
        (["--agent-token", "c=AGENT_A_TOKEN"], "no agent labelled 'c'"),
        (["--agent-token", "a=UNSET_TOKEN_VARIABLE"], "is not set"),
    ):
        result = nabahan(tmp_path, *base, *extra, AGENT_A_TOKEN=TOKEN_A)
        assert result.returncode == 2, result.stderr[-2000:]
        (line,) = result.stderr.strip().splitlines()
        assert needle in line and leaks(line, TOKEN_A) == [], line
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_what_an_in_process_agent_prints_and_its_import_error_are_scrubbed(tmp_path: Path):
    cases = write_cases(tmp_path / "cases.json", [{"question": "كم عدد المناقصات؟", "category": "count",
                                                   "expected_table": "tenders_full_details"}])
    result = nabahan(tmp_path, "eval", "--agent", "python:nabahan_pipeline_tests.leaky_agent:printing_agent",
                     "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0",
                     NABAHAN_AGENT_TOKEN=TOKEN)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "DEBUG request headers" in result.stdout + result.stderr, "what it prints is still shown"
    failed = nabahan(tmp_path, "eval", "--agent", "python:nabahan_pipeline_tests.leaky_agent:printing_agent",
                     "--test-file", str(cases), "--output-dir", "out2", OPENAI_API_KEY=API_KEY,
                     LEAKY_AGENT_FAIL_IMPORT="1")
    assert failed.returncode == 2 and "could not sign in" in failed.stderr, failed.stderr[-2000:]
    written = everything_written(tmp_path / "home")
    logs = [where for where, _ in written if where.endswith((".out", ".err"))]
    assert logs and any("DEBUG request headers" in text for where, text in written if where in logs), \
        "Dagster captured the agent's output"
    printed = result.stdout + result.stderr + failed.stdout + failed.stderr
    for secret in (TOKEN, API_KEY):
        found = {where: leaks(text, secret) for where, text in written + [("output", printed)]}
        assert {where: hit for where, hit in found.items() if hit} == {}
