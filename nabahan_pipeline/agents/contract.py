"""The agent contract, and the one record every adapter's answer is normalized to.

    agent(question: str, filters: dict | None = None) -> {
        "status": "success" | "out_of_scope" | "error",
        "sql": str | None, "data": list[dict], "insights": str, "error": str | None,
    }

A malformed answer never stops a run: it becomes an ``error`` record that says what was wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

STATUSES = ("success", "out_of_scope", "error")
REQUIRED_KEYS = ("status", "sql", "data", "insights")


class Agent(Protocol):
    """What the runner needs of an agent adapter."""

    spec: str

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Ask one question; return the raw answer (normalized later by ``normalize_answer``)."""

    def fingerprint(self) -> str:
        """What identifies this agent's version, for the response cache."""


@dataclass
class AgentAnswer:
    """One normalized answer; ``data`` rows are JSON-safe dicts."""

    status: str
    sql: str | None = None
    data: list[dict] = field(default_factory=list)
    insights: str = ""
    error: str | None = None
    prompt_tokens: float = math.nan
    completion_tokens: float = math.nan

    @classmethod
    def failure(cls, message: str) -> AgentAnswer:
        """An ``error`` answer carrying ``message``."""
        return cls(status="error", error=message)

    def to_contract(self) -> dict[str, Any]:
        """The answer as the contract's dict (what an agent returns)."""
        return {
            "status": self.status,
            "sql": self.sql,
            "data": self.data,
            "insights": self.insights,
            "error": self.error,
        }


def normalize_answer(raw: Any) -> AgentAnswer:
    """Check a raw answer against the contract and return it as an ``AgentAnswer``.

    Anything that breaks the contract (not a dict, a missing key, a wrong type, an unknown status,
    rows that are not objects or not JSON-serializable) becomes ``status="error"`` with a message
    naming the problem.
    """
    if not isinstance(raw, Mapping):
        return AgentAnswer.failure(f"malformed answer: expected a JSON object, got {type(raw).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in raw]
    if missing:
        return AgentAnswer.failure(f"malformed answer: missing key(s) {', '.join(missing)}")
    status, sql, data, insights = raw["status"], raw["sql"], raw["data"], raw["insights"]
    if status not in STATUSES:
        return AgentAnswer.failure(f"malformed answer: status {status!r} is not one of {', '.join(STATUSES)}")
    if sql is not None and not isinstance(sql, str):
        return AgentAnswer.failure(f"malformed answer: 'sql' must be a string or null, got {type(sql).__name__}")
    if data is None:
        data = []
    if not isinstance(data, list) or not all(isinstance(row, Mapping) for row in data):
        return AgentAnswer.failure("malformed answer: 'data' must be a list of row objects")
    if insights is None:
        insights = ""
    if not isinstance(insights, str):
        return AgentAnswer.failure(
            f"malformed answer: 'insights' must be a string, got {type(insights).__name__}"
        )
    error = raw.get("error")
    if error is not None and not isinstance(error, str):
        error = str(error)
    try:
        rows = [{str(key): _json_safe(value) for key, value in row.items()} for row in data]
        json.dumps(rows)
    except (TypeError, ValueError) as exc:
        return AgentAnswer.failure(f"malformed answer: 'data' is not JSON-serializable ({exc})")
    usage = raw.get("usage") if isinstance(raw.get("usage"), Mapping) else {}
    return AgentAnswer(
        status=status,
        sql=sql,
        data=rows,
        insights=insights,
        error=error,
        prompt_tokens=_as_float(usage.get("prompt_tokens")),
        completion_tokens=_as_float(usage.get("completion_tokens")),
    )


def _json_safe(value: Any) -> Any:
    # Values that databases hand back but JSON lacks: bytes, Decimal, dates.
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"value {value!r} of type {type(value).__name__}") from None


def _as_float(value: Any) -> float:
    try:
        return float(value) if value is not None else math.nan
    except (TypeError, ValueError):
        return math.nan
