"""The time from launching `nabahan eval` to its first question, and to its exit (issue 40).

    .venv/bin/python bench/bench_first_question.py [--trees TREE ...] [--repeat 3]

Runs `nabahan eval` as `make eval` does (the shipped cases, the embedded agent) in a process of
its own per run, in a home per tree that ran the suite once before (not counted: a warm run, its
gold results kept). The process reports its own CPU (all threads, ``time.process_time``) and wall
since it started at three moments: ``nabahan_pipeline.api`` imported, the reference agent's module
imported (it is imported before the first question in any case), the agent's first question asked,
and the exit. With several trees (``git archive REV | tar -x -C DIR``) the runs alternate, so that
each pair shares the machine's load; the median of each figure is printed per tree. CPU is the
figure to compare on a loaded machine. `make bench` runs it on this tree alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from eval_runs import scratch_folder, user_environment

# Runs in the measured process: `nabahan eval ARGS`, then one JSON line on stderr.
_DRIVER = r"""
import contextlib, io, json, os, sys, time

def since_start():
    ticks = os.sysconf("SC_CLK_TCK")
    start = int(open(f"/proc/{os.getpid()}/stat").read().rsplit(")", 1)[1].split()[19]) / ticks
    boot = time.time() - float(open("/proc/uptime").read().split()[0])
    return time.time() - (boot + start)

marks = {}
def mark(name):
    marks[name] = {"cpu": time.process_time(), "wall": since_start()}

import nabahan_pipeline.api
mark("api imported")
import nabahan_pipeline.reference_agent.agent as agent
mark("agent imported")
asked = agent.ReferenceAgent.ask
def ask(self, *args, **kwargs):
    if "first question" not in marks:
        mark("first question")
    return asked(self, *args, **kwargs)
agent.ReferenceAgent.ask = ask
from nabahan_pipeline.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
mark("exit")
print(json.dumps({"code": code, "marks": marks}), file=sys.stderr)
"""
MOMENTS = ("api imported", "agent imported", "first question", "exit")


def one_run(tree: Path, workdir: Path) -> dict:
    """One `nabahan eval` under ``tree``'s code in ``workdir`` (its home there, as a user's): its marks."""
    done = subprocess.run([sys.executable, "-c", _DRIVER, "eval", "--output-dir", str(workdir / "out")],
                          cwd=workdir, env=user_environment(workdir, PYTHONPATH=str(tree)),
                          capture_output=True, text=True, timeout=900)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    if report["code"] != 0:
        raise SystemExit(f"nabahan eval under {tree} exited {report['code']}: {done.stderr[-2000:]}")
    return report["marks"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[Path(__file__).resolve().parent.parent])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with scratch_folder("first-question-") as scratch:
        folders = {tree: scratch / f"tree{index}" for index, tree in enumerate(args.trees)}
        for tree, folder in folders.items():
            folder.mkdir()
            one_run(tree, folder)  # a first run: the home's gold results, not counted
        runs: dict[Path, list[dict]] = {tree: [] for tree in args.trees}
        for _ in range(args.repeat):
            for tree, folder in folders.items():
                runs[tree].append(one_run(tree, folder))
    load = os.getloadavg()[0]
    print(f"`nabahan eval` (shipped cases, embedded agent, warm home), median of {args.repeat}, load {load:.1f}")
    print(f"{'tree':40s} " + "  ".join(f"{moment:>22s}" for moment in MOMENTS))
    for tree, marks in runs.items():
        cells = []
        for moment in MOMENTS:
            cpu = statistics.median(run[moment]["cpu"] for run in marks)
            wall = statistics.median(run[moment]["wall"] for run in marks)
            cells.append(f"{cpu:6.2f} CPU {wall:6.2f} wall")
        print(f"{str(tree)[-40:]:40s} " + "  ".join(f"{cell:>22s}" for cell in cells))
        for run in marks:
            print(f"{'':40s} " + "  ".join(f"{run[m]['cpu']:6.2f} CPU {run[m]['wall']:6.2f} wall" for m in MOMENTS))


if __name__ == "__main__":
    main()
