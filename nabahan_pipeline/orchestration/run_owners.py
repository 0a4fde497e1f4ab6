"""The process that owns a run (host and pid tags): a run in progress whose process is gone is
marked failed when an entry point next opens the instance, so nothing waits on it for good; a
run interrupted by Ctrl-C is recorded canceled, not failed."""

from __future__ import annotations

import os
import platform
from collections.abc import Iterator
from contextlib import contextmanager

import dagster as dg

from nabahan_pipeline.files import process_alive

OWNER_HOST_TAG = "nabahan/host"
OWNER_PID_TAG = "nabahan/pid"
# A run in these states has a process working on it; a run of ours is executed in that process.
_IN_PROGRESS = [dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED]
INTERRUPTED = "interrupted (Ctrl-C or SIGINT) in the process that executed it"


def owner_tags() -> dict[str, str]:
    """The tags naming this process as the one that executes the run."""
    return {OWNER_HOST_TAG: platform.node(), OWNER_PID_TAG: str(os.getpid())}


def fail_runs_of_dead_processes(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed every run in progress whose process, on this host, is gone; their ids."""
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=_IN_PROGRESS, tags={OWNER_HOST_TAG: platform.node()}))
    marked = []
    for run in runs:
        pid = run.tags.get(OWNER_PID_TAG, "")
        if not pid.isdigit() or int(pid) == os.getpid() or process_alive(int(pid)):
            continue
        instance.report_run_failed(
            run, message=f"the process that executed this run (pid {pid} on {run.tags[OWNER_HOST_TAG]}) ended "
            "without finishing it (killed, or its machine stopped)",
        )
        marked.append(run.run_id)
    return marked


@contextmanager
def canceled_if_interrupted(instance: dg.DagsterInstance, run: dg.DagsterRun) -> Iterator[None]:
    """A Ctrl-C in the block marks ``run`` canceling, so that Dagster records it canceled, not failed."""
    try:
        yield
    except (KeyboardInterrupt, dg.DagsterExecutionInterruptedError):
        now = instance.get_run_by_id(run.run_id)
        if now is None or now.status != dg.DagsterRunStatus.CANCELING:
            instance.report_run_canceling(run, message=INTERRUPTED)
        raise


def record_interrupted(instance: dg.DagsterInstance, run_id: str) -> None:
    """Record canceled the run an interrupt just ended in this process, when the interrupt landed
    outside ``canceled_if_interrupted`` and Dagster recorded it failed."""
    run = instance.get_run_by_id(run_id)
    if run is not None and run.status == dg.DagsterRunStatus.FAILURE:
        instance.report_run_canceled(run, message=INTERRUPTED)
