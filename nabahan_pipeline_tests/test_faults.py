"""Faults users meet, with real processes: a run killed (SIGKILL) while it asks the agent, writes
Parquet, writes a report or draws the charts; two runs at once on one output and state directory.

After a kill every file parses, the earlier reports and charts are byte-identical, and the next
run succeeds and leaves no temporary file. Concurrent runs each report their own rows.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from nabahan_pipeline.evaluation.charts.render import CHART_FILES

from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
MADE_UP = "python:nabahan_pipeline_tests.sample_agents:made_up_number_agent"
STOPPING = "python:nabahan_pipeline_tests.killable_run:stopping_agent"


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO), **extra}
    env.pop("DAGSTER_HOME", None)
    env.pop("NABAHAN_AGENT", None)
    return env


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (through the charts link) by relative path, with its bytes."""
    files = {}
    for root, _dirs, names in os.walk(folder, followlinks=True):
        for name in names:
            path = Path(root) / name
            files[str(path.relative_to(folder))] = path.read_bytes()
    return files


def temporaries(*folders: Path) -> list[Path]:
    return [path for folder in folders for path in folder.rglob("*.tmp")]


def assert_every_file_parses(*folders: Path) -> None:
    for folder in folders:
        for path in folder.rglob("*"):
            if not path.is_file() or path.name.endswith(".tmp"):
                continue
            if path.name.startswith("evaluation_error_locations_"):  # no row when no wrong answer is located
                assert list(pd.read_csv(path, encoding="utf-8-sig").columns) == ["Location", "Category", "Answers"]
            elif path.suffix == ".csv":
                assert len(pd.read_csv(path, encoding="utf-8-sig")) > 0, path
            elif path.suffix == ".html":
                assert path.read_text(encoding="utf-8").endswith("</html>\n"), path
            elif path.suffix == ".parquet":
                pd.read_parquet(path)
            elif path.suffix == ".png":
                with Image.open(path) as image:
                    image.verify()
            elif path.suffix in (".db", ".sqlite"):
                con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
                try:
                    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok", path
                finally:
                    con.close()


def stop_and_kill(tmp_path: Path, phase: str, args: list[str]) -> None:
    """Start `nabahan eval ARGS` stopping at ``phase``, wait until it is there, SIGKILL it."""
    marker = tmp_path / f"{phase}.stopped"
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline_tests.killable_run", phase, str(marker), "--", "eval", *args],
        cwd=tmp_path, env=environment(tmp_path, KILLABLE_MARKER=str(marker)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 180
    while not marker.exists():
        if process.poll() is not None:
            raise AssertionError(f"the run ended before {phase}: {process.stderr.read().decode()[-2000:]}")
        assert time.monotonic() < deadline, f"never reached {phase}"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stdout.close()
    process.stderr.close()
    assert process.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["agent", "parquet", "report", "charts"])
def test_a_run_killed_midway_loses_nothing_and_the_next_run_cleans_up(tmp_path: Path, phase: str):
    cases = cases_file(tmp_path / "cases.json", n=4)
    common = ["--test-file", str(cases), "--output-dir", "out", "--test-suite", "0"]
    first = nabahan("eval", *common, "--agent", COUNTING, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    out, home = tmp_path / "out", tmp_path / "home"
    before = snapshot(out)
    assert sum(name.endswith(".csv") for name in before) == 3 and sum(name.endswith(".png") for name in before) == 16
    assert sum(name.endswith(".html") for name in before) == 1

    stop_and_kill(tmp_path, phase, [*common, "--agent", STOPPING if phase == "agent" else MADE_UP])
    if phase in ("parquet", "report", "charts"):
        assert temporaries(out, home), "the kill left a half-written temporary file (what this test is about)"

    after = snapshot(out)
    assert {name: after.get(name) for name in before} == before, "earlier reports and charts byte-identical"
    new_reports = [name for name in after if name.endswith((".csv", ".html")) and name not in before]
    # The charts come after the CSVs and the HTML page after the charts: a run killed before the
    # CSVs wrote no report at all, one killed drawing charts its three CSVs and no page.
    assert sorted(name.rsplit(".", 1)[1] for name in new_reports) == (["csv"] * 3 if phase == "charts" else []), \
        new_reports
    assert_every_file_parses(out, home)

    again = nabahan("eval", *common, "--agent", MADE_UP, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert temporaries(out, home) == [], "the next run removed what the killed one left"
    assert_every_file_parses(out, home)
    charts = sorted(path.name for path in (out / "charts").iterdir())
    assert charts == sorted(CHART_FILES)
    latest = max(out.glob("evaluation_results_*.csv"), key=lambda path: path.stat().st_mtime)
    assert "31,415" in latest.read_text(encoding="utf-8-sig"), "the new run's own report"


@pytest.mark.slow
def test_two_runs_at_once_on_one_output_and_state_directory_each_keep_their_rows(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json", n=6)
    args = ["-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--output-dir", "out",
            "--test-suite", "0", "--concurrency", "1"]
    runs = [
        subprocess.Popen([sys.executable, *args, "--agent", agent], cwd=tmp_path, env=environment(tmp_path),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for agent in (COUNTING, MADE_UP, COUNTING, MADE_UP)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    for index, (run, (stdout, stderr)) in enumerate(zip(runs, outputs)):
        assert run.returncode == 0, stderr[-3000:]
        assert "Traceback" not in stderr
        assert ("unverified: … عدد المناقصات المطابقة 31,415 مناقصة وفق البيانات …" in stdout) == (index % 2 == 1), "each console shows its own run"
    results = sorted((tmp_path / "out").glob("evaluation_results_*.csv"))
    summaries = sorted((tmp_path / "out").glob("evaluation_summary_*.csv"))
    assert len(results) == len(summaries) == 4, [path.name for path in results]
    made_up_reports = 0
    for path in results:
        table = pd.read_csv(path, encoding="utf-8-sig")
        assert len(table) == 6 and table["Question"].nunique() == 6
        made_up = table["Insights"].str.contains("31,415")
        assert made_up.all() or not made_up.any(), f"{path.name} mixes two runs' rows"
        made_up_reports += bool(made_up.all())
    assert made_up_reports == 2
