"""The Parquet IO manager: a table holding a text near the answer cap is written without the
copies a dictionary page and statistics make of it, and reads back as it was."""

from __future__ import annotations

from pathlib import Path

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
