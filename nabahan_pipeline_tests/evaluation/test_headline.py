"""The verdict line: Correct first, the seed's pass rate beside it, each accuracy with its denominator."""

from __future__ import annotations

import math

import pandas as pd

from nabahan_pipeline.evaluation.headline import answers_counted, verdict_line


def summary(**overall: float) -> pd.DataFrame:
    row = {"cases": 20, "total": 20, "repeats": 1, "correct": 4, "correct_rate": 0.2, "passed": 10,
           "pass_rate": 0.5, "execution_accuracy": 6 / 17, "execution_cases": 17, "test_suite_accuracy": 5 / 8,
           "test_suite_cases": 8, "pass_hat_n": math.nan, **overall}
    return pd.DataFrame([row])


def test_correct_leads_and_each_accuracy_names_its_denominator():
    assert verdict_line(summary()) == (
        "Correct 20.0% (4 of 20 cases) · the seed's pass rate 50.0% (10 of 20) · execution accuracy 35.3% "
        "(6 of 17 with gold SQL) · test-suite accuracy 62.5% (5 of 8 run on the test-suite databases)")


def test_repeats_count_answers_and_cases_apart_with_pass_hat_n():
    repeated = summary(total=60, repeats=3, correct=12, passed=30, pass_hat_n=0.6)
    assert answers_counted(repeated.iloc[0]) == "60 answers: 20 cases x 3"
    line = verdict_line(repeated)
    assert line.startswith("Correct 20.0% (12 of 60 answers: 20 cases x 3) · the seed's pass rate 50.0% (30 of 60)")
    assert line.endswith(" · pass^3 60.0% (12 of 20 cases)")


def test_an_accuracy_with_nothing_to_count_says_so():
    line = verdict_line(summary(execution_cases=0, execution_accuracy=math.nan, cases=1, total=1, correct=0,
                                correct_rate=0.0, passed=0, pass_rate=0.0))
    assert line.startswith("Correct 0.0% (0 of 1 case) · ") and "execution accuracy n/a (none counted)" in line


def test_each_kpi_rate_owns_its_denominator_a_summary_count():
    from nabahan_pipeline.evaluation.summary import EVALUATION_SUMMARY, FIGURE, KPI_FIGURES

    for figure in (*KPI_FIGURES, FIGURE["pass_hat_n"]):
        assert figure.kind == "rate" and figure.denominator in EVALUATION_SUMMARY.columns, figure.key
        assert FIGURE[figure.denominator].kind == "count", figure.key
