"""Past runs, read from the Dagster instance's materialization records.

Runs are compared only with runs of the same series: the same suite (its cases) and the same
agent (its spec), as recorded in the metadata of case_scores and evaluation_summary; or with a
baseline the user names (a run id, or its prefix, or a run's label).
"""

from __future__ import annotations

import dagster as dg
import pandas as pd

TREND_FIGURES = ("correct_rate", "pass_rate", "execution_accuracy", "p95_latency")
SERIES_KEYS = ("suite", "agent")


def latest_materializations(
    instance: dg.DagsterInstance, asset: str, limit: int
) -> list[tuple[str, float, dg.AssetMaterialization]]:
    """The asset's last ``limit`` materializations, newest first, as (run id, timestamp, event)."""
    result = instance.fetch_materializations(dg.AssetKey(asset), limit=limit)
    return [(record.run_id, record.timestamp, record.asset_materialization) for record in result.records]


def series_metadata(suite: str, agent: str, label: str) -> dict[str, str]:
    """The metadata that puts a materialization in its series (and names its run)."""
    return {"suite": suite, "agent": agent, "label": label}


def _value(materialization: dg.AssetMaterialization, key: str) -> object:
    entry = materialization.metadata.get(key)
    return entry.value if entry is not None else None


def _in_series(materialization: dg.AssetMaterialization, series: dict[str, str] | None) -> bool:
    return series is None or all(_value(materialization, key) == series.get(key) for key in SERIES_KEYS)


def summary_history(
    instance: dg.DagsterInstance, limit: int = 30, *, series: dict[str, str] | None = None
) -> pd.DataFrame:
    """One row per past evaluation_summary of the series, oldest first: run_label (date and the
    run's label), timestamp and trend figures."""
    rows = []
    for run_id, timestamp, materialization in latest_materializations(instance, "evaluation_summary", limit * 5):
        if not _in_series(materialization, series):
            continue
        moment = pd.Timestamp(timestamp, unit="s", tz="UTC")
        label = _value(materialization, "label") or run_id[:8]
        row = {"run_label": f"{moment:%m-%d %H:%M} {label}", "timestamp": moment.isoformat()}
        for name in TREND_FIGURES:
            value = _value(materialization, name)
            row[name] = float(value) if value is not None else float("nan")
        rows.append(row)
        if len(rows) == limit:
            break
    return pd.DataFrame(rows[::-1], columns=["run_label", "timestamp", *TREND_FIGURES])


def previous_archive(
    instance: dg.DagsterInstance,
    asset: str,
    current_run_id: str,
    *,
    series: dict[str, str] | None = None,
    baseline: str | None = None,
) -> str | None:
    """The archived Parquet path of the asset's materialization to compare this run with: the
    ``baseline`` run when one is named (run id, its prefix, or label), else the latest earlier run
    of the same series."""
    for run_id, _, materialization in latest_materializations(instance, asset, limit=200):
        if run_id == current_run_id:
            continue
        if baseline:
            if not (run_id.startswith(baseline) or _value(materialization, "label") == baseline):
                continue
        elif not _in_series(materialization, series):
            continue
        archive = _value(materialization, "archive_path")
        return str(archive) if archive is not None else None
    return None
