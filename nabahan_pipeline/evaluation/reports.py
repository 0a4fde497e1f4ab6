"""The CSV reports: the seed's two in its names, columns and labels, and the error locations'
counts. UTF-8 with a BOM (Excel shows Arabic), written atomically, never over another run's
files, no cell a spreadsheet would run as a formula."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from nabahan_pipeline.escaping import csv_safe
from nabahan_pipeline.evaluation.error_location import location_counts
from nabahan_pipeline.evaluation.formats import format_pct
from nabahan_pipeline.evaluation.scoring.case_scores import CASE_SCORES, DECLARED
from nabahan_pipeline.evaluation.scoring.claims import readable
from nabahan_pipeline.evaluation.summary import FIGURE, FIGURES, ReportRow, report_rows
from nabahan_pipeline.files import NameTakenError, atomic_open, remove_stale_temporaries

# The seed's columns, in its order; then, as earlier reports had them, ours that lead and ours that
# close the table. Each column's header is its declaration's (scoring.declare.Column); a column
# declared with a header but not named here comes between the two, in case_scores order.
SEED_RESULT_COLUMNS: tuple[str, ...] = (
    "query_num", "timestamp", "question", "category", "expected_table", "status", "sql", "data_rows", "insights",
    "retrieval_accuracy", "generation_fidelity", "latency_s", "overall_passed",
)
_LEAD: tuple[str, ...] = (
    "correct", "not_correct_because", "judge_verdict", "judge_reason", "error_location", "case_id", "repeat",
    "execution_match", "test_suite_match", "unsafe_sql", "rows_verified", "sql_problem", "dialect", "latency_tier",
    "latency_score", "retrieval_points", "fidelity_points",
)
_CLOSE: tuple[str, ...] = (
    "error", "cached", "repeat_pass_share", "distinct_sql", "distinct_results", "prompt_tokens", "completion_tokens",
)
_LISTED = {*SEED_RESULT_COLUMNS, *_LEAD, *_CLOSE}
RESULT_COLUMNS: dict[str, str] = {
    name: DECLARED[name].header
    for name in (*SEED_RESULT_COLUMNS, *_LEAD,
                 *(name for name in CASE_SCORES.columns if DECLARED[name].header and name not in _LISTED),
                 *_CLOSE)
}
SEED_COLUMNS = tuple(RESULT_COLUMNS[name] for name in SEED_RESULT_COLUMNS)


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


# The summary CSV: the seed's rows first, in its words (its rates' intervals after them); then ours,
# in the order earlier reports had them (a figure not named here follows them); then each category.
SEED_SUMMARY_ROWS: tuple[str, ...] = (
    "cases", "passed", "failed", "pass_rate", "avg_retrieval_accuracy", "avg_generation_fidelity", "avg_latency",
    "p50_latency", "p95_latency",
)
_OURS: tuple[str, ...] = (
    "total", "correct", "correct_rate", "execution_accuracy", "execution_cases", "test_suite_accuracy",
    "test_suite_cases", "avg_latency_score", "errors", "unsafe_sql", "rows_not_verified", "false_refusals",
    "false_answers", "cached_answers", "judged", "judge_agreement", "pass_hat_n", "total_tokens",
)
CATEGORY_SUMMARY_ROWS: tuple[str, ...] = (
    "total", "passed", "pass_rate", "correct_rate", "execution_accuracy", "avg_latency",
)
_OUR_FIGURES = tuple(FIGURE[key] for key in (*_OURS, *(f.key for f in FIGURES if f.key not in (*_OURS, *SEED_SUMMARY_ROWS)))
                     if FIGURE[key].report)


def summary_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The `Metric,Value` report: the seed's rows in its words first, then ours, then one block
    per category. Total Queries counts cases; with --repeat, Total Answers counts answers. Each
    rate's 95 % interval follows it as "<Rate> Low" and "<Rate> High" (the seed's rates: after
    the seed's rows); an optional figure (the judge's, pass^N, tokens) only when it has a value."""
    overall = summary.iloc[0]
    seed = report_rows(overall, [FIGURE[key] for key in SEED_SUMMARY_ROWS])
    rows: list[tuple[str, str | int]] = [(row.label, row.text()) for row in seed]
    rows += [bound for row in seed for bound in _bound_rows(row, row.label)]
    for row, figure in zip(report_rows(overall, _OUR_FIGURES), _OUR_FIGURES):
        if not figure.left_out(row.value):
            rows += [(row.label, row.text()), *_bound_rows(row, figure.label)]
    for _, category in summary.iloc[1:].iterrows():
        for row in report_rows(category, [FIGURE[key] for key in CATEGORY_SUMMARY_ROWS]):
            # A category's block names its answers "Total", not "Total Answers".
            label = f"[{category['scope']}] {'Total' if row.label == 'Total Answers' else row.label}"
            rows += [(label, row.text()), *_bound_rows(row, label)]
    return pd.DataFrame(rows, columns=["Metric", "Value"])


def _bound_rows(row: ReportRow, label: str) -> list[tuple[str, str]]:
    """A rate's interval as two report rows, "<label> Low" and "<label> High"; none for a figure
    without one, or a summary from before the intervals."""
    if row.low is None and row.high is None:
        return []
    return [(f"{label} Low", format_pct(row.low)), (f"{label} High", format_pct(row.high))]


def write_reports(
    scores: pd.DataFrame, summary: pd.DataFrame, output_dir: str | Path, stamp: str
) -> dict[str, Path]:
    """Write the results, summary and error-location CSV files atomically under names no earlier or
    concurrent run holds (an existing report is never overwritten); return their paths."""
    tables = {"results_csv": ("evaluation_results", results_table(scores)),
              "summary_csv": ("evaluation_summary", summary_table(summary)),
              "error_locations_csv": ("evaluation_error_locations", error_locations_table(scores))}
    return write_tables(tables, output_dir, stamp)


def write_tables(
    tables: Mapping[str, tuple[str, pd.DataFrame]], output_dir: str | Path, stamp: str
) -> dict[str, Path]:
    """Write each table (key -> (name, table)) as CSV (UTF-8 with BOM, CRLF rows, no formula
    cells), atomically, at ``<output_dir>/<name>_<stamp>.csv`` (stamp: YYYYMMDD_HHMMSS, the seed's
    names), from the second attempt on with a suffix (``_2``) until every name of the set is free
    (an existing file is never overwritten); return the paths written by key."""
    out = Path(output_dir)
    remove_stale_temporaries(out)
    safe = {key: (name, csv_safe(table)) for key, (name, table) in tables.items()}
    attempt = 1
    while True:
        suffix = f"_{attempt}" if attempt > 1 else ""
        written: dict[str, Path] = {}
        try:
            for key, (name, table) in safe.items():
                path = out / f"{name}_{stamp}{suffix}.csv"
                with atomic_open(path, "w", replace=False, encoding="utf-8-sig", newline="") as handle:
                    # CRLF rows (RFC 4180): a cell holding a lone CR is quoted, not split in two.
                    table.to_csv(handle, index=False, lineterminator="\r\n")
                written[key] = path
            return written
        except NameTakenError:
            for path in written.values():  # ours, claimed a moment ago: give the set a free name together
                path.unlink(missing_ok=True)
            attempt += 1
