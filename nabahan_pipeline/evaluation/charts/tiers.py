"""The seed's latency tiers as the charts draw them: names, bounds, colours, counts.

The charts' own copy of the tiers in evaluation/metrics.py (same bounds: < 2 s, 2-5, 5-10, > 10),
kept in this one module.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from nabahan_pipeline.evaluation.charts.style import EXEC_COLOR, FAIL_COLOR

# (name, Arabic, lower bound s, upper bound s) as in the metrics: < 2, 2-5, 5-10, > 10.
LATENCY_TIERS = (
    ("Excellent", "ممتاز", 0.0, 2.0),
    ("Good", "جيد", 2.0, 5.0),
    ("Acceptable", "مقبول", 5.0, 10.0),
    ("Poor", "ضعيف", 10.0, math.inf),
)
TIER_BOUNDARIES = tuple(upper for *_, upper in LATENCY_TIERS[:-1])  # dashed lines on a latency axis
TIER_COLORS = ("#56B4E9", "#F0E442", EXEC_COLOR, FAIL_COLOR)
TIER_ALPHA = 0.15


def tier_of(latency: np.ndarray) -> np.ndarray:
    """Each latency's tier name."""
    # As in the metrics: < 2 Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor (a bound is the tier below's).
    two, five, ten = TIER_BOUNDARIES
    return np.select(
        [latency < two, latency <= five, latency <= ten],
        ["Excellent", "Good", "Acceptable"],
        default="Poor",
    )


def tier_counts(scores: pd.DataFrame) -> dict[str, int]:
    """Answers per tier, every tier present: the scores' latency_tier, else tiers of latency_s."""
    if "latency_tier" in scores.columns:
        tiers = scores["latency_tier"].dropna().astype(str)
    else:
        lat = pd.to_numeric(scores["latency_s"], errors="coerce").dropna().to_numpy(dtype=float)
        tiers = pd.Series(tier_of(lat))
    counts = tiers.value_counts()
    return {name: int(counts.get(name, 0)) for name, *_ in LATENCY_TIERS}


def tier_range(a: float, b: float) -> str:
    """A tier's bounds for a legend: "< 2 s", "2–5 s", "> 10 s"."""
    if a <= 0:
        return f"< {b:g} s"
    if math.isinf(b):
        return f"> {a:g} s"
    return f"{a:g}–{b:g} s"
