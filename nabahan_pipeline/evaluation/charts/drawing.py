"""Drawing a set of charts fast: each figure laid out and painted once, its PNG encoded on a writer
thread while the next one is drawn, and, with a core to spare, a forked helper process drawing
from the same queue of charts.

Matplotlib holds the GIL while it draws, so a second thread cannot draw; a second process can.
The helper is forked, not spawned: it starts in milliseconds with everything already imported
and the tables already in memory (nothing is pickled), where a spawned one would spend longer
importing matplotlib and pandas than it saves. It is only forked from a process with a single
thread (``worker.default_processes``), where a fork cannot copy a lock that another thread holds.

The chart worker forks its helper ahead of the charts (:func:`start_helper`), while it waits for
the run's tables: the helper then loads its own fonts (a forked child cannot use its parent's) and
shapes its first labels while the run goes on, not while the run waits for the charts, and is
handed each set's tables (``draw_charts(inputs=...)``) to make the same charts there.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path

from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.charts.png import write_rgba_png
from nabahan_pipeline.evaluation.charts.style import DPI, chart_style
from nabahan_pipeline.evaluation.charts.worker import die_with_parent, raise_reported, reported
from nabahan_pipeline.files import atomic_open

# The least time the helper is given after this process drew its own charts.
HELPER_TIMEOUT_S = 60.0
# How an error met in a helper says where it was met.
HELPER = "In the chart helper process"

# A chart to draw: builds its figure when called.
Chart = Callable[[], Figure]
# Told, on the writer thread, of each PNG written: its name, path and pixels.
Written = Callable[[str, Path, memoryview], None]
# Makes a set's charts from its inputs, in a helper forked ahead (render.chart_builders).
MakeCharts = Callable[..., Mapping[str, Chart]]

_standing: _StandingHelper | None = None


def draw_figure(fig: Figure) -> memoryview:
    """Lay ``fig`` out and draw it, once, on its Agg canvas; its pixels, RGBA rows from the top.

    ``Figure.savefig`` would draw a figure with a layout engine twice: once to lay it out, with
    drawing switched off, and again to paint. ``FigureCanvasAgg.draw`` does both in one pass, and
    paints the same pixels (our figures' face is already the white ``savefig.facecolor``).
    """
    with chart_style():
        fig.canvas.draw()
    return fig.canvas.buffer_rgba()


def write_png(pixels: memoryview, path: str | Path, *, dpi: float = DPI) -> Path:
    """Write drawn pixels as PNG to ``path`` atomically (``png``: the pixels and metadata
    ``savefig`` writes, encoded faster): a temporary file in the same folder, then ``os.replace``."""
    path = Path(path)
    with atomic_open(path, "wb") as handle:
        write_rgba_png(handle, pixels, dpi=dpi)
    return path


def start_helper(make_charts: MakeCharts, warm_up: Callable[[], None]) -> None:
    """Fork the helper now, ahead of the charts (from a process with a single thread), and keep
    it: it calls ``warm_up()`` at once, then draws its share of each set ``draw_charts`` hands it
    with ``inputs``, from the charts ``make_charts(*inputs)`` makes there."""
    global _standing
    if _standing is None:
        _standing = _StandingHelper(make_charts, warm_up)


def stop_helper() -> None:
    """End the helper :func:`start_helper` forked, if it lives."""
    global _standing
    helper, _standing = _standing, None
    if helper is not None:
        helper.stop()


def draw_charts(charts: Mapping[str, Chart], folder: Path, *, processes: int = 1,
                written: Written | None = None, inputs: tuple | None = None) -> None:
    """Draw every chart of ``charts`` and write it to ``folder / name``, in the order given
    (costliest first balances two processes best).

    With ``processes=2`` a helper takes charts from the same queue: the one :func:`start_helper`
    forked, handed ``inputs`` (its ``make_charts(*inputs)`` must make these charts), else one
    forked now. This process always draws the first chart, so ``written`` (called here, on the
    writer thread) sees at least that one. A warning the helper met is warned again here, under
    this process's filters; an error it met is raised here, after its traceback (and a helper
    kept for later sets is ended).
    """
    names = list(charts)
    shared = processes > 1 and len(names) > 1
    standing = _standing if shared and inputs is not None and _standing is not None and _standing.alive() else None
    counter = None
    if shared:
        counter = standing.counter if standing is not None else multiprocessing.get_context("fork").Value("i", 0)
        with counter.get_lock():
            counter.value = 0
    queue = _Queue(len(names), counter)
    first = queue.take()  # taken before the helper takes any: the first chart is this process's
    if standing is not None:
        helper = standing
        try:
            standing.hand(inputs, names, folder)
        except BaseException:
            stop_helper()
            raise
    else:
        helper = _Helper(charts, names, queue, folder) if queue.shared else None
    try:
        started = time.monotonic()
        with collector_paused():
            _draw_from(queue, first, charts, names, folder, written)
        if helper is not None:
            # By now the helper is drawing its last chart at most: a helper that takes ten times
            # as long as this process took for all of its own is stuck, and an error, not a hang.
            helper.finish(timeout_s=max(HELPER_TIMEOUT_S, 10 * (time.monotonic() - started)))
    except BaseException:
        if helper is standing and helper is not None:
            stop_helper()  # no set is handed to a helper that failed or may still be drawing
        elif helper is not None:
            helper.stop()  # nothing left to stop once it has finished
        raise


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the charts are drawn, as it was after.

    Drawing allocates enough to set off a full collection, which walks every object of the
    process: 0.45 s in a `nabahan eval` run, a fifth of the charts' time. The figures' garbage
    waits the second or two until the collector is back.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _draw_from(queue: _Queue, index: int | None, charts: Mapping[str, Chart], names: list[str],
               folder: Path, written: Written | None) -> None:
    def write(name: str, pixels: memoryview) -> None:
        path = write_png(pixels, folder / name)
        if written is not None:
            written(name, path, pixels)

    # The PNG encoder (zlib) runs outside the GIL: each chart is written while the next is drawn.
    with ThreadPoolExecutor(1, thread_name_prefix="chart-png") as writer:
        writes = []
        while index is not None:
            name = names[index]
            writes.append(writer.submit(write, name, draw_figure(charts[name]())))
            index = queue.take()
        for done in writes:
            done.result()


class _Queue:
    """The indices of the charts still to draw: this process's alone, or shared with a forked
    helper through ``counter`` (a ``multiprocessing.Value`` the helper inherited)."""

    def __init__(self, size: int, counter=None) -> None:
        self.size = size
        self.shared = counter is not None
        self._next = counter
        self._local = 0

    def take(self) -> int | None:
        if self._next is None:
            index, self._local = self._local, self._local + 1
        else:
            with self._next.get_lock():
                index = self._next.value
                self._next.value = index + 1
        return index if index < self.size else None


class _ForkedHelper:
    """A forked drawing process, and this process's end of the pipe it reports on."""

    _process: multiprocessing.process.BaseProcess
    _pipe: Connection

    def stop(self) -> None:
        """End the helper now (this process failed, or is done): it must not write into a folder
        being removed."""
        self._process.kill()
        self._process.join()
        self._pipe.close()


class _Helper(_ForkedHelper):
    """A forked process drawing charts from the queue until it is empty, then reporting back."""

    def __init__(self, charts: Mapping[str, Chart], names: list[str], queue: _Queue, folder: Path) -> None:
        context = multiprocessing.get_context("fork")
        self._pipe, report = context.Pipe(duplex=False)
        self._process = context.Process(target=_helper_main, args=(charts, names, queue, folder, report),
                                        name="nabahan-charts", daemon=True)
        self._process.start()
        report.close()

    def finish(self, *, timeout_s: float) -> None:
        """Wait for the helper's report; warn its warnings here and raise its error, if any."""
        try:
            error, caught = _report(self._pipe, timeout_s) or (None, [])
        finally:
            self._pipe.close()
        self._process.join()
        if error is None and self._process.exitcode != 0:
            error = RuntimeError(f"the chart helper process ended with exit code {self._process.exitcode}")
        raise_reported(error, caught)


def _report(reports, timeout_s: float) -> tuple | None:
    """A helper's report on its charts from ``reports``; None if it died before it could report,
    TimeoutError if it takes longer than ``timeout_s``."""
    if not reports.poll(timeout_s):
        raise TimeoutError(f"the chart helper process did not finish in {timeout_s:.0f} s")
    try:
        return reports.recv()
    except EOFError:
        return None


def _helper_main(charts: Mapping[str, Chart], names: list[str], queue: _Queue, folder: Path, report) -> None:
    # The helper lives a second and exits without cleaning up: a collection would only copy the
    # pages it shares with the parent.
    gc.disable()
    _, error, caught = reported(lambda: _draw_from(queue, queue.take(), charts, names, folder, None), HELPER)
    try:
        report.send((error, caught))
    except OSError:  # the parent is gone (killed): nobody to tell
        pass


class _StandingHelper(_ForkedHelper):
    """A helper forked before its charts are known (:func:`start_helper`), drawing its share of
    each set it is handed until this process ends."""

    def __init__(self, make_charts: MakeCharts, warm_up: Callable[[], None]) -> None:
        context = multiprocessing.get_context("fork")
        self.counter = context.Value("i", 0)
        self._pipe, jobs = context.Pipe()
        self._process = context.Process(target=_standing_main,
                                        args=(jobs, self._pipe, os.getpid(), make_charts, warm_up, self.counter),
                                        name="nabahan-charts", daemon=True)
        self._process.start()
        jobs.close()

    def alive(self) -> bool:
        return self._process.is_alive()

    def hand(self, inputs: tuple, names: list[str], folder: Path) -> None:
        """Give it a set to draw its share of: ``make_charts(*inputs)`` there makes ``names``."""
        self._pipe.send((inputs, names, str(folder)))

    def finish(self, *, timeout_s: float) -> None:
        """Wait for its report on the set; warn its warnings here and raise its error, if any."""
        outcome = _report(self._pipe, timeout_s)
        if outcome is None:
            self._process.join()
            raise RuntimeError(f"the chart helper process ended with exit code {self._process.exitcode}")
        raise_reported(*outcome)


def _standing_main(jobs, parents_end, parent: int, make_charts: MakeCharts, warm_up: Callable[[], None],
                   counter) -> None:
    parents_end.close()  # copied by the fork: the parent's closing its own is the end
    die_with_parent(parent)
    gc.disable()  # a collection would only copy the pages it shares with the parent; see below
    try:
        warm_up()
    except Exception:  # drawing will meet it again, and report it
        pass
    gc.freeze()  # what it loaded is kept: no later collection walks it
    while True:
        try:
            inputs, names, folder = jobs.recv()
        except (EOFError, OSError):  # the parent is gone, or done
            os._exit(0)
        _, error, caught = reported(lambda: _draw_share(make_charts(*inputs), names, Path(folder), counter), HELPER)
        try:
            jobs.send((error, caught))
        except OSError:  # the parent is gone
            os._exit(0)
        inputs = error = caught = None
        gc.collect()  # the set's figures, after the parent has its report


def _draw_share(charts: Mapping[str, Chart], names: list[str], folder: Path, counter) -> None:
    if list(charts) != names:
        raise RuntimeError(f"the chart helper made {list(charts)}, not {names}")
    queue = _Queue(len(names), counter)  # the parent set it going
    _draw_from(queue, queue.take(), charts, names, folder, None)
