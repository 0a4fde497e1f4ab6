"""Execution match: rows as a multiset (or sequence when the gold orders), columns matched by value."""

from __future__ import annotations

import random

import pytest

from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline.evaluation.execution_match import execution_match, gold_is_ordered, rows_match

GOLD_COLUMNS = ["region_name", "n"]
GOLD_ROWS = [("منطقة الرياض", 120), ("منطقة مكة المكرمة", 80), ("المنطقة الشرقية", 80)]


def match(agent_rows, gold_rows=GOLD_ROWS, *, ordered: bool = False, columns=None) -> bool:
    width = len(gold_rows[0]) if gold_rows else 0
    return rows_match(agent_rows, columns or [f"g{i}" for i in range(width)], gold_rows, ordered=ordered)


# --- gold_is_ordered -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "ordered"),
    [
        ("SELECT region_name, COUNT(*) FROM tenders_full_details GROUP BY 1 ORDER BY 2 DESC", True),
        ("SELECT region_name, COUNT(*) FROM tenders_full_details GROUP BY 1", False),
        ("SELECT * FROM (SELECT * FROM tenders_full_details ORDER BY estimated_value)", False),
        ("WITH t AS (SELECT * FROM tenders_full_details ORDER BY publish_date) SELECT * FROM t", False),
        ("WITH t AS (SELECT * FROM tenders_full_details) SELECT * FROM t ORDER BY publish_date", True),
        ("SELECT 1 AS a UNION SELECT 2 ORDER BY a", True),
        ("SELECT region_id FROM regions WHERE region_id IN (SELECT region_id FROM future_projects ORDER BY 1)", False),
        ("(SELECT name_ar FROM regions ORDER BY region_id)", True),
    ],
)
def test_gold_is_ordered_looks_at_the_outermost_query_only(sql: str, ordered: bool) -> None:
    assert gold_is_ordered(sql) is ordered


# --- rows_match ----------------------------------------------------------------------------------


def test_same_rows_match() -> None:
    assert match([{"region_name": r, "n": n} for r, n in GOLD_ROWS])


def test_columns_are_matched_by_value_not_name_or_position() -> None:
    assert match([{"count": n, "region": r} for r, n in GOLD_ROWS])
    assert match([(n, r) for r, n in GOLD_ROWS])


def test_extra_agent_columns_are_allowed() -> None:
    assert match([{"id": i, "region": r, "n": n, "share": n / 280} for i, (r, n) in enumerate(GOLD_ROWS)])


def test_missing_gold_column_fails() -> None:
    assert not match([{"region": r} for r, _ in GOLD_ROWS])


def test_each_gold_column_needs_its_own_agent_column() -> None:
    gold = [(5, 5), (7, 7)]
    assert not match([{"a": 5}, {"a": 7}], gold)
    assert match([{"a": 5, "b": 5}, {"a": 7, "b": 7}], gold)


def test_values_must_stay_together_in_their_rows() -> None:
    # Each column's values are right, but the pairing of region and count is not.
    swapped = [("منطقة الرياض", 80), ("منطقة مكة المكرمة", 120), ("المنطقة الشرقية", 80)]
    assert not match(swapped)


def test_order_ignored_when_gold_does_not_order() -> None:
    assert match(list(reversed(GOLD_ROWS)), ordered=False)


def test_order_respected_when_gold_orders() -> None:
    assert match(GOLD_ROWS, ordered=True)
    assert not match(list(reversed(GOLD_ROWS)), ordered=True)
    assert match([(n, r) for r, n in GOLD_ROWS], ordered=True)


def test_duplicates_count_as_a_multiset() -> None:
    gold = [("a",), ("a",), ("b",)]
    assert match([("a",), ("b",), ("a",)], gold)
    assert not match([("a",), ("b",), ("b",)], gold)


def test_different_row_counts_fail() -> None:
    assert not match(GOLD_ROWS[:2])
    assert not match(GOLD_ROWS + [("منطقة الرياض", 120)])


def test_empty_results() -> None:
    assert rows_match([], ["n"], [], ordered=False)
    assert not rows_match([], ["n"], [(1,)], ordered=False)
    assert not rows_match([{"n": 1}], ["n"], [], ordered=False)


@pytest.mark.parametrize(
    ("agent", "gold", "equal"),
    [
        (20_192_354_002.220055 * (1 + 5e-15), 20_192_354_002.220055, True),  # summation-order noise
        (20_192_354_002.22, 20_192_354_002.220055, True),  # the agent rounded to 2 decimals
        (20_192_354_002.220055 - 300, 20_192_354_002.220055, False),  # one 300 SAR tender dropped
        (1_000_000.5, 1_000_000.0, False),  # the old 1e-6 relative tolerance let this through
        (2_593_856.87, 2_593_856.8743, True),  # an average rounded to 2 decimals
        (2_593_856.9, 2_593_856.8743, False),  # ... but not to 1
        (2_593_856.88, 2_593_856.8743, False),  # nor rounded the wrong way
        (0.33, 1 / 3, True),
        (0.3333333, 1 / 3, False),  # neither full precision nor 2 decimals
        (0.334, 1 / 3, False),
        (1e-12, 0.0, True),  # the small absolute tolerance at zero
        (1e-3, 0.0, True),  # 0.00 once rounded to 2 decimals
        (0.006, 0.0, False),
        (12, 12.0, True),  # int vs float
        (12.004, 12, False),  # a count is never a rounded figure
        (1_000_001, 1_000_000, False),  # two ints compare exactly
    ],
)
def test_numbers_within_relative_tolerance(agent, gold, equal: bool) -> None:
    assert match([(agent,)], [(gold,)]) is equal
    assert match([(agent,)], [(gold,)], ordered=True) is equal


def test_near_equal_numbers_that_sort_differently_still_pair_up() -> None:
    gold = [(1.0, "b"), (1.0000001, "a")]
    assert match([(1.0000001, "b"), (1.0, "a")], gold)


@pytest.mark.parametrize(
    ("agent", "gold", "equal"),
    [
        (None, None, True),
        (None, 0, False),
        (None, "", False),
        (None, "None", False),
        (float("nan"), None, True),
        ("  الرياض ", "الرياض", True),
        ("الرياض", "منطقة الرياض", False),
        ("Riyadh", "riyadh", False),
        ("12", 12, True),
        ("12.50", 12.5, True),
        ("012", 12, False),
        ("1,200", 1200, False),
        ("12 ريال", 12, False),
        (True, 1, True),
    ],
)
def test_cell_equality_rules(agent, gold, equal: bool) -> None:
    assert match([(agent,)], [(gold,)]) is equal


def test_agent_rows_as_tuples_or_dicts_with_missing_keys() -> None:
    gold = [(1, None), (2, 5)]
    assert match([{"a": 1}, {"a": 2, "b": 5}], gold)


def test_execution_match_uses_the_gold_sqls_ordering() -> None:
    gold = QueryResult(columns=["name_ar"], rows=[("أ",), ("ب",)])
    reversed_rows = [{"name": "ب"}, {"name": "أ"}]
    assert execution_match(reversed_rows, gold, "SELECT name_ar FROM regions")
    assert not execution_match(reversed_rows, gold, "SELECT name_ar FROM regions ORDER BY name_ar")


def test_large_results_with_permuted_columns_match() -> None:
    # Its speed is measured by bench/bench_execution_match.py, not timed here.
    rng = random.Random(7)
    gold = [tuple(rng.randint(1, 30) if c % 2 else rng.random() * 1e6 for c in range(10)) for _ in range(10_000)]
    permutation = [3, 1, 4, 0, 2, 9, 8, 7, 6, 5]
    agent = [{f"c{j}": row[c] for j, c in enumerate(permutation)} | {"extra": 1} for row in gold]
    rng.shuffle(agent)
    assert match(agent, gold)
    agent[17]["c5"] *= 1.001
    assert not match(agent, gold)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT COUNT(*) FROM t",
        "SELECT name FROM t ORDER BY n DESC LIMIT 3",
        "SELECT * FROM (SELECT name FROM t ORDER BY n) AS s",
        "SELECT 'no order here' AS note FROM t",
        "SELECT orders FROM t",
    ],
)
def test_a_gold_query_is_read_as_its_parse_tree_reads_it(sql: str) -> None:
    from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
    from nabahan_pipeline.evaluation.execution_match import _order_plan, gold_is_ordered, gold_query

    query = gold_query(sql)
    assert (query.plan, query.ordered) == (_order_plan(check_read_only_select(sql)), gold_is_ordered(sql))


@pytest.mark.parametrize("sql", ["DELETE FROM t", "SELECT 1; DROP TABLE t", "SELEC x FROM"])
def test_an_unsafe_gold_query_is_refused_as_the_parse_check_refuses_it(sql: str) -> None:
    from nabahan_pipeline.errors import UnsafeSQLError
    from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
    from nabahan_pipeline.evaluation.execution_match import gold_query

    with pytest.raises(UnsafeSQLError) as parsed:
        check_read_only_select(sql)
    with pytest.raises(UnsafeSQLError) as read:
        gold_query(sql)
    assert str(read.value) == str(parsed.value)


def test_rows_equal_cell_for_cell_match_without_searching_the_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    from nabahan_pipeline.evaluation import execution_match as em

    class NoSearch:
        def __init__(self, *args: object) -> None:
            raise AssertionError("the column mappings were searched")

    monkeypatch.setattr(em, "_ColumnMatcher", NoSearch)
    gold = [("الرياض", 12), ("جدة", 7)]
    assert rows_match([("جدة", 7), ("الرياض", 12)], ["region", "n"], gold, ordered=False)
    assert rows_match([["الرياض", "12"], ["جدة", 7.0]], ["region", "n"], gold, ordered=True)
    with pytest.raises(AssertionError, match="searched"):  # columns in another order: searched
        rows_match([(12, "الرياض"), (7, "جدة")], ["region", "n"], gold, ordered=False)


@pytest.mark.parametrize("seed", range(40))
def test_the_shortcut_for_equal_rows_decides_as_the_search_does(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from nabahan_pipeline.evaluation import execution_match as em

    rng = random.Random(seed)
    cells = [None, 0, 1, 1.0, "1", " 1 ", 2.5, 2.504, "a", "b", True, float("nan")]
    width, count = rng.randint(1, 3), rng.randint(1, 4)
    gold = [tuple(rng.choice(cells) for _ in range(width)) for _ in range(count)]
    expected = em.ExpectedResult(
        columns=[f"c{i}" for i in range(width)], rows=gold,
        groups=None if rng.random() < 0.5 else sorted(rng.randint(0, count) for _ in range(count)),
    )
    candidates = [list(gold), gold[::-1], [tuple(rng.choice(cells) for _ in range(width)) for _ in gold],
                  [row[::-1] for row in gold], [tuple(rng.choice([c, c]) for c in row) for row in rng.sample(gold, count)]]
    found = [em.result_matches(agent, expected) for agent in candidates]
    monkeypatch.setattr(em, "_same_rows", lambda *args: False)
    assert found == [em.result_matches(agent, expected) for agent in candidates]
