"""A run's verdict in one line, Correct first (the figure the gate reads), the seed's pass rate
beside it, then execution and test-suite accuracy each with its own denominator: the Dagster log's
last line of a materialization, the evaluation_summary's first metadata entry, the report's head.

Each rate says what it counts ("4 of 20 cases"): with --repeat the answers and the cases are
counted apart ("12 of 60 answers: 20 cases x 3"), and the accuracies count only the answers their
check could run on (gold SQL; the test-suite databases), which differ from run to run.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nabahan_pipeline.evaluation.formats import format_pct

# What each headline rate counts: the summary column of its denominator ("6 of 17").
DENOMINATORS = {"correct_rate": "total", "pass_rate": "total", "execution_accuracy": "execution_cases",
                "test_suite_accuracy": "test_suite_cases"}


def answers_counted(overall: pd.Series | dict[str, Any]) -> str:
    """What a run's rates count: "20 cases", or with repeats "60 answers: 20 cases x 3"."""
    cases, answers = int(overall["cases"]), int(overall["total"])
    if answers == cases:
        return f"{cases} case" + ("" if cases == 1 else "s")
    return f"{answers} answers: {cases} cases x {int(overall['repeats'])}"


def count_of(overall: pd.Series | dict[str, Any], rate: str, denominator: str, counted: str = "") -> str:
    """What ``rate`` counts: "(6 of 17 with gold SQL)"; "(none counted)" when its denominator is 0."""
    of = 0 if pd.isna(overall[denominator]) else int(overall[denominator])
    if of == 0 or pd.isna(overall[rate]):
        return "(none counted)"
    return f"({round(float(overall[rate]) * of)} of {of}{' ' + counted if counted else ''})"


def share(overall: pd.Series | dict[str, Any], rate: str, denominator: str, counted: str = "") -> str:
    """``rate`` with what it counts: "35.3% (6 of 17 with gold SQL)"; "n/a (none counted)"."""
    return f"{format_pct(overall[rate])} {count_of(overall, rate, denominator, counted)}"


def verdict_line(summary: pd.DataFrame) -> str:
    """Correct, the seed's pass rate, execution and test-suite accuracy of ``summary``'s overall row,
    each with its denominator (and pass^N with repeats): "Correct 20.0% (4 of 20 cases) · the seed's
    pass rate 50.0% (10 of 20) · execution accuracy 35.3% (6 of 17 with gold SQL) · test-suite
    accuracy 62.5% (5 of 8 run on the test-suite databases)"."""
    overall = summary.iloc[0]
    parts = [f"Correct {format_pct(overall['correct_rate'])} ({int(overall['correct'])} of {answers_counted(overall)})",
             f"the seed's pass rate {share(overall, 'pass_rate', 'total')}",
             f"execution accuracy {share(overall, 'execution_accuracy', 'execution_cases', 'with gold SQL')}",
             f"test-suite accuracy {share(overall, 'test_suite_accuracy', 'test_suite_cases', 'run on the test-suite databases')}"]
    if "pass_hat_n" in overall and not pd.isna(overall["pass_hat_n"]):
        parts.append(f"pass^{int(overall['repeats'])} {share(overall, 'pass_hat_n', 'cases', 'cases')}")
    return " · ".join(parts)
