"""Past runs from the instance's materialization records, compared only within a series (an agent's
partition on the same suite; across partitions, the same suite and spec), or with a baseline the
user names (a run id, its prefix, or a label)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import dagster as dg
import pandas as pd

TREND_FIGURES = ("correct_rate", "pass_rate", "execution_accuracy", "p95_latency")
SERIES_KEYS = ("suite", "agent")
LABEL_GIVEN = "label_given"


def materializations(instance: dg.DagsterInstance, asset: str, *, partition: str | None = None, page: int = 10,
                     most: int | None = None, after_timestamp: float | None = None
                     ) -> Iterator[tuple[str, float, dg.AssetMaterialization]]:
    """The asset's materializations (of ``partition``; since ``after_timestamp``), newest first, as
    (run id, time, event), read a ``page`` at a time and at most ``most``: a caller that stops at
    the first it wants reads one page, however many runs the home holds."""
    records_filter = dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset),
                                           asset_partitions=[partition] if partition is not None else None,
                                           after_timestamp=after_timestamp)
    cursor, left = None, most
    while left is None or left > 0:
        size = page if left is None else min(page, left)
        result = instance.fetch_materializations(records_filter, limit=size, cursor=cursor)
        for record in result.records:
            yield record.run_id, record.timestamp, record.asset_materialization
        if left is not None:
            left -= len(result.records)
        if not result.has_more:
            return
        cursor = result.cursor


def latest_materializations(instance: dg.DagsterInstance, asset: str, limit: int, *,
                            partition: str | None = None) -> list[tuple[str, float, dg.AssetMaterialization]]:
    """The asset's last ``limit`` materializations (of ``partition``), newest first: (run id, time, event)."""
    return list(materializations(instance, asset, partition=partition, page=limit, most=limit))


def series_metadata(suite: str, agent: str, label: str, *, label_given: bool = False) -> dict[str, str]:
    """The metadata of a materialization's series and run (``label_given``: its history is never pruned)."""
    return {"suite": suite, "agent": agent, "label": label, LABEL_GIVEN: "yes" if label_given else "no"}


def labelled_runs(instance: dg.DagsterInstance, partition: str, newest: int) -> set[str]:
    """The runs among the ``newest`` of the agent's ``partition`` the user gave a label (``--label``):
    a baseline may name them."""
    return {run_id for asset in ("case_scores", "evaluation_summary")
            for run_id, _, materialization in materializations(instance, asset, partition=partition, page=newest,
                                                                most=newest)
            if _value(materialization, LABEL_GIVEN) == "yes"}


def _value(materialization: dg.AssetMaterialization, key: str) -> object:
    entry = materialization.metadata.get(key)
    return entry.value if entry is not None else None


def _in_series(materialization: dg.AssetMaterialization, series: dict[str, str] | None,
               partition: str | None = None) -> bool:
    # Within a partition the label is the agent: a new spec behind it continues its series.
    keys = ("suite",) if partition is not None else SERIES_KEYS
    return series is None or all(_value(materialization, key) == series.get(key) for key in keys)


def summary_history(instance: dg.DagsterInstance, limit: int = 30, *, series: dict[str, str] | None = None,
                    partition: str | None = None) -> pd.DataFrame:
    """One row per past evaluation_summary of the series (in the agent's ``partition``, when
    given), oldest first: run_label (date and the run's label), timestamp and trend figures."""
    rows = []
    summaries = materializations(instance, "evaluation_summary", partition=partition, page=limit, most=limit * 5)
    for run_id, timestamp, materialization in summaries:
        if not _in_series(materialization, series, partition):
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


def previous_archive(instance: dg.DagsterInstance, asset: str, current_run_id: str, *,
                     series: dict[str, str] | None = None, baseline: str | None = None,
                     partition: str | None = None) -> str | None:
    """The archived Parquet of the run to compare with: the ``baseline`` named (id, prefix or label;
    in ``partition`` first), else the latest earlier run of the series."""
    scopes = [partition, None] if baseline and partition is not None else [partition]
    for scope in scopes:
        for run_id, _, materialization in materializations(instance, asset, partition=scope, page=5, most=200):
            if run_id == current_run_id:
                continue
            if baseline:
                if not (run_id.startswith(baseline) or _value(materialization, "label") == baseline):
                    continue
            elif not _in_series(materialization, series, scope):
                continue
            archive = _value(materialization, "archive_path")
            return str(archive) if archive is not None else None
    return None


def latest_evaluations(instance: dg.DagsterInstance, labels: Sequence[str], *,
                       per_agent: int = 50) -> tuple[str | None, dict[str, dict[str, str]]]:
    """The newest evaluation of each agent in ``labels`` on the suite of the newest among them:
    (suite, {label: {"run_id", "case_scores", "evaluation_summary"}}); one without is left out."""
    found: dict[str, list[tuple[float, str, str, dict[str, str]]]] = {}
    for label in labels:
        scores = {run_id: m for run_id, _, m in latest_materializations(instance, "case_scores", per_agent, partition=label)}
        for run_id, timestamp, summary in latest_materializations(instance, "evaluation_summary", per_agent, partition=label):
            archives = {"case_scores": _value(scores[run_id], "archive_path") if run_id in scores else None,
                        "evaluation_summary": _value(summary, "archive_path")}
            suite = _value(summary, "suite")
            if suite is None or not all(archives.values()):
                continue
            paths = {"run_id": run_id, **{name: str(path) for name, path in archives.items()}}
            found.setdefault(label, []).append((timestamp, str(suite), run_id, paths))
    newest = max((runs[0] for runs in found.values()), key=lambda run: run[0], default=None)
    if newest is None:
        return None, {}
    suite = newest[1]
    on_suite = {label: [paths for _, run_suite, _, paths in found.get(label, []) if run_suite == suite]
                for label in labels}
    return suite, {label: runs[0] for label, runs in on_suite.items() if runs}
