"""A ``python:`` agent's child process on its own, driven over its pipes as the pipeline drives it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nabahan_pipeline.agents.frames import frame
from nabahan_pipeline_tests.commands import REPO, gone

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults



def test_when_its_requests_end_before_its_lifeline_what_the_agent_started_ends_too(tmp_path: Path):
    # When `nabahan eval` is killed, the child reads the end of its requests and of its lifeline at
    # once. Its main thread returned and the interpreter left (the agent's threads are daemons)
    # before the watchdog ended the group: what the agent started outlived the run (CI, Python 3.12).
    # Here the requests end and the lifeline stays open: the child alone must end its group.
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    lifeline_read, lifeline_write = os.pipe()
    code = "import sys; from nabahan_pipeline.agents.python_child import main; main(*map(int, sys.argv[1:]))"
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(requests_read), str(answers_write), str(lifeline_read)],
        pass_fds=(requests_read, answers_write, lifeline_read), start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "HOSTILE_DIR": str(tmp_path)},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    for fd in (requests_read, answers_write, lifeline_read):
        os.close(fd)
    helper = None
    try:
        with os.fdopen(requests_write, "wb") as requests:
            requests.write(frame(0, {"spec": "python:nabahan_pipeline_tests.hostile_agents:spawning_hanging_agent",
                                     "path": [str(REPO), *sys.path], "folders": []}))
            requests.write(frame(1, {"question": "كم عدد المناقصات؟", "filters": None}))
            requests.flush()
            pids = tmp_path / "pids"
            deadline = time.monotonic() + 60
            while not pids.exists() or len(pids.read_text().split()) < 2:
                assert child.poll() is None and time.monotonic() < deadline, "the agent never started its helper"
                time.sleep(0.1)
            helper = int(pids.read_text().split()[1])
        assert gone(child.pid), "the child left when its requests ended"
        assert gone(helper), "what the agent started ended with the child, its lifeline still open"
    finally:
        os.close(lifeline_write)
        os.close(answers_read)
        child.wait(10)
        if helper is not None and not gone(helper, 0):
            os.kill(helper, 9)
