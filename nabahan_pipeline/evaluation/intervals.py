"""95 % intervals for the rates of a run: Wilson's for a proportion (inside 0..1, and its coverage
kept at 0/n, n/n and small n, where Wald's collapses), and with ``--repeat`` Wilson's on a
design-effect-adjusted size clustered by case: a case's repeats are not independent, and the
ratio estimator's variance over cases says by how much in closed form, with no random draw.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import pandas as pd

# The two-sided 95 % normal quantile, Phi^-1(0.975).
Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``successes`` of ``n`` (``n`` may be an effective, fractional
    size); (NaN, NaN) when ``n`` is 0."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # Rounding leaves 1e-17 outside [0, 1] at p = 0 or 1.
    return max(0.0, centre - half), min(1.0, centre + half)


def effective_size(outcomes: pd.Series, clusters: pd.Series) -> float:
    """How many independent answers ``outcomes`` (0/1, one per answer) are worth when the answers
    of one cluster (a case's repeats) go together: the answers divided by the design effect
    (the ratio estimator's variance over clusters against the binomial's), kept between the number
    of clusters (repeats that always agree) and the number of answers (repeats as independent)."""
    answers = len(outcomes)
    if clusters.nunique() == answers:  # each case answered once (no --repeat): no grouping to do
        return float(answers)
    per_case = pd.DataFrame({"y": outcomes.astype(float).to_numpy(), "case": clusters.to_numpy()}).groupby(
        "case", sort=False)["y"].agg(["sum", "count"])
    k = len(per_case)
    p = float(outcomes.astype(float).mean())
    binomial = p * (1 - p) / answers
    if k < 2 or binomial == 0:
        # All right or all wrong: every case's repeats agree, each case is one observation.
        return float(k)
    residuals = per_case["sum"] - p * per_case["count"]
    clustered = k / (k - 1) * float((residuals**2).sum()) / answers**2
    design_effect = max(1.0, clustered / binomial)
    return min(float(answers), max(float(k), answers / design_effect))


def rate_interval(outcomes: Iterable[float] | pd.Series, clusters: Iterable[object] | pd.Series | None = None
                  ) -> tuple[float, float]:
    """The 95 % interval of the share of ``outcomes`` (0/1 or booleans, one per answer; NaN ones
    left out) that are 1: Wilson's; when ``clusters`` (each answer's case) has a case answered
    more than once, Wilson's on the design-effect-adjusted size (``effective_size``)."""
    values = pd.Series(outcomes, dtype=object) if not isinstance(outcomes, pd.Series) else outcomes
    values = values.astype(float).reset_index(drop=True)
    known = values.notna()
    values = values[known]
    if values.empty:
        return math.nan, math.nan
    p = float(values.mean())
    if clusters is None:
        n = float(len(values))
    else:
        groups = pd.Series(list(clusters), dtype=object)[known.to_numpy()].reset_index(drop=True)
        n = effective_size(values.reset_index(drop=True), groups)
    return wilson(p * n, n)
