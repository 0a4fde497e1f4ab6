"""case_scores -> ``evaluation_summary``: an overall row, then one per category, each figure as its
scorer declares it (``scoring.declare.Figure``); every answer counts once, and every rate has
its 95 % interval beside it (``intervals``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import non_text_dtypes
from nabahan_pipeline.evaluation.case_table import CATEGORIES
from nabahan_pipeline.evaluation.formats import format_rate, format_value
from nabahan_pipeline.evaluation.intervals import rate_interval
from nabahan_pipeline.evaluation.scoring import consistency
from nabahan_pipeline.evaluation.scoring.case_scores import SCORERS
from nabahan_pipeline.evaluation.scoring.declare import Figure, Kind


def _token_total(scores: pd.DataFrame) -> float:
    if "prompt_tokens" not in scores.columns:
        return math.nan
    tokens = scores[["prompt_tokens", "completion_tokens"]].astype(float)
    return float(tokens.sum().sum()) if tokens.notna().any().any() else math.nan


# The figures of the answers themselves, not of a scorer's columns.
ANSWER_FIGURES: tuple[Figure, ...] = (
    Figure("cases", "Total Queries", "count", "Distinct cases (the seed's Total Queries).",
           lambda scores: int(scores["case_id"].nunique()) if "case_id" in scores else len(scores)),
    Figure("total", "Total Answers", "count", "Answers: cases x repeats.", len, trend=True),
    Figure("errors", "Errors", "count", "Error answers.", lambda scores: int((scores["status"] == "error").sum()),
           trend=True),
    Figure("cached_answers", "Cached Answers", "count", "Answers reused from the response cache.",
           lambda scores: int(scores["cached"].astype(bool).sum()) if "cached" in scores else 0),
    Figure("total_tokens", "Total Tokens", "tokens", "Prompt + completion tokens; NaN when the agent reports none.",
           _token_total, trend=True, optional=True),
)
# The summary's column order, as earlier runs stored it (their Parquet files, the UI's metadata); a
# figure declared but not named here follows the named ones, in SCORERS order.
LAYOUT: tuple[str, ...] = (
    "cases", "total", "passed", "failed", "pass_rate", "correct", "correct_rate", "avg_retrieval_accuracy",
    "avg_generation_fidelity", "avg_latency_score", "avg_latency", "p50_latency", "p95_latency",
    "execution_accuracy", "execution_cases", "test_suite_accuracy", "test_suite_cases", "errors", "unsafe_sql",
    "rows_not_verified", "false_refusals", "false_answers", "cached_answers", "repeats", "pass_hat_n",
    "total_tokens", "judged", "judge_agreement",
)
_DECLARED = {figure.key: figure for figure in (
    *ANSWER_FIGURES, *(figure for one in SCORERS for figure in one.figures), *consistency.FIGURES)}
# Every figure, in the summary's order, and by its key.
FIGURES: tuple[Figure, ...] = tuple(_DECLARED[key] for key in (*LAYOUT, *(k for k in _DECLARED if k not in LAYOUT)))
FIGURE: Mapping[str, Figure] = {figure.key: figure for figure in FIGURES}
# The figure the gate reads, first among the KPIs.
GATE_FIGURE = "correct_rate"
KPI_FIGURES: tuple[Figure, ...] = tuple(sorted((figure for figure in FIGURES if figure.kpi),
                                               key=lambda figure: figure.key != GATE_FIGURE))


def _overall_first(summary: pd.DataFrame) -> pd.Series:
    first = pd.Series(range(len(summary)), index=summary.index) == 0
    return (summary["scope"] == "overall") == first


EVALUATION_SUMMARY = pa.DataFrameSchema(
    {
        "scope": pa.Column(str, unique=True, description='"overall", then one row per category.'),
        **{name: column for figure in FIGURES for name, column in figure.schema().items()},
    },
    checks=[pa.Check(_overall_first, name="overall_first", description='the first row, and only it, is "overall"')],
    name="evaluation_summary",
    description='Totals, rates and latency percentiles: the "overall" row, then one row per category.',
    strict=True,
    ordered=True,
)
SUMMARY_COLUMNS: tuple[str, ...] = tuple(EVALUATION_SUMMARY.columns)
SUMMARY_DTYPES: dict[str, str] = non_text_dtypes(EVALUATION_SUMMARY)
TREND_FIGURES: tuple[str, ...] = tuple(
    name for name, column in EVALUATION_SUMMARY.columns.items() if (column.metadata or {}).get("trend")
)


def summarize(scores: pd.DataFrame) -> pd.DataFrame:
    """The evaluation_summary table: the "overall" row, then one row per category present, in
    CATEGORIES order (a category outside it follows, in order of appearance)."""
    rows = [_scope_row("overall", scores)]
    for category in category_order(scores["category"]):
        rows.append(_scope_row(category, scores[scores["category"] == category]))
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS)).astype(SUMMARY_DTYPES)


def category_order(categories: Iterable[str]) -> list[str]:
    """The distinct ``categories`` in CATEGORIES order, then any other in order of appearance."""
    present = list(dict.fromkeys(categories))
    return [c for c in CATEGORIES if c in present] + [c for c in present if c not in CATEGORIES]


def summary_dict(summary: pd.DataFrame) -> dict[str, Any]:
    """The overall figures as plain Python numbers (NaN -> None), with ``categories`` mapping each
    category to its own figures: for JSON, the Python API and the console."""
    records = [{key: _plain(value) for key, value in row.items()} for row in summary.to_dict("records")]
    scopes = {record.pop("scope"): record for record in records}
    return {**scopes.pop("overall"), "categories": scopes}


@dataclass(frozen=True)
class ReportRow:
    """One summary figure of one scope as every view shows it: the summary CSV, the console, the
    HTML report's KPIs and the dashboard's tiles. ``low`` and ``high``: its 95 % interval (None
    when it has none)."""

    key: str
    label: str
    value: Any
    low: float | None
    high: float | None
    kind: Kind

    def text(self) -> str | int:
        """The value written by its kind (a rate alone: its interval is written apart, or by ``rate_text``)."""
        return format_value(self.kind, self.value)

    def rate_text(self) -> str:
        """A rate with its interval: ``"85.0% (62.1-94.8)"``."""
        return format_rate(self.value, self.low, self.high)


def report_rows(row: Mapping[str, Any], figures: Iterable[Figure] = FIGURES) -> list[ReportRow]:
    """``figures`` of one summary row (a scope's), in order: the report model every view renders."""
    return [ReportRow(figure.key, figure.long_label or figure.label, row.get(figure.key),
                      row.get(f"{figure.key}_low") if figure.has_interval else None,
                      row.get(f"{figure.key}_high") if figure.has_interval else None, figure.kind)
            for figure in figures]


def _scope_row(scope: str, scores: pd.DataFrame) -> dict[str, Any]:
    row: dict[str, Any] = {"scope": scope}
    for figure in FIGURES:
        row[figure.key] = figure.value(scores)
        if figure.outcomes is not None:
            outcomes = figure.outcomes(scores)
            row[f"{figure.key}_low"], row[f"{figure.key}_high"] = (
                rate_interval(*outcomes) if outcomes is not None else (math.nan, math.nan))
    return row


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
