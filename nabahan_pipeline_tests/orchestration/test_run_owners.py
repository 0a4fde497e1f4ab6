"""Runs whose process died are marked failed the next time an entry point opens the instance; a
run whose process lives is left alone. Real processes, stopped inside the agent call and killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from nabahan_pipeline.orchestration.run_owners import OWNER_PID_TAG, owner_tags
from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

STOPPING = "python:nabahan_pipeline_tests.killable_run:stopping_agent"


def stopped_run(tmp_path: Path, name: str) -> subprocess.Popen:
    """`nabahan eval` on the shared home, stopped inside its first agent call (waited for)."""
    marker = tmp_path / f"{name}.stopped"
    env = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
           "KILLABLE_MARKER": str(marker)}
    for variable in ("DAGSTER_HOME", "NABAHAN_AGENT"):
        env.pop(variable, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline_tests.killable_run", "agent", str(marker), "--", "eval",
         "--agent", STOPPING, "--test-file", str(cases_file(tmp_path / "cases.json", n=1)), "--output-dir",
         str(tmp_path / name), "--test-suite", "0"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 180
    while not marker.exists():
        if process.poll() is not None:
            raise AssertionError(f"the run ended before the agent call: {process.stderr.read().decode()[-2000:]}")
        assert time.monotonic() < deadline, "never reached the agent call"
        time.sleep(0.05)
    return process


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stderr.close()


def runs_by_pid(home: Path) -> dict[int, dg.DagsterRun]:
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        return {int(run.tags[OWNER_PID_TAG]): run for run in instance.get_runs() if OWNER_PID_TAG in run.tags}


@pytest.mark.slow
def test_a_killed_run_is_marked_failed_on_the_next_open_and_a_live_one_is_left_alone(tmp_path: Path):
    killed = stopped_run(tmp_path, "killed")
    kill(killed)
    assert runs_by_pid(tmp_path / "home")[killed.pid].status == dg.DagsterRunStatus.STARTED, \
        "a SIGKILLed run stays STARTED until an entry point opens the instance"
    alive = stopped_run(tmp_path, "alive")  # `nabahan eval` opens it
    try:
        runs = runs_by_pid(tmp_path / "home")
        assert runs[killed.pid].status == dg.DagsterRunStatus.FAILURE
        assert runs[alive.pid].status == dg.DagsterRunStatus.STARTED, "its process still runs it"
        opened = nabahan("agents", "list", cwd=tmp_path)  # any entry point that opens the instance
        assert opened.returncode == 0, opened.stderr[-2000:]
        assert runs_by_pid(tmp_path / "home")[alive.pid].status == dg.DagsterRunStatus.STARTED
    finally:
        kill(alive)
    assert nabahan("agents", "list", cwd=tmp_path).returncode == 0
    with dg.DagsterInstance.from_config(str(tmp_path / "home" / "dagster")) as instance:
        failures = instance.all_logs(runs_by_pid(tmp_path / "home")[killed.pid].run_id,
                                     of_type=dg.DagsterEventType.RUN_FAILURE)
        assert len(failures) == 1, "marked once"
        assert f"pid {killed.pid}" in failures[0].dagster_event.message, failures[0].dagster_event.message
        assert instance.get_run_by_id(runs_by_pid(tmp_path / "home")[alive.pid].run_id).status == \
            dg.DagsterRunStatus.FAILURE, "the second, once killed too"

def test_a_run_names_the_process_and_host_that_execute_it():
    tags = owner_tags()
    assert tags[OWNER_PID_TAG] == str(os.getpid()) and all(tags.values())


def interrupted_run(tmp_path: Path, until: Path, args: list[str]) -> tuple[str, dg.DagsterRun, set]:
    """`nabahan eval ARGS` (a real process) sent SIGINT, as Ctrl-C does, once ``until`` exists;
    its stdout, its evaluation run as the home's instance recorded it, and the run's event types."""
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
                   "KILLABLE_MARKER": str(until)}
    environment.pop("DAGSTER_HOME", None)
    process = subprocess.Popen([sys.executable, *args, "--test-file", str(cases_file(tmp_path / "cases.json", n=2)),
                                "--output-dir", "out", "--test-suite", "0"],
                               cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 180
    while not until.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()[-2000:]
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-2000:]
    with dg.DagsterInstance.from_config(str(tmp_path / "home" / "dagster")) as instance:
        (run,) = instance.get_runs(filters=dg.RunsFilter(job_name="evaluation_job"))
        events = {event.dagster_event.event_type for event in instance.all_logs(run.run_id)
                  if event.dagster_event is not None}
    return stdout, run, events


@pytest.mark.slow
def test_a_run_interrupted_while_it_asks_the_agent_is_canceled_not_failed(tmp_path: Path):
    """Ctrl-C as the agent is being asked: Dagster itself records the run canceled (no failure)."""
    marker = tmp_path / "asked"
    stdout, run, events = interrupted_run(
        tmp_path, marker, ["-m", "nabahan_pipeline_tests.killable_run", "agent", str(marker), "--", "eval",
                           "--agent", STOPPING])
    assert run.status == dg.DagsterRunStatus.CANCELED
    assert dg.DagsterEventType.RUN_CANCELING in events and dg.DagsterEventType.RUN_FAILURE not in events
    assert stdout.rstrip().endswith("Interrupted: no report was written."), stdout[-500:]


@pytest.mark.slow
def test_a_run_interrupted_elsewhere_is_recorded_canceled_by_the_entry_point(tmp_path: Path):
    """Ctrl-C as the run draws its charts (not waiting on the agent): Dagster records it failed,
    `nabahan eval` then records it canceled; the reports written before it are listed."""
    marker = tmp_path / "stopped"
    stdout, run, events = interrupted_run(
        tmp_path, marker, ["-m", "nabahan_pipeline_tests.killable_run", "charts", str(marker), "--", "eval",
                           "--agent", "python:nabahan_pipeline_tests.sample_agents:counting_agent"])
    assert run.status == dg.DagsterRunStatus.CANCELED
    assert dg.DagsterEventType.RUN_CANCELED in events
    written = stdout.splitlines()[stdout.splitlines().index("Interrupted; written before it:") + 1:]
    assert any("evaluation_results_" in line for line in written), stdout[-1000:]
