"""Scale: `nabahan eval` over 1,000 and 10,000 cases (100,000 when asked) with an instant agent.

    .venv/bin/python bench/bench_scale.py [--sizes 1000 10000 100000] [--repeat 3]

Each run is the `nabahan` command in a subprocess, in a fresh temporary folder, as a user runs it
(charts on, cache off, every option at its default), with the instant agent
``python:instant_agent:answer`` so that nothing but our own work is timed: in its child process
(the default), or in ours with ``--in-process`` (how every figure before 2026-11-26 was measured). The cases are the
shipped suite repeated (``eval_runs.write_cases``), 17 in 20 with gold SQL, each copy distinct in
its question, its gold SQL and the instant agent's answer to it (as a real suite's cases are:
nothing kept by content serves two cases); ``--repeated`` makes the copies alike but for their ids
(the suite of the figures measured before 2026-11-23 19:45 UTC). Both suites are measured unless
``--suite`` names one; ``--without-gold-sql`` drops it (no gold SQL checked, no execution or test-suite match: a lighter run). Per size: the wall of each stage (from the
run's Dagster event log) and of the whole process, its CPU (user + system) per case and its peak
memory (ru_maxrss of that child, ``os.wait4``); with ``--repeat`` the run of median wall is shown.
Then the CPU per case at the margin (between the smallest and the largest size) and
time(largest)/time(smallest), against the targets of issue 14: <= 0.25 ms of CPU per case,
10,000 cases <= 5 s, 100,000 cases <= 30 s and <= 1.5 GiB.

``--profile FILE`` profiles one more run of the largest size (of the last suite measured) with cProfile (which sees the main
thread alone: the agent calls on the runner's threads are not in it, the rest of the run is),
writes the stats to FILE (for ``python -m pstats`` or snakeviz) and prints the top functions.
"""

from __future__ import annotations

import argparse
import pstats
from pathlib import Path

from eval_runs import (
    GIB,
    INSTANT_AGENT,
    ProcessRun,
    figure,
    nabahan_eval,
    print_stages,
    run_timeline,
    scratch_folder,
    write_cases,
)

CPU_PER_CASE_TARGET_MS = 0.25
SUITES = {
    "distinct": "each copy of the suite distinct (its own question, gold SQL and answer: a real suite)",
    "repeated": "the copies of the suite alike but for their ids (--repeated: the figures before 2026-11-23 19:45)",
}
WALL_TARGETS_S = {10_000: 5.0, 100_000: 30.0}
MEMORY_TARGETS_GIB = {100_000: 1.5}


def measure(n: int, repeat: int, gold_sql: bool = True, repeated: bool = False, agent: tuple[str, ...] = ()) -> ProcessRun:
    """``repeat`` runs of ``n`` cases, each in a fresh folder; the run of median wall, its stages printed."""
    runs = []
    for _ in range(repeat):
        with scratch_folder() as folder:
            cases = write_cases(folder / "cases.json", n, gold_sql=gold_sql, repeated=repeated)
            run = nabahan_eval(folder, *agent, "--test-file", str(cases))
            runs.append((run, run_timeline(folder / "home")))
    runs.sort(key=lambda pair: pair[0].wall_s)
    run, timeline = runs[len(runs) // 2]
    walls = ", ".join(f"{r.wall_s:.2f}" for r, _ in runs)
    print(f"\n{n:,} cases (walls of {repeat} run(s): {walls} s; the median run below)")
    print_stages(run, timeline)
    print(figure(f"{n:,} cases: whole process", run.wall_s, "s", WALL_TARGETS_S.get(n)))
    print(figure(f"{n:,} cases: CPU (user + system)", run.cpu_s, "s"))
    print(figure(f"{n:,} cases: CPU / cases", run.cpu_s / n * 1000, "ms"))
    print(figure(f"{n:,} cases: peak memory", run.max_rss_bytes / GIB, "GiB", MEMORY_TARGETS_GIB.get(n), digits=3))
    return run


def print_profile(path: Path, top: int = 20) -> None:
    """The functions of most own time, and our functions of most cumulative time."""
    stats = pstats.Stats(str(path)).stats  # (file, line, function) -> (calls, primitive, own, cumulative, callers)
    total = sum(own for _, _, own, _, _ in stats.values())
    print(f"\nprofile {path} (main thread, {total:.2f} s of own time in all)")

    def name(key: tuple) -> str:
        file, line, function = key
        return f"{Path(file).name}:{line} {function}" if line else function

    print("  most own time:")
    for key, (_, calls, own, cumulative, _) in sorted(stats.items(), key=lambda item: -item[1][2])[:top]:
        print(f"    {own:7.2f} s own {cumulative:7.2f} s cum {calls:>9,} calls  {name(key)}")
    print("  our functions, most cumulative time:")
    ours = [item for item in stats.items() if "nabahan_pipeline" in item[0][0]]
    for key, (_, calls, own, cumulative, _) in sorted(ours, key=lambda item: -item[1][3])[:top]:
        print(f"    {cumulative:7.2f} s cum {own:7.2f} s own {calls:>9,} calls  {name(key)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000], help="case counts (default 1000 10000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size; the median is shown (default 1)")
    parser.add_argument("--without-gold-sql", action="store_true", help="cases without expected_sql")
    parser.add_argument("--suite", choices=["both", "distinct", "repeated"], default="both",
                        help="each copy of the suite distinct, or alike but for their ids (--repeated), or both "
                             "(the default)")
    parser.add_argument("--repeated", action="store_true", help="the same as --suite repeated")
    parser.add_argument("--profile", type=Path, metavar="FILE", help="profile one more run of the largest size into FILE")
    parser.add_argument("--in-process", action="store_true", help="the instant agent in our process, not its child")
    args = parser.parse_args()
    agent = ("--agent", INSTANT_AGENT, *(["--in-process"] if args.in_process else []))
    if args.repeated:
        args.suite = "repeated"
    sizes = sorted(set(args.sizes))
    with scratch_folder() as folder:  # databases built if missing, files in the page cache
        warm = nabahan_eval(folder, *agent)
    print(f"warm-up: 20 cases in {warm.wall_s:.2f} s (not counted)")
    if args.without_gold_sql:
        print("cases without gold SQL")
    suites = ["distinct", "repeated"] if args.suite == "both" else [args.suite]
    margins = {}
    for suite in suites:
        print(f"\n=== {SUITES[suite]} ===")
        runs = {n: measure(n, max(1, args.repeat), gold_sql=not args.without_gold_sql, repeated=suite == "repeated", agent=agent)
                for n in sizes}
        if len(sizes) > 1:
            small, large = sizes[0], sizes[-1]
            print(f"\n{suite} suite, between {small:,} and {large:,} cases")
            margin_ms = margins[suite] = (runs[large].cpu_s - runs[small].cpu_s) / (large - small) * 1000
            print(figure("CPU per case at the margin", margin_ms, "ms", CPU_PER_CASE_TARGET_MS, digits=3))
            fixed = runs[small].cpu_s - margin_ms / 1000 * small
            print(figure("CPU fixed cost (extrapolated to 0 cases)", fixed, "s"))
            print(figure(f"time({large:,}) / time({small:,}) (wall)", runs[large].wall_s / runs[small].wall_s, "x"))
    if len(margins) > 1:
        print("\nCPU per case at the margin: " + ", ".join(f"{suite} {ms:.3f} ms" for suite, ms in margins.items()))
    args.repeated = args.suite == "repeated"
    if args.profile is not None:
        with scratch_folder() as folder:
            cases = write_cases(folder / "cases.json", sizes[-1], gold_sql=not args.without_gold_sql,
                                repeated=args.repeated)
            profile = args.profile.absolute()
            nabahan_eval(folder, *agent, "--test-file", str(cases),
                         python_flags=["-m", "cProfile", "-o", str(profile)])
        print_profile(profile)


if __name__ == "__main__":
    main()
