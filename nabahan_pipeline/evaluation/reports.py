"""The CSV reports: the seed's two, in its names, columns and labels (the console is ``console``),
and ours of wrong answers counted by where they go wrong (``error_location``).

CSV files are UTF-8 with a byte-order mark so that Excel shows Arabic, are written atomically,
never over another run's files, and hold no cell a spreadsheet would run as a formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd

from nabahan_pipeline.escaping import csv_safe
from nabahan_pipeline.evaluation.error_location import location_counts
from nabahan_pipeline.evaluation.scoring.claims import readable
from nabahan_pipeline.files import NameTakenError, atomic_open, remove_stale_temporaries

# The seed's columns, in its order, then ours.
RESULT_COLUMNS: dict[str, str] = {
    "query_num": "Query #",
    "timestamp": "Timestamp",
    "question": "Question",
    "category": "Category",
    "expected_table": "Expected Table",
    "status": "Status",
    "sql": "SQL Generated",
    "data_rows": "Data Rows",
    "insights": "Insights",
    "retrieval_accuracy": "Retrieval Accuracy",
    "generation_fidelity": "Generation Fidelity",
    "latency_s": "Latency (s)",
    "overall_passed": "Overall Passed",
    # ours
    "correct": "Correct",
    "not_correct_because": "Why Not Correct",
    "judge_verdict": "Judge Verdict",
    "judge_reason": "Judge Reason",
    "error_location": "Error Location",
    "case_id": "Case ID",
    "repeat": "Repeat",
    "execution_match": "Execution Match",
    "test_suite_match": "Test Suite Match",
    "unsafe_sql": "Unsafe SQL",
    "rows_verified": "Rows Verified",
    "sql_problem": "SQL Problem",
    "dialect": "SQL Dialect",
    "latency_tier": "Latency Tier",
    "latency_score": "Latency Score",
    "retrieval_points": "Retrieval Points",
    "fidelity_points": "Fidelity Points",
    "sql_valid": "SQL Valid",
    "table_match": "Table Match",
    "has_rows": "Has Rows",
    "status_match": "Status Match",
    "arabic_text": "Arabic Text",
    "numbers_present": "Numbers Present",
    "no_hallucination": "No Hallucination",
    "ungrounded_numbers": "Ungrounded Numbers",
    "hallucination_markers": "Hallucination Markers",
    "claims_checked": "Claims Checked",
    "claims_contradicted": "Claims Contradicted",
    "claim_details": "Claims",
    "false_refusal": "False Refusal",
    "false_answer": "False Answer",
    "error": "Error",
    "cached": "Cached",
    "repeat_pass_share": "Repeat Pass Share",
    "distinct_sql": "Distinct SQL",
    "distinct_results": "Distinct Results",
    "prompt_tokens": "Prompt Tokens",
    "completion_tokens": "Completion Tokens",
}

SEED_COLUMNS = tuple(list(RESULT_COLUMNS.values())[:13])


def results_table(scores: pd.DataFrame) -> pd.DataFrame:
    """The per-case report: the seed's columns first, ours after; columns absent are skipped, as
    are the LLM judge's when no judge ran."""
    judged = "judge_reason" in scores.columns and scores["judge_reason"].notna().any()
    present = [column for column in RESULT_COLUMNS
               if column in scores.columns and (judged or not column.startswith("judge_"))]
    table = scores[present].rename(columns=RESULT_COLUMNS)
    if "Claims" in table:
        table["Claims"] = [readable(details) for details in table["Claims"]]
    if "Latency (s)" in table:
        table["Latency (s)"] = table["Latency (s)"].round(4)
    return table


def error_locations_table(scores: pd.DataFrame) -> pd.DataFrame:
    """Wrong answers counted by where they go wrong and category (Location, Category, Answers): an
    answer counts once under each clause its Error Location names."""
    return location_counts(scores).rename(columns={"location": "Location", "category": "Category",
                                                   "answers": "Answers"})


def format_pct(fraction: float | None) -> str:
    """A fraction 0..1 as the seed writes it (reports, console, charts): ``0.8123 -> "81.2%"``;
    NaN or None -> ``"n/a"``."""
    if fraction is None or pd.isna(fraction):
        return "n/a"
    return f"{float(fraction) * 100:.1f}%"


def _secs(value: float) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.2f}"


def summary_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The `Metric,Value` report: the seed's rows in its words first, then ours, then one block
    per category. Total Queries counts cases; with --repeat, Total Answers counts answers. Each
    rate's 95 % interval follows it as "<Rate> Low" and "<Rate> High" (the seed's rates: after
    the seed's rows)."""
    overall = summary.iloc[0]
    answers = int(overall["total"])
    rows: list[tuple[str, str | int]] = [
        ("Total Queries", int(overall["cases"])),
        ("Passed", int(overall["passed"])),
        ("Failed", int(overall["failed"])),
        ("Pass Rate", format_pct(overall["pass_rate"])),
        ("Avg Retrieval Accuracy", format_pct(overall["avg_retrieval_accuracy"])),
        ("Avg Generation Fidelity", format_pct(overall["avg_generation_fidelity"])),
        ("Avg Latency (s)", _secs(overall["avg_latency"])),
        ("P50 Latency (s)", _secs(overall["p50_latency"])),
        ("P95 Latency (s)", _secs(overall["p95_latency"])),
        *_bound_rows(overall, "pass_rate", "Pass Rate"),
        *_bound_rows(overall, "avg_retrieval_accuracy", "Avg Retrieval Accuracy"),
        *_bound_rows(overall, "avg_generation_fidelity", "Avg Generation Fidelity"),
        ("Total Answers", answers),
        ("Correct", int(overall["correct"])),
        *_rate_rows(overall, "correct_rate", "Correct Rate"),
        *_rate_rows(overall, "execution_accuracy", "Execution Accuracy"),
        ("Execution Cases", int(overall["execution_cases"])),
        *_rate_rows(overall, "test_suite_accuracy", "Test Suite Accuracy"),
        ("Test Suite Cases", int(overall["test_suite_cases"])),
        ("Avg Latency Score", f"{overall['avg_latency_score']:.3f}"),
        ("Errors", int(overall["errors"])),
        ("Unsafe SQL", int(overall["unsafe_sql"])),
        ("Rows Not Verified", int(overall["rows_not_verified"])),
        ("False Refusals", int(overall["false_refusals"])),
        ("False Answers", int(overall["false_answers"])),
    ]
    rows.append(("Cached Answers", int(overall["cached_answers"])))
    if "judged" in summary.columns and int(overall["judged"]):
        rows += [("Judged Answers", int(overall["judged"])), *_rate_rows(overall, "judge_agreement", "Judge Agreement")]
    if "pass_hat_n" in summary.columns and not pd.isna(overall["pass_hat_n"]):
        rows += [("Pass^N (all repeats passed)", format_pct(overall["pass_hat_n"])),
                 *_bound_rows(overall, "pass_hat_n", "Pass^N")]
    if "total_tokens" in summary.columns and not pd.isna(overall["total_tokens"]):
        rows.append(("Total Tokens", int(overall["total_tokens"])))
    for _, category in summary.iloc[1:].iterrows():
        name = category["scope"]
        rows += [
            (f"[{name}] Total", int(category["total"])),
            (f"[{name}] Passed", int(category["passed"])),
            *_rate_rows(category, "pass_rate", f"[{name}] Pass Rate"),
            *_rate_rows(category, "correct_rate", f"[{name}] Correct Rate"),
            *_rate_rows(category, "execution_accuracy", f"[{name}] Execution Accuracy"),
            (f"[{name}] Avg Latency (s)", _secs(category["avg_latency"])),
        ]
    return pd.DataFrame(rows, columns=["Metric", "Value"])


def _rate_rows(row: pd.Series, rate: str, label: str) -> list[tuple[str, str]]:
    """``rate`` as a report row, its interval's two rows right after it."""
    return [(label, format_pct(row[rate])), *_bound_rows(row, rate, label)]


def _bound_rows(row: pd.Series, rate: str, label: str) -> list[tuple[str, str]]:
    """``rate``'s interval as two report rows, "<label> Low" and "<label> High"; none for a
    summary from before the intervals."""
    if f"{rate}_low" not in row.index:
        return []
    return [(f"{label} Low", format_pct(row[f"{rate}_low"])), (f"{label} High", format_pct(row[f"{rate}_high"]))]


def format_interval(row: pd.Series | dict, rate: str) -> str:
    """``rate``'s 95 % interval as the console and the charts show it, percentages without the
    sign: "(62.1-94.8)"; empty when the rate has none (NaN, or a summary from before them)."""
    low, high = row.get(f"{rate}_low"), row.get(f"{rate}_high")
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    return f"({float(low) * 100:.1f}-{float(high) * 100:.1f})"


def report_paths(output_dir: str | Path, stamp: str, attempt: int = 1) -> dict[str, Path]:
    """Where the CSV files of a run stamped ``stamp`` (YYYYMMDD_HHMMSS) go: the seed's names (and
    ours beside them), from the second ``attempt`` on with a suffix (``_2``) when another run took
    the same second."""
    out = Path(output_dir)
    suffix = f"_{attempt}" if attempt > 1 else ""
    return {
        "results_csv": out / f"evaluation_results_{stamp}{suffix}.csv",
        "summary_csv": out / f"evaluation_summary_{stamp}{suffix}.csv",
        "error_locations_csv": out / f"evaluation_error_locations_{stamp}{suffix}.csv",
    }


def write_reports(
    scores: pd.DataFrame, summary: pd.DataFrame, output_dir: str | Path, stamp: str
) -> dict[str, Path]:
    """Write the results, summary and error-location CSV files atomically under names no earlier or
    concurrent run holds (an existing report is never overwritten); return their paths."""
    tables = {"results_csv": results_table(scores), "summary_csv": summary_table(summary),
              "error_locations_csv": error_locations_table(scores)}
    return write_tables(tables, lambda attempt: report_paths(output_dir, stamp, attempt))


def write_tables(
    tables: Mapping[str, pd.DataFrame], paths: Callable[[int], Mapping[str, Path]]
) -> dict[str, Path]:
    """Write each table as CSV (UTF-8 with BOM, CRLF rows, no formula cells), atomically, at
    ``paths(attempt)[key]``: from the first attempt on, until every name of a set is free (an
    existing file is never overwritten); return the paths written."""
    for folder in {path.parent for path in paths(1).values()}:
        remove_stale_temporaries(folder)
    safe = {key: csv_safe(table) for key, table in tables.items()}
    attempt = 1
    while True:
        chosen = paths(attempt)
        written: list[Path] = []
        try:
            for key, table in safe.items():
                with atomic_open(chosen[key], "w", replace=False, encoding="utf-8-sig", newline="") as handle:
                    # CRLF rows (RFC 4180): a cell holding a lone CR is quoted, not split in two.
                    table.to_csv(handle, index=False, lineterminator="\r\n")
                written.append(chosen[key])
            return dict(chosen)
        except NameTakenError:
            for path in written:  # ours, claimed a moment ago: give the set a free name together
                path.unlink(missing_ok=True)
            attempt += 1
