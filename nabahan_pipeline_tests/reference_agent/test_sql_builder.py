"""The SQL builder: each kind of frame becomes one SELECT with the clauses it asks for, and that
SELECT, run on the small database, returns what the frame asks."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
from nabahan_pipeline.reference_agent.parser import Condition, QueryFrame
from nabahan_pipeline.reference_agent.sql_builder import build_sql

RIYADH = Condition("region", "in", (1,), "في منطقة الرياض")
CANCELLED = Condition("status", "in", (5,), "ذات الحالة ملغاة")
YEAR_2024 = Condition("date", "date_range", ("2024-01-01", "2025-01-01"), "عام 2024")


@pytest.fixture(scope="module")
def con(small_db: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(f"file:{small_db}?mode=ro", uri=True)
    yield connection
    connection.close()


def _rows(con: sqlite3.Connection, sql: str) -> list[tuple]:
    check_read_only_select(sql)
    return con.execute(sql).fetchall()


def _one(con: sqlite3.Connection, sql: str) -> object:
    return con.execute(sql).fetchone()[0]


# --- aggregates ------------------------------------------------------------------------------------


def test_count_with_conditions(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "count", conditions=(RIYADH, CANCELLED, YEAR_2024)))
    assert sql == (
        "SELECT COUNT(*) AS tender_count FROM tenders_full_details WHERE region_id = 1 AND status_id = 5 "
        "AND publish_date >= '2024-01-01' AND publish_date < '2025-01-01'"
    )
    expected = _one(
        con,
        "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1 AND status_id = 5 "
        "AND substr(publish_date, 1, 4) = '2024'",
    )
    assert _rows(con, sql) == [(expected,)] and expected > 0


def test_sum_and_average_of_a_nullable_column_count_the_rows_that_have_it(con: sqlite3.Connection) -> None:
    total = build_sql(QueryFrame("tenders", "sum", column="awarded"))
    assert total == (
        "SELECT SUM(awarded_value) AS total_awarded_value, COUNT(awarded_value) AS tender_count FROM tenders_full_details"
    )
    awarded = con.execute("SELECT awarded_value FROM tenders_full_details WHERE awarded_value IS NOT NULL").fetchall()
    ((value_sum, counted),) = _rows(con, total)
    assert counted == len(awarded) < _one(con, "SELECT COUNT(*) FROM tenders_full_details")
    assert value_sum == pytest.approx(sum(v for (v,) in awarded))
    average = build_sql(QueryFrame("tenders", "avg", column="value", conditions=(RIYADH,)))
    assert average.startswith("SELECT AVG(estimated_value) AS avg_estimated_value, COUNT(*) AS tender_count")
    ((mean, _),) = _rows(con, average)
    assert mean == pytest.approx(_one(con, "SELECT AVG(estimated_value) FROM tenders_full_details WHERE region_id = 1"))


def test_count_distinct(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "count_distinct", distinct_of="agency", conditions=(RIYADH,)))
    assert sql == "SELECT COUNT(DISTINCT agency_id) AS agency_count FROM tenders_full_details WHERE region_id = 1"
    assert _rows(con, sql) == [
        (len(con.execute("SELECT DISTINCT agency_id FROM tenders_full_details WHERE region_id = 1").fetchall()),)
    ]


def test_share_of_the_part_among_the_whole(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "share", conditions=(RIYADH,), share_of=(CANCELLED,)))
    assert "SUM(CASE WHEN status_id = 5 THEN 1 ELSE 0 END) AS matching_count" in sql
    assert "COUNT(*) AS total_count" in sql and "AS share_pct" in sql and sql.endswith("WHERE region_id = 1")
    ((matching, total, share),) = _rows(con, sql)
    assert matching == _one(con, "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1 AND status_id = 5")
    assert total == _one(con, "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1")
    assert share == pytest.approx(100.0 * matching / total)


# --- rows --------------------------------------------------------------------------------------------


def test_rows_ranked_by_a_nullable_column_leave_out_the_rows_without_it(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "rows", column="awarded", order="desc", limit=3, ranked=True))
    assert sql == (
        "SELECT * FROM tenders_full_details WHERE awarded_value IS NOT NULL ORDER BY awarded_value DESC LIMIT 3"
    )
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    values = [row[columns.index("awarded_value")] for row in cursor.fetchall()]
    assert values == sorted(values, reverse=True) and len(values) == 3
    assert values[0] == _one(con, "SELECT MAX(awarded_value) FROM tenders_full_details")


def test_plain_rows_come_newest_first(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("projects", "rows", conditions=(RIYADH,)))
    assert sql == "SELECT * FROM future_projects WHERE region_id = 1 ORDER BY expected_offering_date DESC"
    assert len(_rows(con, sql)) == _one(con, "SELECT COUNT(*) FROM future_projects WHERE region_id = 1") > 0


def test_conditions_a_table_has_no_column_for_are_left_out(con: sqlite3.Connection) -> None:
    # Future projects have no status column.
    sql = build_sql(QueryFrame("projects", "count", conditions=(RIYADH, CANCELLED)))
    assert sql == "SELECT COUNT(*) AS project_count FROM future_projects WHERE region_id = 1"
    _rows(con, sql)


# --- groups ------------------------------------------------------------------------------------------


def test_group_by_region_ranked(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "count", group_by=("region",), order="desc", limit=3, ranked=True))
    assert sql == (
        "SELECT region_id, region_name, COUNT(*) AS tender_count FROM tenders_full_details "
        "WHERE region_id IS NOT NULL GROUP BY region_id ORDER BY tender_count DESC LIMIT 3"
    )
    expected = con.execute(
        "SELECT region_id, COUNT(*) FROM tenders_full_details WHERE region_id IS NOT NULL "
        "GROUP BY region_id ORDER BY 2 DESC LIMIT 3"
    ).fetchall()
    assert [(row[0], row[2]) for row in _rows(con, sql)] == expected


def test_group_by_time_is_in_time_order(con: sqlite3.Connection) -> None:
    by_year = build_sql(QueryFrame("tenders", "sum", column="value", group_by=("year",)))
    assert by_year == (
        "SELECT strftime('%Y', publish_date) AS year, SUM(estimated_value) AS total_estimated_value, "
        "COUNT(*) AS tender_count FROM tenders_full_details GROUP BY year ORDER BY year"
    )
    years = [row[0] for row in _rows(con, by_year)]
    assert years == sorted(years) and len(years) > 1
    by_quarter = build_sql(QueryFrame("tenders", "count", group_by=("quarter",), conditions=(YEAR_2024,)))
    assert "GROUP BY year, quarter ORDER BY year, quarter" in by_quarter
    rows = _rows(con, by_quarter)
    assert [(year, quarter) for year, quarter, _ in rows] == [("2024", q) for q in (1, 2, 3, 4)]
    assert sum(count for _, _, count in rows) == _one(
        con, "SELECT COUNT(*) FROM tenders_full_details WHERE substr(publish_date, 1, 4) = '2024'"
    )
    by_month = build_sql(QueryFrame("tenders", "count", group_by=("month",), conditions=(YEAR_2024,)))
    assert "GROUP BY year_month ORDER BY year_month" in by_month
    assert [row[0] for row in _rows(con, by_month)] == [f"2024-{m:02d}" for m in range(1, 13)]


def test_the_extreme_within_each_group(con: sqlite3.Connection) -> None:
    sql = build_sql(QueryFrame("tenders", "max", column="value", group_by=("status",), order="desc"))
    assert "MAX(estimated_value) AS max_estimated_value" in sql and sql.endswith("ORDER BY max_estimated_value DESC")
    expected = dict(con.execute("SELECT status_id, MAX(estimated_value) FROM tenders_full_details GROUP BY status_id"))
    assert {row[0]: row[2] for row in _rows(con, sql)} == expected


# --- lookup tables -------------------------------------------------------------------------------------


def test_lookup_tables(con: sqlite3.Connection) -> None:
    regions = build_sql(QueryFrame("regions", "rows"))
    assert regions == "SELECT region_id, name_ar, name_en FROM regions ORDER BY region_id"
    assert [row[0] for row in _rows(con, regions)] == list(range(1, 14))
    agencies = build_sql(QueryFrame("agencies", "count", conditions=(RIYADH,)))
    assert agencies == "SELECT COUNT(*) AS agency_count FROM government_agencies WHERE region_id = 1"
    assert _rows(con, agencies) == [(_one(con, "SELECT COUNT(*) FROM government_agencies WHERE region_id = 1"),)]


# --- conditions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "clause"),
    [
        (Condition("region", "in", (1, 5)), "region_id IN (1, 5)"),
        (Condition("date", "date_range", ("2024-01-01", None)), "publish_date >= '2024-01-01'"),
        (Condition("date", "date_range", (None, "2024-01-01")), "publish_date < '2024-01-01'"),
        (Condition("deadline", "date_range", ("2025-01-01", "2026-01-01")),
         "last_offer_date >= '2025-01-01' AND last_offer_date < '2026-01-01'"),
        (Condition("date", "month_in", (3,)), "strftime('%m', publish_date) = '03'"),
        (Condition("date", "month_in", (1, 2, 3)), "strftime('%m', publish_date) IN ('01', '02', '03')"),
        (Condition("date", "year_in", (2022, 2024)), "strftime('%Y', publish_date) IN ('2022', '2024')"),
        (Condition("region", "not_in", (2,)), "region_id <> 2"),
        (Condition("type", "not_in", (1, 2)), "tender_type_id NOT IN (1, 2)"),
        (Condition("region", "is_null", ()), "region_id IS NULL"),
        (Condition("value", "between", (100_000.0, 500_000.5)), "estimated_value BETWEEN 100000 AND 500000.5"),
        (Condition("bids", ">=", (3.0,)), "bids_count >= 3"),
        (Condition("booklet", "<", (500,)), "booklet_price < 500"),
        (Condition("awarded", "not_null"), "awarded_value IS NOT NULL"),
    ],
)
def test_each_condition_is_one_clause_that_runs(con: sqlite3.Connection, condition: Condition, clause: str) -> None:
    sql = build_sql(QueryFrame("tenders", "count", conditions=(condition,)))
    assert sql == f"SELECT COUNT(*) AS tender_count FROM tenders_full_details WHERE {clause}"
    _rows(con, sql)


def test_text_literals_are_quoted(con: sqlite3.Connection) -> None:
    # Literals come from the parser, never the raw question; a quote in one still cannot end it.
    sql = build_sql(QueryFrame("tenders", "rows", conditions=(Condition("reference", "in", ("1' OR '1'='1",)),)))
    assert "reference_number = '1'' OR ''1''=''1'" in sql
    assert _rows(con, sql) == []


def test_an_unknown_operator_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown condition operator"):
        build_sql(QueryFrame("tenders", "count", conditions=(Condition("value", "like", ("%",)),)))


def test_a_negated_condition_on_a_lookup_table_stays_negated(con: sqlite3.Connection) -> None:
    # "كم جهة في مكة ما هي أمانة", "كم جهة في الرياض غير وزارة الصحة": issue 15 read them as IN.
    frame = QueryFrame(
        "agencies",
        "count",
        conditions=(
            Condition("agency", "not_in", (55, 56), "من غير الجهة"),
            Condition("region", "in", (2,), "في مكة"),
        ),
    )
    sql = build_sql(frame)
    assert "agency_id NOT IN (55, 56)" in sql and "region_id = 2" in sql
    expected = _rows(con, "SELECT COUNT(*) FROM government_agencies WHERE region_id = 2 AND agency_id NOT IN (55, 56)")
    assert _rows(con, sql) == expected
    one = build_sql(QueryFrame("agencies", "rows", conditions=(Condition("region", "not_in", (1,), "خارج الرياض"),)))
    assert "region_id <> 1" in one


def test_a_negated_span_keeps_every_other_day(con: sqlite3.Connection) -> None:
    not_2024 = Condition("date", "not_date_range", ("2024-01-01", "2025-01-01"), "في غير عام 2024")
    sql = build_sql(QueryFrame("tenders", "count", conditions=(not_2024,)))
    assert "NOT (publish_date >= '2024-01-01' AND publish_date < '2025-01-01')" in sql
    all_rows = _one(con, "SELECT COUNT(*) FROM tenders_full_details")
    in_2024 = _one(con, "SELECT COUNT(*) FROM tenders_full_details WHERE substr(publish_date, 1, 4) = '2024'")
    assert _rows(con, sql) == [(all_rows - in_2024,)] and 0 < in_2024 < all_rows


def test_the_other_dates_of_a_tender_have_their_columns(con: sqlite3.Connection) -> None:
    enquiry = Condition("enquiry", "date_range", ("2024-01-01", "2024-02-01"), "يناير 2024")
    opening = Condition("opening", ">=", ("2024-06-01",), "بعد يونيو")
    sql = build_sql(QueryFrame("tenders", "count", conditions=(enquiry, opening)))
    assert "last_enquiry_date >= '2024-01-01'" in sql and "offers_opening_date >= '2024-06-01'" in sql
    earliest = build_sql(QueryFrame("tenders", "min", column="opening"))
    assert _rows(con, earliest) == [(_one(con, "SELECT MIN(offers_opening_date) FROM tenders_full_details"), _one(con, "SELECT COUNT(offers_opening_date) FROM tenders_full_details"))]


def test_an_ordinal_rank_is_an_offset() -> None:
    frame = QueryFrame("tenders", measure="count", group_by=("region",), ranked=True, order="desc", limit=2, offset=3)
    assert build_sql(frame).endswith("LIMIT 2 OFFSET 3")
    assert "OFFSET" not in build_sql(QueryFrame("tenders", measure="count", group_by=("region",), ranked=True, limit=1))
