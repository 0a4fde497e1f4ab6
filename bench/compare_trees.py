"""`nabahan eval` under two versions of the code, runs alternating so that both see the same load.

Not run by `make bench` (it needs the two trees); 20 cases of the instant agent by default:

    python bench/compare_trees.py TREE_A TREE_B [--cases 20] [--repeat 5]

A tree is a checkout or an exported copy of the repository (``git archive REV | tar -x -C DIR``).
Each run is what ``eval_runs`` makes of one (a fresh folder and NABAHAN_HOME, the tree and its
bench/ on PYTHONPATH); one warm-up run of each is not counted. Printed per run and as medians:
wall, CPU, peak memory, start-up, the Dagster run, after the run, and four steps' walls.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from eval_runs import INSTANT_AGENT, nabahan_command, run_process, run_timeline, scratch_folder, user_environment, write_cases

STEPS = {"test_cases": "test_cases", "agent_responses": "agent", "case_scores": "scores", "evaluation_charts": "charts"}


def one_run(tree: Path, work: Path, cases: Path) -> dict[str, float]:
    """One `nabahan eval` with ``tree``'s code in ``work``: its figures, in seconds and GiB."""
    env = user_environment(work)
    env["PYTHONPATH"] = f"{tree}{os.pathsep}{tree / 'bench'}"
    run = run_process([*nabahan_command(), "eval", "--output-dir", str(work / "results"), "--test-file", str(cases),
                       "--agent", INSTANT_AGENT], work, env)
    if run.returncode != 0:
        sys.exit(f"{tree}: nabahan eval exited {run.returncode}:\n{run.stderr[-2000:]}")
    timeline = run_timeline(work / "home")
    figures = {"wall": run.wall_s, "cpu": run.cpu_s, "rss_gib": run.max_rss_bytes / 2**30,
               "startup": timeline.start - run.started, "run": timeline.end - timeline.start,
               "after": run.ended - timeline.end}
    for step in timeline.steps:
        if step.key in STEPS:
            figures[STEPS[step.key]] = step.wall_s
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs=2, metavar="TREE")
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5, help="counted runs of each tree (default 5)")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.trees]
    results: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    with scratch_folder() as root:
        cases = write_cases(root / "cases.json", args.cases)
        for number in range(args.repeat + 1):
            for index, tree in enumerate(trees):
                work = root / f"run{number}-{index}"
                work.mkdir()
                figures = one_run(tree, work, cases)
                if number:
                    results[tree].append(figures)
                shown = " ".join(f"{name}={value:.2f}" for name, value in figures.items())
                print(f"{'warm-up ' if not number else ''}{tree}: {shown}", flush=True)
    print(f"\nmedians of {args.repeat} runs each, {args.cases} cases")
    for tree, runs in results.items():
        names = [name for name in runs[0] if all(name in run for run in runs)]
        print(f"{tree}: " + " ".join(f"{name}={statistics.median(run[name] for run in runs):.2f}" for name in names))


if __name__ == "__main__":
    main()
