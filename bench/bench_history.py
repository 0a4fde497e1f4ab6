"""What a run reads of the runs before it, against how many there are: 1, 10, 100, 300 runs.

    .venv/bin/python bench/bench_history.py [--runs 1 10 100 300] [--repeat 5]

A home's instance (Dagster's SQLite storage, as `nabahan eval` opens it) is given N past runs of
one agent: each the materializations a run records, with metadata of their real sizes (the
summary's settings and not-Correct table, case_scores' preview and schema, the charts' dashboard
as a 150 kB data URI). Then what a run reads of that history, in this process, CPU of each
(median of ``--repeat``):

- the trend (``history.summary_history``: the series' last 30 summaries);
- the compared run (``history.previous_archive``: the latest earlier case_scores of the series);
- pruning (``ParquetIOManager._prune_partition``, once per table a run writes: four of them);
- this run's files (what evaluation_report_page reads: the materializations since the run began).

Before issue 40 pruning read every materialization of the agent (twice more for the labelled
runs past ``keep_history``) and the report page read the charts' last 100 materializations; a
run's cost grew with the history. The figure: each part's CPU at N runs over its CPU at 10.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import dagster as dg
from eval_runs import median_time

from nabahan_pipeline.api import open_instance
from nabahan_pipeline.orchestration.history import materializations, previous_archive, series_metadata, summary_history
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager

AGENT = "embedded"
SERIES = series_metadata("suite-0123456789ab", "embedded", "a label")
DASHBOARD = "![Evaluation dashboard](data:image/png;base64," + "A" * 150_000 + ")"
TABLES = ("test_cases", "agent_responses", "case_scores", "evaluation_summary")


def past_run(instance: dg.DagsterInstance, n: int, archive: Path) -> None:
    """The materializations of one past run, metadata of their real sizes (no run record: runless)."""
    common = {"archive_path": dg.MetadataValue.path(str(archive / f"run{n}.parquet")),
              "preview": dg.MetadataValue.md("| a | b |\n|---|---|\n" + "| cell text | more text |\n" * 10)}
    metadata = {
        "test_cases": common,
        "agent_responses": common,
        "case_scores": {**common, **SERIES, "passed": 20, "failed": 0, "correct": 20},
        "evaluation_summary": {**common, **SERIES, "verdict": "Correct 100.0% (83.9-100.0)", "correct_rate": 1.0,
                               "pass_rate": 1.0, "execution_accuracy": 1.0, "p95_latency": 0.01,
                               "settings": dg.MetadataValue.json({f"option_{i}": i for i in range(40)}),
                               "not_correct": dg.MetadataValue.md("none")},
        "evaluation_charts": {"dashboard": dg.MetadataValue.md(DASHBOARD),
                              **{f"chart_{i}.png": dg.MetadataValue.path(f"/charts/{n}/{i}.png") for i in range(8)}},
    }
    for asset, values in metadata.items():
        instance.report_runless_asset_event(dg.AssetMaterialization(asset, partition=AGENT, metadata=values))


# Pruning before issue 40 read these too (the labelled runs) once a table had more than keep_history.
LABELLED = ("case_scores", "evaluation_summary")


def every_materialization(instance: dg.DagsterInstance, asset: str) -> int:
    """Every materialization of ``asset`` in the agent's partition, as pruning read them before."""
    count, cursor = 0, None
    records_filter = dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[AGENT])
    while True:
        page = instance.fetch_materializations(records_filter, limit=500, cursor=cursor)
        count += len(page.records)
        if not page.has_more:
            return count
        cursor = page.cursor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[1, 10, 100, 300])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    figures: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "history"
        folder.mkdir()
        io_manager = ParquetIOManager(base_dir=scratch)
        with open_instance(Path(scratch) / "home") as instance:  # as `nabahan eval` opens it
            instance.add_dynamic_partitions("agents", [AGENT])
            made = 0
            for runs in sorted(args.runs):
                while made < runs:
                    past_run(instance, made, folder)
                    made += 1
                now = time.time()
                parts = {
                    "trend": lambda: summary_history(instance, series=SERIES, partition=AGENT),
                    "compared run": lambda: previous_archive(instance, "case_scores", "this-run", series=SERIES,
                                                             partition=AGENT),
                    "pruning x4": lambda: [io_manager._prune_partition(instance, dg.AssetKey(table), AGENT, folder)
                                           for table in TABLES],
                    "this run's files": lambda: list(materializations(
                        instance, "evaluation_charts", partition=AGENT, most=100, after_timestamp=now)),
                }
                before = {  # what issue 40 replaced, read the way it read
                    "before: pruning x4": lambda: [every_materialization(instance, asset)
                                                   for table in TABLES for asset in (table, *LABELLED)],
                    "before: this run's files": lambda: instance.fetch_materializations(
                        dg.AssetRecordsFilter(asset_key=dg.AssetKey("evaluation_charts"), asset_partitions=[AGENT]),
                        limit=100),
                }
                figures[runs] = {name: median_time(args.repeat, work, time.process_time)
                                 for name, work in {**parts, **before}.items()}
                row = "  ".join(f"{name} {1000 * seconds:.1f} ms" for name, seconds in figures[runs].items())
                print(f"{runs:4d} runs: {row}", flush=True)
    base = figures.get(10)
    if base:
        for runs, parts in figures.items():
            ratios = "  ".join(f"{name} {parts[name] / max(base[name], 1e-6):5.2f}" for name in parts)
            print(f"{runs:4d} runs / 10: {ratios}")


if __name__ == "__main__":
    main()
