"""Caps on what an agent may send, each with its reason: past one the answer is an error row
that names the cap, and the run's memory stays bounded. Every value stored is strict JSON."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import AnswerLimits, normalize_answer
from nabahan_pipeline.agents.http import HttpAgent
from nabahan_pipeline.agents.registry import resolve_agent
from nabahan_pipeline.agents.runner import MAX_ERROR_CHARS, run_agent

from nabahan_pipeline_tests.loopback import LoopbackServer, Reply
from nabahan_pipeline_tests.commands import REPO

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

AGENTS = "python:nabahan_pipeline_tests.sample_agents:"


def cases(n: int = 1) -> pd.DataFrame:
    return pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "question": ["كم؟"] * n, "filters": [None] * n})


def test_each_cap_is_named_in_the_error():
    small = AnswerLimits(max_rows=2, max_insight_chars=10, max_sql_chars=12)
    ok = {"status": "success", "sql": "SELECT 1", "data": [{"n": 1}], "insights": "بلغ 1", "error": None}
    assert normalize_answer(ok, small).status == "success"
    for change, cap in (({"data": [{"n": 1}] * 3}, "3 rows > max_answer_rows 2"),
                        ({"columns": ["n"], "rows": [[1]] * 3}, "3 rows > max_answer_rows 2"),
                        ({"insights": "ب" * 11}, "an insight of 11 characters > max_insight_chars 10"),
                        ({"sql": "SELECT 1 -- long"}, "SQL of 16 characters > max_sql_chars 12")):
        answer = normalize_answer({**ok, **change}, small)
        assert (answer.status, answer.error) == ("error", f"answer over the cap: {cap}")


def test_a_million_rows_and_a_50_mb_insight_are_error_rows():
    # In a child process (the default), the insight's 100 MB of UTF-8 are over the bytes cap before it is read.
    for agent, in_process, cap in (
        ("million_rows_agent", False, "1,000,000 rows > max_answer_rows 100,000"),
        ("huge_insight_agent", False, "bytes > max_answer_bytes 33,554,432"),
        ("million_rows_agent", True, "1,000,000 rows > max_answer_rows 100,000"),
        ("huge_insight_agent", True, "characters > max_insight_chars 20,000"),
    ):
        responses = run_agent(cases(), resolve_agent(AGENTS + agent, in_process=in_process), timeout_s=60)
        assert responses["status"].tolist() == ["error"]
        assert cap in responses["error"].iloc[0] and responses["rows"].iloc[0] == "[]"
        assert responses["insights"].iloc[0] == ""


def test_an_error_message_is_cut_after_scrubbing():
    responses = run_agent(cases(), resolve_agent(AGENTS + "raising_agent"))
    assert responses["error"].iloc[0] == "RuntimeError: database is locked"
    long = {"status": "error", "sql": None, "data": [], "insights": "", "error": "e" * 50_000}

    class Long:
        spec = "long"

        def ask(self, question, filters=None):
            return long

        def fingerprint(self):
            return "long"

    error = run_agent(cases(), Long())["error"].iloc[0]
    assert len(error) == MAX_ERROR_CHARS and error.endswith("…")


@pytest.mark.slow
def test_memory_stays_bounded_for_hostile_answers(tmp_path: Path):
    """A whole `nabahan eval` over agents that send a million rows and a 50 MB insight: its peak
    memory (the agents' own allocations included) stays far below the 5.2 GB it used to take."""
    cases_path = tmp_path / "cases.json"
    cases_path.write_text(json.dumps([{"question": f"كم {i}؟", "category": "count",
                                       "expected_table": "tenders_full_details"} for i in range(2)]), encoding="utf-8")
    script = (
        "import resource, sys\n"
        "from nabahan_pipeline.cli import main\n"
        "codes = [main(['eval', '--agent', a, '--test-file', sys.argv[1], '--output-dir', sys.argv[2],"
        " '--test-suite', '0']) for a in sys.argv[3:]]\n"
        "print('PEAK_MB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, codes)\n"
    )
    env = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    env.pop("DAGSTER_HOME", None)
    result = subprocess.run(
        [sys.executable, "-c", script, str(cases_path), str(tmp_path / "out"),
         AGENTS + "million_rows_agent", AGENTS + "huge_insight_agent"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    peak = int(result.stdout.split("PEAK_MB")[1].split()[0])
    assert "[0, 0]" in result.stdout
    assert peak < 1500, f"peak memory {peak} MB"
    csvs = list((tmp_path / "out").glob("evaluation_results_*.csv"))
    assert len(csvs) == 2 and all(path.stat().st_size < 200_000 for path in csvs)
    errors = pd.concat(pd.read_csv(path, encoding="utf-8-sig") for path in csvs)["Error"]
    assert errors.str.contains("answer over the cap").all()


def test_an_http_body_over_the_cap_is_not_read(tmp_path: Path):
    with LoopbackServer() as server:
        server.script(Reply(200, {"status": "success", "sql": None, "data": [], "insights": "x" * 5_000_000,
                                  "error": None}))
        agent = HttpAgent(server.url(), max_answer_bytes=10_000, timeout_s=10)
        answer = normalize_answer(agent.ask("كم؟"))
        assert answer.status == "error"
        assert answer.error.startswith("answer over the cap: more than 10,000 bytes from http://127.0.0.1:")
        assert answer.error.endswith("(max_answer_bytes)")
        assert normalize_answer(agent.ask("كم؟")).status == "success", "the next call works"


def test_a_streamed_body_without_length_is_cut_at_the_cap():
    """A server that announces no length and streams without end: the client stops at the cap."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    sent = []

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
        try:
            while sum(sent) < 200_000_000:
                conn.sendall(b"[" * 65536)
                sent.append(65536)
        except OSError:
            pass
        finally:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    start = time.monotonic()
    agent = HttpAgent(f"http://127.0.0.1:{listener.getsockname()[1]}/ask", max_answer_bytes=1_000_000, timeout_s=20)
    answer = normalize_answer(agent.ask("كم؟"))
    agent.close()
    thread.join(timeout=20)
    listener.close()
    assert answer.status == "error" and "more than 1,000,000 bytes" in answer.error
    assert sum(sent) < 50_000_000, "the client hung up instead of reading the stream"
    assert time.monotonic() - start < 15


def test_nan_infinity_and_bytes_are_stored_as_strict_json():
    responses = run_agent(cases(), resolve_agent(AGENTS + "odd_values_agent"))
    assert responses["status"].tolist() == ["success"]

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    rows = json.loads(responses["rows"].iloc[0], parse_constant=refuse)
    assert rows == [[None, None, None, "نص", "base64://4="]]


# --- issue 31: values counted before the rows are copied; deep values refused by their type ---------


def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_an_answer_of_too_many_values_is_refused_before_its_rows_are_copied() -> None:
    rows = [[0] * 12] * 100_000  # 1.2 million values, within the row cap
    answer = normalize_answer({"status": "success", "sql": "SELECT 1", "insights": "",
                               "columns": [f"c{i}" for i in range(12)], "rows": rows})
    assert answer.status == "error" and "1,200,000 values > the cap of 1,000,000 values" in answer.error
    data = [{f"c{i}": 0 for i in range(12)}] * 100_000
    answer = normalize_answer({"status": "success", "sql": "SELECT 1", "insights": "", "data": data})
    assert answer.status == "error" and "values" in answer.error


def test_the_rows_text_is_measured_against_the_byte_cap_as_it_is_converted() -> None:
    raw = {"status": "success", "sql": "SELECT 1", "insights": "", "columns": ["a"], "rows": [["x" * 600]] * 10}
    assert normalize_answer(raw, AnswerLimits(max_answer_bytes=5_000)).error == (
        "answer over the cap: more than 4,992 characters of text in the rows (max_answer_bytes)")
    assert normalize_answer(raw, AnswerLimits(max_answer_bytes=7_000)).status == "success"


def test_a_5000_deep_value_anywhere_is_refused_by_its_type_not_by_recursion() -> None:
    deep = deep_list(5_000)
    base = {"status": "success", "sql": "SELECT 1", "insights": "", "columns": ["a"], "rows": [[1]]}
    cell = normalize_answer({**base, "rows": [[deep]]})
    assert cell.status == "error" and "a value that is a list: a cell holds one value" in cell.error
    status = normalize_answer({**base, "status": deep})
    assert status.status == "error" and "status given as a list" in status.error
    error = normalize_answer({**base, "status": "error", "error": deep})
    assert error.error == "(an error given as a list)"
    data = normalize_answer({**base, "rows": None, "data": [{"a": {"b": deep}}]})
    assert data.status == "error" and "an object" in data.error


def test_a_number_of_5000_digits_is_refused_not_stored() -> None:
    answer = normalize_answer({"status": "success", "sql": "SELECT 1", "insights": "", "columns": ["a"],
                               "rows": [[10**5000]]})
    assert answer.status == "error" and "more than 100 digits" in answer.error
    assert normalize_answer({"status": "success", "sql": "SELECT 1", "insights": "", "columns": ["a"],
                             "rows": [[10**50]]}).rows == [[10**50]]
