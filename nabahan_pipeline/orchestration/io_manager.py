"""Parquet materializations through pyarrow, with the metadata the Dagster UI shows.

Each output is written to ``<base_dir>/<asset>.parquet`` (what downstream assets read) and
archived to ``<base_dir>/history/<asset>/<run_id>.parquet``; the archive's path goes into the
materialization's metadata, so that a check can compare a run with the one before it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import dagster as dg
import pandas as pd

from nabahan_pipeline.files import atomic_path
from nabahan_pipeline.locations import parquet_dir

PREVIEW_ROWS = 10
PREVIEW_CELL_CHARS = 60


class ParquetIOManager(dg.ConfigurableIOManager):
    """Stores DataFrames as Parquet under ``base_dir`` (default: $NABAHAN_HOME/parquet)."""

    base_dir: Optional[str] = None
    keep_history: int = 50

    def _root(self) -> Path:
        return Path(self.base_dir).expanduser() if self.base_dir else parquet_dir()

    def _path(self, asset_key: dg.AssetKey) -> Path:
        return self._root() / f"{'/'.join(asset_key.path)}.parquet"

    def handle_output(self, context: dg.OutputContext, obj: pd.DataFrame) -> None:
        """Write the table (atomically), archive it for this run, and describe it in metadata."""
        if not isinstance(obj, pd.DataFrame):
            raise TypeError(f"{context.asset_key.to_user_string()} must be a DataFrame, got {type(obj).__name__}")
        path = self._path(context.asset_key)
        with atomic_path(path) as tmp:
            obj.to_parquet(tmp, engine="pyarrow", index=False)
        archive = self._root() / "history" / "/".join(context.asset_key.path) / f"{context.run_id}.parquet"
        archive.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(archive) as tmp:
            tmp.write_bytes(path.read_bytes())
        self._prune(archive.parent)
        context.add_output_metadata(
            {
                "path": dg.MetadataValue.path(str(path)),
                "archive_path": dg.MetadataValue.path(str(archive)),
                "dagster/row_count": len(obj),
                "dagster/column_schema": table_schema(obj),
                "preview": dg.MetadataValue.md(markdown_preview(obj)),
            }
        )

    def load_input(self, context: dg.InputContext) -> pd.DataFrame:
        """Read the latest materialization of the upstream asset."""
        path = self._path(context.asset_key)
        if not path.exists():
            raise FileNotFoundError(
                f"{context.asset_key.to_user_string()} has not been materialized under {self._root()} yet; "
                "materialize it (or the whole group) first"
            )
        return pd.read_parquet(path, engine="pyarrow")

    def _prune(self, folder: Path) -> None:
        archives = sorted(folder.glob("*.parquet"), key=lambda p: p.stat().st_mtime)
        for old in archives[: max(0, len(archives) - self.keep_history)]:
            old.unlink(missing_ok=True)


def table_schema(frame: pd.DataFrame) -> dg.TableSchema:
    """The frame's columns and dtypes as a Dagster table schema."""
    return dg.TableSchema(
        columns=[dg.TableColumn(name=str(name), type=str(dtype)) for name, dtype in frame.dtypes.items()]
    )


def markdown_preview(frame: pd.DataFrame, rows: int = PREVIEW_ROWS) -> str:
    """The first rows as a Markdown table, long cells cut, so the UI shows what is inside."""
    head = frame.head(rows).copy()
    for column in head.columns:
        if head[column].dtype == object or pd.api.types.is_string_dtype(head[column]):
            head[column] = head[column].map(_short_cell)
    return head.to_markdown(index=False)


def _short_cell(value: object) -> object:
    if isinstance(value, str):
        value = value.replace("\n", " ").replace("|", "\\|")
        if len(value) > PREVIEW_CELL_CHARS:
            return value[: PREVIEW_CELL_CHARS - 1] + "…"
    return value
