"""The seed's latency tiers: the tier and score of an answer's latency."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nabahan_pipeline.evaluation.scoring.answer import Answer, scorer

# The seed's table: < 2 s Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor; each bound belongs to
# the tier below it (5.0 s is Good, 10.0 s Acceptable), 2.0 s is no longer "< 2".
# (upper bound s, bound included, tier, score)
LATENCY_TIERS: tuple[tuple[float, bool, str, float], ...] = (
    (2.0, False, "Excellent", 1.0),
    (5.0, True, "Good", 0.8),
    (10.0, True, "Acceptable", 0.5),
)
POOR = ("Poor", 0.2)
# Every tier and its score, best first.
TIERS: tuple[tuple[str, float], ...] = tuple((tier, score) for _, _, tier, score in LATENCY_TIERS) + (POOR,)


def latency_tier(seconds: float) -> tuple[str, float]:
    """The seed's latency tier and score (see LATENCY_TIERS); an unknown latency is Poor."""
    for bound, inclusive, tier, score in LATENCY_TIERS:
        if seconds < bound or (inclusive and seconds == bound):
            return tier, score
    return POOR


@scorer("latency_tier", "latency_score")
def latency(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The answer's latency tier and its score; latency decides no verdict."""
    tier, score = latency_tier(answer.latency_s)
    return {"latency_tier": tier, "latency_score": score}
