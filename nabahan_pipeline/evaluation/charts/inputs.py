"""The tables the charts read (``history``: one row per run, oldest first): the columns each must
have, and the views the figures take of them; newer columns (``correct_rate``...) where present."""

from __future__ import annotations

import numpy as np
import pandas as pd

_SUMMARY_COLUMNS = (
    "scope", "total", "passed", "failed", "pass_rate", "avg_retrieval_accuracy",
    "avg_generation_fidelity", "p50_latency", "p95_latency", "execution_accuracy",
    "execution_cases", "errors", "false_refusals", "false_answers",
)
_SCORES_COLUMNS = (
    "query_num", "question", "category", "status", "latency_s", "retrieval_points",
    "retrieval_accuracy", "fidelity_points", "generation_fidelity", "overall_passed",
)
_HISTORY_COLUMNS = ("run_label", "timestamp", "pass_rate", "execution_accuracy", "p95_latency")


def _require(df: pd.DataFrame, columns: tuple[str, ...], what: str) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} is missing column(s): {', '.join(missing)}")


def require_scores(scores: pd.DataFrame) -> None:
    """Raise unless ``scores`` is a DataFrame with the case_scores columns the charts read."""
    _require(scores, _SCORES_COLUMNS, "case_scores")


def require_history(history: pd.DataFrame) -> None:
    """Raise unless ``history`` is a DataFrame with the columns the trend reads."""
    _require(history, _HISTORY_COLUMNS, "history")


def check_threshold(pass_threshold: float) -> float:
    """The pass threshold as a float, which must be a fraction 0..1."""
    t = float(pass_threshold)
    if not 0.0 <= t <= 1.0:
        raise ValueError(f"pass_threshold is a fraction 0..1, got {pass_threshold!r}")
    return t


def overall_row(summary: pd.DataFrame) -> pd.Series:
    """The summary's "overall" row."""
    _require(summary, _SUMMARY_COLUMNS, "evaluation_summary")
    rows = summary[summary["scope"] == "overall"]
    if rows.empty:
        raise ValueError('evaluation_summary has no row with scope == "overall"')
    return rows.iloc[0]


def category_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary's rows other than "overall", one per category, in the summary's order."""
    _require(summary, _SUMMARY_COLUMNS, "evaluation_summary")
    return summary[summary["scope"] != "overall"].reset_index(drop=True)


def passed_mask(scores: pd.DataFrame) -> np.ndarray:
    """The seed's Overall Passed per row (unknown counts as failed)."""
    return scores["overall_passed"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def verdict_mask(scores: pd.DataFrame) -> np.ndarray:
    """The gate's verdict per row: Correct where the scores have it, else the seed's Overall Passed."""
    if "correct" not in scores.columns:
        return passed_mask(scores)
    return scores["correct"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def latencies(scores: pd.DataFrame) -> pd.DataFrame:
    """query_num, latency_s (float, finite) and passed, in query order."""
    df = pd.DataFrame(
        {
            "query_num": pd.to_numeric(scores["query_num"], errors="coerce").to_numpy(),
            "latency_s": pd.to_numeric(scores["latency_s"], errors="coerce").to_numpy(dtype=float),
            "passed": passed_mask(scores),
        }
    )
    df = df[np.isfinite(df["latency_s"]) & df["query_num"].notna()]
    return df.sort_values("query_num", kind="stable").reset_index(drop=True)
