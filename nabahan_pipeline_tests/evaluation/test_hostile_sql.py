"""Hostile SQL through every agent kind (a Python callable, an HTTP service on loopback, an
OpenAI-compatible model on loopback), end to end: writes, ATTACH, PRAGMA, VACUUM INTO,
load_extension, two statements, a never-ending recursive CTE and cross joins of billions of rows.
None is run with write access, the slow ones are stopped by the time limit or the row cap, each
is not Correct with its reason, and no database changes (hash) or gains a file beside it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.etimad_db.store import default_database_path, ensure_database, suite_databases
from nabahan_pipeline.files import file_sha256

from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, Request
from nabahan_pipeline_tests.sample_agents import HOSTILE_SQL, hostile_sql, hostile_sql_agent
from nabahan_pipeline_tests.commands import REPO

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

GOLD = "SELECT COUNT(*) AS n FROM tenders_full_details"
UNSAFE = {"drop", "delete", "update", "insert", "attach", "writable_schema", "vacuum_into", "two_statements",
          "with_delete"}
# What stops each slow one (fetching 100,000 wide rows may itself outlast 0.5 s on a busy machine).
SLOW = {"recursive_cte": ("time limit",), "cross_join_count": ("time limit",),
        "cross_join_rows": ("row cap", "time limit")}


def chat_for(request: Request) -> Reply:
    body = request.json()
    prompt = body["messages"][-1]["content"]
    if "You write SQL" in json.dumps(body, ensure_ascii=False):
        content = f"```sql\n{hostile_sql(prompt.split('Question: ')[-1].splitlines()[0] if 'Question: ' in prompt else prompt)}\n```"
    else:
        content = "بلغ عدد المناقصات 20000 مناقصة وفق البيانات المتاحة في المنصة."
    return Reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}})


def run(tmp_path: Path, agent: str, **env: str) -> pd.DataFrame:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([
        {"id": name, "question": f"كم عدد المناقصات؟ [{name}]", "category": "count",
         "expected_table": "tenders_full_details", "expected_sql": GOLD}
        for name in HOSTILE_SQL
    ], ensure_ascii=False), encoding="utf-8")
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), **env}
    for name in ("DAGSTER_HOME", "NABAHAN_AGENT", "OPENAI_BASE_URL"):
        if name not in env:
            environment.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", agent, "--test-file", str(cases),
         "--output-dir", str(tmp_path / "out"), "--test-suite", "1", "--sql-timeout", "0.5"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (csv,) = (tmp_path / "out").glob("evaluation_results_*.csv")
    return pd.read_csv(csv, encoding="utf-8-sig", keep_default_na=False).set_index("Case ID")


def files_beside() -> list[str]:
    # Other test processes may be building databases there meanwhile (hidden temporary names,
    # then the generator's own names): what hostile SQL could leave is anything else.
    return sorted(
        p.name for p in default_database_path().parent.iterdir()
        if not p.name.startswith(".") and not re.fullmatch(r"etimad-v\d+-seed\d+-[\w-]+\.sqlite", p.name)
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["python", "http", "openai"])
def test_hostile_sql_is_never_run_with_write_access_and_never_correct(tmp_path: Path, kind: str):
    databases = [ensure_database(), *suite_databases(1)]
    hashes = {path: file_sha256(path) for path in databases}
    beside = files_beside()
    hostile_dir = tmp_path / "hostile"
    hostile_dir.mkdir()
    env = {"HOSTILE_DIR": str(hostile_dir)}

    if kind == "python":
        results = run(tmp_path, "python:nabahan_pipeline_tests.sample_agents:hostile_sql_agent", **env)
    elif kind == "http":
        with LoopbackServer(lambda request: Reply(200, hostile_sql_agent(request.json()["question"]))) as service:
            results = run(tmp_path, service.url(), **env)
    else:
        with LoopbackServer(chat_for) as llm:
            results = run(tmp_path, "openai:test-model", OPENAI_BASE_URL=llm.url("/v1"), OPENAI_API_KEY="", **env)

    assert {path: file_sha256(path) for path in databases} == hashes, "no database changed"
    assert files_beside() == beside, "no file beside them"
    assert list(hostile_dir.iterdir()) == [], "ATTACH and VACUUM INTO created nothing"
    assert sorted(results.index) == sorted(HOSTILE_SQL)
    assert not results["Correct"].astype(bool).any(), results[["Correct", "Why Not Correct"]]
    assert (results["Execution Match"].astype(float) == 0.0).all()
    for name, row in results.iterrows():
        why = row["Why Not Correct"]
        if kind == "openai":  # the agent checks and runs the model's SQL itself, then answers
            assert why, name
            continue
        if name in UNSAFE:
            assert row["Unsafe SQL"] == "True" or row["Unsafe SQL"] is True, name
            assert why.startswith("unsafe SQL: "), (name, why)
            assert str(row["Overall Passed"]) == "False", name
        elif name in SLOW:
            assert "its SQL gave no result here: " in why and any(stop in why for stop in SLOW[name]), (name, why)
        else:
            assert why.startswith(("unsafe SQL: ", "its SQL gave no result here: ")), (name, why)


def test_a_result_over_the_row_cap_is_not_kept_and_never_matches(small_db: Path):
    from nabahan_pipeline.evaluation.agent_sql import QueryRunner, check_agent_sql

    with QueryRunner(small_db, timeout_s=30, max_rows=1_000) as runner:
        (run,) = runner.agent_runs(check_agent_sql(HOSTILE_SQL["cross_join_rows"]))
    assert run.result is None and run.problem == "result over the row cap of 1,000 rows"
