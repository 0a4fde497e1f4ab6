"""The 95 % intervals: Wilson's against values worked by hand, and the clustered one's behaviour
with repeats."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.intervals import Z95, effective_size, rate_interval, wilson

# Wilson: centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²),
# z = 1.959964, z² = 3.841459.
#  8/10: p = 0.8, 1 + z²/n = 1.3841459; centre = (0.8 + 0.1920729) / 1.3841459 = 0.716741;
#        half = 1.416013 * sqrt(0.016 + 0.0096036) = 1.416013 * 0.1600114 = 0.226578
#        -> (0.490162, 0.943318)
#  0/20: 1 + z²/n = 1.1920729; centre = 0.0960365 / 1.1920729 = 0.080563;
#        half = 1.644174 * sqrt(3.841459 / 1600) = 1.644174 * 0.0489991 = 0.080563 -> (0, 0.161125)
# 20/20: the mirror of 0/20 -> (0.838875, 1)
#  3/3:  1 + z²/n = 2.2804863; centre = 1.6402432 / 2.2804863 = 0.719249;
#        half = 0.859451 * sqrt(3.841459 / 36) = 0.859451 * 0.3266630 = 0.280746 -> (0.438503, 1)
# 17/20: p = 0.85; 1 + z²/n = 1.1920729; centre = 0.9460365 / 1.1920729 = 0.793607;
#        half = 1.644174 * sqrt(0.006375 + 0.0024009) = 1.644174 * 0.0936796 = 0.154026
#        -> (0.639581, 0.947633)
@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [(8, 10, 0.490162, 0.943318), (0, 20, 0.0, 0.161125), (20, 20, 0.838875, 1.0), (3, 3, 0.438503, 1.0),
     (17, 20, 0.639581, 0.947633)],
)
def test_wilson_matches_the_interval_worked_by_hand(successes: int, n: int, low: float, high: float):
    assert wilson(successes, n) == pytest.approx((low, high), abs=2e-6)


def test_wilson_stays_in_zero_one_and_is_nan_without_answers():
    assert wilson(0, 1)[0] == 0.0 and wilson(1, 1)[1] == 1.0
    assert all(math.isnan(bound) for bound in wilson(0, 0))
    assert Z95 == pytest.approx(1.959964, abs=1e-6)


def test_a_single_run_is_plain_wilson_and_nan_outcomes_are_left_out():
    outcomes = [1] * 8 + [0] * 2
    assert rate_interval(outcomes) == pytest.approx(wilson(8, 10))
    assert rate_interval(outcomes, [f"c{i}" for i in range(10)]) == pytest.approx(wilson(8, 10))
    assert rate_interval([*outcomes, math.nan, math.nan], [*(f"c{i}" for i in range(10)), "x", "y"]) == pytest.approx(
        wilson(8, 10))
    assert all(math.isnan(bound) for bound in rate_interval([math.nan, math.nan], ["a", "b"]))


def test_repeats_that_agree_count_once_per_case_and_are_wider_than_naive():
    # 10 cases x 3 repeats, every case's repeats agree, 7 cases right: 21 of 30 answers.
    cases = [f"c{i}" for i in range(10) for _ in range(3)]
    outcomes = [1 if i < 7 else 0 for i in range(10) for _ in range(3)]
    clustered, naive = rate_interval(outcomes, cases), rate_interval(outcomes)
    assert naive == pytest.approx(wilson(21, 30))
    assert clustered == pytest.approx(wilson(7, 10)), "ten observations, not thirty"
    assert clustered[1] - clustered[0] > naive[1] - naive[0]


def test_repeats_that_disagree_within_each_case_count_as_independent():
    # Every case right on 2 of its 3 repeats: no case is better than another, so no design effect.
    cases = [f"c{i}" for i in range(10) for _ in range(3)]
    outcomes = [1, 1, 0] * 10
    assert effective_size(pd.Series(outcomes), pd.Series(cases)) == 30.0
    assert rate_interval(outcomes, cases) == pytest.approx(wilson(20, 30))


def test_a_partly_shared_verdict_gives_a_size_between_cases_and_answers():
    # 6 cases x 2 repeats: 3 always right, 1 always wrong, 2 split.
    cases = [f"c{i}" for i in range(6) for _ in range(2)]
    outcomes = [1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0]
    size = effective_size(pd.Series(outcomes), pd.Series(cases))
    assert 6 < size < 12
    low, high = rate_interval(outcomes, cases)
    assert low < 8 / 12 < high
    # All right: every repeat agrees, one observation per case.
    assert rate_interval([1] * 12, cases) == pytest.approx(wilson(6, 6))
