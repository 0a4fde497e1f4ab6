"""Agents side by side on the same cases (``AgentComparison``). An agent's verdict on a case is the
share of its answers that are Correct; agents disagree where the shares differ; in a pair, a case
is right for an agent when every one of its answers is Correct."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.paired import case_outcomes, compare_paired
from nabahan_pipeline.evaluation.formats import format_pct
from nabahan_pipeline.evaluation.reports import write_tables
from nabahan_pipeline.evaluation.summary import category_order
from nabahan_pipeline.evaluation.tables import AGENT_COMPARISON, AGENT_COMPARISON_DTYPES

CORRECT = "correct"
NOT_EVALUATED = "not evaluated"
# The agents table: column -> the summary figure it is (overall row), in the CSV's order.
AGENT_FIGURES: dict[str, str] = {column: "total" if column == "answers" else column
                                 for column in list(AGENT_COMPARISON.columns)[1:]}
# Each column's CSV header: its words capitalized ("correct_rate_low": "Correct Rate Low"), but these.
_HEADERS = {"p50_latency": "P50 Latency (s)", "p95_latency": "P95 Latency (s)", "unsafe_sql": "Unsafe SQL"}
AGENT_COLUMNS: dict[str, str] = {column: _HEADERS.get(column, column.replace("_", " ").title())
                                 for column in AGENT_COMPARISON.columns}
_RATES = tuple(f"{rate}{side}" for rate in ("correct_rate", "pass_rate", "execution_accuracy", "test_suite_accuracy")
               for side in ("", "_low", "_high"))
_SECONDS = ("p50_latency", "p95_latency")
MATRIX_COLUMNS: dict[str, str] = {
    "case_id": "Case ID",
    "question": "Question",
    "category": "Category",
    "disagree": "Agents Disagree",
    "agents_correct": "Agents Correct",
}
PAIR_COLUMNS: dict[str, str] = {
    "agent": "Agent",
    "against": "Against",
    "cases": "Cases Compared",
    "better": "Better",
    "worse": "Worse",
    "p_value": "McNemar p",
    "significant": "Significant (p < 0.05)",
    "better_cases": "Cases Better",
    "worse_cases": "Cases Worse",
}


@dataclass(frozen=True)
class AgentComparison:
    """The comparison's tables: ``agents`` (one row per agent), ``matrix`` (one row per case, one
    column per agent), ``categories`` (agent, category, cases, correct_rate with its bounds,
    pass_rate), ``pairs`` (``paired_table``)."""

    agents: pd.DataFrame
    matrix: pd.DataFrame
    categories: pd.DataFrame
    pairs: pd.DataFrame

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
        pairs=paired_table(scores),
    )


def agents_table(summaries: Mapping[str, pd.DataFrame], labels: list[str]) -> pd.DataFrame:
    """One row per agent: its overall figures (the summary's ``overall`` row); the
    ``agent_comparison`` table (``tables.AGENT_COMPARISON``)."""
    rows = []
    for label in labels:
        overall = summaries[label].iloc[0]
        if overall["scope"] != "overall":
            raise ValueError(f"{label}: the summary's first row is not 'overall'")
        # A summary from before the intervals has no bounds: NaN.
        rows.append({"agent": label, **{column: _plain(overall.get(figure)) for column, figure in AGENT_FIGURES.items()}})
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
        cell = (CORRECT if right.all() else reason if len(answers) == 1
                else f"{int(right.sum())}/{len(answers)} correct: {reason}")
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
                         "correct_rate": float(row["correct_rate"]),
                         "correct_rate_low": float(_plain(row.get("correct_rate_low"))),
                         "correct_rate_high": float(_plain(row.get("correct_rate_high"))),
                         "pass_rate": float(row["pass_rate"])})
    ranked = category_order(row["category"] for row in rows)
    rows.sort(key=lambda row: ranked.index(row["category"]))
    return pd.DataFrame(rows, columns=["agent", "category", "cases", "correct_rate", "correct_rate_low",
                                       "correct_rate_high", "pass_rate"])


def paired_table(scores: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every pair of agents (each later one against each earlier one, in ``scores``' order) on the
    cases both answered: how many, the cases only ``agent`` got right (``better_cases``) and only
    ``against`` did (``worse_cases``), the exact McNemar p-value and whether p < 0.05."""
    outcomes = {label: case_outcomes(frame) for label, frame in scores.items()}
    labels = list(outcomes)
    rows = []
    for j, label in enumerate(labels):
        for against in labels[:j]:
            pair = compare_paired(outcomes[against], outcomes[label])
            rows.append({"agent": label, "against": against, "cases": pair.cases, "better": len(pair.improved),
                         "worse": len(pair.worsened), "p_value": pair.p_value, "significant": pair.significant,
                         "better_cases": list(pair.improved), "worse_cases": list(pair.worsened)})
    return pd.DataFrame(rows, columns=list(PAIR_COLUMNS))


def paired_lines(pairs: pd.DataFrame, shown: int = 10) -> list[str]:
    """The pairs as the console says them: "b vs a: 3 better, 1 worse of 20 cases; McNemar p = 0.625,
    not significant", then the cases that flipped each way (the first ``shown`` of each)."""
    lines = []
    for row in pairs.itertuples():
        verdict = "significant" if row.significant else "not significant (noise)"
        lines.append(f"{row.agent} vs {row.against}: {row.better} better, {row.worse} worse of {row.cases} cases; "
                     f"McNemar p = {row.p_value:.3g}, {verdict}")
        for word, cases in (("better", row.better_cases), ("worse", row.worse_cases)):
            if len(cases):
                more = f" and {len(cases) - shown} more" if len(cases) > shown else ""
                lines.append(f"    {word}: {', '.join(map(str, list(cases)[:shown]))}{more}")
    return lines


def pairs_report(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs as their CSV shows them: p to four significant digits, yes/no, case ids joined by spaces."""
    table = pairs.copy().astype(object)
    table["p_value"] = pairs["p_value"].map(lambda value: f"{float(value):.4g}")
    table["significant"] = pairs["significant"].map({True: "yes", False: "no"})
    for column in ("better_cases", "worse_cases"):
        table[column] = pairs[column].map(lambda cases: " ".join(map(str, cases)))
    return table.rename(columns=PAIR_COLUMNS)


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


def write_comparison(comparison: AgentComparison, output_dir: str | Path, stamp: str) -> dict[str, Path]:
    """Write the agents, matrix and pairs CSV files atomically, under names no other run holds."""
    tables = {"comparison_csv": ("agent_comparison", agents_report(comparison.agents)),
              "matrix_csv": ("agent_matrix", matrix_report(comparison.matrix)),
              "pairs_csv": ("agent_pairs", pairs_report(comparison.pairs))}
    return write_tables(tables, output_dir, stamp)


def _plain(value: object) -> object:
    """A plain Python number; NaN for None (a figure missing)."""
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    return math.nan if value is None else value
