"""A ``python:`` agent in its child process, attacked from inside by real agent modules
(``hostile_agents``), each in a real `nabahan eval` process: it cannot end, hang, move or rewrite
the judge; a 100 MB answer is refused at a bounded cost; Ctrl-C ends the child; what it prints
reaches our stderr scrubbed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline_tests.commands import REPO, cases_file, gone, nabahan

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

HOSTILE = "python:nabahan_pipeline_tests.hostile_agents:"


def evaluate(tmp_path: Path, agent: str, *args: str, n: int = 4, **env: str) -> subprocess.CompletedProcess:
    """`nabahan eval` of ``n`` cases with the hostile agent ``agent``, gated at 50 %, reports in ./out."""
    cases = cases_file(tmp_path / "cases.json", n=n)
    return nabahan("eval", "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0",
                   "--fail-under", "0.5", "--agent", HOSTILE + agent, *args, cwd=tmp_path,
                   **{"HOSTILE_DIR": str(tmp_path), **env})


def results(tmp_path: Path) -> pd.DataFrame:
    (path,) = (tmp_path / "out").glob("evaluation_results_*.csv")
    return pd.read_csv(path, encoding="utf-8-sig")



def test_an_agent_that_exits_costs_its_own_question_and_the_run_reports(tmp_path: Path):
    run = evaluate(tmp_path, "exiting_agent", "--concurrency", "1")
    assert run.returncode == 0, run.stderr[-3000:]
    table = results(tmp_path)
    assert len(table) == 4 and table["Correct"].sum() == 3, (table["Error"].tolist(), run.stderr[-3000:])
    (error,) = table["Error"].dropna()
    assert error == "the agent's process exited (code 0) during this call"
    assert "EVALUATION COMPLETE" in run.stdout


def test_an_agent_that_always_exits_fails_the_gate_never_passes_on_nothing(tmp_path: Path):
    run = evaluate(tmp_path, "always_exiting_agent")
    assert run.returncode == 1, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    table = results(tmp_path)
    assert len(table) == 4 and not table["Correct"].any()
    assert table["Error"].str.startswith("the agent's process exited").all()


def test_a_thread_the_agent_leaves_running_does_not_keep_the_process_alive(tmp_path: Path):
    started = time.monotonic()
    run = evaluate(tmp_path, "thread_leaving_agent")  # commands.run gives up after 300 s
    assert run.returncode == 0, run.stderr[-3000:]
    assert results(tmp_path)["Correct"].all()
    assert time.monotonic() - started < 240


def test_an_agent_that_changes_directory_moves_neither_reports_nor_state(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = evaluate(tmp_path, "moving_agent", NABAHAN_HOME=".nabahan", HOSTILE_DIR=str(elsewhere))
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(results(tmp_path)) == 4
    assert (tmp_path / ".nabahan" / "dagster").is_dir() and (tmp_path / "out" / "charts").exists()
    assert list(elsewhere.iterdir()) == [], "nothing of ours where the agent moved"


def test_an_agent_that_rebinds_a_scoring_function_cannot_change_a_verdict(tmp_path: Path):
    run = evaluate(tmp_path, "judge_rewriting_agent")
    assert run.returncode == 1, run.stderr[-3000:]
    table = results(tmp_path)
    assert not table["Correct"].any()
    assert table["Why Not Correct"].str.contains("31,415").all(), "the made-up number is why"

    # The same agent in this process (--in-process, debugging) does own the judge: what this test is about.
    inside = tmp_path / "inside"
    inside.mkdir()
    spoiled = evaluate(inside, "judge_rewriting_agent", "--in-process")
    assert spoiled.returncode == 0, spoiled.stderr[-3000:]
    assert "the verdicts are then the agent's to spoil" in spoiled.stderr
    assert results(inside)["Correct"].all()


def peak_rss_mb(tmp_path: Path, agent: str) -> tuple[float, subprocess.CompletedProcess]:
    """Run `nabahan eval` of one case with ``agent``, sampling its own (not its child's) peak
    resident memory (VmHWM) until it exits."""
    cases = cases_file(tmp_path / "cases.json", n=1)
    env = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), "HOSTILE_DIR": str(tmp_path)}
    env.pop("NABAHAN_AGENT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--output-dir", "out",
         "--test-suite", "0", "--agent", agent],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    peak = 0
    while process.poll() is None:
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            break
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
        time.sleep(0.05)
    stdout, stderr = process.communicate(timeout=300)
    return peak / 1024, subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_a_100_mb_answer_is_refused_at_a_bounded_cost(tmp_path: Path):
    (tmp_path / "small").mkdir()
    (tmp_path / "huge").mkdir()
    small_mb, small = peak_rss_mb(tmp_path / "small", "python:nabahan_pipeline_tests.sample_agents:counting_agent")
    huge_mb, huge = peak_rss_mb(tmp_path / "huge", HOSTILE + "huge_cell_agent")
    assert small.returncode == huge.returncode == 0, huge.stderr[-3000:]
    (error,) = results(tmp_path / "huge")["Error"]
    assert error.startswith("answer over the cap: 100,000,") and "max_answer_bytes 33,554,432" in error
    # Measured: 340 MB against 338 MB (the cap skips the answer in 1 MiB reads); in-process it was 3.1 GB.
    assert huge_mb - small_mb < 64, (small_mb, huge_mb)


def test_a_call_past_its_limit_is_an_error_row_and_its_child_is_ended(tmp_path: Path):
    started = time.monotonic()
    run = evaluate(tmp_path, "marking_hanging_agent", "--timeout", "1", n=2)
    assert run.returncode == 1, run.stderr[-3000:]
    assert (results(tmp_path)["Error"] == "timeout: no answer within 1 s").all()
    assert gone(int((tmp_path / "hanging.pid").read_text()))
    assert time.monotonic() - started < 240


def test_agent_ask_of_a_hanging_agent_is_one_line_after_the_time_limit(tmp_path: Path):
    asked = nabahan("agent", "ask", "كم عدد المناقصات؟", "--agent", HOSTILE + "marking_hanging_agent", cwd=tmp_path,
                    NABAHAN_TIMEOUT_S="1", HOSTILE_DIR=str(tmp_path))
    assert asked.returncode == 1 and "Traceback" not in asked.stderr, asked.stderr[-3000:]
    # The limit, and the second the adapter waits past it before it gives the call up.
    assert asked.stderr.strip() == "nabahan: the agent did not answer: no answer within 2 s"
    assert gone(int((tmp_path / "hanging.pid").read_text()))


def test_ctrl_c_ends_the_run_and_its_child_without_waiting_for_the_call(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json", n=2)
    env = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), "HOSTILE_DIR": str(tmp_path)}
    env.pop("NABAHAN_AGENT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--output-dir", "out",
         "--test-suite", "0", "--timeout", "600", "--agent", HOSTILE + "marking_hanging_agent"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    marker = tmp_path / "hanging.pid"
    deadline = time.monotonic() + 240
    while not marker.exists() or not marker.read_text():
        assert process.poll() is None, process.stderr.read()[-3000:]
        assert time.monotonic() < deadline, "the agent was never called"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-3000:]
    assert time.monotonic() - interrupted < 20, "not waiting for the call in the agent"
    assert "nabahan: interrupted" in stderr and "Traceback" not in stderr
    assert gone(int(marker.read_text()))


def test_what_the_agent_prints_reaches_stderr_scrubbed(tmp_path: Path):
    key = "sk-live-4f9a8b7c6d5e4f3a2b1c"
    run = evaluate(tmp_path, "printing_agent", OPENAI_API_KEY=key)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "DEBUG request headers: api-key=" in run.stderr and "DEBUG sent with key" in run.stderr
    assert "DEBUG" not in run.stdout, "the agent's output is not our report's"
    assert key[5:15] not in run.stderr + run.stdout
    for path in (tmp_path / "home").rglob("*"):
        if path.is_file():
            assert key[5:15].encode() not in path.read_bytes(), path


# --- the adapter itself, in this process --------------------------------------------------------

SAMPLE = "python:nabahan_pipeline_tests.sample_agents:"


def test_the_child_answers_as_the_callable_does_in_process():
    from nabahan_pipeline.agents.child_process import ChildProcessAgent
    from nabahan_pipeline.agents.contract import normalize_answer
    from nabahan_pipeline.agents.python_callable import PythonCallableAgent

    for name in ("counting_agent", "odd_values_agent", "raising_agent", "malformed_agent", "question_only_agent"):
        child = ChildProcessAgent(SAMPLE + name)
        inside = PythonCallableAgent(SAMPLE + name)
        try:
            try:
                expected = normalize_answer(inside.ask("سؤال", {"region": "الرياض"}))
            except RuntimeError as exc:  # the in-process agent raises; the runner words it so
                expected = normalize_answer({"status": "error", "sql": None, "data": [], "insights": "",
                                             "error": f"{type(exc).__name__}: {exc}"})
            # As reprs: token counts are NaN, and Python 3.13's dataclass equality compares NaN by value.
            assert repr(normalize_answer(child.ask("سؤال", {"region": "الرياض"}))) == repr(expected), name
            assert child.fingerprint() == inside.fingerprint()
        finally:
            child.close()


def test_a_spec_that_cannot_load_is_one_line_before_any_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from nabahan_pipeline.agents.child_process import ChildProcessAgent
    from nabahan_pipeline.errors import AgentSpecError

    (tmp_path / "broken_agent.py").write_text("import os\nraise RuntimeError('key ' + os.environ['OPENAI_API_KEY'])\n",
                                              encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-abcdef0123456789")
    for spec, fragment in ((SAMPLE + "missing", "has no 'missing'"), ("python:nope_module:f", "cannot import module"),
                           ("python:broken_agent:answer", "importing 'broken_agent' raised RuntimeError")):
        with pytest.raises(AgentSpecError) as raised:
            ChildProcessAgent(spec, token_env="OPENAI_API_KEY")  # the key is this agent's own: it is passed
        assert fragment in str(raised.value) and "\n" not in str(raised.value)
        assert "0123456789" not in str(raised.value)


def test_an_answer_nested_past_what_is_read_is_an_error_not_a_recursion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from nabahan_pipeline.agents.child_process import ChildProcessAgent

    (tmp_path / "deep_agent.py").write_text(
        "import json\n"
        "def answer(question, filters=None):\n"
        "    value = 1\n"
        "    for _ in range(150):\n"
        "        value = [value]\n"
        "    return {'status': 'success', 'sql': None, 'data': [{'v': value}], 'insights': '', 'error': None}\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    agent = ChildProcessAgent("python:deep_agent:answer")
    try:
        assert agent.ask("سؤال")["error"] == "malformed answer: nested deeper than the pipeline reads"
    finally:
        agent.close()


# A module whose import never returns, at once or (after a crash) in the next child.
NEVER_IMPORTS = "import time\ntime.sleep(10**6)\n"
CRASH_THEN_NEVER_IMPORTS = '''import os, pathlib, time
if pathlib.Path("crashed").exists():
    time.sleep(10**6)
from nabahan_pipeline_tests.sample_agents import counting_agent
def answer(question, filters=None):
    if question.endswith(" 1؟"):
        pathlib.Path("crashed").write_text("yes")
        os._exit(3)
    return counting_agent(question, filters)
'''


def test_an_import_that_never_returns_is_one_line_naming_the_module(tmp_path: Path):
    # `nabahan eval` printed nothing and never exited.
    (tmp_path / "slow_import.py").write_text(NEVER_IMPORTS, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=2)
    run = nabahan("eval", "--test-file", str(cases), "--output-dir", "out", "--agent", "python:slow_import:answer",
                  "--agent-start-timeout", "3", cwd=tmp_path)
    assert run.returncode == 2, run.stderr[-3000:]
    (line,) = run.stderr.strip().splitlines()
    assert "its module 'slow_import' did not finish importing within 3 s" in line, line
    assert not (tmp_path / "out").exists()


def test_an_import_that_never_returns_after_a_crash_fails_the_calls_and_the_run_exits(tmp_path: Path):
    # The new child was started under the agent's lock with no limit: the run wrote its reports and
    # never exited.
    (tmp_path / "crash_agent.py").write_text(CRASH_THEN_NEVER_IMPORTS, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=4)
    run = nabahan("eval", "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0", "--concurrency", "1",
                  "--agent", "python:crash_agent:answer", "--agent-start-timeout", "2", "--timeout", "5",
                  "--fail-under", "0", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    errors = results(tmp_path)["Error"].dropna().tolist()
    assert errors[0] == "the agent's process exited (code 3) during this call", errors
    assert len(errors) == 3 and all("its module 'crash_agent' did not finish importing within 2 s" in error
                                    for error in errors[1:]), errors


def test_a_worker_holding_the_pipe_does_not_hide_the_exit(tmp_path: Path):
    # The forked worker held the answer pipe: the exit was never seen, no new child started, and
    # every later case was recorded as a timeout.
    run = evaluate(tmp_path, "forking_crashing_agent", "--concurrency", "1", "--timeout", "10")
    assert run.returncode == 0, run.stderr[-3000:]
    table = results(tmp_path)
    assert table["Error"].dropna().tolist() == ["the agent's process exited (code 3) during this call"]
    assert table["Correct"].sum() == 3
    assert gone(int((tmp_path / "worker.pid").read_text())), "the worker went with its process group"


def test_what_the_agent_starts_dies_with_the_run_even_when_the_run_is_killed(tmp_path: Path):
    # The child was ended by its pid alone: what it started (Popen) outlived the run, and after a
    # SIGKILL of `nabahan eval` the child lived on while the agent held a non-daemon thread.
    cases = cases_file(tmp_path / "cases.json", n=1)
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
                   "HOSTILE_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--output-dir", "out",
         "--test-suite", "0", "--agent", HOSTILE + "spawning_hanging_agent", "--timeout", "600"],
        cwd=tmp_path, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    pids = tmp_path / "pids"
    deadline = time.monotonic() + 120
    while not pids.exists() or len(pids.read_text().split()) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "the agent never started its helper"
        time.sleep(0.1)
    child, helper = (int(pid) for pid in pids.read_text().split())
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert gone(child) and gone(helper), "the agent's process and what it started died with the run"


def test_the_agents_child_sees_its_own_token_and_no_other_credential(tmp_path: Path):
    # The child inherited every variable: in a comparison it read the other agent's token and
    # OPENAI_API_KEY.
    cases = cases_file(tmp_path / "cases.json", n=1)
    agent = HOSTILE + "environment_agent"
    run = nabahan("eval", "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0",
                  "--agent", f"a={agent}", "--agent", f"b={agent}",
                  "--agent-token", "a=AGENT_A_TOKEN", "--agent-token", "b=AGENT_B_TOKEN", cwd=tmp_path,
                  HOSTILE_DIR=str(tmp_path), AGENT_A_TOKEN="tok-a-7Hq2Lx9Wv4", AGENT_B_TOKEN="tok-b-3Jd8Kp1Zs6",
                  OPENAI_API_KEY="sk-x7Fq2Lm9Vw4Zr8Tn3", DATABASE_PASSWORD="hunter2-but-longer")
    assert run.returncode in (0, 1), run.stderr[-3000:]
    seen = [set(path.read_text().split()) for path in tmp_path.glob("environment.*")]
    assert len(seen) == 2, seen
    assert sorted(bool({"AGENT_A_TOKEN"} & names) for names in seen) == [False, True]
    for names in seen:
        assert len({"AGENT_A_TOKEN", "AGENT_B_TOKEN"} & names) == 1, names
        assert not {"OPENAI_API_KEY", "DATABASE_PASSWORD", "NABAHAN_HOME"} & names, names
        assert {"PATH", "HOME", "PYTHONPATH", "HOSTILE_DIR"} <= names, names
