"""The agent contract, and the one record every adapter's answer is normalized to.

    agent(question: str, filters: dict | None = None) -> {
        "status": "success" | "out_of_scope" | "error",
        "sql": str | None, "data": list[dict], "insights": str, "error": str | None,
    }

Instead of ``data`` an answer may carry ``columns`` (names) and ``rows`` (lists of values), where
two columns may share a name; an optional ``dialect`` (sqlglot's names) has ``sql`` transpiled to
SQLite before it runs.

A malformed answer, or one over a cap (``AnswerLimits``: rows and values counted before anything is
copied, text measured as it is converted), becomes an ``error`` record saying what was wrong. No
answer is shown whole or walked by recursion: a list or object in a cell is refused by its type.
Every value kept is JSON: NaN and infinities become null, bytes text (base64 when not UTF-8).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from nabahan_pipeline.errors import ContractError
from nabahan_pipeline.settings import SETTINGS

STATUSES = ("success", "out_of_scope", "error")
REQUIRED_KEYS = ("status", "sql", "insights")
# The values (rows x columns) of one answer: the cap on the values of a query we re-run
# (etimad_db.sql_safety.DEFAULT_MAX_CELLS), since no more can be verified. It bounds the objects
# an answer becomes: a 32 MiB body of small numbers would be 16 million of them.
MAX_ANSWER_VALUES = 1_000_000
# How deep an HTTP answer's JSON may nest: the contract needs 3 levels ({"rows": [[value]]}), a
# chat completion 5; past this the body is refused before it is parsed (json_bounds).
MAX_ANSWER_DEPTH = 32
# A whole number JSON can carry back (Python writes no int of over 4,300 digits as text): 100 digits.
_MAX_INT_BITS = 332


@dataclass(frozen=True)
class AgentOptions:
    """What an adapter is built from (``registry.build_agent``) for the CLI, the API and the Dagster
    resource alike. Its secret is given (through ``dg.EnvVar`` by the resource), else, with
    ``secret_from_env``, read by the adapter from its own variable."""

    spec: str
    agent_version: str | None = None
    database: str | Path | None = None
    timeout_s: float = 30.0
    max_answer_bytes: int | None = None
    sql_timeout_s: float | None = None
    in_process: bool = False
    folders: tuple[str, ...] = ()
    secret: str | None = None
    secret_from_env: bool = True
    # A python: agent's child: how long its import may take, and the one variable it may read.
    start_timeout_s: float | None = None
    token_env: str | None = None


@dataclass(frozen=True)
class AnswerLimits:
    """The most of an answer we take (past a cap it is an ``error`` naming the cap), which keeps a
    run's memory bounded whatever an agent sends: ``max_rows`` is the row cap of the SQL we re-run
    (no more rows can be verified); the others are a hundred times what a real answer needs."""

    max_rows: int = SETTINGS["max_answer_rows"].default
    max_insight_chars: int = SETTINGS["max_insight_chars"].default
    max_sql_chars: int = SETTINGS["max_sql_chars"].default
    max_answer_bytes: int = SETTINGS["max_answer_bytes"].default
    max_values: int = MAX_ANSWER_VALUES


class Agent(Protocol):
    """What the runner needs of an agent adapter; one that subclasses it gets ``check`` and
    ``close`` as no-ops (a service overrides them)."""

    spec: str

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Ask one question; return the raw answer (normalized later by ``normalize_answer``)."""

    def fingerprint(self) -> str:
        """What identifies this agent's version, for the response cache."""

    def check(self) -> None:
        """Raise AgentSpecError when the agent cannot answer at all (before any case is asked)."""

    def close(self) -> None:
        """Let go of what the agent holds (connections); the run's end calls it once."""


@dataclass
class AgentAnswer:
    """One normalized answer: the result as column names and rows of JSON-safe values."""

    status: str
    sql: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    insights: str = ""
    error: str | None = None
    dialect: str | None = None
    prompt_tokens: float = math.nan
    completion_tokens: float = math.nan

    @classmethod
    def failure(cls, message: str) -> AgentAnswer:
        """An ``error`` answer carrying ``message``."""
        return cls(status="error", error=message)

    @property
    def data(self) -> list[dict]:
        """The rows as column -> value objects (the seed's form; a repeated column name keeps its last value)."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def to_contract(self) -> dict[str, Any]:
        """The answer as the contract's dict (what an agent returns), in both result forms."""
        answer = {"status": self.status, "sql": self.sql, "data": self.data, "columns": self.columns,
                  "rows": self.rows, "insights": self.insights, "error": self.error}
        if self.dialect:
            answer["dialect"] = self.dialect
        return answer


def normalize_answer(raw: Any, limits: AnswerLimits = AnswerLimits()) -> AgentAnswer:
    """A raw answer checked against the contract and ``limits``, as an ``AgentAnswer``: one that
    breaks the contract or goes over a cap is ``status="error"`` with a message naming the problem."""
    if not isinstance(raw, Mapping):
        return AgentAnswer.failure(f"malformed answer: expected a JSON object, got {type(raw).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in raw]
    if "data" not in raw and "rows" not in raw:
        missing.insert(2, "data")
    if missing:
        return AgentAnswer.failure(f"malformed answer: missing key(s) {', '.join(missing)}")
    status, sql, insights = raw["status"], raw["sql"], raw["insights"]
    if not isinstance(status, str) or status not in STATUSES:
        given = repr(_cut(status)) if isinstance(status, str) else f"given as {_type_name(status)}"
        return AgentAnswer.failure(f"malformed answer: status {given} is not one of {', '.join(STATUSES)}")
    if sql is not None and not isinstance(sql, str):
        return AgentAnswer.failure(f"malformed answer: 'sql' must be a string or null, got {type(sql).__name__}")
    if insights is None:
        insights = ""
    if not isinstance(insights, str):
        return AgentAnswer.failure(
            f"malformed answer: 'insights' must be a string, got {type(insights).__name__}"
        )
    over = _over_a_cap(raw, insights, limits)
    if over:
        return AgentAnswer.failure(f"answer over the cap: {over}")
    dialect = raw.get("dialect")
    if dialect is not None and not isinstance(dialect, str):
        return AgentAnswer.failure(f"malformed answer: 'dialect' must be a string, got {type(dialect).__name__}")
    error = raw.get("error")
    if error is not None and not isinstance(error, str):
        error = str(error) if isinstance(error, (int, float)) else f"(an error given as {_type_name(error)})"
    try:
        columns, rows = result_table(raw, limits.max_values)
        columns = [str.__str__(name) for name in columns]  # a str subclass's text, as json_safe's values
        rows = _json_rows(rows, max(0, limits.max_answer_bytes - len(insights) - len(sql or "")))
    except ContractError as exc:
        return AgentAnswer.failure(f"malformed answer: {exc}")
    except _OverTheCap as exc:
        return AgentAnswer.failure(f"answer over the cap: {exc}")
    except TypeError as exc:
        return AgentAnswer.failure(f"malformed answer: the rows are not JSON-serializable ({exc})")
    usage = raw.get("usage") if isinstance(raw.get("usage"), Mapping) else {}
    return AgentAnswer(status=status, sql=sql, columns=columns, rows=rows, insights=insights, error=error,
                       dialect=dialect or None, prompt_tokens=_as_float(usage.get("prompt_tokens")),
                       completion_tokens=_as_float(usage.get("completion_tokens")))


# An answer's result as read: (column names, rows).
ResultTable = tuple[list[str], list[list]]


def result_table(answer: Mapping[str, Any], max_values: int | None = None) -> ResultTable:
    """An answer's result as (column names, rows): from ``columns`` + ``rows``, else from ``data``
    (columns in order of first appearance, a value a row lacks None). Raises ContractError for a
    result in neither form, ``_OverTheCap`` for over ``max_values`` values (counted first). Rows
    that are lists are handed back uncopied: a caller that changes them copies them first."""
    if answer.get("rows") is not None:
        columns, rows = answer.get("columns"), answer["rows"]
        if not isinstance(columns, list) or not all(isinstance(name, str) for name in columns):
            raise ContractError("'columns' must be a list of column names when 'rows' is given")
        if not isinstance(rows, list) or not all(isinstance(row, (list, tuple)) for row in rows):
            raise ContractError("'rows' must be a list of lists of values")
        if any(len(row) != len(columns) for row in rows):
            raise ContractError(f"every row must have {len(columns)} values, one per column")
        _count_values(len(rows) * len(columns), max_values)
        return list(columns), [row if isinstance(row, list) else list(row) for row in rows]
    data = answer.get("data")
    if data is None:
        return [], []
    if not isinstance(data, list) or not all(isinstance(row, Mapping) for row in data):
        raise ContractError("'data' must be a list of row objects")
    _count_values(sum(len(row) for row in data), max_values)
    columns = list(dict.fromkeys(str(name) for row in data for name in row))
    _count_values(len(data) * len(columns), max_values)
    return columns, [[_get(row, name) for name in columns] for row in data]


class _OverTheCap(Exception):
    """An answer found over a cap while it is read (the message names the cap)."""


def _count_values(values: int, max_values: int | None) -> None:
    if max_values is not None and values > max_values:
        raise _OverTheCap(f"{values:,} values > the cap of {max_values:,} values (rows x columns)")


def _json_rows(rows: list[list], max_chars: int) -> list[list]:
    """``rows`` copied with each value JSON-safe, a row at a time, the text counted as it goes:
    over ``max_chars`` (the byte cap less insight and SQL) the answer is refused before more is copied."""
    chars = 0
    safe: list[list] = []
    for row in rows:
        values = [json_safe(value) for value in row]
        chars += sum(len(value) for value in values if isinstance(value, str))
        if chars > max_chars:
            raise _OverTheCap(f"more than {max_chars:,} characters of text in the rows (max_answer_bytes)")
        safe.append(values)
    return safe


def _type_name(value: Any) -> str:
    names = {dict: "an object", list: "a list", tuple: "a list", bool: "a boolean", int: "a number", float: "a number"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def _cut(text: str, chars: int = 40) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _get(row: Mapping[str, Any], name: str) -> Any:
    return row[name] if name in row else next((v for k, v in row.items() if str(k) == name), None)


def _over_a_cap(raw: Mapping[str, Any], insights: str, limits: AnswerLimits) -> str | None:
    # Counted on the raw answer, before any copy: a million rows are refused, not converted.
    result = raw.get("rows") if raw.get("rows") is not None else raw.get("data")  # as result_table reads it
    if isinstance(result, (list, tuple)) and len(result) > limits.max_rows:
        return f"{len(result):,} rows > max_answer_rows {limits.max_rows:,}"
    if len(insights) > limits.max_insight_chars:
        return f"an insight of {len(insights):,} characters > max_insight_chars {limits.max_insight_chars:,}"
    sql = raw.get("sql")
    if isinstance(sql, str) and len(sql) > limits.max_sql_chars:
        return f"SQL of {len(sql):,} characters > max_sql_chars {limits.max_sql_chars:,}"
    return None


def json_safe(value: Any) -> Any:
    """One cell's value as JSON keeps it, always of JSON's own types (NaN as None, bytes as text or
    ``base64:``, dates as ISO, a subclass's value as ``json`` writes it, other numbers as floats), so
    that it equals what its JSON text reads back as; TypeError for anything else."""
    if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
        raise TypeError("a number of more than 100 digits")
    if value is None or type(value) in (bool, int, str):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else None
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return "base64:" + base64.b64encode(data).decode("ascii")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (Mapping, list, tuple, set)):
        raise TypeError(f"a value that is {_type_name(value)}: a cell holds one value")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"a value of type {type(value).__name__}") from None
    return number if math.isfinite(number) else None


def _as_float(value: Any) -> float:
    try:
        return float(value) if value is not None else math.nan
    except (TypeError, ValueError):
        return math.nan
