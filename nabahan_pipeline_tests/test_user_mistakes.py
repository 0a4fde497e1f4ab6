"""Every user mistake of `nabahan eval` is one line on stderr and exit 2, before any agent call and
before any state is written; Ctrl-C is one line and exit 130, leaving nothing half-written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nabahan_pipeline_tests.loopback import closed_port
from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan

ANSWER = '''def answer(question, filters=None):
    return {"status": "success", "sql": "SELECT 7 AS n", "data": [{"n": 7}],
            "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة.", "error": None}
'''

# An agent that leaves a file for each call: "before any agent call" is that no file is there.
RECORDING = '''import pathlib, uuid
def answer(question, filters=None):
    pathlib.Path("calls", uuid.uuid4().hex).parent.mkdir(exist_ok=True)
    pathlib.Path("calls", uuid.uuid4().hex).write_text(question, encoding="utf-8")
    return {"status": "success", "sql": "SELECT 7 AS n", "data": [{"n": 7}],
            "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة.", "error": None}
'''


def recording_agent(folder: Path) -> str:
    """The spec of RECORDING written into ``folder`` (the run's working directory)."""
    (folder / "recording_agent.py").write_text(RECORDING, encoding="utf-8")
    return "python:recording_agent:answer"


def agent_calls(folder: Path) -> int:
    return len(list((folder / "calls").glob("*"))) if (folder / "calls").exists() else 0


def one_line_exit_2(result: subprocess.CompletedProcess, *expected: str) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


def test_an_agent_module_in_the_working_directory_is_found_without_pythonpath(tmp_path: Path):
    (tmp_path / "my_agent.py").write_text(ANSWER, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=2)
    result = nabahan("eval", "--agent", "python:my_agent:answer", "--test-file", str(cases), "--test-suite", "0",
                     "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Passed: 2" in result.stdout


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def answer(question:\n    return {}\n", ["my_agent.py:1: SyntaxError"]),
        ("import no_such_package_here\n", ["cannot import module 'my_agent'", "no_such_package_here"]),
        ("raise RuntimeError('needs a GPU')\n", ["importing 'my_agent' raised RuntimeError: needs a GPU"]),
    ],
)
def test_an_agent_module_that_cannot_be_imported(tmp_path: Path, source: str, expected: list[str]):
    (tmp_path / "my_agent.py").write_text(source, encoding="utf-8")
    result = nabahan("eval", "--agent", "python:my_agent:answer", "--output-dir", "out", cwd=tmp_path)
    one_line_exit_2(result, *expected)
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists()


def test_an_unreachable_agent_and_an_openai_agent_without_key(tmp_path: Path):
    with closed_port() as port:
        result = nabahan("eval", "--agent", f"http://127.0.0.1:{port}/ask", "--output-dir", "out", cwd=tmp_path)
    one_line_exit_2(result, f"agent http://127.0.0.1:{port}/ask is unreachable")
    with closed_port() as port:
        result = nabahan("eval", "--agent", "openai:test-model", cwd=tmp_path, OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1")
    one_line_exit_2(result, "is unreachable")
    environment = {key: value for key, value in os.environ.items() if key not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    result = subprocess.run([sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", "openai:gpt-4o-mini"],
                            cwd=tmp_path, env={**environment, "NABAHAN_HOME": str(tmp_path / "home"),
                                               "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    one_line_exit_2(result, "$OPENAI_API_KEY is not set")
    assert not (tmp_path / "home").exists()


@pytest.mark.parametrize(("value", "ok"), [("1.5", False), ("80", False), ("-0.1", False), ("80%", True), ("0.8", True)])
def test_fail_under_is_a_rate_or_a_percentage_with_a_percent_sign(tmp_path: Path, value: str, ok: bool):
    from nabahan_pipeline.cli import build_parser

    if ok:
        assert build_parser().parse_args(["eval", "--fail-under", value]).fail_under == pytest.approx(0.8)
        return
    result = nabahan("eval", "--fail-under", value, cwd=tmp_path)
    one_line_exit_2(result, "--fail-under", "0.8", "80%")


@pytest.mark.slow
def test_ctrl_c_is_one_line_exit_130_and_leaves_nothing_half_written(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json", n=4)
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    environment.pop("DAGSTER_HOME", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--output-dir", "out",
         "--agent", "python:nabahan_pipeline_tests.sample_agents:sleepy_agent", "--timeout", "60"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while not (tmp_path / "home" / "parquet" / "test_cases.parquet").exists():  # the agent is being asked
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
        time.sleep(0.1)
    time.sleep(0.5)
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    # The calls already in the agent (4 s each) are let finish: a thread cannot be killed.
    assert time.monotonic() - interrupted < 10, "the calls in flight were waited for, no other asked"
    assert stderr.strip().splitlines() == ["nabahan: interrupted"]
    assert stdout.rstrip().endswith("Interrupted: no report was written."), stdout[-500:]
    assert [path for path in tmp_path.rglob("*.tmp")] == []
    assert not list(tmp_path.glob("out/*.csv")), "no report of a run that did not finish"


def test_two_agents_of_one_label_stop_before_any_agent_call(tmp_path: Path):
    counting = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
    result = nabahan("eval", "--agent", f"x={counting}", "--agent", "x=embedded", "--output-dir", "out", cwd=tmp_path)
    one_line_exit_2(result, "--agent 'x=", "both labelled 'x'", "--agent NAME=SPEC")
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists()
    result = nabahan("eval", "--agent", "a,b=embedded", cwd=tmp_path)
    one_line_exit_2(result, "--agent 'a,b=embedded': a label may not hold ','")


@pytest.mark.faults
def test_a_judge_without_key_or_base_url_stops_before_any_agent_call(tmp_path: Path):
    # It ran the whole evaluation and recorded "judge failed" on every answer.
    cases = cases_file(tmp_path / "cases.json", n=2)
    result = nabahan("eval", "--agent", recording_agent(tmp_path), "--judge", "openai:gpt-4o-mini",
                     "--test-file", str(cases), "--test-suite", "0", "--output-dir", "out", cwd=tmp_path)
    one_line_exit_2(result, "judge spec 'openai:gpt-4o-mini'", "$OPENAI_API_KEY is not set")
    assert agent_calls(tmp_path) == 0 and not (tmp_path / "out").exists()


GITHUB_TOKEN = "ghp_" + "R7x2Lq9ZkV4mW8nB3cT6yH1pJ5sD0fG2aE"
HEX_TOKEN = "a3f9c27e0b14d65f88a9c0e1d2b3a4f5e6d7c8b9"


@pytest.mark.faults
@pytest.mark.parametrize(
    ("token", "args", "env"),
    [
        (GITHUB_TOKEN, ["--agent-token", GITHUB_TOKEN], {}),
        (GITHUB_TOKEN, ["--agent-token", f"{GITHUB_TOKEN}=NABAHAN_AGENT_TOKEN"], {}),
        (HEX_TOKEN, ["--agent-token", HEX_TOKEN], {}),
        (GITHUB_TOKEN, [], {"NABAHAN_AGENT_TOKEN_ENV": GITHUB_TOKEN}),
    ],
)
def test_a_token_where_its_variables_name_goes_is_refused_and_never_shown(
    tmp_path: Path, token: str, args: list[str], env: dict[str, str]
):
    # The refusal printed the token; the variable was not refused at all, and its value went into
    # the run config, the run's tags and the metadata the UI shows.
    with closed_port() as port:
        result = nabahan("eval", "--agent", f"http://127.0.0.1:{port}/ask", *args, "--output-dir", "out",
                         cwd=tmp_path, **env)
    line = one_line_exit_2(result, "not")
    assert token not in result.stdout + result.stderr and token[4:16] not in line, line
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists()


@pytest.mark.faults
@pytest.mark.parametrize(
    ("case", "field"),
    [
        ('{"question": "كم عدد المناقصات\\ud800؟", "category": "count", "expected_table": "tenders_full_details"}',
         "field 'question': a lone surrogate \\ud800 at character 17"),
        ('{"question": "كم؟", "category": "count", "expected_table": "tenders_full_details", '
         '"filters": {"\\udfff": 1}}', "field 'filters': a lone surrogate \\udfff at character 1"),
    ],
)
def test_a_lone_surrogate_in_a_case_is_one_line_naming_the_case_and_field(tmp_path: Path, case: str, field: str):
    # Valid JSON, no Unicode text: it ended in a UnicodeEncodeError traceback.
    cases = tmp_path / "cases.json"
    cases.write_text(f"[{case}]", encoding="utf-8")
    result = nabahan("eval", "--agent", recording_agent(tmp_path), "--test-file", str(cases), "--output-dir", "out",
                     cwd=tmp_path)
    one_line_exit_2(result, f"{cases}: case 1: {field}")
    assert agent_calls(tmp_path) == 0 and not (tmp_path / "out").exists()
