"""What the asset checks test of a run's scores: values in range, and whether a run regressed
against its baseline (a significant drop, or a must_pass case not right)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.evaluation.paired import Paired, case_outcomes, compare_paired
from nabahan_pipeline.evaluation.tables import CASE_SCORES

# The per-answer verdict behind each gated rate.
GATE_VERDICTS = {"correct_rate": "correct", "pass_rate": "overall_passed"}


def out_of_range(scores: pd.DataFrame) -> list[str]:
    """Each value outside what the case_scores schema allows (0/1 points, point sums within
    bounds, non-negative latencies, known tiers, a Correct answer that passed ...), as
    'column: n rows (e.g. case X = v)'; empty when all are in range."""
    problems: list[str] = []
    for name, column in CASE_SCORES.columns.items():
        if not column.checks:
            continue
        bad = scores[name].isna() if not column.nullable else pd.Series(False, index=scores.index)
        for check in column.checks:
            bad |= ~_passes(check, scores[name])
        if bad.any():
            first = scores.loc[bad].iloc[0]
            problems.append(f"{name}: {int(bad.sum())} rows (e.g. case {first['case_id']} = {first[name]!r})")
    for check in CASE_SCORES.checks:
        bad = ~_passes(check, scores)
        if bad.any():
            problems.append(f"{check.name}: {int(bad.sum())} rows (e.g. case {scores.loc[bad].iloc[0]['case_id']})")
    return problems


def _passes(check: pa.Check, values: pd.Series | pd.DataFrame) -> pd.Series:
    """Row by row whether ``values`` pass ``check``; a missing value passes (nullability is the
    column's own rule)."""
    return check(values).check_output.reindex(values.index, fill_value=True).astype(bool)


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
