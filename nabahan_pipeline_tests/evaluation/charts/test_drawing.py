"""Tests for evaluation.charts.drawing: each chart drawn once, and the forked helper's charts,
warnings and errors handed back to the process that asked.

The helper is made to take a chart for sure: the first chart is always the caller's, and it waits
(on an Event shared through the fork) until the second chart's builder, in the helper, has run.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from nabahan_pipeline.evaluation.charts import drawing, worker
from nabahan_pipeline.evaluation.charts.drawing import draw_charts, draw_figure
from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
from nabahan_pipeline.evaluation.charts.style import chart_style, new_figure
from nabahan_pipeline.evaluation.synthetic import fixed_summary

# These tests make the helper fork on purpose inside a pytest-xdist worker, which runs threads of
# its own; Python 3.12+ warns about forking a threaded process. The product forks only from a
# single-threaded process (worker.default_processes, tested below).
pytestmark = pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")


def _figure(text: str = "ok"):
    fig = new_figure(2, 1)
    with chart_style():
        fig.text(0.1, 0.5, text)
    return fig


def _pixels(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))


def test_a_figure_is_drawn_once_and_saved_as_savefig_would(tmp_path, monkeypatch):
    draws = []
    original = FigureCanvasAgg.draw
    monkeypatch.setattr(FigureCanvasAgg, "draw", lambda self: draws.append(1) or original(self))
    fig = plot_metrics_overview(fixed_summary())
    pixels = draw_figure(fig)
    assert len(draws) == 1
    path = drawing.write_png(pixels, tmp_path / "once.png")
    monkeypatch.setattr(FigureCanvasAgg, "draw", original)
    fig.savefig(tmp_path / "savefig.png", format="png", dpi=fig.dpi)
    with Image.open(path) as ours, Image.open(tmp_path / "savefig.png") as theirs:
        assert (ours.mode, ours.size, ours.info) == (theirs.mode, theirs.size, theirs.info)
        assert ours.tobytes() == theirs.tobytes()


def _handshake():
    return multiprocessing.get_context("fork").Event()


def test_the_helper_draws_charts_in_another_process(tmp_path):
    taken = _handshake()
    pids = tmp_path / "pids"
    pids.mkdir()

    def first():
        assert taken.wait(30), "the helper never took the second chart"
        (pids / "first").write_text(str(os.getpid()))
        return _figure("first")

    def second():
        (pids / "second").write_text(str(os.getpid()))
        taken.set()
        return _figure("second")

    charts = {"first.png": first, "second.png": second, "third.png": lambda: _figure("third")}
    seen = []
    draw_charts(charts, tmp_path, processes=2, written=lambda name, path, pixels: seen.append(name))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["first.png", "second.png", "third.png"]
    assert int((pids / "first").read_text()) == os.getpid() != int((pids / "second").read_text())
    assert "first.png" in seen and "second.png" not in seen  # told here of this process's charts only
    # The same pixels as drawn here.
    alone = tmp_path / "alone"
    alone.mkdir()
    draw_charts({"second.png": lambda: _figure("second")}, alone, processes=1)
    assert np.array_equal(_pixels(tmp_path / "second.png"), _pixels(alone / "second.png"))


def test_a_warning_in_the_helper_is_warned_here_under_our_filters(tmp_path):
    taken = _handshake()

    def first():
        assert taken.wait(30)
        return _figure()

    def second():
        taken.set()
        return _figure("漢字")  # no glyph in DejaVu Sans: matplotlib warns while drawing

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="Glyph"):
            draw_charts({"first.png": first, "second.png": second}, tmp_path, processes=2)


def test_an_error_in_the_helper_is_raised_here_with_its_traceback(tmp_path):
    taken = _handshake()

    def first():
        assert taken.wait(30)
        return _figure()

    def second():
        taken.set()
        raise ValueError("no such chart")

    with pytest.raises(ValueError, match="no such chart") as caught:
        draw_charts({"first.png": first, "second.png": second}, tmp_path, processes=2)
    assert any(note.startswith("In the chart helper process") and ", in second\n" in note
               for note in caught.value.__notes__)


def test_a_helper_that_dies_is_an_error(tmp_path):
    taken = _handshake()

    def first():
        assert taken.wait(30)
        return _figure()

    def second():
        taken.set()
        os._exit(3)

    with pytest.raises(RuntimeError, match="exit code 3"):
        draw_charts({"first.png": first, "second.png": second}, tmp_path, processes=2)


def test_when_this_process_fails_the_helper_is_stopped_at_once(tmp_path):
    taken = _handshake()
    helper_pid = tmp_path / "helper.pid"

    def first():
        assert taken.wait(30)
        raise RuntimeError("this process failed")

    def second():
        helper_pid.write_text(str(os.getpid()))
        taken.set()
        time.sleep(60)
        return _figure()

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="this process failed"):
        draw_charts({"first.png": first, "second.png": second}, tmp_path, processes=2)
    assert time.monotonic() - started < 30
    with pytest.raises(ProcessLookupError):  # ended and reaped
        os.kill(int(helper_pid.read_text()), 0)
    assert not list(tmp_path.glob("*.png"))


def test_two_processes_only_from_a_single_thread_with_two_cores_on_linux_and_no_daemon(monkeypatch):
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(worker.threading, "active_count", lambda: 1)
    monkeypatch.setattr(worker.sys, "platform", "linux")
    assert worker.default_processes() == 2
    monkeypatch.setattr(worker.sys, "platform", "darwin")
    assert worker.default_processes() == 1
    monkeypatch.setattr(worker.sys, "platform", "linux")
    monkeypatch.setattr(worker.threading, "active_count", lambda: 2)
    assert worker.default_processes() == 1
    monkeypatch.setattr(worker.threading, "active_count", lambda: 1)
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True)  # may have no children
    assert worker.default_processes() == 1
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", False)
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda _pid: {0})
    assert worker.default_processes() == 1


def test_a_stuck_helper_is_an_error_not_a_hang(tmp_path, monkeypatch):
    monkeypatch.setattr(drawing, "HELPER_TIMEOUT_S", 1.0)
    taken = _handshake()
    helper_pid = tmp_path / "helper.pid"

    def first():
        assert taken.wait(30)
        return _figure()

    def second():
        helper_pid.write_text(str(os.getpid()))
        taken.set()
        time.sleep(60)  # as if it waited for a lock nobody will release
        return _figure()

    started = time.monotonic()
    with pytest.raises(TimeoutError, match="did not finish"):
        draw_charts({"first.png": first, "second.png": second}, tmp_path, processes=2)
    assert time.monotonic() - started < 30
    with pytest.raises(ProcessLookupError):
        os.kill(int(helper_pid.read_text()), 0)


def test_the_collector_is_off_while_drawing_and_as_it_was_after(tmp_path):
    seen = []

    def chart():
        seen.append(gc.isenabled())
        return _figure()

    assert gc.isenabled()
    draw_charts({"a.png": chart}, tmp_path, processes=1)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        draw_charts({"b.png": chart}, tmp_path, processes=1)
        assert not gc.isenabled()  # not switched on by us
    finally:
        gc.enable()


# A helper forked ahead (drawing.start_helper, as the chart worker forks it): each set is handed to
# it as inputs, from which it makes the same charts there.


def _pid_charts(folder: str, tag: str):
    """Three charts that each write which process built them into ``folder``."""

    def chart(name: str):
        def build():
            written = Path(folder) / f".{name}.{os.getpid()}"
            written.write_text(str(os.getpid()))
            os.replace(written, Path(folder) / f"{name}.pid")  # whole, for the other process
            deadline = time.monotonic() + 30
            if name == "first":  # this process's: wait until the helper has taken a chart
                while not any((Path(folder) / f"{n}.pid").exists() for n in ("second", "third")):
                    assert time.monotonic() < deadline, "the helper never took a chart"
                    time.sleep(0.01)
            # a helper forked ahead may take its chart before this process has begun the first
            while tag == "fail" and not (Path(folder) / "first.pid").exists():
                assert time.monotonic() < deadline, "the first chart was never begun"
                time.sleep(0.01)
            if tag == "fail" and os.getpid() != int((Path(folder) / "first.pid").read_text()):
                raise ValueError("no such chart")
            return _figure(f"{tag} {name}")
        return build

    return {f"{name}.png": chart(name) for name in ("first", "second", "third")}


@pytest.fixture
def standing_helper():
    warmed = []
    drawing.start_helper(_pid_charts, lambda: warmed.append(os.getpid()))
    yield drawing._standing
    drawing.stop_helper()


def test_a_helper_forked_ahead_draws_each_set_from_its_inputs(tmp_path, standing_helper):
    helpers = set()
    for tag in ("one", "two"):
        folder = tmp_path / tag
        folder.mkdir()
        draw_charts(_pid_charts(str(folder), tag), folder, processes=2, inputs=(str(folder), tag))
        assert sorted(p.name for p in folder.glob("*.png")) == ["first.png", "second.png", "third.png"]
        assert int((folder / "first.pid").read_text()) == os.getpid()
        helpers |= {int(p.read_text()) for p in folder.glob("*.pid")} - {os.getpid()}
        alone = tmp_path / f"{tag}-alone"
        alone.mkdir()
        draw_charts({"third.png": lambda tag=tag: _figure(f"{tag} third")}, alone, processes=1)
        assert np.array_equal(_pixels(folder / "third.png"), _pixels(alone / "third.png"))
    assert helpers == {standing_helper._process.pid}  # the same helper for both sets
    assert drawing._standing is standing_helper and standing_helper.alive()


def test_an_error_in_a_helper_forked_ahead_is_raised_here_and_ends_it(tmp_path, standing_helper):
    with pytest.raises(ValueError, match="no such chart") as caught:
        draw_charts(_pid_charts(str(tmp_path), "fail"), tmp_path, processes=2, inputs=(str(tmp_path), "fail"))
    assert any(note.startswith("In the chart helper process") for note in caught.value.__notes__)
    assert drawing._standing is None
    standing_helper._process.join(10)
    assert not standing_helper.alive()
    # The next set is drawn with a helper forked for it.
    again = tmp_path / "again"
    again.mkdir()
    draw_charts(_pid_charts(str(again), "again"), again, processes=2, inputs=(str(again), "again"))
    assert len({p.read_text() for p in again.glob("*.pid")}) == 2
