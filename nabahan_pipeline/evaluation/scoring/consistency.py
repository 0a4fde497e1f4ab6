"""Consistency over a case's repeats (--repeat): how many passed, how many distinct SQL texts
and result sets; each case's figures stand on every one of its rows."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import math

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.evaluation.scoring.declare import RATE, Column, Figure, Outcomes, count

# The case_scores columns filled here, over a case's repeats, and the summary figures over them.
DECLARED: tuple[Column, ...] = (
    Column("repeat_pass_share", pa.Column(float, RATE, description="Share of the case's repeats that passed (Overall Passed)."),
           "Repeat Pass Share"),
    count("distinct_sql", "Distinct SQL texts over the case's repeats.", "Distinct SQL", at_least=1),
    count("distinct_results", "Distinct result sets over the case's repeats.", "Distinct Results", at_least=1),
)
COLUMNS: tuple[str, ...] = tuple(column.name for column in DECLARED)


def repeats(scores: pd.DataFrame) -> int:
    """Answers per case (1 without --repeat)."""
    return int(scores["repeat"].max()) + 1 if len(scores) and "repeat" in scores.columns else 1


def _every_repeat_passed(scores: pd.DataFrame) -> pd.Series | None:
    # pass^N: a case counts when every one of its N repeats passed; none for single runs.
    if repeats(scores) < 2:
        return None
    return scores["overall_passed"].astype(bool).groupby(scores["case_id"]).all()


def _pass_hat_n_outcomes(scores: pd.DataFrame) -> Outcomes:
    passed = _every_repeat_passed(scores)
    return None if passed is None else (passed, None)  # a share of cases, each one observation: no clustering


def _pass_hat_n(scores: pd.DataFrame) -> float:
    passed = _every_repeat_passed(scores)
    return math.nan if passed is None else float(passed.mean())


FIGURES: tuple[Figure, ...] = (
    Figure("repeats", "Repeats", "count", "Answers per case.", repeats, at_least=1, report=False),
    Figure("pass_hat_n", "Pass^N", "rate", "Share of cases whose every repeat passed; NaN for single runs.",
           _pass_hat_n, _pass_hat_n_outcomes, long_label="Pass^N (all repeats passed)", trend=True, nullable=True,
           optional=True, denominator="cases", counted="cases"),
)


def result_digest(rows: Sequence[Any]) -> str:
    """A short digest of a result set, blind to row order, to count distinct results across repeats.
    Each row's JSON is kept as UTF-8 (half the size of the text for Arabic; sorted the same: UTF-8
    keeps the order of code points) and hashed a row at a time, never joined into one copy."""
    canonical = sorted(json.dumps(row, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8") for row in rows)
    digest = hashlib.sha256()
    for number, line in enumerate(canonical):
        digest.update(b"\n" + line if number else line)
    return digest.hexdigest()[:16]


def add_repeat_consistency(scores: pd.DataFrame) -> pd.DataFrame:
    """Per case, over its repeats: the share that passed, distinct SQL texts, distinct result sets."""
    # Built-in group reductions only: a Python function per case costs 5 s per 10,000 cases.
    case = scores["case_id"]
    return scores.assign(
        repeat_pass_share=scores["overall_passed"].groupby(case, sort=False).transform("mean").astype(float),
        distinct_sql=scores["sql"].fillna("").groupby(case, sort=False).transform("nunique").astype("int64"),
        distinct_results=scores["result_digest"].groupby(case, sort=False).transform("nunique").astype("int64"),
    )
