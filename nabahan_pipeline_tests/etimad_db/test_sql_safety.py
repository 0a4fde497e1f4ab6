"""Untrusted SQL: one read-only query accepted, everything else refused, run with a time limit."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
import sqlglot

from nabahan_pipeline.etimad_db.sql_safety import (
    QueryResult,
    QueryTimeoutError,
    UnsafeSQLError,
    check_read_only_select,
    read_sql,
    referenced_columns,
    referenced_tables,
    run_read_only,
    select_aggregates,
    to_sqlite,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "procurement.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE regions (region_id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT);
        INSERT INTO regions VALUES (1, 'منطقة الرياض', 'Riyadh'), (2, 'منطقة مكة المكرمة', 'Makkah'),
                                   (5, 'المنطقة الشرقية', 'Eastern');
        CREATE TABLE tenders_full_details (tender_id INTEGER PRIMARY KEY, region_id INTEGER,
                                           estimated_value REAL, publish_date TEXT);
        INSERT INTO tenders_full_details VALUES (1, 1, 1000.0, '2024-01-05'), (2, 1, 2500.5, '2024-03-01'),
                                                (3, 5, 300.0, '2023-12-31');
        """
    )
    conn.commit()
    conn.close()
    return path


ACCEPTED = [
    "SELECT 1",
    "SELECT 1;",
    "  select count(*) from tenders_full_details  ;  ",
    "SELECT 1; -- the count",
    "SELECT 1 -- ; DROP TABLE regions",
    "WITH r AS (SELECT * FROM regions) SELECT name_ar FROM r",
    "SELECT region_id FROM regions UNION SELECT region_id FROM tenders_full_details",
    "SELECT region_id FROM regions INTERSECT SELECT region_id FROM tenders_full_details",
    "SELECT region_id FROM regions EXCEPT SELECT region_id FROM tenders_full_details",
    "(SELECT 1 UNION SELECT 2) ORDER BY 1",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c",
    "SELECT strftime('%Y', publish_date) AS y, COUNT(*) FROM tenders_full_details GROUP BY 1 ORDER BY 2 DESC LIMIT 5",
]


@pytest.mark.parametrize("sql", ACCEPTED)
def test_read_only_queries_are_accepted(sql: str) -> None:
    assert check_read_only_select(sql) is not None


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (";", "empty"),
        ("SELECT 1; SELECT 2", "one statement"),
        ("SELECT 1;;", "one statement"),
        ("SELECT 1; DROP TABLE regions", "found 2 .*: SELECT, DROP"),
        ("SELECT load_extension('/tmp/evil.so')", "calls load_extension"),
        ("SELECT name_ar FROM regions WHERE LOAD_EXTENSION('x') IS NULL", "calls load_extension"),
        ("SELECT fts3_tokenizer('simple')", "calls fts3_tokenizer"),
        ("VACUUM INTO '/tmp/copy.sqlite'", "VACUUM"),
        ("PRAGMA writable_schema = ON", "PRAGMA"),
        ("INSERT INTO regions VALUES (9, 'x', 'y')", "INSERT"),
        ("UPDATE regions SET name_en = 'x'", "UPDATE"),
        ("DELETE FROM regions", "DELETE"),
        ("DROP TABLE regions", "DROP"),
        ("CREATE TABLE x (a INTEGER)", "CREATE"),
        ("CREATE TABLE x AS SELECT * FROM regions", "CREATE"),
        ("ALTER TABLE regions ADD COLUMN c INTEGER", "ALTER"),
        ("ATTACH DATABASE 'other.db' AS other", "ATTACH"),
        ("DETACH DATABASE other", "DETACH"),
        ("PRAGMA query_only = OFF", "PRAGMA"),
        ("VACUUM", "VACUUM"),
        ("REPLACE INTO regions VALUES (1, 'x', 'y')", "REPLACE"),
        ("WITH d AS (DELETE FROM regions RETURNING *) SELECT * FROM d", "DELETE"),
        ("WITH i AS (INSERT INTO regions VALUES (9, 'x', 'y') RETURNING *) SELECT * FROM i", "INSERT"),
        ("SELEC 1", "does not parse"),
        ("SELECT * FROM", "does not parse"),
        ("SELECT 'unterminated", "does not parse"),
        ("VALUES (1)", "VALUES"),
        ("BEGIN", "not a read-only query"),
    ],
)
def test_everything_else_is_refused_with_a_reason(sql: str, reason: str) -> None:
    with pytest.raises(UnsafeSQLError, match=reason):
        check_read_only_select(sql)


def test_unsafe_sql_error_is_a_value_error() -> None:
    assert issubclass(UnsafeSQLError, ValueError)
    assert issubclass(QueryTimeoutError, UnsafeSQLError)


@pytest.mark.parametrize(
    ("sql", "tables"),
    [
        ("SELECT COUNT(*) FROM Tenders_Full_Details", {"tenders_full_details"}),
        (
            'SELECT * FROM "regions" r JOIN tenders_full_details t ON t.region_id = r.region_id',
            {"regions", "tenders_full_details"},
        ),
        ("WITH regions_cte AS (SELECT * FROM regions) SELECT * FROM regions_cte", {"regions"}),
        ("SELECT s.n FROM (SELECT name_ar AS n FROM regions) AS s", {"regions"}),
        (
            "SELECT * FROM tenders_full_details WHERE region_id IN (SELECT region_id FROM future_projects)",
            {"tenders_full_details", "future_projects"},
        ),
        ("SELECT 'regions' AS tenders_full_details FROM future_projects", {"future_projects"}),
        ("SELECT * FROM main.regions", {"regions"}),
        ("SELECT 1", set()),
    ],
)
def test_referenced_tables_are_parsed_not_substrings(sql: str, tables: set[str]) -> None:
    assert referenced_tables(sql) == tables


def test_referenced_tables_of_unparseable_sql_raises() -> None:
    with pytest.raises(UnsafeSQLError):
        referenced_tables("SELECT * FROM")


READINGS = [
    ("SELECT COUNT(*) FROM Tenders_Full_Details", None),
    ("WITH r AS (SELECT * FROM regions) SELECT * FROM r JOIN tenders_full_details t USING (region_id)", "sqlite"),
    ('SELECT "n" FROM "regions" LIMIT 2', "Postgres"),
    ("SELECT `name_ar` FROM regions", "mysql"),
    ("SELECT TOP 3 name_ar FROM regions", "tsql"),
    ("SELECT COUNT(*) FROM regions", "klingon"),
    ("DELETE FROM regions", None),
    ("SELECT 1; DROP TABLE regions", None),
    ("SELEC FROM WHERE", None),
    ("   ", None),
    ("SELECT * INTO copy FROM regions", "postgres"),
]


@pytest.mark.parametrize(("sql", "dialect"), READINGS)
def test_one_reading_tells_what_referenced_tables_and_to_sqlite_tell(sql: str, dialect: str | None) -> None:
    reading = read_sql(sql, dialect)
    try:
        tables = referenced_tables(sql, (dialect or "sqlite").lower())
    except (UnsafeSQLError, ValueError):  # does not parse in its dialect, or the dialect is unknown
        tables = None
    assert reading.tables == tables
    try:
        assert (reading.sqlite, reading.problem) == (to_sqlite(sql, dialect), None)
    except UnsafeSQLError as error:
        assert (reading.sqlite, reading.problem) == (None, str(error))
    if dialect is None:  # run_read_only refuses what the reading refuses, with its words
        try:
            check_read_only_select(sql)
        except UnsafeSQLError as error:
            assert reading.problem == str(error)
        else:
            assert reading.problem is None


def test_a_text_is_parsed_once_while_its_reading_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    import nabahan_pipeline.etimad_db.sql_safety as sql_safety

    sql_safety._kept_reading.cache_clear()
    parsed: list[str] = []
    real = sql_safety._parse
    monkeypatch.setattr(sql_safety, "_parse", lambda sql, dialect="sqlite": parsed.append(sql) or real(sql, dialect))
    sql = "SELECT region_id, COUNT(*) FROM tenders_full_details GROUP BY region_id -- kept once"
    for _ in range(3):
        assert to_sqlite(sql) == sql
        assert read_sql(sql).tables == {"tenders_full_details"}
    assert parsed == [sql]
    long_sql = "SELECT 1 AS x" + " " * sql_safety.READING_KEPT_CHARS
    for _ in range(2):
        read_sql(long_sql)
    assert parsed == [sql, long_sql, long_sql], "a text past READING_KEPT_CHARS is not kept"


def test_run_returns_columns_and_rows(db: Path) -> None:
    sql = "SELECT region_id, COUNT(*) AS n FROM tenders_full_details GROUP BY region_id ORDER BY region_id"
    result = run_read_only(db, sql)
    assert result == QueryResult(columns=["region_id", "n"], rows=[(1, 2), (5, 1)])
    assert result.truncated is False


def test_run_caps_rows(db: Path) -> None:
    result = run_read_only(db, "SELECT region_id FROM regions ORDER BY region_id", max_rows=2)
    assert result.rows == [(1,), (2,)]
    assert result.truncated is True


def test_run_caps_values_and_characters_not_only_rows(db: Path) -> None:
    wide = "SELECT * FROM regions a, regions b ORDER BY a.region_id, b.region_id"  # 9 rows of 6 values
    result = run_read_only(db, wide, max_cells=20)
    assert len(result.rows) == 3 and result.truncated
    assert result.cap == "the row cap of 3 rows at 6 columns (20 values)"
    result = run_read_only(db, "SELECT name_en FROM regions ORDER BY region_id", max_text=13)
    assert result.rows == [("Riyadh",), ("Makkah",)] and result.cap == "the cap of 13 characters of text"
    exact = run_read_only(db, "SELECT region_id FROM regions", max_rows=3, max_cells=3)
    assert len(exact.rows) == 3 and not exact.truncated and exact.cap is None, "exactly at the caps is whole"


def test_one_value_may_not_grow_past_a_megabyte(db: Path) -> None:
    started = time.perf_counter()
    for sql in ("SELECT zeroblob(1000000000)", "SELECT hex(randomblob(600000))"):
        with pytest.raises(UnsafeSQLError, match="string or blob too big"):
            run_read_only(db, sql)
    assert run_read_only(db, "SELECT printf('%.*c', 2000000, 'x')").rows == [(None,)], "printf gives NULL past it"
    assert time.perf_counter() - started < 2.0
    assert run_read_only(db, "SELECT length(hex(randomblob(100000)))").rows == [(200000,)]


def test_run_checks_the_sql_before_touching_the_database(db: Path) -> None:
    with pytest.raises(UnsafeSQLError, match="DELETE"):
        run_read_only(db, "DELETE FROM regions")
    assert run_read_only(db, "SELECT COUNT(*) FROM regions").rows == [(3,)]


def test_run_times_out_on_a_slow_recursive_query(db: Path) -> None:
    slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT MAX(x) FROM c"
    started = time.perf_counter()
    with pytest.raises(QueryTimeoutError, match="time limit"):
        run_read_only(db, slow, timeout_s=0.2)
    assert time.perf_counter() - started < 2.0


def test_run_reports_sql_errors_as_unsafe_sql(db: Path) -> None:
    with pytest.raises(UnsafeSQLError, match="no such table"):
        run_read_only(db, "SELECT * FROM no_such_table")


def test_run_refuses_a_missing_database(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        run_read_only(tmp_path / "absent.sqlite", "SELECT 1")
    assert not (tmp_path / "absent.sqlite").exists()


def test_connection_is_read_only_even_past_the_parser(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Defence in depth: with the parse check out of the way, SQLite itself still refuses writes.
    import nabahan_pipeline.etimad_db.sql_safety as sql_safety

    monkeypatch.setattr(sql_safety, "read_sql", lambda sql, dialect=None: sql_safety.SQLReading(tables=None, sqlite=sql))
    for statement in ("DELETE FROM regions", "CREATE TABLE x (a)", "PRAGMA query_only = OFF"):
        with pytest.raises(UnsafeSQLError, match="query failed"):
            run_read_only(db, statement)
    assert run_read_only(db, "SELECT COUNT(*) FROM regions").rows == [(3,)]


def test_authorizer_denies_what_a_read_only_file_would_allow(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # mode=ro and query_only alone let ATTACH and turning query_only off through; the authorizer does not.
    import nabahan_pipeline.etimad_db.sql_safety as sql_safety

    monkeypatch.setattr(sql_safety, "read_sql", lambda sql, dialect=None: sql_safety.SQLReading(tables=None, sqlite=sql))
    for statement in ("ATTACH DATABASE ':memory:' AS other", "PRAGMA query_only = OFF", "SELECT load_extension('x')"):
        with pytest.raises(UnsafeSQLError, match="not authorized"):
            run_read_only(db, statement)


def test_query_only_pragma_stops_temp_writes_that_mode_ro_allows(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A read-only file still lets a connection create temp tables; PRAGMA query_only does not.
    import nabahan_pipeline.etimad_db.sql_safety as sql_safety

    monkeypatch.setattr(sql_safety, "read_sql", lambda sql, dialect=None: sql_safety.SQLReading(tables=None, sqlite=sql))
    monkeypatch.setattr(sql_safety, "_authorize", lambda *args: sqlite3.SQLITE_OK)
    with pytest.raises(UnsafeSQLError, match="readonly"):
        run_read_only(db, "CREATE TEMP TABLE scratch (a)")


def test_one_connection_runs_query_after_query_each_checked_timed_and_capped(db: Path) -> None:
    from nabahan_pipeline.etimad_db.sql_safety import ReadOnlyConnection

    slow = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
    connection = ReadOnlyConnection(db)
    try:
        assert connection.run("SELECT COUNT(*) FROM regions").rows == [(3,)]
        with pytest.raises(QueryTimeoutError):
            connection.run(slow, timeout_s=0.2)
        assert connection.run("SELECT name_en FROM regions ORDER BY region_id", max_rows=2).truncated, "capped"
        with pytest.raises(UnsafeSQLError, match="not a read-only query"):
            connection.run("DELETE FROM regions")
        with pytest.raises(UnsafeSQLError, match="no such table"):
            connection.run("SELECT * FROM no_such_table")
        # Neither the time-out nor the errors spoiled the connection, and nothing was written.
        started = time.perf_counter()
        assert connection.run("SELECT COUNT(*) FROM tenders_full_details", timeout_s=5).rows == [(3,)]
        assert time.perf_counter() - started < 1
        assert connection.run("SELECT COUNT(*) FROM regions").rows == [(3,)]
    finally:
        connection.close()
    with pytest.raises(FileNotFoundError):
        ReadOnlyConnection(db.with_name("absent.sqlite"))


def test_one_connection_is_read_only_past_the_parser_too(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nabahan_pipeline.etimad_db.sql_safety as sql_safety

    monkeypatch.setattr(sql_safety, "read_sql", lambda sql, dialect=None: sql_safety.SQLReading(tables=None, sqlite=sql))
    connection = sql_safety.ReadOnlyConnection(db)
    try:
        for statement in ("DELETE FROM regions", "ATTACH DATABASE ':memory:' AS other", "PRAGMA query_only = OFF"):
            with pytest.raises(UnsafeSQLError, match="query failed|not authorized"):
                connection.run(statement)
        assert connection.run("SELECT COUNT(*) FROM regions").rows == [(3,)]
    finally:
        connection.close()


# --- date parts of other dialects, written as SQLite's STRFTIME -----------------------------------

_BY_YEAR = ("SELECT CAST(STRFTIME('%Y', publish_date) AS INTEGER) AS y, COUNT(*) FROM tenders_full_details "
            "GROUP BY 1 ORDER BY 1")


@pytest.mark.parametrize(
    ("dialect", "sql", "same_as"),
    [
        ("postgres", "SELECT EXTRACT(YEAR FROM publish_date) AS y, COUNT(*) FROM tenders_full_details "
                     "GROUP BY 1 ORDER BY 1", _BY_YEAR),
        ("postgres", "SELECT DATE_PART('year', publish_date::date) AS y, COUNT(*) FROM tenders_full_details GROUP BY 1 "
                     "ORDER BY 1", _BY_YEAR),
        ("mysql", "SELECT YEAR(publish_date) AS y, COUNT(*) FROM tenders_full_details GROUP BY YEAR(publish_date) "
                  "ORDER BY 1", _BY_YEAR),
        ("tsql", "SELECT DATEPART(year, publish_date) AS y, COUNT(*) FROM tenders_full_details "
                 "GROUP BY DATEPART(year, publish_date) ORDER BY 1", _BY_YEAR),
        ("duckdb", "SELECT year(publish_date) AS y, count(*) FROM tenders_full_details GROUP BY 1 ORDER BY 1",
         _BY_YEAR),
        ("postgres", "SELECT tender_id FROM tenders_full_details WHERE EXTRACT(MONTH FROM publish_date) = 3 "
                     "AND EXTRACT(DAY FROM publish_date) = 1", "SELECT 2"),
        ("mysql", "SELECT tender_id, QUARTER(publish_date), MONTH(publish_date) FROM tenders_full_details ORDER BY 1",
         "SELECT 1, 1, 1 UNION ALL SELECT 2, 1, 3 UNION ALL SELECT 3, 4, 12"),
        ("duckdb", "SELECT tender_id, date_part('doy', publish_date), datepart('dow', publish_date) "
                   "FROM tenders_full_details ORDER BY 1",
         "SELECT 1, 5, 5 UNION ALL SELECT 2, 61, 5 UNION ALL SELECT 3, 365, 0"),
        ("postgres", "SELECT date_trunc('month', publish_date) AS m, COUNT(*) FROM tenders_full_details GROUP BY 1 "
                     "ORDER BY 1",
         "SELECT '2023-12-01', 1 UNION ALL SELECT '2024-01-01', 1 UNION ALL SELECT '2024-03-01', 1"),
        ("duckdb", "SELECT tender_id, date_trunc('year', publish_date), date_trunc('quarter', publish_date), "
                   "date_trunc('week', publish_date) FROM tenders_full_details ORDER BY 1",
         "SELECT 1, '2024-01-01', '2024-01-01', '2024-01-01' UNION ALL SELECT 2, '2024-01-01', '2024-01-01', "
         "'2024-02-26' UNION ALL SELECT 3, '2023-01-01', '2023-10-01', '2023-12-25'"),
        ("tsql", "SELECT TOP 1 DATETRUNC(month, publish_date) FROM tenders_full_details ORDER BY publish_date DESC",
         "SELECT '2024-03-01'"),
        ("postgres", "SELECT EXTRACT(YEAR FROM date_trunc('month', publish_date)) FROM tenders_full_details "
                     "WHERE tender_id = 3", "SELECT 2023"),  # one inside the other
    ],
)
def test_date_parts_of_other_dialects_run_as_sqlite(db: Path, dialect: str, sql: str, same_as: str) -> None:
    sqlite = to_sqlite(sql, dialect)
    assert "STRFTIME" in sqlite or "DATE(" in sqlite, sqlite
    assert run_read_only(db, sqlite).rows == run_read_only(db, same_as).rows, sqlite


def test_a_date_unit_sqlite_has_no_equal_of_is_left_for_sqlite_to_refuse(db: Path) -> None:
    # An ISO week is no STRFTIME format of SQLite's: the query stays what sqlglot wrote, and fails.
    sqlite = to_sqlite("SELECT EXTRACT(WEEK FROM publish_date) FROM tenders_full_details", "postgres")
    assert "EXTRACT" in sqlite
    with pytest.raises(UnsafeSQLError, match="syntax error"):
        run_read_only(db, sqlite)


def test_sqlite_sql_is_run_as_written_even_with_another_dialects_functions() -> None:
    # SQLite SQL is not transpiled: YEAR() there is the agent's mistake, not ours to mend.
    assert to_sqlite("SELECT YEAR(publish_date) FROM tenders_full_details") == (
        "SELECT YEAR(publish_date) FROM tenders_full_details"
    )


def test_referenced_columns_are_the_column_names_the_text_holds() -> None:
    sql = "SELECT t.region_id, EXTRACT(YEAR FROM publish_date) FROM tenders_full_details t WHERE name = 'region'"
    assert referenced_columns(sql, "postgres") == {"region_id", "publish_date", "name"}


def test_a_sqlite_reading_carries_each_selected_columns_aggregate_as_a_fresh_parse_reads_it() -> None:
    sql = "SELECT region, COUNT(*), SUM(v) * 100.0 / COUNT(*), AVG(v) AS a, MAX(v) FROM t GROUP BY region"
    assert read_sql(sql).aggregates == (None, "count", "share", "avg", "max")
    assert read_sql(sql).aggregates == select_aggregates(sqlglot.parse_one(sql, read="sqlite"))
    assert read_sql("DELETE FROM t").aggregates == ()  # unsafe, still read: no SELECT
    assert read_sql("SELECT * FROM t").aggregates == ()
    assert read_sql("SELECT 1; SELECT 2").aggregates is None  # two statements: not parse_one's tree
    assert read_sql("SELECT COUNT(*) FROM t", "postgres").aggregates is None  # transpiled: read from its SQLite


def test_a_row_of_500_large_blobs_is_refused_before_it_is_built(db: Path) -> None:
    wide = "SELECT " + ", ".join(f"randomblob(999999) AS b{i}" for i in range(500))
    with pytest.raises(UnsafeSQLError, match="too many columns in result set"):
        run_read_only(db, wide)
    assert len(run_read_only(db, "SELECT " + ", ".join(f"{i} AS c{i}" for i in range(100))).columns) == 100
