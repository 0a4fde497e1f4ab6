"""An LLM-like agent: `nabahan eval` over HTTP against a loopback agent that answers after 1 s.

    .venv/bin/python bench/bench_llm_agent.py [--cases 2000] [--latency-ms 1000] [--concurrency 32]
        [--repeat 1] [--trees TREE ...] [--warm-home]

With an LLM agent (about a second a call) the calls are the run: N cases at C in flight take at
least the ideal N*L/C (2,000 x 1 s / 32 = 62.5 s), and whatever we do besides (start-up, the case
file's check, scoring, reports, charts) should hide behind them or be small beside them. Issue 40's
target: ideal/wall >= 0.95 for the whole `nabahan eval` process.

The agent is bench/loopback_agent.js under Node (``bench_side_by_side.LoopbackAgent``); each run
is `nabahan eval` as a user runs it (``eval_runs``: a fresh folder and home, cache off, charts on,
the distinct suite with gold SQL). Printed per run and as medians: the wall, ideal/wall, the calls
alone as the agent saw them (first call in to last answer out), the time before the first call and
after the last answer, and the stages of the median run. ``--trees`` runs each tree's code
(a checkout, or ``git archive REV | tar -x -C DIR``), runs alternating so that they share the load.
``--warm-home``: each run's home has checked the same case file before (a user's second run of a
suite: the case-file check is run once in it, in a process of its own, before the run is timed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench_side_by_side import LoopbackAgent, call_window_s, check_complete
from eval_runs import (
    BENCH,
    REPO,
    figure,
    nabahan_eval,
    print_stages,
    responses_table,
    run_timeline,
    scratch_folder,
    user_environment,
    write_cases,
)

IDEAL_RATIO_TARGET = 0.95


# The case file checked and its gold results kept, as a run's test_cases step keeps them (a tree
# without the gold cache, before issue 40, only checks).
_CHECK = """
from nabahan_pipeline.orchestration.assets import checked_test_cases
from nabahan_pipeline.settings import resolve_run_settings
checked = checked_test_cases(resolve_run_settings())
if getattr(checked, "unkept_golds", None) is not None:
    from nabahan_pipeline.evaluation.gold_cache import store_golds
    store_golds(checked.unkept_golds, checked.golds)
"""


def warm_home(tree: Path, folder: Path, cases: Path) -> None:
    """Check ``cases`` once in the home of ``folder`` with ``tree``'s code, as an earlier run did."""
    env = user_environment(folder, PYTHONPATH=f"{tree}{os.pathsep}{BENCH}", NABAHAN_TEST_FILE=str(cases))
    subprocess.run([sys.executable, "-c", _CHECK], cwd=folder, env=env, check=True, stdin=subprocess.DEVNULL)


def one_run(tree: Path, folder: Path, cases: Path, agent: LoopbackAgent, concurrency: int, warm: bool = False) -> dict:
    """One `nabahan eval` with ``tree``'s code against ``agent``: its figures."""
    if warm:
        warm_home(tree, folder, cases)
    agent.reset()
    run = nabahan_eval(folder, "--agent", agent.url, "--test-file", str(cases), "--concurrency", str(concurrency),
                       PYTHONPATH=f"{tree}{os.pathsep}{BENCH}")
    stats = agent.stats()
    statuses = responses_table(folder / "home")["status"]
    check_complete("nabahan", stats, int((statuses != "error").sum()), len(statuses))
    calls = call_window_s(stats)
    # the agent's clock (ms since its epoch) and ours are apart: the time around the calls is the
    # wall less the calls, split by the run's own timeline (its start to the first call is start-up
    # and the case file's check; the rest follows the last answer)
    timeline = run_timeline(folder / "home")
    return {"run": run, "timeline": timeline, "wall": run.wall_s, "calls": calls, "around": run.wall_s - calls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2_000, help="N (default 2000)")
    parser.add_argument("--latency-ms", type=float, default=1_000.0, help="the agent's latency L (default 1000)")
    parser.add_argument("--concurrency", type=int, default=32, help="C, calls in flight (default 32)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tree, alternating (default 1)")
    parser.add_argument("--trees", type=Path, nargs="+", default=[REPO], help="the trees of the code (default: this one)")
    parser.add_argument("--warm-home", action="store_true", help="each run's home has checked the case file before")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("skipped: node is not on the PATH; the loopback agent (bench/loopback_agent.js) needs it")
        return
    n, concurrency = args.cases, args.concurrency
    ideal = n * args.latency_ms / 1000 / concurrency
    trees = [tree.resolve() for tree in args.trees]
    runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
    with scratch_folder() as folder, LoopbackAgent(node, args.latency_ms) as agent:
        cases = write_cases(folder / "cases.json", n)
        print(f"{n:,} cases x {args.latency_ms:g} ms at {concurrency} in flight: ideal N*L/C = {ideal:.2f} s")
        for index, tree in enumerate(trees):  # a warm-up each: databases built, page cache filled
            warm = folder / f"warm-{index}"
            warm.mkdir()
            one_run(tree, warm, write_cases(warm / "cases.json", 20), agent, concurrency)
        for round_ in range(max(1, args.repeat)):
            for index, tree in enumerate(trees):
                work = folder / f"run-{index}-{round_}"
                work.mkdir()
                result = one_run(tree, work, cases, agent, concurrency, args.warm_home)
                runs[tree].append(result)
                print(f"  {tree}: wall {result['wall']:.2f} s, ideal/wall {ideal / result['wall']:.3f}, "
                      f"calls alone {result['calls']:.2f} s, around them {result['around']:.2f} s")
    for tree in trees:
        done = sorted(runs[tree], key=lambda result: result["wall"])
        median = done[len(done) // 2]
        print(f"\n{tree} ({len(done)} run(s), the median shown)")
        print(figure("  wall", statistics.median(r["wall"] for r in done), "s"))
        print(figure("  ideal / wall", ideal / statistics.median(r["wall"] for r in done), "", IDEAL_RATIO_TARGET,
                     at_least=True))
        print(figure("  calls alone (agent: first in to last out)", statistics.median(r["calls"] for r in done), "s",
                     note=f"(ideal / it {ideal / statistics.median(r['calls'] for r in done):.3f})"))
        print(figure("  the rest of the process (wall - calls)", statistics.median(r["around"] for r in done), "s"))
        print("  where the median run's wall went:")
        print_stages(median["run"], median["timeline"], indent="    ")


if __name__ == "__main__":
    main()
