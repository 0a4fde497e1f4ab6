"""Past runs, read from the Dagster instance's materialization records."""

from __future__ import annotations

import dagster as dg
import pandas as pd

TREND_FIGURES = ("pass_rate", "execution_accuracy", "p95_latency")


def latest_materializations(
    instance: dg.DagsterInstance, asset: str, limit: int
) -> list[tuple[str, float, dg.AssetMaterialization]]:
    """The asset's last ``limit`` materializations, newest first, as (run id, timestamp, event)."""
    result = instance.fetch_materializations(dg.AssetKey(asset), limit=limit)
    return [(record.run_id, record.timestamp, record.asset_materialization) for record in result.records]


def summary_history(instance: dg.DagsterInstance, limit: int = 30) -> pd.DataFrame:
    """One row per past evaluation_summary, oldest first: run_label, timestamp and trend figures."""
    rows = []
    for run_id, timestamp, materialization in latest_materializations(instance, "evaluation_summary", limit):
        metadata = materialization.metadata
        row = {
            "run_label": run_id[:8],
            "timestamp": pd.Timestamp(timestamp, unit="s", tz="UTC").isoformat(),
        }
        for name in TREND_FIGURES:
            value = metadata.get(name)
            row[name] = float(value.value) if value is not None else float("nan")
        rows.append(row)
    return pd.DataFrame(rows[::-1], columns=["run_label", "timestamp", *TREND_FIGURES])


def previous_archive(instance: dg.DagsterInstance, asset: str, current_run_id: str) -> str | None:
    """The archived Parquet path of the asset's latest materialization before this run, if any."""
    for run_id, _, materialization in latest_materializations(instance, asset, limit=10):
        if run_id == current_run_id:
            continue
        archive = materialization.metadata.get("archive_path")
        return str(archive.value) if archive is not None else None
    return None
