"""Parquet through pyarrow, a copy per run (``history/<asset>/<run_id>.parquet``, read back by the
run's own downstream steps, so two runs never read each other's), the newest published beside it,
with the metadata the UI shows."""

from __future__ import annotations

import shutil
from itertools import islice
from pathlib import Path
from typing import Any, Optional

import dagster as dg
import pandas as pd

from nabahan_pipeline.escaping import markdown_table
from nabahan_pipeline.evaluation.not_correct import case_scores_preview
from nabahan_pipeline.files import atomic_path, remove_stale_temporaries
from nabahan_pipeline.orchestration.history import labelled_runs, materializations
from nabahan_pipeline.settings import parquet_dir

PREVIEW_ROWS = 10
PREVIEW_CELL_CHARS = 60
# A column holding a text this long (an answer's rows near the byte cap) is written plain, without
# min/max statistics: its dictionary page and its statistics would each hold another copy of the
# text while it is written, and the dictionary another while it is read (bench/README.md).
LONG_TEXT_CHARS = 1 << 20
# How many runs past an agent's keep_history a run looks at to prune (the one its own run pushed
# out, and those of runs that ended before they pruned).
PRUNE_SLACK = 10


class ParquetIOManager(dg.ConfigurableIOManager):
    """Stores DataFrames as Parquet under ``base_dir`` (default: $NABAHAN_PARQUET_DIR, else
    $NABAHAN_HOME/parquet, resolved when a run reads or writes)."""

    base_dir: Optional[str] = None
    keep_history: int = 50

    def _root(self) -> Path:
        return parquet_dir(self.base_dir)

    def _path(self, asset_key: dg.AssetKey) -> Path:
        return self._root() / f"{'/'.join(asset_key.path)}.parquet"

    def _run_copy(self, asset_key: dg.AssetKey, run_id: str) -> Path:
        return self._root() / "history" / "/".join(asset_key.path) / f"{run_id}.parquet"

    def handle_output(self, context: dg.OutputContext, obj: pd.DataFrame) -> None:
        """Write this run's copy of the table, publish it as the latest, and describe it in metadata."""
        if not isinstance(obj, pd.DataFrame):
            raise TypeError(f"{context.asset_key.to_user_string()} must be a DataFrame, got {type(obj).__name__}")
        path = self._path(context.asset_key)
        archive = self._run_copy(context.asset_key, context.run_id)
        for folder in (path.parent, archive.parent):
            remove_stale_temporaries(folder)
        with atomic_path(archive) as tmp:
            obj.to_parquet(tmp, engine="pyarrow", index=False, **parquet_options(obj))
        with atomic_path(path) as tmp:
            shutil.copyfile(archive, tmp)  # streamed: the file is never held whole
        partition = _partition(context)
        if partition is None:
            self._prune(archive.parent)
        else:
            self._prune_partition(context.step_context.instance, context.asset_key, partition, archive.parent)
        context.add_output_metadata(
            {
                # This run's copy: the published one is the next run's (another agent's) once it writes.
                "path": dg.MetadataValue.path(str(archive)),
                "archive_path": dg.MetadataValue.path(str(archive)),
                "dagster/row_count": len(obj),
                "dagster/column_schema": table_schema(obj, context.dagster_type),
                "preview": dg.MetadataValue.md(markdown_preview(_previewed(context.asset_key, obj))),
            }
        )

    def load_input(self, context: dg.InputContext) -> pd.DataFrame:
        """Read the table this run wrote, else its latest materialization's copy (of the same partition)."""
        key = context.asset_key
        partition = _partition(context)
        own = self._run_copy(key, context.step_context.run_id)
        if own.exists():
            return pd.read_parquet(own, engine="pyarrow")
        records_filter = dg.AssetRecordsFilter(asset_key=key, asset_partitions=[partition] if partition else None)
        records = context.instance.fetch_materializations(records_filter, limit=1).records
        latest = records[0].asset_materialization if records else None
        archive = latest.metadata.get("archive_path") if latest is not None else None
        if archive is not None and Path(str(archive.value)).exists():
            return pd.read_parquet(str(archive.value), engine="pyarrow")
        path = self._path(key)
        if partition is not None or not path.exists():
            what = f"{key.to_user_string()} of agent {partition!r}" if partition else key.to_user_string()
            raise FileNotFoundError(
                f"{what} has not been materialized under {self._root()} yet; "
                "materialize it (or the whole group) first"
            )
        return pd.read_parquet(path, engine="pyarrow")

    def _prune(self, folder: Path) -> None:
        """An unpartitioned table (the case file's, shared by every agent): its newest copies."""
        archives = sorted(folder.glob("*.parquet"), key=lambda p: p.stat().st_mtime)
        for old in archives[: max(0, len(archives) - self.keep_history)]:
            old.unlink(missing_ok=True)

    def _prune_partition(self, instance: dg.DagsterInstance, key: dg.AssetKey, partition: str, folder: Path) -> None:
        """An agent's copies beyond its ``keep_history`` newest runs removed, but a labelled run's
        (``--baseline LABEL`` must find its scores). Only the ``PRUNE_SLACK`` runs past the kept
        ones are looked at: every run prunes, so older copies are gone already (those of runs
        killed before they pruned among them), and a run's cost does not grow with the history."""
        kept = max(0, self.keep_history - 1)  # this run's copy is the newest, not yet recorded
        window = kept + PRUNE_SLACK
        older = [(run_id, Path(str(archive.value))) for run_id, _, materialization
                 in islice(materializations(instance, key.to_user_string(), partition=partition, page=window,
                                            most=window), kept, None)
                 if (archive := materialization.metadata.get("archive_path")) is not None]
        older = [(run_id, path) for run_id, path in older if path.parent == folder and path.exists()]
        labelled = labelled_runs(instance, partition, window) if older else set()
        for run_id, path in older:
            if run_id not in labelled:
                path.unlink(missing_ok=True)


def _partition(context: dg.OutputContext | dg.InputContext) -> Optional[str]:
    return context.asset_partition_key if context.has_asset_partitions else None


def parquet_options(frame: pd.DataFrame) -> dict[str, Any]:
    """``pyarrow.parquet.write_table``'s options for ``frame``: its columns holding a text of
    ``LONG_TEXT_CHARS`` or more written with no dictionary and no statistics, the others as pyarrow
    writes them by default; {} when no column holds such a text."""
    long = {name for name in frame.columns
            if frame[name].dtype == object and _longest_text(frame[name]) >= LONG_TEXT_CHARS}
    if not long:
        return {}
    others = [str(name) for name in frame.columns if name not in long]
    return {"use_dictionary": others, "write_statistics": others}


def _longest_text(column: pd.Series) -> int:
    return max((len(value) for value in column if isinstance(value, str)), default=0)


def table_schema(frame: pd.DataFrame, dagster_type: Optional[dg.DagsterType] = None) -> dg.TableSchema:
    """The frame's columns as a Dagster table schema, with the pandera schema's descriptions and
    constraints (``evaluation.tables``) for the UI's Columns table."""
    declared = dagster_type.metadata.get("schema") if dagster_type is not None else None
    described = {column.name: column for column in declared.value.columns} if declared is not None else {}
    columns = []
    for name, dtype in frame.dtypes.items():
        column = described.get(str(name))
        columns.append(dg.TableColumn(name=str(name), type=str(dtype),
                                      description=column.description if column else None,
                                      constraints=column.constraints if column else None))
    return dg.TableSchema(columns=columns)


def markdown_preview(frame: pd.DataFrame, rows: int = PREVIEW_ROWS) -> str:
    """The first rows as a Markdown table, long cells cut, so the UI shows what is inside; the
    cells are literal text (an agent's HTML or links are shown, never rendered)."""
    return markdown_table(frame.head(rows), cell_chars=PREVIEW_CELL_CHARS)


def _previewed(key: dg.AssetKey, frame: pd.DataFrame) -> pd.DataFrame:
    """What a table's preview shows first: case_scores' failures and key columns
    (``evaluation.not_correct``); any other table as it is."""
    return case_scores_preview(frame) if key == dg.AssetKey("case_scores") else frame
