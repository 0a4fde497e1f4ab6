"""Agents side by side, from each agent's case_scores and evaluation_summary on the same cases.

Three tables: one row per agent (its overall figures), a case x agent matrix (each cell "correct"
or why not; the cases where agents disagree first), and each agent's rates per category (for the
chart). Two CSV files: the agents and the matrix, written as the reports are (``reports``).

An agent's verdict on a case is the share of its answers (repeats) that are Correct; agents
disagree on a case when their shares differ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.reports import format_pct, write_tables
from nabahan_pipeline.evaluation.tables import AGENT_COMPARISON, AGENT_COMPARISON_DTYPES, CATEGORIES

CORRECT = "correct"
NOT_EVALUATED = "not evaluated"
# The agents table: column -> the summary figure it is (overall row), in the CSV's order.
AGENT_FIGURES: dict[str, str] = {
    "cases": "cases",
    "answers": "total",
    "correct": "correct",
    "correct_rate": "correct_rate",
    "pass_rate": "pass_rate",
    "execution_accuracy": "execution_accuracy",
    "test_suite_accuracy": "test_suite_accuracy",
    "p50_latency": "p50_latency",
    "p95_latency": "p95_latency",
    "errors": "errors",
    "unsafe_sql": "unsafe_sql",
    "total_tokens": "total_tokens",
}
AGENT_COLUMNS: dict[str, str] = {
    "agent": "Agent",
    "cases": "Cases",
    "answers": "Answers",
    "correct": "Correct",
    "correct_rate": "Correct Rate",
    "pass_rate": "Pass Rate",
    "execution_accuracy": "Execution Accuracy",
    "test_suite_accuracy": "Test Suite Accuracy",
    "p50_latency": "P50 Latency (s)",
    "p95_latency": "P95 Latency (s)",
    "errors": "Errors",
    "unsafe_sql": "Unsafe SQL",
    "total_tokens": "Total Tokens",
}
_RATES = ("correct_rate", "pass_rate", "execution_accuracy", "test_suite_accuracy")
_SECONDS = ("p50_latency", "p95_latency")
MATRIX_COLUMNS: dict[str, str] = {
    "case_id": "Case ID",
    "question": "Question",
    "category": "Category",
    "disagree": "Agents Disagree",
    "agents_correct": "Agents Correct",
}


@dataclass(frozen=True)
class AgentComparison:
    """The comparison's tables: ``agents`` (one row per agent), ``matrix`` (one row per case, one
    column per agent), ``categories`` (agent, category, cases, correct_rate, pass_rate)."""

    agents: pd.DataFrame
    matrix: pd.DataFrame
    categories: pd.DataFrame

    @property
    def labels(self) -> list[str]:
        """The agents, in the order given."""
        return self.agents["agent"].tolist()

    @property
    def disagreements(self) -> int:
        """How many cases the agents disagree on."""
        return int(self.matrix["disagree"].sum())


def compare_agents(scores: Mapping[str, pd.DataFrame], summaries: Mapping[str, pd.DataFrame]) -> AgentComparison:
    """The comparison of the agents ``scores`` names (label -> its case_scores), each with its
    evaluation_summary in ``summaries``, in ``scores``' order."""
    missing = [label for label in scores if label not in summaries]
    if missing:
        raise ValueError(f"no evaluation_summary for {', '.join(missing)}")
    if not scores:
        raise ValueError("no agent to compare")
    return AgentComparison(
        agents=agents_table(summaries, list(scores)),
        matrix=case_matrix(scores),
        categories=category_table(summaries, list(scores)),
    )


def agents_table(summaries: Mapping[str, pd.DataFrame], labels: list[str]) -> pd.DataFrame:
    """One row per agent: its overall figures (the summary's ``overall`` row); the
    ``agent_comparison`` table (``tables.AGENT_COMPARISON``)."""
    rows = []
    for label in labels:
        overall = summaries[label].iloc[0]
        if overall["scope"] != "overall":
            raise ValueError(f"{label}: the summary's first row is not 'overall'")
        rows.append({"agent": label, **{column: _plain(overall[figure]) for column, figure in AGENT_FIGURES.items()}})
    return pd.DataFrame(rows, columns=list(AGENT_COMPARISON.columns)).astype(AGENT_COMPARISON_DTYPES)


def case_verdicts(scores: pd.DataFrame) -> pd.DataFrame:
    """One row per case (first answer's order): case_id, query_num, question, category, share
    (of its answers that are Correct) and cell ("correct", or why not; with repeats "k/n correct:
    why the first wrong answer is not")."""
    rows = []
    for case_id, answers in scores.sort_values(["query_num", "repeat"], kind="stable").groupby("case_id", sort=False):
        right = answers["correct"].astype(bool)
        first_wrong = answers.loc[~right, "not_correct_because"]
        reason = str(first_wrong.iloc[0]) if len(first_wrong) else ""
        if right.all():
            cell = CORRECT
        elif len(answers) == 1:
            cell = reason
        else:
            cell = f"{int(right.sum())}/{len(answers)} correct: {reason}"
        first = answers.iloc[0]
        rows.append({"case_id": case_id, "query_num": int(first["query_num"]), "question": first["question"],
                     "category": first["category"], "share": float(right.mean()), "cell": cell})
    return pd.DataFrame(rows, columns=["case_id", "query_num", "question", "category", "share", "cell"])


def case_matrix(scores: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Case x agent: case_id, question, category, disagree, agents_correct (how many agents got
    every answer of the case right), then one column per agent; cases the agents disagree on
    first, each part in the cases' order (the first agent's, then any case only others have)."""
    verdicts = {label: case_verdicts(frame).set_index("case_id") for label, frame in scores.items()}
    order: dict[str, tuple[int, int, str, str]] = {}
    for position, verdict in enumerate(verdicts.values()):
        for case_id, row in verdict.iterrows():
            order.setdefault(case_id, (position, int(row["query_num"]), row["question"], row["category"]))
    rows = []
    for case_id, (_, _, question, category) in sorted(order.items(), key=lambda item: item[1][:2]):
        shares = [verdict.at[case_id, "share"] for verdict in verdicts.values() if case_id in verdict.index]
        cells = [verdict.at[case_id, "cell"] if case_id in verdict.index else NOT_EVALUATED
                 for verdict in verdicts.values()]
        rows.append([case_id, question, category, len(set(shares)) > 1, sum(share == 1.0 for share in shares), *cells])
    matrix = pd.DataFrame(rows, columns=[*MATRIX_COLUMNS, *verdicts])
    if matrix.empty:
        return matrix.astype({"disagree": bool, "agents_correct": int})
    return matrix.sort_values("disagree", ascending=False, kind="stable").reset_index(drop=True)


def category_table(summaries: Mapping[str, pd.DataFrame], labels: list[str]) -> pd.DataFrame:
    """Each agent's figures per category (the summaries' category rows), categories in
    CATEGORIES order, then any other in order of appearance."""
    rows = []
    for label in labels:
        for _, row in summaries[label].iloc[1:].iterrows():
            rows.append({"agent": label, "category": row["scope"], "cases": int(row["cases"]),
                         "correct_rate": float(row["correct_rate"]), "pass_rate": float(row["pass_rate"])})
    table = pd.DataFrame(rows, columns=["agent", "category", "cases", "correct_rate", "pass_rate"])
    seen = list(dict.fromkeys(table["category"]))
    ranked = [c for c in CATEGORIES if c in seen] + [c for c in seen if c not in CATEGORIES]
    table["category"] = pd.Categorical(table["category"], categories=ranked, ordered=True)
    table = table.sort_values(["category"], kind="stable").reset_index(drop=True)
    table["category"] = table["category"].astype(str)
    return table


def agents_report(agents: pd.DataFrame) -> pd.DataFrame:
    """The agents table as its CSV shows it: rates as percentages, seconds to the microsecond."""
    table = agents.copy().astype(object)
    for column in _RATES:
        table[column] = agents[column].map(format_pct)
    for column in _SECONDS:
        # Fixed decimals: a float column would write an instant agent's 2e-06 in scientific notation.
        table[column] = agents[column].map(lambda value: "n/a" if pd.isna(value) else f"{float(value):.6f}")
    table["total_tokens"] = agents["total_tokens"].map(lambda value: "" if pd.isna(value) else int(value))
    return table.rename(columns=AGENT_COLUMNS)


def matrix_report(matrix: pd.DataFrame) -> pd.DataFrame:
    """The matrix as its CSV shows it: its fixed columns named, then one column per agent."""
    table = matrix.copy()
    table["disagree"] = table["disagree"].map({True: "yes", False: "no"})
    return table.rename(columns=MATRIX_COLUMNS)


def comparison_paths(output_dir: str | Path, stamp: str, attempt: int = 1) -> dict[str, Path]:
    """Where the comparison's CSV files stamped ``stamp`` go (``_2`` and on when the name is taken)."""
    out = Path(output_dir)
    suffix = f"_{attempt}" if attempt > 1 else ""
    return {
        "comparison_csv": out / f"agent_comparison_{stamp}{suffix}.csv",
        "matrix_csv": out / f"agent_matrix_{stamp}{suffix}.csv",
    }


def write_comparison(comparison: AgentComparison, output_dir: str | Path, stamp: str) -> dict[str, Path]:
    """Write the agents and matrix CSV files atomically, under names no other run holds."""
    tables = {"comparison_csv": agents_report(comparison.agents), "matrix_csv": matrix_report(comparison.matrix)}
    return write_tables(tables, lambda attempt: comparison_paths(output_dir, stamp, attempt))


def _plain(value: object) -> object:
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    return math.nan if value is None else value
