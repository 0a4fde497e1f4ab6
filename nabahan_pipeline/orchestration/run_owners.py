"""The process that owns a run: runs our entry points execute in their own process carry its host
and process id as tags, and a run still in progress whose process is gone (killed with SIGKILL, its
machine restarted) is marked failed the next time an entry point opens the instance, so nothing
(the comparison's sensor, a look at the UI) waits on it for good.

A run of another host is left alone (its process cannot be seen from here); a process id reused
since only keeps its run waiting until that other process ends too.

A run interrupted in its process (Ctrl-C, SIGINT) is recorded canceled, not failed: Dagster records
an interrupted run canceled when it is marked canceling as the interrupt lands (as the UI's
"Terminate" does before it signals the run's process), which ``canceled_if_interrupted`` does where
a run waits on its agent; an interrupt that lands elsewhere (Dagster holds one that lands in its own
code and raises it as it next enters ours, before any of our code runs) leaves it failed, which our
entry points then record canceled (``record_interrupted``).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Iterator
from contextlib import contextmanager

import dagster as dg

OWNER_HOST_TAG = "nabahan/host"
OWNER_PID_TAG = "nabahan/pid"
# A run in these states has a process working on it; a run of ours is executed in that process.
_IN_PROGRESS = [dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED]
INTERRUPTED = "interrupted (Ctrl-C or SIGINT) in the process that executed it"


def owner_tags() -> dict[str, str]:
    """The tags naming this process as the one that executes the run."""
    return {OWNER_HOST_TAG: platform.node(), OWNER_PID_TAG: str(os.getpid())}


def fail_runs_of_dead_processes(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed every run in progress that a process of this host started and that is gone;
    the ids of the runs marked."""
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=_IN_PROGRESS, tags={OWNER_HOST_TAG: platform.node()}))
    marked = []
    for run in runs:
        pid = run.tags.get(OWNER_PID_TAG, "")
        if not pid.isdigit() or _alive(int(pid)):
            continue
        instance.report_run_failed(
            run, message=f"the process that executed this run (pid {pid} on {run.tags[OWNER_HOST_TAG]}) ended "
            "without finishing it (killed, or its machine stopped)",
        )
        marked.append(run.run_id)
    return marked


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists is checked
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextmanager
def canceled_if_interrupted(instance: dg.DagsterInstance, run: dg.DagsterRun) -> Iterator[None]:
    """An interrupt (Ctrl-C) that lands in the block marks ``run`` canceling on its way out, so that
    Dagster records the run canceled, not failed (unless it is canceling already: the UI's
    "Terminate" marks it so before it interrupts the run's process)."""
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
