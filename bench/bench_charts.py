"""Time the charts, wall and CPU: each chart (build + atomic PNG write) and render_charts as a whole.

    .venv/bin/python bench/bench_charts.py [--sizes 20 10000] [--runs 14] [--all-passed] [--out DIR]
    .venv/bin/python bench/bench_charts.py --workers 1 2 [--sizes 2000] [--repeat 3]

``--workers``: the whole drawing step as a run meets it, in a fresh process per measure (the chart
modules and matplotlib imported, then ``render_charts(workers=W)``: W = 1 in that process, one chart
after another; W > 1 in a forkserver process pool), alternating the worker counts, medians shown,
and the PNGs of each count compared byte for byte with those of the first.

Synthetic case_scores (nabahan_fixtures.synthetic) and the summary summarize makes of them.
``--all-passed`` renders a run like one against the reference agent instead (every case passed,
answers in milliseconds); ``--runs 1`` the first run (no trend yet), ``--runs 2`` the second.
Target: all seven charts for 10,000 cases in under ~10 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import all_passed_scores, make_history, make_scores


def bench(n: int, out: Path, *, runs: int = 14, all_passed: bool = False) -> float:
    # Imported here: the --draw processes time the import of the chart modules with the drawing.
    from nabahan_pipeline.evaluation.charts.categories import plot_category_breakdown
    from nabahan_pipeline.evaluation.charts.dashboard import plot_dashboard
    from nabahan_pipeline.evaluation.charts.detailed_results import plot_detailed_results
    from nabahan_pipeline.evaluation.charts.latency import plot_latency_analysis
    from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
    from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
    from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
    from nabahan_pipeline.evaluation.charts.render import CHART_FILES, render_charts, save_figure
    from nabahan_pipeline.evaluation.charts.trend import plot_pass_rate_trend
    scores = all_passed_scores(n) if all_passed else make_scores(n, seed=n)
    summary = summarize(scores)
    history = make_history(runs)
    builders = {
        "metrics_overview.png": lambda: plot_metrics_overview(summary),
        "pass_fail_distribution.png": lambda: plot_pass_fail_distribution(summary),
        "latency_analysis.png": lambda: plot_latency_analysis(scores),
        "category_breakdown.png": lambda: plot_category_breakdown(summary),
        "detailed_results.png": lambda: plot_detailed_results(scores),
        "evaluation_dashboard.png": lambda: plot_dashboard(scores, summary, history=history),
        "pass_rate_trend.png": lambda: plot_pass_rate_trend(history),
    }
    print(f"\n{n:,} cases ({len(scores):,} score rows)   wall, CPU")
    per_chart = per_chart_cpu = 0.0
    for name in CHART_FILES:
        t0, c0 = time.perf_counter(), time.process_time()
        save_figure(builders[name](), out / f"each_{n}" / name)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        per_chart += dt
        per_chart_cpu += dc
        print(f"  {name:<28} {dt:6.2f} s {dc:6.2f} s")
    print(f"  {'sum of the above':<28} {per_chart:6.2f} s {per_chart_cpu:6.2f} s")
    t0, c0 = time.perf_counter(), time.process_time()
    render_charts(scores, summary, out / f"charts_{n}", history=history)
    total = time.perf_counter() - t0
    print(f"  {'render_charts (all seven)':<28} {total:6.2f} s {time.process_time() - c0:6.2f} s")
    t0 = time.perf_counter()
    md = dashboard_markdown(out / f"charts_{n}" / "evaluation_dashboard.png")
    print(f"  {'dashboard_markdown':<28} {time.perf_counter() - t0:6.2f} s  ({len(md) / 1000:.0f} KB)")
    return total


def drawing_step(n: int, workers: int, out: Path) -> None:
    """In a fresh process: the data made first (not timed), then the chart modules imported and
    ``render_charts`` with ``workers``; prints JSON: wall, this process's CPU, each PNG's sha256."""
    scores = make_scores(n, seed=n)
    summary = summarize(scores)
    history = make_history(14)
    t0, c0 = time.perf_counter(), time.process_time()
    from nabahan_pipeline.evaluation.charts.render import render_charts as render  # noqa: PLC0415

    paths = render(scores, summary, out, history=history, workers=workers)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    digests = {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in paths.items()}
    print(json.dumps({"wall": wall, "cpu": cpu, "png": digests}))


def compare_workers(sizes: list[int], counts: list[int], repeat: int) -> None:
    """The drawing step with each worker count, each measure in a fresh process, alternating."""
    for n in sizes:
        walls: dict[int, list[float]] = {count: [] for count in counts}
        cpus: dict[int, list[float]] = {count: [] for count in counts}
        pngs: dict[int, dict] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for index in range(repeat):
                for count in counts:
                    done = subprocess.run(
                        [sys.executable, __file__, "--draw", str(n), str(count), str(Path(tmp) / f"{count}-{index}")],
                        capture_output=True, text=True, check=True)
                    figures = json.loads(done.stdout.strip().splitlines()[-1])
                    walls[count].append(figures["wall"])
                    cpus[count].append(figures["cpu"])
                    pngs[count] = figures["png"]
        print(f"\n{n:,} cases: the drawing step (imports + render_charts), {repeat} run(s) each, medians")
        for count in counts:
            same = "identical PNGs" if pngs[count] == pngs[counts[0]] else "PNGs DIFFER"
            print(f"  workers={count}: wall {statistics.median(walls[count]):6.2f} s "
                  f"(runs {', '.join(f'{w:.2f}' for w in walls[count])}), "
                  f"CPU of the run's process {statistics.median(cpus[count]):6.2f} s, {same}")
        if len(counts) > 1:
            base = statistics.median(walls[counts[0]])
            for count in counts[1:]:
                print(f"  wall workers={counts[0]} / workers={count}: {base / statistics.median(walls[count]):.2f}")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--draw":
        warnings.simplefilter("error")
        return drawing_step(int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 10_000])
    parser.add_argument("--workers", type=int, nargs="+", help="compare the drawing step with these worker counts")
    parser.add_argument("--repeat", type=int, default=3, help="with --workers: runs of each count (default 3)")
    parser.add_argument("--runs", type=int, default=14, help="runs in the trend history")
    parser.add_argument("--all-passed", action="store_true",
                        help="every case passed, latencies in milliseconds")
    parser.add_argument("--out", type=Path, default=None, help="keep the PNGs here")
    args = parser.parse_args()
    if args.workers:
        return compare_workers(args.sizes, args.workers, args.repeat)
    warnings.simplefilter("error")  # a missing glyph is a failure here too
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        t0 = time.perf_counter()
        for n in args.sizes:
            bench(n, out, runs=args.runs, all_passed=args.all_passed)
        print(f"\ntotal wall time {time.perf_counter() - t0:.2f} s")
        if args.out:
            print(f"PNGs under {out}")


if __name__ == "__main__":
    main()
