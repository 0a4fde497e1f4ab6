"""A run's stdout and stderr: in Dagster's compute log files, where `dagster dev` reads them, and on
the terminal as before, with no `tail` process and no watcher interpreter started for them."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import dagster as dg

from nabahan_pipeline.api import open_instance
from nabahan_pipeline.evaluation.charts import worker
from nabahan_pipeline.orchestration import compute_logs
from nabahan_pipeline.orchestration.compute_logs import MirroredComputeLogManager

# A run whose asset writes to stdout from Python, from C (os.write) and from a child process, and
# to stderr; it prints the run id and every command this process started, as JSON, at the end.
_RUN = """
import json, os, subprocess, sys
started = []
original = subprocess.Popen.__init__
def spy(self, args, *rest, **kwargs):
    started.append(args if isinstance(args, str) else list(map(str, args)))
    original(self, args, *rest, **kwargs)
subprocess.Popen.__init__ = spy
import dagster as dg
from nabahan_pipeline.api import open_instance

@dg.asset
def noisy() -> int:
    print("printed by Python", flush=True)
    os.write(1, b"written to the descriptor\\n")
    subprocess.run(["echo", "echoed by a child process"], check=True)
    print("to stderr", file=sys.stderr, flush=True)
    return 1

with open_instance(sys.argv[1]) as instance:
    result = dg.materialize([noisy], instance=instance)
print(json.dumps({"run_id": result.run_id, "started": started}))
"""


def test_a_runs_output_is_captured_for_dagster_and_still_reaches_the_terminal(tmp_path: Path):
    run = subprocess.run([sys.executable, "-c", _RUN, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.splitlines()[-1])
    written = ["printed by Python", "written to the descriptor", "echoed by a child process"]
    assert run.stdout.splitlines()[:3] == written  # mirrored, in the order written
    assert "to stderr" in run.stderr
    assert ["echo", "echoed by a child process"] in report["started"]  # the spy sees commands
    assert [command for command in report["started"]
            if command[0] == "tail" or any("watch_orphans" in part for part in command)] == []
    with dg.DagsterInstance.from_config(str(tmp_path)) as plain:  # as `dagster dev` reads them
        assert type(plain.compute_log_manager).__name__ == "LocalComputeLogManager"
        captures = [entry.dagster_event.logs_captured_data for entry in plain.all_logs(report["run_id"])
                    if entry.is_dagster_event and entry.dagster_event.event_type_value == "LOGS_CAPTURED"]
        assert len(captures) == 1
        key = plain.compute_log_manager.build_log_key_for_run(report["run_id"], captures[0].file_key)
        data = plain.compute_log_manager.get_log_data(key)
        assert plain.compute_log_manager.is_capture_complete(key)
    assert data.stdout.decode().splitlines() == written
    assert "to stderr" in data.stderr.decode().splitlines()  # beside Dagster's own log lines


def test_a_stream_without_a_descriptor_is_captured_by_dagsters_own_means(tmp_path: Path, monkeypatch):
    @dg.asset
    def quiet() -> int:
        print("into a notebook's stdout")
        return 1

    notebook = io.StringIO()  # no file descriptor, as in Jupyter
    monkeypatch.setattr(sys, "stdout", notebook)
    with open_instance(tmp_path) as instance:
        assert isinstance(instance.compute_log_manager, MirroredComputeLogManager)
        assert dg.materialize([quiet], instance=instance).success
    assert "into a notebook's stdout" in notebook.getvalue()


def test_the_copy_of_a_stream_does_not_stop_the_charts_helper_fork(tmp_path: Path, monkeypatch):
    """Forking the charts' helper waits for a single thread; the copier threads hold no lock a
    forked child could need."""
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    real = threading.active_count
    before = real()
    monkeypatch.setattr(worker.threading, "active_count", lambda: real() - before + 1)
    read, write = os.pipe()
    stream = io.TextIOWrapper(io.FileIO(write, "w"), write_through=True)
    assert worker.default_processes() == 2
    with compute_logs.mirrored(stream, str(tmp_path / "out")):
        assert real() == before + 1  # the copier runs
        assert worker.default_processes() == 2
        blocker = threading.Event()
        other = threading.Thread(target=blocker.wait)
        other.start()
        try:
            assert worker.default_processes() == 1  # any other thread still stops the fork
        finally:
            blocker.set()
            other.join()
        stream.write("copied\n")
    stream.close()
    assert os.read(read, 100) == b"copied\n"
    os.close(read)
    assert (tmp_path / "out").read_text() == "copied\n"
