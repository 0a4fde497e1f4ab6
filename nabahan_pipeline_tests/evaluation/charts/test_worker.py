"""Tests for evaluation.charts.worker: the chart worker forked as `nabahan eval` starts draws the
run's charts, the very pixels drawn here, into the folder the run switches into place; hands back
the dashboard's Markdown, its warnings and its errors; and ends with the run.

pytest-xdist runs threads of its own, and a process with threads forks no worker: these tests
pretend to have a single thread, as `nabahan eval` has when it forks the worker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

from nabahan_pipeline.evaluation.charts import markdown, render, worker
from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
from nabahan_pipeline.evaluation.charts.render import render_charts
from nabahan_pipeline_tests.evaluation.charts.test_render import CASES, _reference, pixel_digest

pytestmark = pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")

CASE = "20 cases, 14 runs"


@pytest.fixture
def single_threaded(monkeypatch):
    """A single thread and two cores: as `nabahan eval` when it forks the worker."""
    monkeypatch.setattr(worker.threading, "active_count", lambda: 1)
    monkeypatch.setattr(worker.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    yield
    worker.stop_worker()


def _render(tmp_path, **kwargs):
    scores, summary, history, threshold = CASES[CASE][0]()
    return render_charts(scores, summary, tmp_path / "charts", history=history, pass_threshold=threshold, **kwargs)


def test_the_worker_draws_the_reference_pixels_and_hands_back_the_markdown(tmp_path, single_threaded, monkeypatch):
    assert worker.start_worker(render.draw_into, render.warm_up)
    assert worker.start_worker(render.draw_into, render.warm_up)  # one worker, however often asked
    first = worker._worker
    drawn_here = []  # charts drawn in this process (the worker, forked before, is not spied on)
    original = render.prepare_markdown
    monkeypatch.setattr(render, "prepare_markdown", lambda *a: drawn_here.append(a[0]) or original(*a))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = _render(tmp_path)
    assert worker._worker is first and first.ready()  # it waits for the next run's charts
    assert drawn_here == []  # nothing was drawn in this process
    expected = _reference()[CASE]["charts"]
    assert {name: pixel_digest(path) for name, path in paths.items()} == expected
    dashboard = paths["evaluation_dashboard.png"]
    assert list(markdown._prepared) == [markdown._identity(dashboard, 800, 150_000)]
    prepared = markdown._prepared[markdown._identity(dashboard, 800, 150_000)]
    markdown._prepared.clear()
    assert prepared == dashboard_markdown(dashboard)  # as made from the file
    # processes= forces drawing here, worker or not.
    _render(tmp_path, processes=1)
    assert "evaluation_dashboard.png" in drawn_here


def _processes_drawing(*_args) -> str:
    return str(worker.default_processes())


def test_the_worker_draws_with_a_helper_of_its_own(single_threaded):
    # The worker is daemonic to the run; it must still fork the helper that draws half the charts.
    assert worker.start_worker(_processes_drawing, lambda: None)
    assert worker._worker.draw(None, None, None, 0.8, "unused") == "2"


def test_without_a_worker_the_charts_are_drawn_here(tmp_path, single_threaded, monkeypatch):
    monkeypatch.setattr(worker.threading, "active_count", lambda: 2)  # a thread: no fork
    assert not worker.start_worker(render.draw_into, render.warm_up)
    assert not worker.draw_on_worker(None, None, None, 0.8, tmp_path)
    assert sorted(p.name for p in _render(tmp_path).values()) == sorted(render.CHART_FILES)


def test_a_worker_that_died_before_drawing_leaves_the_charts_to_this_process(tmp_path, single_threaded):
    assert worker.start_worker(render.draw_into, render.warm_up)
    os.kill(worker._worker._process.pid, signal.SIGKILL)
    worker._worker._process.join()
    assert sorted(_render(tmp_path)) == sorted(render.CHART_FILES)
    assert worker._worker is None


def test_the_workers_warnings_are_warned_here_and_its_errors_raised_here(tmp_path, single_threaded, monkeypatch):
    from nabahan_pipeline.evaluation.charts.style import chart_style, new_figure

    def glyph_missing():
        fig = new_figure(2, 1)
        with chart_style():
            fig.text(0.1, 0.5, "漢字")  # no glyph in DejaVu Sans: matplotlib warns while drawing
        return fig

    def failing():
        raise ValueError("no such chart")

    monkeypatch.setattr(render, "chart_builders", lambda *a: {"evaluation_dashboard.png": glyph_missing,
                                                               "detailed_results.png": failing})
    assert worker.start_worker(render.draw_into, render.warm_up)
    with pytest.raises(ValueError, match="no such chart") as caught, pytest.warns(UserWarning, match="Glyph"):
        _render(tmp_path)
    assert any(note.startswith("In the chart worker process") for note in caught.value.__notes__)
    assert worker._worker is None  # stopped: the next charts are drawn here
    assert not (tmp_path / "charts").exists()  # nothing switched into place


def test_the_worker_ends_with_the_process_that_started_it(tmp_path):
    script = (
        "import threading, time\n"
        "from nabahan_pipeline.evaluation.charts import render, worker\n"
        "assert threading.active_count() == 1 and worker.start_worker(render.draw_into, render.warm_up)\n"
        "print(worker._worker._process.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(run.stdout.readline())
        os.kill(pid, 0)  # running
    finally:
        run.kill()
        run.wait()
        run.stdout.close()
    deadline = time.monotonic() + 10
    while _alive(pid):
        assert time.monotonic() < deadline, "the worker outlived the process that started it"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


# `nabahan eval` as it is run: the run's process is told which workers it forked and which charts
# they drew, and, once done, which of its children still live.
_FORCED = """
import json, os, sys
from pathlib import Path
from nabahan_pipeline.evaluation.charts import worker
forked, drawn = [], []
start, draw = worker._Worker.__init__, worker._Worker.draw
def started(self, *args):
    start(self, *args)
    forked.append(self._process.pid)
def drawing(self, *args):
    drawn.append(str(args[-1]))
    return draw(self, *args)
worker._Worker.__init__, worker._Worker.draw = started, drawing
from nabahan_pipeline.cli import main
code = main(sys.argv[2:])
def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1].split()[1]
    except (FileNotFoundError, ProcessLookupError):  # a process of the machine ended meanwhile
        return None
children = [p for p in os.listdir("/proc") if p.isdigit() and parent_of(p) == str(os.getpid())]
Path(sys.argv[1]).write_text(json.dumps({"code": code, "forked": forked, "drawn": drawn, "children": children}))
"""


def _forced_eval(tmp_path, *args: str) -> tuple[dict, subprocess.CompletedProcess]:
    from nabahan_pipeline_tests.commands import run

    report = tmp_path / "report.json"
    result = run([sys.executable, "-c", _FORCED, str(report), "eval", *args], tmp_path)
    import json

    return json.loads(report.read_text()), result


@pytest.mark.slow
def test_a_mistake_found_after_the_fork_is_one_line_and_exit_2_and_leaves_no_worker(tmp_path):
    bad = tmp_path / "cases.json"
    bad.write_text('[{"question": "", "category": "count"}]', encoding="utf-8")
    report, result = _forced_eval(tmp_path, "--test-file", str(bad), "--output-dir", "out")
    assert report["code"] == 2 and len(report["forked"]) == 1, (report, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    assert report["children"] == [] and not _alive(report["forked"][0])


@pytest.mark.slow
def test_two_agents_have_their_charts_drawn_by_one_worker(tmp_path):
    from nabahan_pipeline_tests.commands import cases_file

    cases = cases_file(tmp_path / "cases.json", n=3)
    report, result = _forced_eval(tmp_path, "--test-file", str(cases), "--agent", "a=embedded", "--agent", "b=embedded",
                                  "--output-dir", "out", "--test-suite", "0")
    assert report["code"] == 0, result.stderr[-3000:]
    assert len(report["forked"]) == 1 and len(report["drawn"]) == 2, report  # reused for the second agent
    for label in ("a", "b"):
        charts = tmp_path / "out" / label / "charts"
        assert sorted(path.name for path in charts.iterdir()) == sorted(render.CHART_FILES)
        assert any(path.startswith(str((tmp_path / "out" / label).resolve())) or f"/{label}/" in path
                   for path in report["drawn"]), report["drawn"]
    assert report["children"] == [] and not _alive(report["forked"][0])


def _children(pid: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().split(") ")[1].split()
        except (FileNotFoundError, ProcessLookupError):  # ended meanwhile
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(entry))
    return found


def test_the_worker_forks_its_helper_ahead_and_keeps_it_and_both_end_with_the_run(tmp_path, single_threaded):
    assert worker.start_worker(render.draw_into, render.warm_up)
    worker_pid = worker._worker._process.pid
    deadline = time.monotonic() + 30
    while not _children(worker_pid):  # forked once the worker has warmed up, before any charts
        assert time.monotonic() < deadline, "the worker forked no helper ahead"
        time.sleep(0.05)
    helpers = _children(worker_pid)
    expected = _reference()[CASE]["charts"]
    for run in ("first", "second"):
        paths = _render(tmp_path / run)
        assert {name: pixel_digest(path) for name, path in paths.items()} == expected
        assert _children(worker_pid) == helpers  # the same helper, kept
    process = worker._worker._process
    worker.stop_worker()
    # Told the run is over, the worker ended its helper and exited by itself (then the CPU of both
    # is the run's, as the benches count it from the run's wait4), rather than being killed.
    assert process.exitcode == 0
    assert not _alive(helpers[0])


def test_a_worker_that_drew_nothing_is_killed_at_once_and_takes_its_helper_with_it(tmp_path, single_threaded):
    assert worker.start_worker(render.draw_into, render.warm_up)
    worker_pid = worker._worker._process.pid
    deadline = time.monotonic() + 30
    while not _children(worker_pid):
        assert time.monotonic() < deadline, "the worker forked no helper ahead"
        time.sleep(0.05)
    helper = _children(worker_pid)[0]
    process = worker._worker._process
    worker.stop_worker()  # it drew nothing: not waited for
    assert process.exitcode == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while _alive(helper):
        assert time.monotonic() < deadline, "the helper outlived the worker"
        time.sleep(0.05)
