"""Start-up: what a process of ours costs before and around its work, each over a few runs (median).

    .venv/bin/python bench/bench_startup.py [--repeat 5] [--top 12]

1. `nabahan --help`, whole process (target < 0.3 s), beside `python -c pass` (the floor).
2. Imports (`python -X importtime`) on the `--help` path and on a whole `nabahan eval` path (20
   shipped cases, the instant agent): the total, the top-level packages that cost most (their
   modules' own time, summed) and the imports that pulled most (top-level entries, cumulative).
3. `dagster definitions validate` on the project's code location (workspace.yaml) (target: no
   slower than the baseline measured when this bench was written, VALIDATE_BASELINE_S).
4. `nabahan eval`, 20 shipped cases, instant in-process agent, whole process (target <= 4 s, issue 26),
   and where its wall goes (the median run's stages, from its Dagster event log): a first run (a
   new home: the instance is created), then a later run in the same home (a user's usual run).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from eval_runs import (
    BIN,
    INSTANT_AGENT,
    REPO,
    figure,
    nabahan_command,
    nabahan_eval,
    print_stages,
    run_process,
    run_timeline,
    scratch_folder,
    user_environment,
)

HELP_TARGET_S = 0.3
EVAL_20_TARGET_S = 4.0
# `dagster definitions validate` on 2026-11-23, before issue 14's optimizations: the median of 5
# on the shared 2-core machine (bench/README.md); the target is to be no slower than that.
VALIDATE_BASELINE_S = 2.9
_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( +)(\S+)\s*$")


def timed_walls(args: list[str], cwd: Path, env: dict[str, str], repeat: int) -> list[float]:
    """Walls of ``repeat`` runs of ``args``; raises when one fails."""
    walls = []
    for _ in range(repeat):
        run = run_process(args, cwd, env)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} exited {run.returncode}: {run.stderr[-2000:]}")
        walls.append(run.wall_s)
    return walls


def spread(walls: list[float]) -> str:
    return f"(median of {len(walls)}; min {min(walls):.2f} s, max {max(walls):.2f} s)"


def import_costs(stderr: str) -> tuple[dict[str, float], dict[str, float]]:
    """From `-X importtime` output: seconds per top-level package (its modules' own time summed)
    and per top-level import entry (cumulative, what that import pulled in)."""
    per_package: dict[str, float] = defaultdict(float)
    per_entry: dict[str, float] = {}
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match is None:
            continue
        own, cumulative, indent, name = int(match[1]) / 1e6, int(match[2]) / 1e6, match[3], match[4]
        per_package[name.split(".")[0]] += own
        if len(indent) == 1:  # not nested: imported by the program itself
            per_entry[name] = per_entry.get(name, 0.0) + cumulative
    return dict(per_package), per_entry


def print_imports(title: str, runs: list[tuple[dict[str, float], dict[str, float]]], top: int) -> None:
    """The median over runs of the total, the top packages and the top entries."""

    def med(tables: list[dict[str, float]]) -> dict[str, float]:
        names = {name for table in tables for name in table}
        return {name: statistics.median(table.get(name, 0.0) for table in tables) for name in names}

    packages, entries = med([p for p, _ in runs]), med([e for _, e in runs])
    total = statistics.median(sum(p.values()) for p, _ in runs)
    print(f"\n{title}: all imports {total:.2f} s (-X importtime, median of {len(runs)}; it inflates them a little)")
    print("  top-level packages, their modules' own time:")
    for name, seconds in sorted(packages.items(), key=lambda item: -item[1])[:top]:
        print(f"    {name:<34} {seconds:6.3f} s {seconds / total:6.1%}")
    print("  outermost imports (by the program, or lazily inside a function), with all they pulled in:")
    for name, seconds in sorted(entries.items(), key=lambda item: -item[1])[:top]:
        print(f"    {name:<34} {seconds:6.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement (default 5)")
    parser.add_argument("--top", type=int, default=12, help="rows of each import table (default 12)")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    with scratch_folder() as folder:
        env = user_environment(folder)
        warm = nabahan_eval(folder, "--agent", INSTANT_AGENT)  # databases built if missing, files cached
        print(f"warm-up: 20 cases in {warm.wall_s:.2f} s (not counted)\n")

        floor = timed_walls([sys.executable, "-c", "pass"], folder, env, repeat)
        print(figure("python -c pass (the floor)", statistics.median(floor), "s", note=spread(floor)))
        walls = timed_walls([*nabahan_command(), "--help"], folder, env, repeat)
        print(figure("nabahan --help", statistics.median(walls), "s", HELP_TARGET_S, note=spread(walls)))

        help_imports = []
        for _ in range(repeat):
            run = run_process([*nabahan_command(["-X", "importtime"]), "--help"], folder, env)
            help_imports.append(import_costs(run.stderr))
        print_imports("nabahan --help", help_imports, args.top)

        eval_imports = []
        for i in range(repeat):
            workdir = folder / f"imports-{i}"
            workdir.mkdir()
            run = nabahan_eval(workdir, "--agent", INSTANT_AGENT, python_flags=["-X", "importtime"])
            eval_imports.append(import_costs(run.stderr))
        print_imports("nabahan eval (20 cases, instant agent)", eval_imports, args.top)

        dagster_home = folder / "dagster-home"
        dagster_home.mkdir()
        (dagster_home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
        validate = [str(BIN / "dagster"), "definitions", "validate", "-w", str(REPO / "workspace.yaml")]
        walls = timed_walls(validate, REPO, {**env, "DAGSTER_HOME": str(dagster_home)}, repeat)
        print()
        print(figure("dagster definitions validate", statistics.median(walls), "s", VALIDATE_BASELINE_S,
                     note=spread(walls)))

        runs = []
        for i in range(repeat):
            workdir = folder / f"eval-{i}"
            workdir.mkdir()
            runs.append((nabahan_eval(workdir, "--agent", INSTANT_AGENT), workdir))
        runs.sort(key=lambda pair: pair[0].wall_s)
        middle, workdir = runs[len(runs) // 2]
        walls = [run.wall_s for run, _ in runs]
        print(figure("nabahan eval, 20 cases, instant agent", middle.wall_s, "s", EVAL_20_TARGET_S, note=spread(walls)))
        print(figure("  its CPU (user + system)", middle.cpu_s, "s"))
        print("  where the median run's wall went:")
        print_stages(middle, run_timeline(workdir / "home"), indent="    ")

        # The same runs again, each in its home: the instance, its history and the agent's
        # partition are there already, as in a user's every run but the first.
        later = sorted(((nabahan_eval(workdir, "--agent", INSTANT_AGENT), workdir) for _, workdir in runs),
                       key=lambda pair: pair[0].wall_s)
        middle, workdir = later[len(later) // 2]
        walls = [run.wall_s for run, _ in later]
        print()
        print(figure("nabahan eval, 20 cases, a later run in its home", middle.wall_s, "s", EVAL_20_TARGET_S,
                     note=spread(walls)))
        print(figure("  its CPU (user + system)", middle.cpu_s, "s"))
        print("  where the median run's wall went:")
        print_stages(middle, run_timeline(workdir / "home"), indent="    ")


if __name__ == "__main__":
    main()
