"""Paired comparisons: the exact McNemar p-value on tables worked by hand, and the cases that
flipped each way."""

from __future__ import annotations

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.paired import case_outcomes, compare_paired, mcnemar_p


# p = 2 * P(Binomial(b + c, 1/2) <= min(b, c)), capped at 1:
#  (0, 4): 2 * 1/16 = 0.125
#  (0, 5): 2 * 1/32 = 0.0625
#  (0, 6): 2 * 1/64 = 0.03125
#  (1, 9): 2 * (1 + 10)/1024 = 22/1024 = 0.021484375
#  (2, 8): 2 * (1 + 10 + 45)/1024 = 112/1024 = 0.109375
#  (3, 3): 2 * (1 + 6 + 15 + 20)/64 = 84/64 -> 1
#  (1, 3): 2 * (1 + 4)/16 = 0.625
#  (10, 0) = (0, 10): 2/1024 = 0.001953125
@pytest.mark.parametrize(
    ("b", "c", "p"),
    [(0, 4, 0.125), (0, 5, 0.0625), (0, 6, 0.03125), (1, 9, 0.021484375), (2, 8, 0.109375), (3, 3, 1.0),
     (1, 3, 0.625), (10, 0, 0.001953125), (0, 0, 1.0)],
)
def test_mcnemar_matches_the_exact_values_worked_by_hand(b: int, c: int, p: float):
    assert mcnemar_p(b, c) == pytest.approx(p, rel=1e-12)
    assert mcnemar_p(c, b) == pytest.approx(p, rel=1e-12), "two-sided: symmetric"


def scores(verdicts: dict[str, list[bool]]) -> pd.DataFrame:
    return pd.DataFrame([{"case_id": case, "repeat": r, "correct": right, "overall_passed": True}
                         for case, answers in verdicts.items() for r, right in enumerate(answers)])


def test_a_case_is_right_when_every_repeat_is():
    outcomes = case_outcomes(scores({"a": [True, True], "b": [True, False], "c": [False, False]}))
    assert outcomes.to_dict() == {"a": True, "b": False, "c": False}
    # A run from before Correct is read by the seed's verdict.
    assert case_outcomes(scores({"a": [False]}).drop(columns="correct")).to_dict() == {"a": True}


def test_the_cases_that_flipped_each_way_and_whether_it_is_noise():
    before = pd.Series({f"c{i}": True for i in range(6)} | {"w": False, "only_before": True})
    after = pd.Series({f"c{i}": False for i in range(6)} | {"w": True, "only_after": False})
    paired = compare_paired(before, after)
    assert (paired.cases, paired.worsened, paired.improved) == (7, tuple(f"c{i}" for i in range(6)), ("w",))
    assert paired.p_value == pytest.approx(2 * (1 + 7) / 128)  # (1, 6): 0.125
    assert not paired.significant and not paired.significant_drop

    seven_down = compare_paired(pd.Series({f"c{i}": True for i in range(7)}), pd.Series({f"c{i}": False for i in range(7)}))
    assert seven_down.p_value == pytest.approx(2 / 128) and seven_down.significant_drop
    seven_up = compare_paired(pd.Series({f"c{i}": False for i in range(7)}), pd.Series({f"c{i}": True for i in range(7)}))
    assert seven_up.significant and not seven_up.significant_drop, "significant, but better"
