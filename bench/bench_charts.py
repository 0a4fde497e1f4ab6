"""Time the charts, wall and CPU: each chart (build + atomic PNG write) and render_charts as a whole.

    .venv/bin/python bench/bench_charts.py [--sizes 20 10000] [--runs 14] [--all-passed] [--out DIR]

Synthetic case_scores (nabahan_fixtures.synthetic) and the summary summarize makes of them.
``--all-passed`` renders a run like one against the reference agent instead (every case passed,
answers in milliseconds); ``--runs 1`` the first run (no trend yet), ``--runs 2`` the second.
Target: all eight charts for 10,000 cases in under ~10 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
from nabahan_pipeline.evaluation.charts.render import CHART_FILES, chart_builders, render_charts, save_figure
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import all_passed_scores, make_history, make_scores


def bench(n: int, out: Path, *, runs: int = 14, all_passed: bool = False) -> float:
    """Each chart, then render_charts of all eight; returns render_charts' CPU seconds."""
    scores = all_passed_scores(n) if all_passed else make_scores(n, seed=n)
    summary = summarize(scores)
    history = make_history(runs)
    builders = chart_builders(scores, summary, history, 0.8)
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
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"  {'render_charts (all eight)':<28} {total:6.2f} s {cpu:6.2f} s")
    t0 = time.perf_counter()
    md = dashboard_markdown(out / f"charts_{n}" / "evaluation_dashboard.png")
    print(f"  {'dashboard_markdown':<28} {time.perf_counter() - t0:6.2f} s  ({len(md) / 1000:.0f} KB)")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 10_000])
    parser.add_argument("--runs", type=int, default=14, help="runs in the trend history")
    parser.add_argument("--all-passed", action="store_true",
                        help="every case passed, latencies in milliseconds")
    parser.add_argument("--out", type=Path, default=None, help="keep the PNGs here")
    args = parser.parse_args()
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
