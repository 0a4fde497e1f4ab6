"""The seed's latency tiers: each bound belongs to the tier below it; latency decides no verdict."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.scoring.latency import LATENCY_BOUNDS, latency_tier
from nabahan_pipeline.evaluation.scoring.latency import POOR
from nabahan_pipeline.evaluation.tables import CASE_SCORES
from nabahan_pipeline_tests.evaluation.scoring.answers import score


@pytest.mark.parametrize(
    ("seconds", "tier"),
    [
        (0.0, ("Excellent", 1.0)),
        (1.999, ("Excellent", 1.0)),
        (2.0, ("Good", 0.8)),
        (4.999, ("Good", 0.8)),
        (5.0, ("Good", 0.8)),  # the seed's "2-5 Good": a bound belongs to the tier below it
        (5.001, ("Acceptable", 0.5)),
        (9.999, ("Acceptable", 0.5)),
        (10.0, ("Acceptable", 0.5)),  # "> 10 Poor": 10.0 s is Acceptable
        (10.001, ("Poor", 0.2)),
        (120.0, ("Poor", 0.2)),
        (float("nan"), ("Poor", 0.2)),
    ],
)
def test_latency_tier_boundaries(seconds: float, tier: tuple[str, float]) -> None:
    assert latency_tier(seconds) == tier
    if not math.isnan(seconds):
        result = score(latency=seconds)
        assert (result["latency_tier"], result["latency_score"]) == tier


def test_latency_does_not_decide_the_pass() -> None:
    assert score(latency=30.0)["overall_passed"] is True


def test_the_case_scores_schema_allows_every_tier_and_score_and_no_other() -> None:
    names = [name for _, _, name, _ in LATENCY_BOUNDS] + [POOR[0]]
    scores = [score for _, _, _, score in LATENCY_BOUNDS] + [POOR[1]]
    tier_check, score_check = (CASE_SCORES.columns[column].checks[0] for column in ("latency_tier", "latency_score"))
    assert tier_check(pd.Series(names)).check_passed and score_check(pd.Series(scores)).check_passed
    assert not tier_check(pd.Series(["Slow"])).check_passed and not score_check(pd.Series([0.9])).check_passed
