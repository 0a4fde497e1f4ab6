"""The seed's latency tiers (declared by scoring.latency.LATENCY_BOUNDS) as the charts draw them:
Arabic names, each band's bounds and colour, counts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from nabahan_pipeline.evaluation.charts.style import EXEC_COLOR, FAIL_COLOR
from nabahan_pipeline.evaluation.scoring.latency import LATENCY_BOUNDS, POOR, TIERS

_ARABIC = {"Excellent": "ممتاز", "Good": "جيد", "Acceptable": "مقبول", "Poor": "ضعيف"}
_UPPER = tuple(bound for bound, *_ in LATENCY_BOUNDS) + (math.inf,)
# (name, Arabic, lower bound s, upper bound s), best first: < 2, 2-5, 5-10, > 10.
TIER_SPANS = tuple(
    (name, _ARABIC[name], lower, upper)
    for (name, _), lower, upper in zip(TIERS, (0.0, *_UPPER[:-1]), _UPPER, strict=True)
)
TIER_BOUNDARIES = tuple(upper for *_, upper in TIER_SPANS[:-1])  # dashed lines on a latency axis
TIER_COLORS = ("#56B4E9", "#F0E442", EXEC_COLOR, FAIL_COLOR)
TIER_ALPHA = 0.15


def tier_of(latency: np.ndarray) -> np.ndarray:
    """Each latency's tier name."""
    # As scoring.latency reads LATENCY_BOUNDS: a bound marked inclusive belongs to the tier below.
    conditions = [latency <= bound if inclusive else latency < bound for bound, inclusive, _, _ in LATENCY_BOUNDS]
    names = [name for _, _, name, _ in LATENCY_BOUNDS]
    return np.select(conditions, names, default=POOR[0])


def tier_counts(scores: pd.DataFrame) -> dict[str, int]:
    """Answers per tier, every tier present: the scores' latency_tier, else tiers of latency_s."""
    if "latency_tier" in scores.columns:
        tiers = scores["latency_tier"].dropna().astype(str)
    else:
        lat = pd.to_numeric(scores["latency_s"], errors="coerce").dropna().to_numpy(dtype=float)
        tiers = pd.Series(tier_of(lat))
    counts = tiers.value_counts()
    return {name: int(counts.get(name, 0)) for name, *_ in TIER_SPANS}


def tier_range(a: float, b: float) -> str:
    """A tier's bounds for a legend: "< 2 s", "2–5 s", "> 10 s"."""
    if a <= 0:
        return f"< {b:g} s"
    if math.isinf(b):
        return f"> {a:g} s"
    return f"{a:g}–{b:g} s"
