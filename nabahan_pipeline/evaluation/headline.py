"""A run's verdict in one line, Correct first (the figure the gate reads), the seed's pass rate
beside it, each rate with what it counts as its figure declares (``Figure.denominator``): the
Dagster log's last line of a materialization, the evaluation_summary's first metadata entry, the
report's head. With --repeat the answers and the cases are counted apart."""

from __future__ import annotations

from typing import Any

import pandas as pd

from nabahan_pipeline.evaluation.formats import format_pct
from nabahan_pipeline.evaluation.scoring.declare import Figure
from nabahan_pipeline.evaluation.summary import FIGURE


def answers_counted(overall: pd.Series | dict[str, Any]) -> str:
    """What a run's rates count: "20 cases", or with repeats "60 answers: 20 cases x 3"."""
    cases, answers = int(overall["cases"]), int(overall["total"])
    if answers == cases:
        return f"{cases} case" + ("" if cases == 1 else "s")
    return f"{answers} answers: {cases} cases x {int(overall['repeats'])}"


def count_of(overall: pd.Series | dict[str, Any], rate: Figure, counted: str = "") -> str:
    """What ``rate`` counts, over its denominator: "(6 of 17 with gold SQL)"; "(none counted)"
    when its denominator is 0."""
    denominator = overall[rate.denominator]
    of = 0 if pd.isna(denominator) else int(denominator)
    if of == 0 or pd.isna(overall[rate.key]):
        return "(none counted)"
    return f"({round(float(overall[rate.key]) * of)} of {of}{' ' + counted if counted else ''})"


def share(overall: pd.Series | dict[str, Any], rate: Figure) -> str:
    """``rate`` with what it counts, in its own words: "35.3% (6 of 17 with gold SQL)"; "n/a (none counted)"."""
    return f"{format_pct(overall[rate.key])} {count_of(overall, rate, rate.counted)}"


def verdict_line(summary: pd.DataFrame) -> str:
    """Correct, the seed's pass rate, execution and test-suite accuracy of ``summary``'s overall row,
    each with its denominator (and pass^N with repeats): "Correct 20.0% (4 of 20 cases) · the seed's
    pass rate 50.0% (10 of 20) · execution accuracy 35.3% (6 of 17 with gold SQL) · test-suite
    accuracy 62.5% (5 of 8 run on the test-suite databases)"."""
    overall = summary.iloc[0]
    parts = [f"Correct {format_pct(overall['correct_rate'])} ({int(overall['correct'])} of {answers_counted(overall)})",
             f"the seed's pass rate {share(overall, FIGURE['pass_rate'])}",
             f"execution accuracy {share(overall, FIGURE['execution_accuracy'])}",
             f"test-suite accuracy {share(overall, FIGURE['test_suite_accuracy'])}"]
    if "pass_hat_n" in overall and not pd.isna(overall["pass_hat_n"]):
        parts.append(f"pass^{int(overall['repeats'])} {share(overall, FIGURE['pass_hat_n'])}")
    return " · ".join(parts)
