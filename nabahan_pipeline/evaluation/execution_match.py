"""Execution match: the agent's result rows against the gold SQL's rows, Spider/BIRD style.

Rows are a multiset (duplicates count), a sequence only when the gold query's outermost level has
ORDER BY. Columns are matched by their values, not by name or position: the gold columns must map
one-to-one onto some of the agent's columns (extra agent columns are fine).

Cell equality:
- None equals only None (a float NaN, as pandas may write for a missing value, counts as None);
- numbers: two ints exactly; otherwise within ``rel_tol`` relative (``ABS_TOL`` near zero);
  booleans are the integers 0/1, as SQLite stores them;
- numeric text equals a number when the text is a plain decimal literal of that number ("12",
  "-3.5", "1e3"), not when it has leading zeros, separators or units ("012", "1,200", "12 SAR");
  so a CAST in the agent's SQL or a JSON round trip through strings does not fail a right answer;
- other text is compared exactly after strip().

Near-equal numbers can make two equal multisets sort differently; the rows left unpaired after
sorting are then matched among themselves, up to a few hundred of them (more means the answers
differ anyway, and the search would cost more than it could find).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlglot import exp

from nabahan_pipeline.domain.sql_safety import QueryResult, check_read_only_select

ABS_TOL = 1e-9
_NUMERIC_TEXT = re.compile(r"[+-]?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")

# A cell as a sortable key: (rank, value); ranks keep types apart so that sorting never compares
# a number with a string.
_NONE, _NUMBER, _TEXT, _BYTES = 0, 1, 2, 3
Key = tuple[int, Any]


def gold_is_ordered(sql: str) -> bool:
    """True when the outermost query of ``sql`` has ORDER BY, so that row order is part of the
    answer; an ORDER BY only inside a subquery or CTE does not count."""
    node = check_read_only_select(sql)
    while True:
        if node.args.get("order") is not None:
            return True
        if not isinstance(node, exp.Subquery):
            return False
        node = node.this


def rows_match(
    agent_rows: Sequence[Mapping[str, Any]] | Sequence[Sequence[Any]],
    gold_columns: list[str],
    gold_rows: list[tuple],
    *,
    ordered: bool,
    rel_tol: float = 1e-6,
) -> bool:
    """True when the agent's rows hold the gold rows: same number of rows, and a one-to-one mapping
    of gold columns onto agent columns under which the rows are equal (as a sequence when
    ``ordered``, else as a multiset)."""
    if len(agent_rows) != len(gold_rows):
        return False
    if not gold_rows:
        return True
    width = len(gold_rows[0])
    if gold_columns and len(gold_columns) != width:
        raise ValueError(f"{len(gold_columns)} gold column names for rows of {width} values")
    gold = _columns_of(gold_rows, width)
    agent = _agent_columns(agent_rows)
    if len(agent) < len(gold):
        return False
    return _ColumnMatcher(gold, agent, ordered=ordered, rel_tol=rel_tol).search()


def execution_match(
    agent_rows: Sequence[Mapping[str, Any]] | Sequence[Sequence[Any]],
    gold: QueryResult,
    gold_sql: str,
) -> bool:
    """rows_match against a gold result, ordered exactly when the gold SQL orders its rows."""
    return rows_match(agent_rows, gold.columns, gold.rows, ordered=gold_is_ordered(gold_sql))


# --- cells --------------------------------------------------------------------------------------


def _cell_key(value: Any) -> Key:
    """The comparable form of one cell (see the module docstring for the rules)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return (_NONE, 0)
    if isinstance(value, bool):
        return (_NUMBER, int(value))
    if isinstance(value, (int, float)):
        return (_NUMBER, value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return (_BYTES, bytes(value))
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    text = value.strip()
    if _NUMERIC_TEXT.fullmatch(text):
        number = float(text)
        if math.isfinite(number):
            return (_NUMBER, int(text) if text.lstrip("+-").isdigit() else number)
    return (_TEXT, text)


def _keys_equal(a: Key, b: Key, rel_tol: float) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] != _NUMBER or (isinstance(a[1], int) and isinstance(b[1], int)):
        return a[1] == b[1]
    return math.isclose(a[1], b[1], rel_tol=rel_tol, abs_tol=ABS_TOL)


def _cells_equal(left: Sequence[Key], right: Sequence[Key], rel_tol: float) -> bool:
    """Cell-by-cell equality of two equally long rows or columns, within tolerance."""
    return left == right or all(_keys_equal(a, b, rel_tol) for a, b in zip(left, right))


def _multisets_equal(left: list[tuple], right: list[tuple], rel_tol: float) -> bool:
    """Multiset equality of rows within tolerance: pair them in sorted order, then settle the pairs
    that differ (near-equal numbers can sort differently) by matching them among themselves."""
    left, right = sorted(left), sorted(right)
    if left == right:
        return True
    unpaired = [(a, b) for a, b in zip(left, right) if not _cells_equal(a, b, rel_tol)]
    return _perfect_matching([a for a, _ in unpaired], [b for _, b in unpaired], rel_tol)


# Beyond this many unpaired rows the answers simply differ; don't search for a pairing.
_MAX_UNPAIRED = 200


def _perfect_matching(left: list[tuple], right: list[tuple], rel_tol: float) -> bool:
    if len(left) > _MAX_UNPAIRED:
        return False
    edges = [[j for j, b in enumerate(right) if _cells_equal(a, b, rel_tol)] for a in left]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(left)))


# --- columns ------------------------------------------------------------------------------------


def _columns_of(rows: Sequence[Sequence[Any]], width: int) -> list[list[Key]]:
    if any(len(row) != width for row in rows):
        raise ValueError("rows of different widths")
    return [[_cell_key(row[c]) for row in rows] for c in range(width)]


def _agent_columns(rows: Sequence[Mapping[str, Any]] | Sequence[Sequence[Any]]) -> list[list[Key]]:
    if isinstance(rows[0], Mapping):
        names = list(dict.fromkeys(name for row in rows for name in row))
        return [[_cell_key(row.get(name)) for row in rows] for name in names]
    width = max(len(row) for row in rows)
    return _columns_of([tuple(row) + (None,) * (width - len(row)) for row in rows], width)


class _ColumnMatcher:
    """Backtracking search for a one-to-one mapping of gold columns onto agent columns.

    Candidates are pruned first, per gold column: cell for cell when ordered, else by the sorted
    multiset of values (each column sorted once). Agent columns that are cell-for-cell identical
    are one candidate usable as many times as there are copies. In the unordered case every partial
    mapping is checked as a multiset of row tuples before going deeper.
    """

    def __init__(self, gold: list[list[Key]], agent: list[list[Key]], *, ordered: bool, rel_tol: float):
        self.gold, self.agent, self.ordered, self.rel_tol = gold, agent, ordered, rel_tol
        copies: dict[tuple, list[int]] = {}
        for index, column in enumerate(agent):
            copies.setdefault(tuple(column), []).append(index)
        self.capacity = {indices[0]: len(indices) for indices in copies.values()}
        if ordered:
            agent_views = {a: agent[a] for a in self.capacity}
            gold_views = gold
        else:
            agent_views = {a: sorted(agent[a]) for a in self.capacity}
            gold_views = [sorted(column) for column in gold]
        self.candidates = [
            [a for a, view in agent_views.items() if _cells_equal(gold_view, view, rel_tol)]
            for gold_view in gold_views
        ]
        self.order = sorted(range(len(gold)), key=lambda g: len(self.candidates[g]))
        self.assigned: dict[int, int] = {}

    def search(self, depth: int = 0) -> bool:
        if depth == len(self.order):
            return True
        g = self.order[depth]
        for a in self.candidates[g]:
            if sum(1 for used in self.assigned.values() if used == a) >= self.capacity[a]:
                continue
            self.assigned[g] = a
            if self._consistent() and self.search(depth + 1):
                return True
            del self.assigned[g]
        return False

    def _consistent(self) -> bool:
        # Ordered: the candidates already agree cell for cell, so any assignment is consistent.
        if self.ordered or len(self.assigned) < 2:
            return True
        gold_rows = list(zip(*(self.gold[g] for g in self.assigned)))
        agent_rows = list(zip(*(self.agent[a] for a in self.assigned.values())))
        return _multisets_equal(gold_rows, agent_rows, self.rel_tol)
