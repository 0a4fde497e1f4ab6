"""The chart worker: a process forked as `nabahan eval` starts its run, that imports matplotlib and
the charts on the second core while the run's own steps go on, then draws the run's charts when
the charts step hands it their tables (with a helper of its own, as ``drawing`` forks one).

The run's process then never imports matplotlib (0.25 s of CPU and more of wall on the run's
path). The worker draws into the folder the run made (``files.atomic_folder``), and the run
switches it into place, so a run killed while the worker draws leaves the last set in place.
The worker is forked, as the helper is, only from a process with a single thread (see
``default_processes``), and ends with the process that started it.

Nothing here imports matplotlib: the worker imports it after the fork.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import traceback
import warnings
import weakref
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.charts import markdown

# How long the run waits for the worker's charts, at least (drawing.HELPER_TIMEOUT_S for the
# helper): a worker that takes longer is stuck, an error rather than a hang.
WORKER_TIMEOUT_S = 120.0
# How long the run waits for its worker to exit once told that the run is over.
STOP_WAIT_S = 2.0

# Draws a run's charts into a folder: (scores, summary, history, threshold, folder) -> the
# dashboard's Markdown (render.draw_into).
Draw = Callable[[pd.DataFrame, pd.DataFrame, pd.DataFrame, float, Path], "str | None"]

_worker: _Worker | None = None
_fork_safe: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def default_processes() -> int:
    """How many processes draw: two when this process has a single thread (but for those marked
    ``fork_safe``) and two cores to run on, and may fork (on Linux: macOS system libraries are not
    safe to fork; not from a daemon process, which may have no children); else one."""
    fork_safe_threads = sum(thread.is_alive() for thread in list(_fork_safe))
    if (threading.active_count() - fork_safe_threads > 1 or not sys.platform.startswith("linux")
            or multiprocessing.current_process().daemon):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(2, cores)


def fork_safe(thread: threading.Thread) -> threading.Thread:
    """Mark ``thread`` as one that need not stop a fork: it holds no lock a forked child could
    need (it only moves bytes between file descriptors, as ``orchestration.compute_logs`` does)."""
    _fork_safe.add(thread)
    return thread


def start_worker(draw: Draw, warm_up: Callable[[], None]) -> bool:
    """Fork the chart worker, when this process may fork a second one to draw (see
    :func:`default_processes`) and there is none yet; True when one is running. The worker calls
    ``warm_up()`` at once, then ``draw`` for each run's charts (``render.draw_into``,
    ``render.warm_up``).

    Whatever the machine's load: on a busy machine its loading slows the run's start as much as
    it shortens the charts step (20 cases at load 6 to 8: the same wall, 0.25 to 0.5 s less
    CPU; bench/README.md), on a quiet one it runs on the idle core."""
    global _worker
    if _worker is None and default_processes() > 1:
        _worker = _Worker(draw, warm_up)
    return _worker is not None


def stop_worker(*, at_once: bool = False) -> None:
    """End the chart worker, if there is one. Once it has drawn a run's charts it is told that the
    run is over, and ends its own helper and exits (its CPU and its helper's are then the run's, as
    ``wait4`` counts them; within STOP_WAIT_S, else it is killed). It is killed at once when it
    has drawn nothing (a run that failed early does not wait for its warm-up to end), or
    ``at_once`` (stuck, dead or interrupted)."""
    global _worker
    worker, _worker = _worker, None
    if worker is not None:
        worker.stop(at_once=at_once)


def draw_on_worker(scores: pd.DataFrame, summary: pd.DataFrame, history: pd.DataFrame, threshold: float,
                   folder: Path) -> bool:
    """Draw the seven charts into ``folder`` on the worker, if one is running, and keep the
    dashboard's Markdown it made (``markdown``); False when there is none (draw them here).
    A warning the worker met is warned again here; an error it met is raised here."""
    if _worker is not None and not _worker.ready():
        stop_worker(at_once=True)  # it did not live to draw (it would have told why): draw here
    if _worker is None:
        return False
    try:
        prepared = _worker.draw(scores, summary, history, threshold, folder)
    except BaseException:
        stop_worker(at_once=True)  # stuck, dead or interrupted: the next charts are drawn here
        raise
    if prepared is not None:
        markdown.remember_dashboard_markdown(folder / "evaluation_dashboard.png", prepared)
    return True


class _Worker:
    def __init__(self, draw: Draw, warm_up: Callable[[], None]) -> None:
        context = multiprocessing.get_context("fork")
        self._jobs, jobs = context.Pipe()
        self._process = context.Process(target=_worker_main, args=(jobs, self._jobs, os.getpid(), draw, warm_up),
                                        name="nabahan-charts-worker", daemon=True)
        self._process.start()
        jobs.close()
        self._drawn = False

    def ready(self) -> bool:
        return self._process.is_alive()

    def draw(self, scores: pd.DataFrame, summary: pd.DataFrame, history: pd.DataFrame, threshold: float,
             folder: Path) -> str | None:
        self._jobs.send((scores, summary, history, threshold, str(folder)))
        self._drawn = True
        if not self._jobs.poll(WORKER_TIMEOUT_S):
            raise TimeoutError(f"the chart worker process did not finish in {WORKER_TIMEOUT_S:.0f} s")
        try:
            error, caught, prepared = self._jobs.recv()
        except EOFError:  # it died before it could report
            raise RuntimeError(f"the chart worker process ended (exit code {self._process.exitcode})") from None
        raise_reported(error, caught)
        return prepared

    def stop(self, *, at_once: bool) -> None:
        self._jobs.close()  # the worker, waiting for charts, reads the end of the run
        if self._drawn and not at_once:
            self._process.join(STOP_WAIT_S)
        self._process.kill()  # nothing to kill once it has exited
        self._process.join()


def _worker_main(jobs, runs_end, parent: int, draw: Draw, warm_up: Callable[[], None]) -> None:
    runs_end.close()  # the run's end, copied by the fork: the run closing its own is the end
    # Ended with the run: killed with it (a run killed mid-way leaves no drawer behind), deaf to
    # the terminal's Ctrl-C (the run decides what an interrupt stops).
    die_with_parent(parent)
    # Daemonic to the run, which must not wait for it at exit; here, a process that may fork its
    # drawing helper (multiprocessing refuses children to a daemonic process, and
    # default_processes draws alone in one). It exits with os._exit, joining nothing.
    multiprocessing.current_process().daemon = False
    try:
        warm_up()
    except Exception:  # drawing the charts will meet it again, and report it
        pass
    while True:
        try:
            scores, summary, history, threshold, folder = jobs.recv()
        except (EOFError, OSError):  # the run is over
            _end_children()
            os._exit(0)
        prepared, error, caught = reported(lambda: draw(scores, summary, history, threshold, Path(folder)),
                                           "In the chart worker process")
        try:
            jobs.send((error, caught, prepared))
        except OSError:  # the run is gone
            os._exit(0)


def _end_children() -> None:
    """End and reap the worker's children (its drawing helper), so that their CPU is counted
    with the worker's by the run that reaps it."""
    for child in multiprocessing.active_children():
        child.kill()
        child.join()


def die_with_parent(parent: int) -> None:
    """In a forked process: be killed when ``parent`` (the process that forked this one) ends,
    and ignore the terminal's Ctrl-C (the run decides what an interrupt stops)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before the line above
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def reported(call: Callable[[], Any], where: str) -> tuple[Any, BaseException | None, list[tuple]]:
    """Call ``call`` in a forked process: what it returned, the error it raised (its traceback in a
    note that begins with ``where``) and the warnings it met, as they can be sent to the parent,
    which hands the last two to ``raise_reported``."""
    value, error = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the parent's filters decide, when it warns them again
        try:
            value = call()
        except BaseException as exc:  # every error goes back to the parent
            error = error_for_parent(exc, where)
    return value, error, warnings_for_parent(caught)


def raise_reported(error: BaseException | None, caught: list[tuple]) -> None:
    """In the parent: warn here, under this process's filters, the warnings a forked process met
    (``reported``), then raise its error, if any."""
    warn_again(caught)
    if error is not None:
        raise error


def error_for_parent(exc: BaseException, where: str) -> BaseException:
    """``exc``, met in a forked process, as it can be sent to its parent: with its traceback as a
    note that begins with ``where``, or as a RuntimeError of that text if it does not pickle."""
    exc.add_note("".join([f"{where}:\n", *traceback.format_exception(exc)]))
    return _picklable(exc, lambda: RuntimeError("".join(traceback.format_exception(exc))))


def warnings_for_parent(caught: list[warnings.WarningMessage]) -> list[tuple]:
    """Warnings recorded in a forked process, as they can be sent to its parent (``warn_again``)."""
    return [(_picklable(w.message, lambda w=w: str(w.message)), w.category, w.filename, w.lineno) for w in caught]


def warn_again(caught: list[tuple]) -> None:
    """Warn here, under this process's filters, the warnings a forked process met."""
    registry: dict = {}
    for message, category, filename, lineno in caught:
        warnings.warn_explicit(message, category, filename, lineno, module=_module_named(filename),
                               registry=registry)


def _picklable(value: object, fallback: Callable[[], object]) -> object:
    """``value`` if it can cross to the parent (pickled), else ``fallback()``."""
    try:
        pickle.dumps(value)
    except Exception:  # an object that does not pickle is sent as text
        return fallback()
    return value


def _module_named(filename: str) -> str | None:
    """The name of the loaded module in ``filename``, which warning filters match."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) == filename:
            return name
    return None
