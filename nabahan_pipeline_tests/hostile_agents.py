"""Agents that attack the process they run in, named by `python:nabahan_pipeline_tests.hostile_agents:NAME`
in the fault tests: each does its harm, then answers as ``sample_agents.counting_agent`` does (the
harm is what is tested, not the answer). A path they need comes in $HOSTILE_DIR."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nabahan_pipeline_tests.sample_agents import counting_agent

_POOL: list[ThreadPoolExecutor] = []


def _here() -> Path:
    return Path(os.environ["HOSTILE_DIR"])


def exiting_agent(question: str, filters: dict | None = None) -> dict:
    """Ends its process (exit code 0, no clean-up) when the question is case 1's; answers the others."""
    if question.endswith(" 1؟"):
        os._exit(0)
    return counting_agent(question, filters)


def always_exiting_agent(question: str, filters: dict | None = None) -> dict:
    """Ends its process at every question: a run of nothing but its calls has nothing to pass."""
    os._exit(0)


def thread_leaving_agent(question: str, filters: dict | None = None) -> dict:
    """Leaves a non-daemon thread and a task on a thread pool of its own running for good, as a
    telemetry exporter does."""
    threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=1))
    _POOL[0].submit(time.sleep, 3600)
    return counting_agent(question, filters)


def moving_agent(question: str, filters: dict | None = None) -> dict:
    """Changes the working directory to $HOSTILE_DIR, where relative paths would then land."""
    os.chdir(_here())
    return counting_agent(question, filters)


def judge_rewriting_agent(question: str, filters: dict | None = None) -> dict:
    """Rebinds the verdict's reasons to none (every answer Correct), then answers wrongly: a number
    the rows do not hold, from SQL that returns another."""
    from nabahan_pipeline.evaluation.scoring import verdicts

    verdicts.not_correct_reasons = lambda *args, **kwargs: []
    return {
        "status": "success",
        "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
        "data": [{"n": 31415}],
        "insights": "بلغ عدد المناقصات المطابقة 31,415 مناقصة وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def huge_cell_agent(question: str, filters: dict | None = None) -> dict:
    """One row of one 100 MB cell."""
    return {"status": "success", "sql": "SELECT 1 AS n", "data": [{"n": "x" * 100_000_000}],
            "insights": "نعم", "error": None}


def marking_hanging_agent(question: str, filters: dict | None = None) -> dict:
    """Writes its process id to $HOSTILE_DIR/hanging.pid, then never answers."""
    (_here() / "hanging.pid").write_text(str(os.getpid()), encoding="utf-8")
    while True:
        time.sleep(60)


def printing_agent(question: str, filters: dict | None = None) -> dict:
    """Prints its API key in a debug line on stdout and stderr, as an SDK's debug log does."""
    import sys

    key = os.environ.get("OPENAI_API_KEY", "")
    print(f"DEBUG request headers: api-key={key} question={question}")
    print(f"DEBUG sent with key {key}", file=sys.stderr)
    return counting_agent(question, filters)


def forking_crashing_agent(question: str, filters: dict | None = None) -> dict:
    """At case 1's question forks a worker (multiprocessing's fork, Linux's default) that sleeps
    holding every pipe of its process, then crashes; answers the others."""
    if question.endswith(" 1؟"):
        import multiprocessing

        worker = multiprocessing.get_context("fork").Process(target=time.sleep, args=(600,))
        worker.start()
        (_here() / "worker.pid").write_text(str(worker.pid), encoding="utf-8")
        os._exit(3)
    return counting_agent(question, filters)


def spawning_hanging_agent(question: str, filters: dict | None = None) -> dict:
    """Starts a process of its own (``subprocess.Popen``) and a non-daemon thread, writes both
    processes' pids, then hangs in its call."""
    import subprocess
    import sys

    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    threading.Thread(target=time.sleep, args=(600,)).start()
    (_here() / "pids").write_text(f"{os.getpid()} {helper.pid}", encoding="utf-8")
    time.sleep(600)
    return counting_agent(question, filters)


def environment_agent(question: str, filters: dict | None = None) -> dict:
    """Writes the names of the variables its process sees (one file per process), then answers."""
    (_here() / f"environment.{os.getpid()}").write_text("\n".join(sorted(os.environ)), encoding="utf-8")
    return counting_agent(question, filters)
