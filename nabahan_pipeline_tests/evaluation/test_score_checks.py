"""What the regression check tests of the scores: whether a run regressed (a significant drop by
McNemar, or a must_pass case not right)."""

from __future__ import annotations

import pandas as pd

from nabahan_pipeline.evaluation.score_checks import regression


def outcomes(verdicts: dict[str, bool]) -> pd.DataFrame:
    return pd.DataFrame([{"case_id": case, "repeat": 0, "correct": right, "overall_passed": right}
                         for case, right in verdicts.items()])


def test_a_few_cases_that_flipped_are_noise_not_a_regression():
    before = outcomes({f"c{i}": True for i in range(10)})
    now = outcomes({f"c{i}": i >= 2 for i in range(10)})  # two flipped: p = 0.5
    result = regression(before, now)
    assert result.paired.worsened == ("c0", "c1") and result.paired.p_value == 0.5
    assert result.passed and not result.must_pass_failed


def test_a_significant_drop_is_a_regression():
    before = outcomes({f"c{i}": True for i in range(10)})
    now = outcomes({f"c{i}": i >= 6 or i == 0 for i in range(10)} | {"new": False})  # five down: p = 0.0625
    assert regression(before, now).passed
    now.loc[now["case_id"] == "c0", ["correct", "overall_passed"]] = False  # six down: p = 0.03125
    result = regression(before, now)
    assert result.paired.worsened == tuple(f"c{i}" for i in range(6)) and result.paired.cases == 10
    assert result.paired.significant_drop and not result.passed


def test_a_must_pass_case_not_right_fails_with_or_without_a_baseline():
    before = outcomes({"a": True, "b": True})
    now = outcomes({"a": True, "b": False})
    assert regression(before, now, must_pass=["a"]).passed
    assert regression(before, now, must_pass=["b"]).must_pass_failed == ("b",)
    assert not regression(None, now, must_pass=["b"]).passed, "no baseline: must_pass still holds"
    assert regression(None, now).paired is None and regression(None, now).passed


def test_the_gate_verdict_and_a_run_from_before_correct():
    before = outcomes({"a": True}).drop(columns="correct")  # read by overall_passed
    now = outcomes({"a": True}).assign(correct=False)
    assert regression(before, now).paired.worsened == ("a",)
    assert regression(before, now, verdict="overall_passed").paired.worsened == ()
    assert not regression(before, now, must_pass=["a"]).passed
    assert regression(before, now, must_pass=["a"], verdict="overall_passed").passed
