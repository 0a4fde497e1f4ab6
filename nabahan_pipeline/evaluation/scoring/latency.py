"""The seed's latency tiers: an answer's tier and score, and the latency figures of a summary."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import NON_NEGATIVE
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, mean_of, scorer

# The seed's latency table: < 2 s Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor; each bound belongs
# to the tier below it (5.0 s is Good, 10.0 s Acceptable), 2.0 s is no longer "< 2".
# (upper bound s, bound included, tier, score); the charts draw its bands (charts.tiers.TIER_SPANS).
LATENCY_BOUNDS: tuple[tuple[float, bool, str, float], ...] = (
    (2.0, False, "Excellent", 1.0),
    (5.0, True, "Good", 0.8),
    (10.0, True, "Acceptable", 0.5),
)
POOR = ("Poor", 0.2)
# Every tier and its score, best first.
TIERS: tuple[tuple[str, float], ...] = tuple((tier, score) for _, _, tier, score in LATENCY_BOUNDS) + (POOR,)


def latency_tier(seconds: float) -> tuple[str, float]:
    """The seed's latency tier and score (see LATENCY_BOUNDS); an unknown latency is Poor."""
    for bound, inclusive, tier, score in LATENCY_BOUNDS:
        if seconds < bound or (inclusive and seconds == bound):
            return tier, score
    return POOR


def _quantile(share: float):  # noqa: ANN202
    return lambda scores: float(scores["latency_s"].astype(float).quantile(share)) if len(scores) else math.nan


@scorer(
    Column("latency_tier", pa.Column(str, pa.Check.isin([name for name, _ in TIERS], name="latency_tier"),
                                     description="The seed's latency tier, Excellent to Poor (TIERS)."),
           "Latency Tier"),
    Column("latency_score", pa.Column(float, pa.Check.isin([score for _, score in TIERS], name="latency_score"),
                                      description="The latency tier's score, 1.0 (Excellent) to 0.2 (Poor)."),
           "Latency Score"),
    figures=[
        Figure("avg_latency_score", "Avg Latency Score", "score", "Mean latency score.", mean_of("latency_score")),
        Figure("avg_latency", "Avg Latency (s)", "seconds", "Mean latency, seconds.", mean_of("latency_s"), trend=True),
        Figure("p50_latency", "P50 Latency (s)", "seconds", "Median latency, seconds.", _quantile(0.5), trend=True),
        Figure("p95_latency", "P95 Latency (s)", "seconds", "95th percentile latency, seconds.", _quantile(0.95),
               trend=True),
    ],
)
def latency(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The answer's latency tier and its score; latency decides no verdict."""
    tier, score = latency_tier(answer.latency_s)
    return {"latency_tier": tier, "latency_score": score}
