"""What the regression check tests of a run's scores: whether the run regressed against its
baseline (a significant drop, or a must_pass case not right). The scores' ranges are their
schema's (``evaluation.tables``), checked once, as Dagster stores the table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from nabahan_pipeline.evaluation.paired import Paired, case_outcomes, compare_paired

# The per-answer verdict behind each gated rate.
GATE_VERDICTS = {"correct_rate": "correct", "pass_rate": "overall_passed"}


@dataclass(frozen=True)
class Regression:
    """A run against its baseline, case by case (``paired``), and the must_pass cases it got wrong.
    It regressed on a significant drop (more cases worsened than improved, McNemar p < 0.05) or on
    any must_pass case not right; a few flipped cases alone are noise."""

    paired: Paired | None  # None without a baseline run
    must_pass_failed: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """No significant drop and every must_pass case right."""
        return not self.must_pass_failed and not (self.paired is not None and self.paired.significant_drop)


def regression(previous: pd.DataFrame | None, current: pd.DataFrame, must_pass: Iterable[str] = (),
               verdict: str = "correct") -> Regression:
    """``current`` (case_scores) against ``previous`` (its baseline's, or None), each case right
    when every one of its answers is by ``verdict``; ``must_pass`` the case ids that must be right."""
    now = case_outcomes(current, verdict)
    paired = None if previous is None else compare_paired(case_outcomes(previous, verdict), now)
    required = set(must_pass)
    return Regression(paired, tuple(str(case) for case, right in now.items() if case in required and not right))
