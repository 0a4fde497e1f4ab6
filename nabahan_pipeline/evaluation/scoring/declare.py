"""What a scorer declares, once: the case_scores columns it fills and the summary figures it adds
(as inspect_ai's ``@scorer(metrics=[...])``). The tables, the CSV headers, the summary and the
synthetic scores are derived from these declarations (docs/internals.md: adding a metric).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import NON_NEGATIVE

# How a summary figure is read and formatted: a share 0..1, a count of answers, seconds, a score
# 0..1 that is no share (three decimals), a token total.
Kind = Literal["rate", "count", "seconds", "score", "tokens"]
# The 0/1 outcomes a rate is the mean of, and the case of each (None: each outcome its own case),
# for its 95 % interval; None: no interval this time (the rate is NaN).
Outcomes = tuple[pd.Series, "pd.Series | None"] | None
ScoreFunction = Callable[[Any, Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Column:
    """One case_scores column: ``schema`` its type, check, nullability and description (pandera's,
    shown on the asset's type in the Dagster UI); ``header`` its results CSV header (None: not in
    the CSV); ``draw`` how synthetic scores (bench and tests) make it from the other columns they
    drew, when their world does not draw it by name."""

    name: str
    schema: pa.Column
    header: str | None = None
    draw: Callable[[pd.DataFrame], Any] | None = None


@dataclass(frozen=True)
class Figure:
    """One evaluation_summary figure of a scope's answers (all, or one category's): ``value`` makes
    it from the scope's rows; ``outcomes`` (rates) what its 95 % interval is over (``<key>_low``,
    ``<key>_high``). ``label`` (``long_label`` on its own row) names it in the summary CSV, ``kpi``
    puts it in the HTML report's head, ``trend`` follows it across runs; ``optional`` leaves its
    rows out when NaN or none, ``report`` False keeps it out of the CSV. A rate's ``denominator``
    is the figure counting what it is over, ``counted`` that in words: "(6 of 17 with gold SQL)"."""

    key: str
    label: str
    kind: Kind
    description: str
    value: Callable[[pd.DataFrame], Any]
    outcomes: Callable[[pd.DataFrame], Outcomes] | None = None
    long_label: str | None = None
    kpi: bool = False
    trend: bool = False
    nullable: bool = False
    optional: bool = False
    report: bool = True
    at_least: int = 0
    denominator: str | None = None
    counted: str = ""

    @property
    def has_interval(self) -> bool:
        return self.outcomes is not None

    def left_out(self, value: Any) -> bool:
        """An optional figure with nothing to say (NaN, or a count of none): its rows left out."""
        return self.optional and (value is None or pd.isna(value) or (self.kind == "count" and not value))

    def schema(self) -> dict[str, pa.Column]:
        """The summary table's column(s) of this figure: itself, then its interval's bounds."""
        # (type, check, nullable) by kind; a rate's and a score's are the else.
        typed = {"count": (int, pa.Check.ge(self.at_least), False), "seconds": (float, NON_NEGATIVE, False),
                 "tokens": (float, None, True)}.get(self.kind, (float, RATE, self.nullable))
        dtype, check, nullable = typed
        columns = {self.key: pa.Column(dtype, check, nullable=nullable, description=self.description,
                                       metadata={"trend": True} if self.trend else None)}
        if self.has_interval:
            columns.update(bounds(self.key))
        return columns


@dataclass(frozen=True)
class Scorer:
    """A metric of one answer: the case_scores ``columns`` it fills, the summary ``figures`` it
    adds, and ``score``, which fills the columns from the answer and the scores of the scorers
    run before it."""

    name: str
    columns: tuple[Column, ...]
    score: ScoreFunction
    figures: tuple[Figure, ...] = field(default=())

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    def __call__(self, answer: Any, scores: Mapping[str, Any]) -> dict[str, Any]:
        return self.score(answer, scores)


def scorer(*columns: Column, figures: Iterable[Figure] = ()) -> Callable[[ScoreFunction], Scorer]:
    """Declare a function the scorer of ``columns`` and ``figures`` (named after the function)."""

    def declare(score: ScoreFunction) -> Scorer:
        return Scorer(score.__name__, columns, score, tuple(figures))

    return declare


RATE = pa.Check.in_range(0, 1)
POINT = pa.Check.isin((0, 1))
MATCH = pa.Check.isin((0.0, 1.0))


def bounds(rate: str) -> dict[str, pa.Column]:
    """``rate``'s 95 % interval (evaluation.intervals): ``rate_low`` and ``rate_high``."""
    return {f"{rate}_{side}": pa.Column(float, RATE, nullable=True,
                                        description=f"{edge} bound of {rate}'s 95 % interval; NaN where it is NaN.")
            for side, edge in (("low", "Lower"), ("high", "Upper"))}


def point(name: str, description: str, header: str, draw: Callable[[pd.DataFrame], Any] | None = None) -> Column:
    """A 0/1 point column."""
    return Column(name, pa.Column(int, POINT, description=description), header, draw)


def count(name: str, description: str, header: str | None = None, *, at_least: int = 0,
          draw: Callable[[pd.DataFrame], Any] | None = None) -> Column:
    """A count column (int, at least ``at_least``)."""
    return Column(name, pa.Column(int, pa.Check.ge(at_least), description=description), header, draw)


def mean_of(column: str) -> Callable[[pd.DataFrame], float]:
    """A figure's value: the mean of ``column`` over the scope's answers (NaN when none)."""
    return lambda scores: float(scores[column].astype(float).mean()) if len(scores) else math.nan


def share_of(column: str) -> Callable[[pd.DataFrame], float]:
    """A figure's value: the share of the scope's answers where ``column`` is true (NaN when none)."""
    return lambda scores: int(scores[column].astype(bool).sum()) / len(scores) if len(scores) else math.nan


def sum_of(column: str) -> Callable[[pd.DataFrame], int]:
    """A figure's value: how many of the scope's answers have ``column`` true."""
    return lambda scores: int(scores[column].astype(bool).sum())


def by_case(outcomes: Callable[[pd.DataFrame], pd.Series]) -> Callable[[pd.DataFrame], Outcomes]:
    """A rate's interval over its answers' outcomes, clustered by case."""
    return lambda scores: (outcomes(scores), scores["case_id"] if "case_id" in scores else None)
