"""One answer to one case as every scorer reads it (what a scorer is: ``scoring.declare``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from nabahan_pipeline.agents.contract import ContractError, result_table
from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline.evaluation.agent_sql import CheckedSQL, SQLRun, check_agent_sql
from nabahan_pipeline.evaluation.case_table import OUT_OF_SCOPE
from nabahan_pipeline.evaluation.execution_match import ExpectedResult


@dataclass(frozen=True)
class Answer:
    """One answer to one case, read once for every scorer: ``checked`` is its SQL's safety check,
    ``columns`` and ``rows`` the result it reported, ``gold`` the gold SQL's result on the evaluation
    database, ``replay`` its SQL re-run there, ``suite`` both results on each test-suite database."""

    case: Mapping[str, Any]
    status: Any
    sql: str | None
    dialect: str | None
    checked: CheckedSQL
    columns: list[str]
    rows: list[list]
    data_rows: int
    insight: str
    question: str
    error: str | None
    latency_s: float
    gold: QueryResult | ExpectedResult | None = None
    replay: SQLRun | None = None
    suite: Sequence[tuple[ExpectedResult, SQLRun]] = ()

    @classmethod
    def read(
        cls,
        case: Mapping[str, Any],
        answer: Mapping[str, Any],
        latency_s: float,
        gold: QueryResult | ExpectedResult | None = None,
        *,
        replay: SQLRun | None = None,
        suite: Sequence[tuple[ExpectedResult, SQLRun]] = (),
    ) -> Answer:
        """``answer`` has the contract's keys: its result as ``data`` or as ``columns`` + ``rows``
        (a malformed result reads as none), and an optional ``dialect``."""
        sql, dialect = text_or_none(answer.get("sql")), text_or_none(answer.get("dialect"))
        try:
            columns, rows = result_table(answer)
        except ContractError:
            columns, rows = [], []
        return cls(
            case=case,
            status=answer.get("status"),
            sql=sql,
            dialect=dialect,
            checked=check_agent_sql(sql, dialect),
            columns=columns,
            rows=rows,
            data_rows=data_rows(answer, rows),
            insight=text_or_none(answer.get("insights")) or "",
            question=text_or_none(case.get("question")) or "",
            error=text_or_none(answer.get("error")),
            latency_s=latency_s,
            gold=gold,
            replay=replay,
            suite=suite,
        )

    @property
    def in_scope(self) -> bool:
        return self.case["category"] != OUT_OF_SCOPE

    @property
    def refused(self) -> bool:
        """A refusal: status out_of_scope and no SQL."""
        return self.status == "out_of_scope" and self.sql is None


def data_rows(answer: Mapping[str, Any], rows: list) -> int:
    """The rows an answer reports: the runner records data_rows; an answer built by hand may
    leave it to the rows."""
    return int(answer["data_rows"]) if present(answer.get("data_rows")) else len(rows)


def present(value: Any) -> bool:
    """False for None and for the NaN/NA that pandas puts in place of a missing value."""
    if value is None:
        return False
    if isinstance(value, (str, int, list)):  # the usual cells and a result's rows, answered without pandas
        return True
    if isinstance(value, float):
        return not math.isnan(value)
    try:
        return not bool(pd.isna(value))
    except (TypeError, ValueError):
        return True  # list-likes


def text_or_none(value: Any) -> str | None:
    """A non-blank string, else None (None, NaN and blank strings all mean 'absent')."""
    return value if isinstance(value, str) and value.strip() else None
