"""`nabahan eval` run as a user runs it, measured from outside: the benches' shared instruments.

A run is the console script in a subprocess, in a fresh temporary folder with its own
NABAHAN_HOME (no option inherited from the shell but the database cache), this worktree's code
and bench/ on PYTHONPATH (so ``python:instant_agent:answer`` imports). What it gives: wall, CPU
and peak memory of that one process (``os.wait4``), the run's stages from the Dagster event log
it wrote, its agent_responses table, and each figure printed beside its target with the ratio.
"""

from __future__ import annotations

import json
import os
import statistics
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from nabahan_pipeline.settings import ENVIRONMENT_VARIABLES, SHIPPED_TEST_CASES

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
INSTANT_AGENT = "python:instant_agent:answer"
BIN = Path(sys.executable).parent  # the virtual environment's scripts: nabahan, dagster
GIB = 1024**3


# --- processes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProcessRun:
    """One finished process: its wall clock (epoch seconds), CPU, peak memory and output."""

    args: tuple[str, ...]
    started: float
    ended: float
    cpu_s: float  # user + system, all its threads
    max_rss_bytes: int
    returncode: int
    stdout: str
    stderr: str

    @property
    def wall_s(self) -> float:
        return self.ended - self.started


def run_process(args: Sequence[str], cwd: Path, env: dict[str, str], timeout_s: float = 3600) -> ProcessRun:
    """Run ``args`` to its end; wall, CPU and peak RSS are this process's alone (``os.wait4``),
    whatever else the caller has started or waited for."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.time()
        proc = subprocess.Popen(list(args), cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        watchdog = threading.Timer(timeout_s, proc.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            watchdog.cancel()
        ended = time.time()
        proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait for it again
        out.seek(0)
        err.seek(0)
        return ProcessRun(
            args=tuple(args),
            started=started,
            ended=ended,
            cpu_s=usage.ru_utime + usage.ru_stime,
            max_rss_bytes=usage.ru_maxrss * 1024,  # KiB on Linux
            returncode=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )


def user_environment(workdir: Path, **extra: str) -> dict[str, str]:
    """The environment of a user's shell in ``workdir``: no NABAHAN_ option or DAGSTER_HOME of
    ours leaks in (the database cache excepted, so generated databases are not rebuilt), state in
    ``workdir/home``, this worktree's code and bench/ importable; ``extra`` wins."""
    inherited = {key: value for key, value in os.environ.items()
                 if key not in ENVIRONMENT_VARIABLES or key == "NABAHAN_CACHE_DIR"}
    return {**inherited, "NABAHAN_HOME": str(workdir / "home"), "PYTHONPATH": f"{REPO}{os.pathsep}{BENCH}",
            "PYTHONUNBUFFERED": "1", **extra}


def nabahan_command(python_flags: Sequence[str] = ()) -> list[str]:
    """The `nabahan` console script of this environment (as a user types it), else ``python -m``;
    with ``python_flags`` (``-X importtime``) run by this Python."""
    script = BIN / "nabahan"
    if not script.exists():
        return [sys.executable, *python_flags, "-m", "nabahan_pipeline"]
    return [sys.executable, *python_flags, str(script)] if python_flags else [str(script)]


@contextmanager
def scratch_folder(prefix: str = "nabahan-bench-") -> Iterator[Path]:
    """A temporary folder, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def nabahan_eval(workdir: Path, *flags: str, python_flags: Sequence[str] = (), **env: str) -> ProcessRun:
    """`nabahan eval FLAGS` in ``workdir`` (reports under workdir/results); raises with its
    stderr's tail when it does not exit 0."""
    run = run_process([*nabahan_command(python_flags), "eval", "--output-dir", str(workdir / "results"), *flags], workdir,
                      user_environment(workdir, **env))
    if run.returncode != 0:
        tail = "\n".join(run.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"nabahan eval exited {run.returncode}:\n{tail}")
    return run


# In a copy's gold SQL, a condition always true that makes its text the copy's own.
_COPY_MARK = "424242"


def write_cases(path: Path, n: int, *, gold_sql: bool = True, repeated: bool = False) -> Path:
    """A case file of ``n`` cases: the shipped suite over and over (its gold SQL, categories and
    expected tables), each copy with its own id; without ``gold_sql``, the cases carry none.

    Each copy is distinct in everything the scoring reads, as the cases of a real suite are: its
    question ends with its number ("(نسخة 12)", which the instant agents answer with), and its gold
    SQL, the same query, holds the condition ``12 = 12``. Anything kept by content (parsed SQL, gold
    results, scores) then serves one case, not every copy of 20 (``repeated``: the copies the
    same but for their ids, the suite of the figures measured before 2026-11-23 19:45 UTC)."""
    shipped = json.loads(SHIPPED_TEST_CASES.read_text(encoding="utf-8"))
    if not gold_sql:
        shipped = [{key: value for key, value in case.items() if key != "expected_sql"} for case in shipped]
    cases = [{**shipped[i % len(shipped)], "id": f"{shipped[i % len(shipped)]['id']}-{i // len(shipped)}"}
             for i in range(n)]
    if not repeated:
        marked = {case["expected_sql"]: _marked_sql(case["expected_sql"]) for case in shipped if case.get("expected_sql")}
        for number, case in enumerate(cases):
            case["question"] = f"{case['question']} (نسخة {number})"
            if case.get("expected_sql"):
                case["expected_sql"] = marked[case["expected_sql"]].replace(_COPY_MARK, str(number))
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def _marked_sql(sql: str) -> str:
    """``sql`` (one SELECT) with the condition ``424242 = 424242`` added to its WHERE clause."""
    import sqlglot

    return sqlglot.parse_one(sql, read="sqlite").where(f"{_COPY_MARK} = {_COPY_MARK}").sql(dialect="sqlite")


# --- the run's stages, from the Dagster event log -----------------------------------------------


@dataclass
class Step:
    """One Dagster step: when it started, had its inputs, gave its output and ended (epoch s)."""

    key: str
    start: float
    inputs: float | None = None
    output: float | None = None
    end: float | None = None
    is_check: bool = False

    @property
    def wall_s(self) -> float:
        return (self.end or self.start) - self.start

    @property
    def compute_s(self) -> float:
        """The asset's own function and its type check: inputs loaded -> output given."""
        if self.output is None:
            return 0.0
        return self.output - (self.inputs or self.start)


@dataclass
class Timeline:
    """A run as its Dagster event log tells it."""

    run_id: str
    start: float
    end: float
    steps: list[Step] = field(default_factory=list)

    def step(self, key: str) -> Step:
        return next(step for step in self.steps if step.key == key)


def run_timeline(home: Path) -> Timeline:
    """The latest run of the Dagster instance under ``home`` (NABAHAN_HOME), read from its event log."""
    import dagster as dg  # the bench's own process; after the timed run

    instance = dg.DagsterInstance.from_config(str(home / "dagster"))
    try:
        run = instance.get_runs(limit=1)[0]
        start = end = None
        steps: dict[str, Step] = {}
        for entry in instance.all_logs(run.run_id):
            event = entry.dagster_event
            if event is None:
                continue
            kind, when = event.event_type_value, entry.timestamp
            if kind == "PIPELINE_START":
                start = when
            elif kind in ("PIPELINE_SUCCESS", "PIPELINE_FAILURE"):
                end = when
            elif entry.step_key is None:
                continue
            elif kind == "STEP_START":
                steps[entry.step_key] = Step(entry.step_key, when)
            elif entry.step_key in steps:
                step = steps[entry.step_key]
                if kind == "STEP_INPUT":
                    step.inputs = when
                elif kind == "STEP_OUTPUT" and step.output is None:
                    step.output = when
                elif kind in ("STEP_SUCCESS", "STEP_FAILURE"):
                    step.end = when
                elif kind == "ASSET_CHECK_EVALUATION":
                    step.is_check = True
    finally:
        instance.dispose()
    if start is None or end is None:
        raise RuntimeError(f"run {run.run_id} has no start or end in its event log")
    return Timeline(run.run_id, start, end, sorted(steps.values(), key=lambda step: step.start))


def stages(run: ProcessRun, timeline: Timeline) -> list[tuple[str, float, str]]:
    """Where the process's wall went: (stage, seconds, note), adding up to the whole process."""
    assets = [step for step in timeline.steps if not step.is_check]
    checks = [step for step in timeline.steps if step.is_check]
    in_steps = sum(step.wall_s for step in timeline.steps)
    rows = [("start-up", timeline.start - run.started, "imports, options, case file and agent checked, run created")]
    rows += [(step.key, step.wall_s, f"compute {step.compute_s:.2f} s, the rest inputs/Parquet/metadata")
             for step in assets]
    rows.append((f"asset checks ({len(checks)} steps)", sum(step.wall_s for step in checks), ""))
    rows.append(("Dagster between steps", (timeline.end - timeline.start) - in_steps, "run start/end, events"))
    rows.append(("after the run", run.ended - timeline.end, "console summary, instance closed, exit"))
    return rows


def print_stages(run: ProcessRun, timeline: Timeline, indent: str = "  ") -> None:
    """The stages as a table, each with its share of the whole."""
    for name, seconds, note in stages(run, timeline):
        share = seconds / run.wall_s if run.wall_s else 0.0
        print(f"{indent}{name:<28} {seconds:7.2f} s {share:6.1%}   {note}")
    print(f"{indent}{'whole process':<28} {run.wall_s:7.2f} s")


def responses_table(home: Path):  # -> pandas.DataFrame
    """The agent_responses table of the latest run under ``home`` (its published Parquet copy)."""
    import pandas as pd

    return pd.read_parquet(home / "parquet" / "agent_responses.parquet")


# --- figures and their targets ------------------------------------------------------------------


def figure(label: str, value: float, unit: str, target: float | None = None, *, at_least: bool = False,
           digits: int = 2, note: str = "") -> str:
    """One line: the figure, its target (at most, or ``at_least``) and value/target, met or not."""
    line = f"{label:<46} {value:>9.{digits}f} {unit:<4}"
    if target is not None:
        ratio = value / target if target else float("inf")
        met = value >= target if at_least else value <= target
        sign = ">=" if at_least else "<="
        line += f" target {sign} {target:<5g} ratio {ratio:5.2f} {'met' if met else 'NOT MET'}"
    return f"{line}  {note}" if note else line


def median_time(repeat: int, work: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """The median of ``repeat`` timings of ``work()`` on ``clock`` (wall by default;
    ``time.process_time`` for this process's CPU)."""
    times = []
    for _ in range(repeat):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times)
