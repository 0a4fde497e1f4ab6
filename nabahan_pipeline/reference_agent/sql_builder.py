"""QueryFrame -> one readable SQLite SELECT with its literals inlined, runnable as it stands.

Every literal comes from the parser (ids, ISO dates, numbers), never from the question's raw text,
and is quoted by ``_literal`` all the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from nabahan_pipeline.reference_agent.parser import Condition, QueryFrame
from nabahan_pipeline.reference_agent.parser.frame import LOOKUP_TABLES
from nabahan_pipeline.reference_agent.parser.values import AVERAGE


@dataclass(frozen=True)
class _Table:
    name: str
    noun: str  # the row noun in column aliases: tender, project
    columns: dict[str, str]  # abstract field -> column
    id_name: dict[str, tuple[str, str]]  # dimension -> (id column, name column)


# Each dimension's id and name columns, as the tables and views name them.
DIMENSIONS = {
    "region": ("region_id", "region_name"),
    "status": ("status_id", "status_name"),
    "type": ("tender_type_id", "tender_type_name"),
    "activity": ("activity_id", "activity_name"),
    "agency": ("agency_id", "agency_name"),
}
# Each abstract field's column in the tenders' view; future projects hold some of them.
_TENDER_COLUMNS = {
    "region": "region_id", "status": "status_id", "type": "tender_type_id", "activity": "activity_id",
    "agency": "agency_id", "date": "publish_date", "deadline": "last_offer_date", "enquiry": "last_enquiry_date",
    "opening": "offers_opening_date", "value": "estimated_value", "awarded": "awarded_value", "bids": "bids_count",
    "booklet": "booklet_price", "reference": "reference_number", "tender_name": "tender_name",
}
TABLES = {
    "tenders": _Table("tenders_full_details", "tender", _TENDER_COLUMNS, DIMENSIONS),
    "projects": _Table(
        "future_projects", "project",
        {
            **{field: _TENDER_COLUMNS[field] for field in ("region", "type", "activity", "agency", "value")},
            "date": "expected_offering_date", "duration": "duration_months",
        },
        {k: v for k, v in DIMENSIONS.items() if k != "status"},
    ),
}
LOOKUPS = {
    "regions": ("regions", "region_id", "name_ar, name_en", "region"),
    "tender_types": ("tender_types", "tender_type_id", "name_ar, name_en", "tender_type"),
    "tender_statuses": ("tender_statuses", "status_id", "name_ar, name_en", "status"),
    "activities": ("activities", "activity_id", "name_ar, name_en", "activity"),
    "agencies": ("government_agencies", "agency_id", "name_ar, name_en, region_id", "agency"),
}
# Each measure's column alias: total_estimated_value.
METRIC_PREFIXES = {"sum": "total", "avg": "avg", "max": "max", "min": "min"}
# Columns that are NULL on some rows: ranking by them leaves those rows out.
_NULLABLE = {"awarded_value", "bids_count", "region_id", "last_offer_date", "last_enquiry_date", "offers_opening_date"}


def unanswerable(frame: QueryFrame) -> tuple[Condition, ...]:
    """The conditions of ``frame`` its table has no column for (a status of a future project):
    built, they would be left out of the WHERE clause and the answer would be about other rows."""
    table = TABLES.get(frame.entity)
    if table is None:
        return ()
    return tuple(c for c in frame.conditions + frame.share_of if c.field not in table.columns)


def build_sql(frame: QueryFrame) -> str:
    """The SQL for ``frame``."""
    if frame.entity in LOOKUPS:
        return _lookup_sql(frame)
    table = TABLES[frame.entity]
    held = [c for c in frame.conditions if c.field in table.columns]
    # "قيمتها أعلى من المتوسط": the average of the rows the other conditions keep.
    others = [_condition(c, table.columns) for c in held if AVERAGE not in c.values]
    where = [_vs_average(c, table, others) if AVERAGE in c.values else _condition(c, table.columns) for c in held]
    if frame.sides:
        return _difference_sql(frame, table, where)
    if frame.measure == "rows":
        return _rows_sql(frame, table, where)
    if frame.group_by:
        return _group_sql(frame, table, where)
    return _aggregate_sql(frame, table, where)


def _rows_sql(frame: QueryFrame, table: _Table, where: list[str]) -> str:
    if frame.column and frame.order:
        column = table.columns.get(frame.column, "estimated_value")
        if column in _NULLABLE:
            where = where + [f"{column} IS NOT NULL"]
        direction = "DESC" if frame.order == "desc" else "ASC"
        order = f"{column} {direction}"
    else:
        order = f"{table.columns['date']} DESC"
    sql = f"SELECT * FROM {table.name}{_where(where)} ORDER BY {order}"
    if frame.limit:
        sql += f" LIMIT {int(frame.limit)}" + (f" OFFSET {int(frame.offset)}" if frame.offset else "")
    return sql


def _aggregate_sql(frame: QueryFrame, table: _Table, where: list[str]) -> str:
    noun = table.noun
    if frame.measure == "share":
        parts = [_condition(c, table.columns) for c in frame.share_of if c.field in table.columns]
        part = " AND ".join(parts) or "1 = 1"
        if frame.column:
            # A share of a column's total: "حصة الرياض من مجموع القيمة التقديرية".
            column = table.columns.get(frame.column, "estimated_value")
            matching = f"SUM(CASE WHEN {part} THEN {column} ELSE 0 END)"
            select = (
                f"{matching} AS matching_{column}, SUM({column}) AS total_{column}, "
                f"100.0 * {matching} / SUM({column}) AS share_pct"
            )
            return f"SELECT {select} FROM {table.name}{_where(where)}"
        matching = f"SUM(CASE WHEN {part} THEN 1 ELSE 0 END)"
        select = (
            f"{matching} AS matching_count, COUNT(*) AS total_count, "
            f"100.0 * {matching} / COUNT(*) AS share_pct"
        )
    elif frame.measure == "count":
        select = f"COUNT(*) AS {noun}_count"
    elif frame.measure == "count_distinct":
        id_column = table.id_name[frame.distinct_of or "agency"][0]
        select = f"COUNT(DISTINCT {id_column}) AS {frame.distinct_of}_count"
    else:
        column = table.columns.get(frame.column or "value", "estimated_value")
        metric = _metric(frame.measure, column)
        counted = f"COUNT({column})" if column in _NULLABLE else "COUNT(*)"
        select = f"{metric}, {counted} AS {noun}_count"
    return f"SELECT {select} FROM {table.name}{_where(where)}"


def _difference_sql(frame: QueryFrame, table: _Table, where: list[str]) -> str:
    """Each side's figure, then the first less the second (and, ``relative``, that as a share of
    the first). Sides that differ in their column only are measured in one pass over the rows."""
    figures = []
    for side in frame.sides:
        column = table.columns.get(side.column or frame.column or "value", "estimated_value")
        metric = {"count": "COUNT(*)", "sum": f"SUM({column})", "avg": f"AVG({column})"}[frame.measure]
        side_where = where + [_condition(c, table.columns) for c in side.conditions if c.field in table.columns]
        figures.append((metric, side_where))
    (first, first_where), (second, second_where) = figures
    if first_where == second_where:
        a, b, source = first, second, f"{table.name}{_where(where)}"
    else:
        a, b = "first_value", "second_value"
        source = (
            f"(SELECT (SELECT {first} FROM {table.name}{_where(first_where)}) AS first_value, "
            f"(SELECT {second} FROM {table.name}{_where(second_where)}) AS second_value)"
        )
    select = f"{a} AS first_value, {b} AS second_value" if a != "first_value" else "first_value, second_value"
    select += f", {a} - {b} AS difference"
    if frame.relative:
        select += f", 100.0 * ({a} - {b}) / {a} AS difference_pct"
    return f"SELECT {select} FROM {source}"


# A period grouped by: its columns (of the table's date column) and the keys it is grouped and ordered by.
_PERIODS = {
    "year": (("strftime('%Y', {date}) AS year",), ["year"]),
    "month": (("strftime('%Y-%m', {date}) AS year_month", "strftime('%m', {date}) AS month"), ["year_month"]),
    "quarter": (
        ("strftime('%Y', {date}) AS year", "(CAST(strftime('%m', {date}) AS INTEGER) + 2) / 3 AS quarter"),
        ["year", "quarter"],
    ),
}


def _group_sql(frame: QueryFrame, table: _Table, where: list[str]) -> str:
    asked = where  # the question's own conditions, before the groups' keys are required
    keys: list[str] = []
    selected: list[str] = []
    time_order: list[str] = []
    date_column = table.columns["date"]
    for dimension in frame.group_by:
        if dimension in table.id_name:
            id_column, name_column = table.id_name[dimension]
            # Grouping by the id alone lets SQLite walk the id index; the name follows the id.
            keys.append(id_column)
            selected += [id_column, name_column]
            if id_column in _NULLABLE:
                where = where + [f"{id_column} IS NOT NULL"]
        elif dimension in ("booklet", "bids", "duration") and dimension in table.columns:
            # The column's own values ("لكل سعر كراسة"), in their order.
            column = table.columns[dimension]
            # Named for the dimension: a name ending in _count would read as the count.
            selected.append(f"{column} AS {dimension}")
            keys.append(dimension)
            time_order.append(dimension)
        elif dimension in _PERIODS:
            columns, period_keys = _PERIODS[dimension]
            selected += [column.format(date=date_column) for column in columns]
            keys += period_keys
            time_order += period_keys
    noun = table.noun
    count = f"COUNT(*) AS {noun}_count"
    if frame.measure == "count":
        metrics = [count]
        order_key = f"{noun}_count"
    else:
        column = table.columns.get(frame.column or "value", "estimated_value")
        metric = _metric(frame.measure, column)
        metrics = [metric, count]
        order_key = metric.rsplit(" AS ", 1)[1]
        if frame.ranked and column in _NULLABLE:
            where = where + [f"{column} IS NOT NULL"]
    sql = f"SELECT {', '.join(selected + metrics)} FROM {table.name}{_where(where)} GROUP BY {', '.join(keys)}"
    if frame.having is not None:
        # "المناطق التي يتجاوز إجمالي ...": the groups whose figure passes the threshold.
        figure = metrics[0].rsplit(" AS ", 1)[0]
        threshold = frame.having.values[0]
        if threshold == AVERAGE:
            # "أعلى من المتوسط": each group's figure against the same figure over all the groups' rows
            # (a count or a total against their mean per group).
            inner = figure if frame.measure == "avg" else f"{figure} * 1.0 / COUNT(DISTINCT {keys[0]})"
            sql += f" HAVING {figure} {frame.having.op} (SELECT {inner} FROM {table.name}{_where(asked)})"
        else:
            sql += f" HAVING {figure} {frame.having.op} {_literal(threshold)}"
    if time_order and not frame.ranked:
        sql += f" ORDER BY {', '.join(time_order)}"
    else:
        # No tie-breaker: an analyst's ORDER BY has none, and SQLite orders ties the same way for
        # the same plan.
        direction = "ASC" if frame.order == "asc" else "DESC"
        sql += f" ORDER BY {order_key} {direction}"
    if frame.limit:
        sql += f" LIMIT {int(frame.limit)}" + (f" OFFSET {int(frame.offset)}" if frame.offset else "")
    return sql


# The dimension each lookup table holds the values of.
_LOOKUP_DIMENSIONS = {table: dimension for dimension, table in LOOKUP_TABLES.items()}


def _lookup_sql(frame: QueryFrame) -> str:
    table, id_column, names, noun = LOOKUPS[frame.entity]
    if frame.entity == "agencies" and frame.column == "region":
        return _agency_region_sql(frame)
    where = []
    for c in frame.conditions:
        # Negated ones as negations ("كم جهة في مكة ما هي أمانة": not the municipalities), tenders' way.
        if frame.entity == "agencies" and c.field in ("region", "agency"):
            where.append(_condition(c, {"region": "region_id", "agency": "agency_id"}))
        elif c.field == _LOOKUP_DIMENSIONS[frame.entity] and c.op in ("in", "not_in"):
            where.append(_condition(c, {c.field: id_column}))
    if frame.measure == "count":
        return f"SELECT COUNT(*) AS {noun}_count FROM {table}{_where(where)}"
    return f"SELECT {id_column}, {names} FROM {table}{_where(where)} ORDER BY {id_column}"


def _agency_region_sql(frame: QueryFrame) -> str:
    """The region each agency named is in ("في أي منطقة تقع جامعة طيبة")."""
    parts = [_in("g.agency_id", c.values) for c in frame.conditions if c.field == "agency" and c.op == "in"]
    parts += [_in("g.region_id", c.values) for c in frame.conditions if c.field == "region" and c.op == "in"]
    where = _where(parts)
    return (
        "SELECT g.agency_id, g.name_ar AS agency_name, r.region_id, r.name_ar AS region_name, "
        "r.name_en AS region_name_en FROM government_agencies g JOIN regions r ON r.region_id = g.region_id"
        f"{where} ORDER BY g.agency_id"
    )


def _metric(measure: str, column: str) -> str:
    return f"{measure.upper()}({column}) AS {METRIC_PREFIXES[measure]}_{column}"


def _vs_average(c: Condition, table: _Table, others: list[str]) -> str:
    """``c`` (a column compared with the average) as a subquery over the rows ``others`` keep."""
    column = table.columns[c.field]
    return f"{column} {c.op} (SELECT AVG({column}) FROM {table.name}{_where(others)})"


def _where(parts: list[str]) -> str:
    return f" WHERE {' AND '.join(parts)}" if parts else ""


def _condition(c: Condition, columns: dict[str, str]) -> str:
    """``c`` on its column (``columns``: abstract field -> column of the table queried)."""
    column = columns[c.field]
    if c.op in ("in", "not_in"):
        return _in(column, c.values, negated=c.op == "not_in")
    if c.op == "date_range":
        start, end = c.values
        parts = []
        if start:
            parts.append(f"{column} >= {_literal(start)}")
        if end:
            parts.append(f"{column} < {_literal(end)}")
        return " AND ".join(parts) if parts else "1 = 1"
    if c.op == "not_date_range":
        # Every day but the span's: "في غير 2024".
        return f"NOT ({_condition(Condition(c.field, 'date_range', c.values, c.label), columns)})"
    if c.op == "month_in":
        return _in(f"strftime('%m', {column})", tuple(f"{int(m):02d}" for m in c.values))
    if c.op in ("is_null", "not_null"):
        return f"{column} IS {'NOT ' if c.op == 'not_null' else ''}NULL"
    if c.op == "year_in":
        return f"strftime('%Y', {column}) IN ({', '.join(_literal(str(int(y))) for y in c.values)})"
    if c.op == "between":
        low, high = c.values
        return f"{column} BETWEEN {_literal(low)} AND {_literal(high)}"
    if c.op in (">", ">=", "<", "<=", "="):
        return f"{column} {c.op} {_literal(c.values[0])}"
    if c.op in ("column>", "column<"):
        # A column against another column of the same row, scaled: "awarded_value < 0.8 * estimated_value".
        other, factor = c.values
        scaled = columns[other] if float(factor) == 1.0 else f"{_literal(float(factor))} * {columns[other]}"
        return f"{column} {c.op[-1]} {scaled}"
    raise ValueError(f"unknown condition operator {c.op!r}")


def _in(column: str, values: tuple, negated: bool = False) -> str:
    if len(values) == 1:
        return f"{column} {'<>' if negated else '='} {_literal(values[0])}"
    return f"{column} {'NOT IN' if negated else 'IN'} ({', '.join(_literal(v) for v in values)})"


def _literal(value: object) -> str:
    """A SQL literal: integers and floats as numbers, text single-quoted with quotes doubled."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return "'" + str(value).replace("'", "''") + "'"
