"""The seed's Ungrounded Numbers ("found in the data"): the numbers of an insight the claims checker
does not verify (unsupported or contradicted), so that it and the claims' verdicts read each number
one way and never disagree on a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nabahan_pipeline.evaluation.claims.checking import SUPPORTED, ClaimCheck, check_insight


def ungrounded_numbers(
    insight: str, rows: Sequence[Mapping[str, Any] | Sequence[Any]], question: str,
    sql: str | None = None, columns: Sequence[str] | None = None,
) -> list[str]:
    """The numbers ``insight`` states (as written, each once, in order) that the claims checker
    does not verify against ``rows`` (mappings of column -> value, or sequences under ``columns``)
    and ``question``; ``sql`` is the SQL that returned them, when known (its aggregates and order)."""
    names, table = as_table(rows, columns)
    return unverified_numbers(check_insight(insight or "", question or "", names, table, sql))


def unverified_numbers(checks: Iterable[ClaimCheck]) -> list[str]:
    """The numbers of ``checks`` not verified (unsupported or contradicted), as written, each once."""
    numbers: list[str] = []
    for check in checks:
        mention = check.claim.mention
        if check.claim.kind == "number" and mention is not None and check.verdict != SUPPORTED:
            if mention.text not in numbers:
                numbers.append(mention.text)
    return numbers


def as_table(
    rows: Sequence[Mapping[str, Any] | Sequence[Any]], columns: Sequence[str] | None = None
) -> tuple[list[str], list[list[Any]]]:
    """Rows as columns and lists of cells: mappings by their keys (in order of first appearance),
    sequences under ``columns`` (positions named by number past them)."""
    if rows and all(isinstance(row, Mapping) for row in rows):
        names = list(dict.fromkeys(name for row in rows for name in row))
        return [str(name) for name in names], [[row.get(name) for name in names] for row in rows]
    # Lists as they are (read, never changed): a 30 MiB result is not copied for its numbers.
    table = [row if isinstance(row, list) else list(row) if isinstance(row, tuple) else [row] for row in rows]
    width = max((len(row) for row in table), default=0)
    names = list(columns or [])[:width] if columns else []
    return names + [str(j) for j in range(len(names), width)], table
