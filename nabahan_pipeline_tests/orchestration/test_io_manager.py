"""The Parquet IO manager: a table holding a text near the answer cap is written without the
copies a dictionary page and statistics make of it, and reads back as it was; an agent's old
copies pruned at a cost that does not grow with its history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg
import pandas as pd
import pyarrow.parquet as pq

from nabahan_pipeline.orchestration.io_manager import LONG_TEXT_CHARS, ParquetIOManager, parquet_options

LONG = "[[\"قيمة\", 1]]" * (LONG_TEXT_CHARS // 10)


def _responses() -> pd.DataFrame:
    return pd.DataFrame({"case_id": ["a", "b", "c"], "rows": [LONG, "[[1]]", None], "latency_s": [0.1, 0.2, 0.3]})


def _column_chunks(path: Path) -> dict[str, pq.ColumnChunkMetaData]:
    group = pq.ParquetFile(path).metadata.row_group(0)
    return {group.column(i).path_in_schema: group.column(i) for i in range(group.num_columns)}


def test_a_long_text_column_has_no_dictionary_and_no_statistics(tmp_path: Path) -> None:
    frame = _responses()
    others = ["case_id", "latency_s"]
    assert parquet_options(frame) == {"use_dictionary": others, "write_statistics": others}
    frame.to_parquet(tmp_path / "t.parquet", engine="pyarrow", index=False, **parquet_options(frame))
    chunks = _column_chunks(tmp_path / "t.parquet")
    assert not chunks["rows"].has_dictionary_page and not chunks["rows"].is_stats_set
    assert chunks["case_id"].has_dictionary_page and chunks["case_id"].is_stats_set
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), frame)


def test_short_texts_are_written_as_pyarrow_writes_them() -> None:
    assert parquet_options(pd.DataFrame({"rows": ["x" * (LONG_TEXT_CHARS - 1), None, 3]})) == {}
    assert parquet_options(pd.DataFrame({"n": [1, 2]})) == {}


def test_the_run_copy_and_the_published_table_hold_the_long_text(tmp_path: Path) -> None:
    @dg.asset
    def agent_responses() -> pd.DataFrame:
        return _responses()

    # An instance of its own, held for the call: the ephemeral default can be collected mid-run in a
    # worker where another test's instance came and went.
    with dg.instance_for_test() as instance:
        result = dg.materialize(
            [agent_responses], resources={"io_manager": ParquetIOManager(base_dir=str(tmp_path))}, instance=instance
        )
    archive = Path(str(result.asset_materializations_for_node("agent_responses")[0].metadata["path"].value))
    published = tmp_path / "agent_responses.parquet"
    assert archive.read_bytes() == published.read_bytes()
    assert not _column_chunks(published)["rows"].has_dictionary_page
    pd.testing.assert_frame_equal(pd.read_parquet(published), _responses())


def test_pruning_keeps_the_newest_and_reads_no_more_as_runs_pile_up(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Each run prunes what its own run pushed past keep_history, and reads the same number of
    records at its 15th run as at its 40th. (Runless materializations share one run id, so a
    labelled run's copy, kept, is test_checks' to show, with real runs.)"""
    folder = tmp_path / "history" / "case_scores"
    folder.mkdir(parents=True)
    manager = ParquetIOManager(base_dir=str(tmp_path), keep_history=3)
    instance = dg.DagsterInstance.ephemeral()
    read: list[int] = []
    fetch = instance.fetch_materializations

    def counted(*args: Any, **kwargs: Any) -> Any:
        result = fetch(*args, **kwargs)
        read[-1] += len(result.records)
        return result

    monkeypatch.setattr(instance, "fetch_materializations", counted)
    for n in range(40):
        archive = folder / f"run{n}.parquet"
        archive.write_bytes(b"scores")
        read.append(0)
        manager._prune_partition(instance, dg.AssetKey("case_scores"), "embedded", folder)
        instance.report_runless_asset_event(dg.AssetMaterialization(
            "case_scores", partition="embedded",
            metadata={"archive_path": dg.MetadataValue.path(str(archive)), "label_given": "no"}))
    assert sorted(path.name for path in folder.iterdir()) == ["run37.parquet", "run38.parquet", "run39.parquet"]
    assert read[15] == read[39] > 0
