"""The embedded reference agent: Arabic question -> SQL over the embedded database -> Arabic insight.

    nabahan_agent(question, filters=None) -> {"status", "sql", "data", "columns", "rows", "insights", "error"}

The baseline users compare their own agents against: deterministic and offline. It never raises:
a question it does not take is refused (``out_of_scope``, an apology starting with "عذراً"), and
anything that goes wrong becomes ``status="error"`` with a message."""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from nabahan_pipeline.etimad_db.store import connect_readonly, ensure_database
from nabahan_pipeline.reference_agent.insights import apology, understood_note, unused_note, write_insight
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser import QuestionParser, Refusal, apply_filters
from nabahan_pipeline.reference_agent.sql_builder import build_sql, unanswerable

_FILTERS_APOLOGY = "عذراً، لم أستطع قراءة عوامل التصفية المرسلة مع السؤال: "
_ERROR_APOLOGY = "عذراً، حدث خطأ أثناء الإجابة عن السؤال؛ حاول صياغته بطريقة أخرى."


class ReferenceAgent:
    """The reference agent over one SQLite database (the embedded default when ``database`` is None).

    ``as_of`` anchors "this year" / "last month"; by default the latest publish date in the data,
    so that answers do not drift with the clock. Safe to share between threads: each thread gets
    its own read-only connection; the lookup tables are read once.
    """

    def __init__(self, database: str | Path | None = None, as_of: date | None = None) -> None:
        self._database = database
        self._as_of = as_of
        self._setup_lock = threading.Lock()
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []  # every thread's, closed by close()
        self._connections_lock = threading.Lock()
        # An agent dropped without close() still closes its connections when it is collected.
        weakref.finalize(self, _close_all, self._connections)
        self._path: Path | None = None
        self._parser: QuestionParser | None = None

    @property
    def parser(self) -> QuestionParser:
        """The question parser, bound to this database's lookup tables (loaded on first use)."""
        if self._parser is None:
            with self._setup_lock:
                if self._parser is None:
                    self._path = ensure_database(self._database)
                    catalog = Catalog.load(self._connection())
                    self._parser = QuestionParser(catalog, self._as_of)
        return self._parser

    def _connection(self) -> sqlite3.Connection:
        con = getattr(self._local, "connection", None)
        if con is None:
            assert self._path is not None
            con = connect_readonly(self._path)
            self._local.connection = con
            with self._connections_lock:
                self._connections.append(con)
        return con

    def close(self) -> None:
        """Close every thread's connection; a later question opens a new one."""
        with self._connections_lock:
            connections = list(self._connections)
            self._connections.clear()
            self._local = threading.local()
        _close_all(connections)

    def ask(self, question: str, filters: dict | None = None) -> dict[str, Any]:
        """Answer one question (contract dict); never raises."""
        try:
            return self._answer(question, filters)
        except Exception as exc:  # the contract: an error answer, never a traceback
            return _answer("error", insights=_ERROR_APOLOGY, error=f"{type(exc).__name__}: {exc}")

    def _answer(self, question: str, filters: dict | None) -> dict[str, Any]:
        if filters is not None and not isinstance(filters, Mapping):
            message = f"filters must be an object (dict), got {type(filters).__name__}"
            return _answer("error", insights=_FILTERS_APOLOGY + message, error=message)
        parser = self.parser
        frame = parser.parse(question)
        if isinstance(frame, Refusal):
            return _answer("out_of_scope", insights=apology(frame))
        if filters:
            try:
                frame = apply_filters(frame, filters, parser)
            except ValueError as exc:
                return _answer("error", insights=_FILTERS_APOLOGY + str(exc), error=str(exc))
        unheld = unanswerable(frame)
        if unheld:
            return _answer("out_of_scope", insights=apology(Refusal("no_column", tuple(c.label for c in unheld))))
        sql = build_sql(frame)
        cursor = self._connection().execute(sql)
        columns = [d[0] for d in cursor.description]
        values = [list(row) for row in cursor.fetchall()]
        rows = [dict(zip(columns, row)) for row in values]
        insight = write_insight(frame, rows, parser.catalog)
        if frame.understood:
            insight = understood_note(frame.understood) + insight
        if frame.unused:
            insight += unused_note(frame.unused)
        return _answer("success", sql=sql, data=rows, columns=columns, rows=values, insights=insight)


def _close_all(connections: list[sqlite3.Connection]) -> None:
    for con in connections:
        con.close()


def _answer(
    status: str, *, sql: str | None = None, data: list | None = None, columns: list[str] | None = None,
    rows: list[list] | None = None, insights: str = "", error: str | None = None,
) -> dict[str, Any]:
    # Both result forms: ``data`` for readers of the seed's contract, ``columns`` + ``rows`` lossless.
    return {
        "status": status, "sql": sql, "data": data or [], "columns": columns or [], "rows": rows or [],
        "insights": insights, "error": error,
    }


# The agent behind the plain function ``nabahan_agent`` (a `python:` spec has no object to keep it in).
# Safe in a long-lived process: it reads the default database read-only and holds no run's state.
_default_agent: ReferenceAgent | None = None
_default_lock = threading.Lock()


def default_agent() -> ReferenceAgent:
    """The module's shared agent over the embedded default database, created on first use."""
    global _default_agent
    if _default_agent is None:
        with _default_lock:
            if _default_agent is None:
                _default_agent = ReferenceAgent()
    return _default_agent


def nabahan_agent(question: str, filters: dict | None = None) -> dict[str, Any]:
    """The agent contract over the embedded database: status, sql, data, insights, error."""
    try:
        agent = default_agent()
    except Exception as exc:  # pragma: no cover - creating the agent does no I/O
        return _answer("error", insights=_ERROR_APOLOGY, error=f"{type(exc).__name__}: {exc}")
    return agent.ask(question, filters)
