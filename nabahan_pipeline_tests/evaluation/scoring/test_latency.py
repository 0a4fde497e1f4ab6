"""The seed's latency tiers: each bound belongs to the tier below it; latency decides no verdict."""

from __future__ import annotations

import math

import pytest

from nabahan_pipeline.evaluation.scoring import latency_tier
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
