"""The seed's latency tiers (declared in evaluation.tables): an answer's tier and score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nabahan_pipeline.evaluation.scoring.answer import Answer, scorer
from nabahan_pipeline.evaluation.tables import LATENCY_TIERS, POOR


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
