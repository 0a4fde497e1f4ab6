"""Untrusted SQL from an agent: parsed, accepted only as one read-only query, run on a read-only
connection. Three layers, each enough alone: the sqlglot parse check, SQLite's ``query_only`` on a
``mode=ro`` connection, an authorizer that allows only reading. Its cost is bounded: time, the
rows, values and characters kept (``truncated``), and SQLite's own limits on a value's bytes and a
result's columns, so no huge row is ever built."""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import traverse_scope

from nabahan_pipeline.errors import QueryTimeoutError, UnsafeSQLError
from nabahan_pipeline.settings import SETTINGS

# Statement kinds that write, change the schema or the connection, or run something opaque
# (sqlglot falls back to Command for syntax it does not model, e.g. REPLACE, VACUUM, EXPLAIN).
_FORBIDDEN_NODES: tuple[type[exp.Expression], ...] = (
    exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Drop, exp.Create, exp.Alter, exp.TruncateTable,
    exp.Attach, exp.Detach, exp.Pragma, exp.Command, exp.Transaction, exp.Commit, exp.Rollback,
    exp.Analyze, exp.Set, exp.Use, exp.Copy, exp.LoadData,
)

# What a plain query needs from SQLite's authorizer; everything else is denied.
_ALLOWED_ACTIONS = frozenset({
    sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
    getattr(sqlite3, "SQLITE_RECURSIVE", 33),
})
_DENIED_FUNCTIONS = frozenset({"load_extension", "fts3_tokenizer"})
# VM instructions between two looks at the clock (a fraction of a millisecond): each look takes the
# interpreter's lock, so looking more often slows a second thread's queries.
_PROGRESS_STEPS = 10_000

# What a result may hold before it is cut (truncated): rows alone do not bound memory (a cross
# join's 100,000 rows of 44 columns are 4.4 million objects).
DEFAULT_MAX_ROWS: int = SETTINGS["sql_max_rows"].default
DEFAULT_MAX_CELLS = 1_000_000  # values: rows x columns
DEFAULT_MAX_TEXT = 16_000_000  # characters of text plus bytes of blobs, over the result
# The largest string or blob SQLite may build or read (SQLITE_LIMIT_LENGTH), per value.
MAX_VALUE_BYTES = 1_000_000
# The most columns of a result (SQLITE_LIMIT_COLUMN): times MAX_VALUE_BYTES, it bounds one row
# (built whole); four of the widest table (22 columns) joined by SELECT * fit.
MAX_COLUMNS = 100
# The page cache of a read-only connection, in KiB (filled only as far as the database's size).
CACHE_KIB = 65_536


@dataclass(frozen=True)
class QueryResult:
    """The rows a query returned, with its column names; ``truncated`` when the result was cut at
    a cap, and ``cap`` then names it ("the row cap of 100,000 rows", ...)."""

    columns: list[str]
    rows: list[tuple]
    truncated: bool = False
    cap: str | None = None


@dataclass(frozen=True)
class SQLReading:
    """What one parse of a SQL text tells: the real tables it reads (None when it does not parse in
    its dialect) and, when it is exactly one read-only query, that query as SQLite; else
    ``problem`` says why it is unsafe. ``aggregates`` is ``select_aggregates`` of a SQLite text
    that parses as one statement (None otherwise), so that the claims checker parses it no more."""

    tables: frozenset[str] | None
    sqlite: str | None
    problem: str | None = None
    aggregates: tuple[str | None, ...] | None = None


# Texts read last, kept (_reading is pure; the bounds cap what a long-lived process holds, whatever
# an agent sends): a query is read when checked, run and scored; the bound spans a batch.
READINGS_KEPT = 16_384
READING_KEPT_CHARS = 2_000


def read_sql(sql: str, dialect: str | None = None) -> SQLReading:
    """``sql`` written in ``dialect`` (sqlglot's names; None for SQLite) parsed once: its tables
    (as ``referenced_tables``) and its SQLite form, or why it is unsafe (as ``to_sqlite``)."""
    if isinstance(sql, str) and len(sql) <= READING_KEPT_CHARS:
        return _kept_reading(sql, dialect)
    return _reading(sql, dialect)


def _reading(sql: str, dialect: str | None) -> SQLReading:
    name = (dialect or "sqlite").lower()
    try:
        if name != "sqlite":
            _check_dialect(name)
        statements = _parse(sql, name)
    except UnsafeSQLError as error:
        return SQLReading(tables=None, sqlite=None, problem=str(error))
    tables = frozenset(_tables_of(statements))
    # A SQLite text of one statement: the tree parse_one(sql, read="sqlite") gives, read once here.
    single = statements[0] if name == "sqlite" and len(statements) == 1 else None
    aggregates = select_aggregates(single) if single is not None else None
    try:
        tree = _one_read_only_query(statements, sql)
        return SQLReading(tables=tables, sqlite=sql if name == "sqlite" else _as_sqlite(tree), aggregates=aggregates)
    except UnsafeSQLError as error:
        return SQLReading(tables=tables, sqlite=None, problem=str(error), aggregates=aggregates)


_kept_reading = functools.lru_cache(maxsize=READINGS_KEPT)(_reading)


def _parse(sql: str, dialect: str = "sqlite") -> list[exp.Expression | None]:
    if not isinstance(sql, str) or not sql.strip():
        raise UnsafeSQLError("empty SQL")
    try:
        return sqlglot.parse(sql, read=dialect)
    except (SqlglotError, RecursionError) as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise UnsafeSQLError(f"SQL does not parse: {first_line}") from error


def _check_dialect(dialect: str) -> None:
    try:
        Dialect.get_or_raise(dialect)
    except ValueError:
        raise UnsafeSQLError(f"unknown SQL dialect {dialect!r}") from None


def to_sqlite(sql: str, dialect: str | None = None) -> str:
    """``sql`` written in ``dialect`` (sqlglot's names; None or "sqlite" for SQLite) as one
    SQLite query; UnsafeSQLError (from its kept reading) unless it is one read-only query."""
    reading = read_sql(sql, dialect)
    if reading.problem is not None:
        raise UnsafeSQLError(reading.problem)
    return reading.sqlite


def _as_sqlite(tree: exp.Expression) -> str:
    try:
        return _dates_for_sqlite(tree).sql(dialect="sqlite")
    except (SqlglotError, RecursionError) as error:
        raise UnsafeSQLError(f"SQL cannot be written for SQLite: {error}") from error


# SQLite's form of a date part or a date cut to a period's start, of ``?`` (an ISO text date): sqlglot
# leaves EXTRACT, YEAR(), DATE_PART() and DATE_TRUNC() as they are, and SQLite has none of them.
# STRFTIME's %w gives 0 for Sunday, as PostgreSQL's and DuckDB's DOW.
_DATE_PARTS = {
    **{unit: f"CAST(STRFTIME('%{code}', ?) AS INTEGER)" for unit, code in (
        ("YEAR", "Y"), ("MONTH", "m"), ("DAY", "d"), ("DOY", "j"), ("DOW", "w"), ("HOUR", "H"),
        ("MINUTE", "M"), ("SECOND", "S"))},
    "QUARTER": "(CAST(STRFTIME('%m', ?) AS INTEGER) + 2) / 3",
}
_DATE_TRUNCS = {
    "YEAR": "STRFTIME('%Y-01-01', ?)",
    "QUARTER": "STRFTIME('%Y-', ?) || PRINTF('%02d', (CAST(STRFTIME('%m', ?) AS INTEGER) - 1) / 3 * 3 + 1)"
               " || '-01'",
    "MONTH": "STRFTIME('%Y-%m-01', ?)",
    "WEEK": "DATE(?, '-' || ((CAST(STRFTIME('%w', ?) AS INTEGER) + 6) % 7) || ' days')",  # to Monday
    "DAY": "STRFTIME('%Y-%m-%d', ?)",
}
_UNIT_NAMES = {**exp.TimeUnit.UNABBREVIATED_UNIT_NAME, "DAYOFYEAR": "DOY", "YEARS": "YEAR",
               "MONTHS": "MONTH", "DAYS": "DAY"}
_PART_FUNCTIONS: dict[type[exp.Expression], str] = {
    exp.Year: "YEAR", exp.Month: "MONTH", exp.Day: "DAY", exp.DayOfMonth: "DAY", exp.Quarter: "QUARTER",
    exp.DayOfYear: "DOY", exp.Hour: "HOUR", exp.Minute: "MINUTE", exp.Second: "SECOND",
}
_TEMPLATES = {
    (kind, unit): sqlglot.parse_one(sql, read="sqlite")
    for kind, table in (("part", _DATE_PARTS), ("trunc", _DATE_TRUNCS))
    for unit, sql in table.items()
}


def _dates_for_sqlite(tree: exp.Expression) -> exp.Expression:
    """``tree`` (a copy) with the date parts and truncations of other dialects written as SQLite's
    STRFTIME: EXTRACT(YEAR FROM d), DATE_PART('year', d), YEAR(d), DATE_TRUNC('month', d) ... A unit
    without an equivalent here (an ISO week, an epoch) is left as it is: SQLite then refuses it."""
    tree = tree.copy()
    # Deepest first, so that a rewritten date inside another ("EXTRACT(YEAR FROM DATE_TRUNC(...))")
    # is already SQLite's when the outer one takes it.
    for node in reversed(list(tree.walk())):
        rewritten = _date_for_sqlite(node)
        if rewritten is not None:
            if node is tree:
                return rewritten
            node.replace(rewritten)
    return tree


def _date_for_sqlite(node: exp.Expression) -> exp.Expression | None:
    """The SQLite form of one date part or truncation; None for any other node."""
    if isinstance(node, exp.Extract):
        kind, unit, date = "part", node.name, node.expression
    elif type(node) in _PART_FUNCTIONS:
        kind, unit, date = "part", _PART_FUNCTIONS[type(node)], node.this
    elif isinstance(node, (exp.TimestampTrunc, exp.DateTrunc, exp.DatetimeTrunc)):
        kind, unit, date = "trunc", node.args["unit"].name, node.this
    elif (isinstance(node, exp.Anonymous) and node.name.lower() in ("date_part", "datepart", "date_trunc")
          and len(node.expressions) == 2 and node.expressions[0].is_string):
        kind = "trunc" if node.name.lower() == "date_trunc" else "part"
        unit, date = node.expressions[0].name, node.expressions[1]
    else:
        return None
    unit = unit.upper()
    template = _TEMPLATES.get((kind, _UNIT_NAMES.get(unit, unit)))
    if template is None or date is None:
        return None
    return template.transform(lambda part: date.copy() if isinstance(part, exp.Placeholder) else part)


def _query_core(statement: exp.Expression) -> exp.Expression:
    """The query inside any number of wrapping parentheses."""
    while isinstance(statement, exp.Subquery):
        statement = statement.this
    return statement


def check_read_only_select(sql: str, dialect: str = "sqlite") -> exp.Expression:
    """Parse ``sql`` (SQLite unless ``dialect`` says otherwise) and return its tree if it is exactly
    one read-only query (SELECT, WITH ... SELECT, or a UNION/INTERSECT/EXCEPT of them); raise
    UnsafeSQLError otherwise."""
    return _one_read_only_query(_parse(sql, dialect), sql)


def _one_read_only_query(parsed: list[exp.Expression | None], sql: str) -> exp.Expression:
    """The one read-only query among the statements ``sql`` parsed into; raises UnsafeSQLError."""
    # A comment after the final semicolon parses as a statement of its own; it runs as nothing.
    statements = [s for s in parsed if not isinstance(s, exp.Semicolon)]
    if statements and statements[0] is None:
        raise UnsafeSQLError("empty SQL")
    if len(statements) != 1:
        kinds = ", ".join(_kind(s) if s is not None else "empty" for s in statements)
        raise UnsafeSQLError(f"expected one statement, found {len(statements)} (separated by ';'): {kinds}")
    statement = statements[0]
    core = _query_core(statement)
    for node in statement.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            where = "" if node is statement else " nested in the query"
            raise UnsafeSQLError(f"not a read-only query: {_kind(node)} statement{where}")
        if isinstance(node, exp.Func) and _function_name(node) in _DENIED_FUNCTIONS:
            raise UnsafeSQLError(f"not a read-only query: calls {_function_name(node)}")
    if not isinstance(core, (exp.Select, exp.SetOperation)):
        first_word = sql.strip().lstrip("(").split(None, 1)[0].upper()
        raise UnsafeSQLError(f"not a read-only query: {first_word} statement")
    if any(select.args.get("into") for select in statement.find_all(exp.Select)):
        raise UnsafeSQLError("not a read-only query: SELECT ... INTO")
    return statement


def _kind(node: exp.Expression) -> str:
    """DROP, SELECT, VACUUM ...: the statement kind a node stands for."""
    if isinstance(node, exp.Command):
        return str(node.this).upper()
    return _query_core(node).key.upper()


def _function_name(node: exp.Func) -> str:
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def referenced_tables(sql: str, dialect: str = "sqlite") -> set[str]:
    """The real tables that ``sql`` reads, lower-case, without CTE names or subquery aliases
    (from the parse tree, so a table name inside a string or a column name does not count)."""
    return _tables_of(_parse(sql, dialect))


def referenced_columns(sql: str, dialect: str = "sqlite") -> set[str]:
    """The column names that ``sql`` holds, lower-case, without their table's."""
    return {column.name.lower() for statement in _parse(sql, dialect) if statement is not None
            for column in statement.find_all(exp.Column)}


# The measure a selected expression computes, by the first aggregate found in it, in this order.
_MEASURES = ((exp.Avg, "avg"), (exp.Count, "count"), (exp.Sum, "sum"), (exp.Max, "max"), (exp.Min, "min"))


def select_aggregates(tree: exp.Expression) -> tuple[str | None, ...]:
    """The measure each column of the tree's first SELECT computes, in order: count, sum, avg,
    max, min, share (a count or sum divided or multiplied), None for a plain column; () when
    there is no SELECT or it selects *."""
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None:
        return ()
    found: list[str | None] = []
    for expression in select.expressions:
        if isinstance(expression, exp.Star):
            return ()
        inner = expression.this if isinstance(expression, exp.Alias) else expression
        if isinstance(inner, (exp.Div, exp.Mul)) and inner.find(exp.Count, exp.Sum):
            found.append("share" if inner.find(exp.Mul) or isinstance(inner, exp.Mul) else None)
        else:
            measure = next((name for kind, name in _MEASURES if inner.find(kind)), None)
            found.append("count" if measure == "sum" and _counts_rows(inner.find(exp.Sum)) else measure)
    return tuple(found)


def _counts_rows(total: exp.Sum | None) -> bool:
    """True for SUM(CASE WHEN ... THEN 1 ELSE 0 END) (or IIF(..., 1, 0)): a count of the rows the
    condition holds for, not a sum of values."""
    inner = total.this if total is not None else None
    if isinstance(inner, exp.Case):
        results = [branch.args.get("true") for branch in inner.args.get("ifs") or []] + [inner.args.get("default")]
    elif isinstance(inner, exp.If):
        results = [inner.args.get("true"), inner.args.get("false")]
    else:
        return False
    values = [result.name for result in results if result is not None]
    return (all(isinstance(result, exp.Literal) and result.is_number for result in results if result is not None)
            and set(values) <= {"0", "1"} and "1" in values)


def _tables_of(statements: list[exp.Expression | None]) -> set[str]:
    return {table for statement in statements if statement is not None
            for table in _statement_tables(statement)}


def _statement_tables(statement: exp.Expression) -> set[str]:
    if isinstance(_query_core(statement), exp.Query):
        try:
            return {
                source.name.lower()
                for scope in traverse_scope(statement)
                for source in scope.sources.values()
                if _is_named_table(source)
            }
        except (SqlglotError, RecursionError):
            pass
    # Not a query (or a query the scope analysis rejects): every table node but the CTE names.
    ctes = {cte.alias_or_name.lower() for cte in statement.find_all(exp.CTE)}
    return {
        table.name.lower()
        for table in statement.find_all(exp.Table)
        if _is_named_table(table) and table.name.lower() not in ctes
    }


def _is_named_table(node: object) -> bool:
    # Table-valued functions (json_each(...)) are Table nodes without a name.
    return isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier) and bool(node.name)


def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None, _trigger: str | None) -> int:
    if action not in _ALLOWED_ACTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def run_read_only(database: str | Path, sql: str, **limits: Any) -> QueryResult:
    """``sql`` run once on a read-only connection of its own to the SQLite file ``database``, as
    ``ReadOnlyConnection.run`` runs it (``limits``: its ``timeout_s``, ``max_rows``, ``max_cells``,
    ``max_text``); refused before the database is opened when it is not one read-only SELECT."""
    to_sqlite(sql)
    connection = ReadOnlyConnection(database)
    try:
        return connection.run(sql, **limits)
    finally:
        connection.close()


class ReadOnlyConnection:
    """A read-only connection to the SQLite file ``database`` for many queries, one at a time: its
    layers (``mode=ro``, ``query_only``, the authorizer, the limits, the clock) set up and the
    schema read once, not for every query."""

    def __init__(self, database: str | Path) -> None:
        path = Path(database)
        if not path.is_file():
            raise FileNotFoundError(f"database file not found: {path}")
        self._deadline = 0.0
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        try:
            self._conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
            self._conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, MAX_COLUMNS)
            self._conn.execute("PRAGMA query_only = ON")
            # A page cache that holds a whole evaluation database: no page read twice from the file.
            self._conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self._conn.set_authorizer(_authorize)
            self._conn.set_progress_handler(self._past_deadline, _PROGRESS_STEPS)
        except BaseException:
            self._conn.close()
            raise

    def _past_deadline(self) -> bool:
        return time.monotonic() > self._deadline

    def run(
        self,
        sql: str,
        *,
        timeout_s: float = 5.0,
        max_rows: int = DEFAULT_MAX_ROWS,
        max_cells: int = DEFAULT_MAX_CELLS,
        max_text: int = DEFAULT_MAX_TEXT,
    ) -> QueryResult:
        """Check ``sql`` with check_read_only_select (its kept reading, ``read_sql``), then run it,
        interrupted after ``timeout_s`` seconds (QueryTimeoutError). The result keeps at most
        ``max_rows`` rows, ``max_cells`` values and ``max_text`` characters of text and bytes of
        blobs; the row that would pass a cap is dropped and the result marked truncated (at least
        one more row exists), so a cut result never holds more than the caps."""
        to_sqlite(sql)
        with self._lock:
            self._deadline = deadline = time.monotonic() + timeout_s
            try:
                cursor = self._conn.execute(sql)
                try:
                    columns = [description[0] for description in cursor.description or ()]
                    rows, cap = _fetch(cursor, len(columns), max_rows, max_cells, max_text)
                finally:
                    cursor.close()
            except sqlite3.OperationalError as error:
                if time.monotonic() > deadline:
                    raise QueryTimeoutError(f"query exceeded the time limit of {timeout_s:g} s") from error
                raise UnsafeSQLError(f"query failed: {error}") from error
            except sqlite3.Error as error:  # DatabaseError, DataError ("string or blob too big"), ...
                raise UnsafeSQLError(f"query failed: {error}") from error
        return QueryResult(columns=columns, rows=rows, truncated=cap is not None, cap=cap)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


def _fetch(
    cursor: sqlite3.Cursor, width: int, max_rows: int, max_cells: int, max_text: int
) -> tuple[list[tuple], str | None]:
    """The cursor's rows up to the caps, and the cap that cut them (None when all fit)."""
    rows: list[tuple] = []
    text = 0
    row_cap = min(max_rows, max_cells // max(width, 1))
    for row in cursor:
        if len(rows) >= row_cap:
            if row_cap == max_rows:
                return rows, f"the row cap of {max_rows:,} rows"
            return rows, f"the row cap of {row_cap:,} rows at {width} columns ({max_cells:,} values)"
        size = sum(len(value) for value in row if isinstance(value, (str, bytes)))
        if text + size > max_text:
            return rows, f"the cap of {max_text:,} characters of text"
        text += size
        rows.append(row)
    return rows, None
