"""Several agents' runs side by side: one row per agent, a case x agent matrix (the cases where
the agents disagree first) and each category's correct rate per agent.

Plain pandas over each agent's ``evaluation_summary`` and ``case_scores`` (docs/internals.md), keyed
by the agent's label in the order given; the Dagster asset ``agent_comparison`` calls it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nabahan_pipeline.errors import NabahanError
from nabahan_pipeline.escaping import csv_safe
from nabahan_pipeline.evaluation.tables import CATEGORIES
from nabahan_pipeline.files import atomic_open, remove_stale_temporaries

# The overall figures of each agent's summary that the comparison shows, in this order.
AGENT_FIGURES: tuple[str, ...] = (
    "cases",
    "total",
    "correct",
    "correct_rate",
    "passed",
    "pass_rate",
    "execution_accuracy",
    "test_suite_accuracy",
    "p50_latency",
    "p95_latency",
    "errors",
    "unsafe_sql",
    "total_tokens",
)
# The matrix's own columns, before one column per agent.
CASE_COLUMNS: tuple[str, ...] = ("case_id", "category", "question", "agents_disagree")
CORRECT = "correct"
NOT_ASKED = "not asked"


class ComparisonError(NabahanError, ValueError):
    """The agents cannot be compared as given (none, or a label the tables already use)."""


@dataclass(frozen=True)
class AgentComparison:
    """The comparison's three tables."""

    agents: pd.DataFrame  # one row per agent: "agent", then AGENT_FIGURES
    cases: pd.DataFrame  # one row per case: CASE_COLUMNS, then one verdict column per agent
    categories: pd.DataFrame  # one row per category: "category", then each agent's correct rate


def compare_agents(summaries: Mapping[str, pd.DataFrame], scores: Mapping[str, pd.DataFrame]) -> AgentComparison:
    """Compare the agents named by the keys of ``summaries`` (their order kept); ``scores`` holds
    the same agents' case_scores."""
    labels = list(summaries)
    if not labels:
        raise ComparisonError("no agent to compare")
    if set(labels) != set(scores):
        raise ComparisonError(f"summaries and case scores name different agents: {sorted(set(labels) ^ set(scores))}")
    clashing = [label for label in labels if label in CASE_COLUMNS or label == "agent" or label == "category"]
    if clashing:
        raise ComparisonError(f"agent label {clashing[0]!r} is a column name of the comparison; choose another label")
    return AgentComparison(
        agents=_agent_rows(summaries),
        cases=_case_matrix(labels, scores),
        categories=_category_rates(summaries),
    )


def _agent_rows(summaries: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    rows = []
    for label, summary in summaries.items():
        overall = summary[summary["scope"] == "overall"].iloc[0]
        rows.append({"agent": label, **{figure: overall[figure] for figure in AGENT_FIGURES}})
    return pd.DataFrame(rows, columns=["agent", *AGENT_FIGURES])


def _verdict(answers: pd.DataFrame) -> str:
    # A case's repeats: "correct" when every one is; else why the first failing one is not.
    correct = answers["correct"].astype(bool)
    if correct.all():
        return CORRECT
    reason = str(answers.loc[~correct, "not_correct_because"].iloc[0] or "not correct")
    return f"{int(correct.sum())}/{len(answers)} correct; {reason}" if len(answers) > 1 else reason


def _case_matrix(labels: list[str], scores: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    cases: dict[str, dict[str, object]] = {}
    for label in labels:
        table = scores[label].sort_values(["query_num", "repeat"], kind="stable")
        for case_id, answers in table.groupby("case_id", sort=False):
            first = answers.iloc[0]
            row = cases.setdefault(str(case_id), {"case_id": str(case_id), "category": first["category"],
                                                  "question": first["question"]})
            row[label] = _verdict(answers)
    matrix = pd.DataFrame(list(cases.values()), columns=["case_id", "category", "question", *labels])
    matrix[labels] = matrix[labels].fillna(NOT_ASKED)
    asked = matrix[labels].where(matrix[labels] != NOT_ASKED)
    matrix.insert(3, "agents_disagree", asked.eq(CORRECT).where(asked.notna()).nunique(axis=1) > 1)
    # Disagreements first, each group in case order.
    return matrix.sort_values("agents_disagree", ascending=False, kind="stable").reset_index(drop=True)


def _category_rates(summaries: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    present = list(dict.fromkeys(
        scope for summary in summaries.values() for scope in summary["scope"] if scope != "overall"
    ))
    categories = [c for c in CATEGORIES if c in present] + [c for c in present if c not in CATEGORIES]
    table = pd.DataFrame({"category": categories})
    for label, summary in summaries.items():
        rates = summary.set_index("scope")["correct_rate"]
        table[label] = [float(rates[c]) if c in rates.index else math.nan for c in categories]
    return table


def comparison_paths(output_dir: str | Path, stamp: str, attempt: int = 1) -> dict[str, Path]:
    """Where the comparison's two CSV files of a run stamped ``stamp`` go (``_2`` from the second
    ``attempt`` on, when another run took the same second)."""
    out = Path(output_dir)
    suffix = f"_{attempt}" if attempt > 1 else ""
    return {
        "agents_csv": out / f"agent_comparison_{stamp}{suffix}.csv",
        "cases_csv": out / f"agent_case_matrix_{stamp}{suffix}.csv",
    }


def write_comparison(comparison: AgentComparison, output_dir: str | Path, stamp: str) -> dict[str, Path]:
    """Write the agents and the case matrix as CSV (UTF-8 with BOM, formula-safe, atomic, never
    over an existing file); return their paths."""
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(output_dir)
    tables = {"agents_csv": csv_safe(comparison.agents), "cases_csv": csv_safe(comparison.cases)}
    attempt = 1
    while True:
        paths = comparison_paths(output_dir, stamp, attempt)
        written: list[Path] = []
        try:
            for key, table in tables.items():
                with atomic_open(paths[key], "w", replace=False, encoding="utf-8-sig", newline="") as handle:
                    table.to_csv(handle, index=False, lineterminator="\r\n")
                written.append(paths[key])
            return paths
        except FileExistsError:
            for path in written:
                path.unlink(missing_ok=True)
            attempt += 1
