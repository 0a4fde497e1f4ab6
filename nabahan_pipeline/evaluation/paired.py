"""Two evaluations of the same cases compared case by case: the cases flipped each way, and whether
the flips are more than noise (the exact McNemar test). A case is right when every one of its
answers is, by the verdict compared (Correct by default); only cases both hold are compared."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

# A difference is called significant below this two-sided p-value.
ALPHA = 0.05


def mcnemar_p(b: int, c: int) -> float:
    """The exact two-sided McNemar p-value for ``b`` cases right only in the first evaluation and
    ``c`` right only in the second: under no difference each discordant case is a fair coin, so
    p = 2 * P(Binomial(b + c, 1/2) <= min(b, c)), at most 1; 1.0 when nothing flipped."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**n)


def case_outcomes(scores: pd.DataFrame, verdict: str = "correct") -> pd.Series:
    """Per case (in first-answer order), whether every one of its answers is right by ``verdict``
    (a run from before that column is read by the seed's ``overall_passed``)."""
    column = verdict if verdict in scores.columns else "overall_passed"
    return scores[column].astype(bool).groupby(scores["case_id"], sort=False).all()


@dataclass(frozen=True)
class Paired:
    """Two evaluations (or two agents), before and after, on the cases both hold: how many, the
    cases only the later gets right (``improved``) and only the earlier does (``worsened``), in
    case order, and the McNemar p-value of that split."""

    cases: int
    improved: tuple[str, ...]
    worsened: tuple[str, ...]
    p_value: float

    @property
    def significant(self) -> bool:
        """The difference is more than noise: p below ALPHA."""
        return self.p_value < ALPHA

    @property
    def significant_drop(self) -> bool:
        """The later is significantly worse: more cases worsened than improved, and significant."""
        return self.significant and len(self.worsened) > len(self.improved)


def compare_paired(before: pd.Series, after: pd.Series) -> Paired:
    """``before`` and ``after`` (case_id -> right or not, as ``case_outcomes`` gives) compared on
    the cases both hold, in ``after``'s order."""
    common = [case for case in after.index if case in before.index]
    was, now = before.reindex(common).astype(bool), after.reindex(common).astype(bool)
    improved = tuple(str(case) for case in common if now[case] and not was[case])
    worsened = tuple(str(case) for case in common if was[case] and not now[case])
    return Paired(len(common), improved, worsened, mcnemar_p(len(worsened), len(improved)))
