"""The CSV reports: seed columns, BOM, atomic writes that leave the old file when writing fails."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.reports import SEED_COLUMNS, results_table, summary_table, write_reports
from nabahan_pipeline.files import atomic_open


def test_atomic_open_leaves_the_old_file_when_the_write_fails(tmp_path: Path):
    target = tmp_path / "report.csv"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_open(target, "w", encoding="utf-8") as handle:
        handle.write("half of the new")
        raise RuntimeError("disk full")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"], "no temporary file left behind"


def test_atomic_files_get_ordinary_permissions(tmp_path: Path):
    target = tmp_path / "report.csv"
    with atomic_open(target, "w", encoding="utf-8") as handle:
        handle.write("x")
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask


def scores() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "query_num": [1], "timestamp": ["2026-11-23T02:00:00+03:00"], "question": ["كم عدد المناقصات؟"],
            "category": ["count"], "expected_table": ["tenders_full_details"], "status": ["success"],
            "sql": ["SELECT COUNT(*) FROM tenders_full_details"], "data_rows": [1],
            "insights": ["بلغ عدد المناقصات 7 مناقصات."], "retrieval_accuracy": [1], "generation_fidelity": [1],
            "latency_s": [0.123456], "overall_passed": [True], "case_id": ["c1"], "execution_match": [1.0],
        }
    )


def summary() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"scope": scope, "cases": 1, "cached_answers": 0, "total": 1, "passed": 1, "failed": 0, "pass_rate": 1.0,
             "avg_retrieval_accuracy": 1.0, "avg_generation_fidelity": 1.0, "avg_latency_score": 1.0,
             "avg_latency": 0.1234, "p50_latency": 0.1234, "p95_latency": 0.1234,
             "execution_accuracy": 1.0, "execution_cases": 1, "errors": 0, "false_refusals": 0,
             "false_answers": 0, "correct": 1, "correct_rate": 1.0, "test_suite_accuracy": float("nan"),
             "test_suite_cases": 0, "unsafe_sql": 0, "rows_not_verified": 0}
            for scope in ("overall", "count")
        ]
    )


def test_results_have_the_seed_columns_first_then_ours():
    table = results_table(scores())
    assert tuple(table.columns[: len(SEED_COLUMNS)]) == SEED_COLUMNS
    assert list(table.columns[len(SEED_COLUMNS):]) == ["Case ID", "Execution Match"]
    assert table["Latency (s)"].iloc[0] == 0.1235


def test_summary_rows_seed_first_then_ours_then_categories():
    metrics = summary_table(summary())
    assert metrics["Metric"].tolist()[:9] == [
        "Total Queries", "Passed", "Failed", "Pass Rate", "Avg Retrieval Accuracy",
        "Avg Generation Fidelity", "Avg Latency (s)", "P50 Latency (s)", "P95 Latency (s)",
    ]
    values = dict(zip(metrics["Metric"], metrics["Value"]))
    assert values["Pass Rate"] == "100.0%" and values["Avg Latency (s)"] == "0.12"
    assert values["[count] Pass Rate"] == "100.0%"
    assert (values["Correct"], values["Correct Rate"], values["[count] Correct Rate"]) == (1, "100.0%", "100.0%")
    assert values["Test Suite Accuracy"] == "n/a"


def test_write_reports_names_and_bom(tmp_path: Path):
    paths = write_reports(scores(), summary(), tmp_path, "20261123_020000")
    assert paths["results_csv"].name == "evaluation_results_20261123_020000.csv"
    assert paths["summary_csv"].name == "evaluation_summary_20261123_020000.csv"
    raw = paths["results_csv"].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert "كم عدد المناقصات؟" in raw.decode("utf-8-sig")


@pytest.mark.faults
@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_no_cell_of_a_report_is_a_spreadsheet_formula(tmp_path: Path, start: str):
    hostile = scores().assign(
        question=[f"{start}HYPERLINK(\"http://evil.example\",\"كم\")"],
        insights=[f"{start}cmd|' /C calc'!A0"],
        sql=[f"{start}1+1"],
    )
    paths = write_reports(hostile, summary(), tmp_path, "20261123_020000")
    table = pd.read_csv(paths["results_csv"], encoding="utf-8-sig", dtype=str, keep_default_na=False)
    for column in ("Question", "Insights", "SQL Generated"):
        assert table[column].iloc[0].startswith("'" + start.strip()), (column, table[column].iloc[0])
    cells = [cell for row in table.itertuples(index=False) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert table["Latency (s)"].iloc[0] == "0.1235", "numbers are left as numbers"


def test_the_judges_columns_sit_beside_correct_only_when_a_judge_ran(tmp_path: Path):
    off = scores().assign(correct=[True], not_correct_because=[""], judge_verdict=[None], judge_reason=[None])
    assert "Judge Verdict" not in results_table(off) and "Judge Reason" not in results_table(off)
    hostile = "=HYPERLINK(\"http://evil.example\",\"ok\")"
    judged = off.assign(judge_verdict=["unsupported"], judge_reason=[hostile])
    table = results_table(judged)
    assert list(table.columns[len(SEED_COLUMNS):len(SEED_COLUMNS) + 4]) == [
        "Correct", "Why Not Correct", "Judge Verdict", "Judge Reason"]
    assert table["Correct"].iloc[0] == True  # noqa: E712  the judge never decides it
    written = summary().assign(judged=[1, 1], judge_agreement=[0.0, 0.0])
    paths = write_reports(judged, written, tmp_path, "20261123_020000")
    csv = pd.read_csv(paths["results_csv"], encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert csv["Judge Verdict"].iloc[0] == "unsupported" and csv["Judge Reason"].iloc[0] == "'" + hostile
    metrics = pd.read_csv(paths["summary_csv"], encoding="utf-8-sig", dtype=str)
    values = dict(zip(metrics["Metric"], metrics["Value"]))
    assert (values["Judged Answers"], values["Judge Agreement"]) == ("1", "0.0%")
    assert "Judge Agreement" not in summary_table(summary().assign(judged=[0, 0]))["Metric"].tolist()


@pytest.mark.faults
def test_a_report_name_taken_by_another_run_is_never_overwritten(tmp_path: Path):
    first = write_reports(scores(), summary(), tmp_path, "20261123_020000")
    kept = {key: path.read_bytes() for key, path in first.items()}
    second = write_reports(scores().assign(question=["سؤال آخر"]), summary(), tmp_path, "20261123_020000")
    assert second["results_csv"].name == "evaluation_results_20261123_020000_2.csv"
    assert second["summary_csv"].name == "evaluation_summary_20261123_020000_2.csv"
    assert {key: path.read_bytes() for key, path in first.items()} == kept
    assert "سؤال آخر" in second["results_csv"].read_text(encoding="utf-8-sig")


def test_the_pinned_evaluation_reports_as_it_did(tmp_path: Path):
    # Both CSV files, byte for byte (after the BOM), as the code wrote them before it was made fast.
    import json

    from nabahan_pipeline_tests.evaluation.scoring import pinned

    expected = json.loads(pinned.PINNED.read_text(encoding="utf-8"))
    now = pinned.scored(tmp_path)
    assert now["results_csv"].splitlines() == expected["results_csv"].splitlines()
    assert now["summary_csv"] == expected["summary_csv"]
