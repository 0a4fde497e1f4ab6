"""A comparison with no figure ("بقيمة ترسية أقل من قيمتها التقديرية"، "أعلى من متوسطها"، "أكثر من
سنتين") against the comparison the SQL's filter makes (``awarded_value < estimated_value``): told
the other way round than every comparison of the SQL with that quantity, it is contradicted; where
the SQL compares both ways (a CASE, a NOT) or not at all, nothing is said.
"""

from __future__ import annotations

import re

from nabahan_pipeline.evaluation.claims.folding import Folded, fold
from nabahan_pipeline.evaluation.claims.words import COMPARED_QUANTITIES, GREATER_THAN, LESS_THAN

_NEGATIONS = ("لا", "لم", "ما", "ليس", "ليست", "مو")
_COMPARATOR = "|".join(sorted(map(re.escape, (*GREATER_THAN, *LESS_THAN)), key=len, reverse=True))
_OBJECT = "|".join(sorted(map(re.escape, COMPARED_QUANTITIES), key=len, reverse=True))
_STATED = re.compile(rf"(?<!\w)(?:[وب]?(?:ال)?)?({_COMPARATOR})\s+(?:ال)?({_OBJECT})(?!\w)")
_SQL_SIDE = r"(\(\s*select\b|[\w.]+(?:\s*\([^()]*\))?)"
_SQL_COMPARISON = re.compile(_SQL_SIDE + r"\s*(<=|>=|<|>)\s*(?:[\d.]+\s*\*\s*)?" + _SQL_SIDE, re.IGNORECASE)
_TURN = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _side(expression: str, right: bool) -> str | None:
    """What one side of a SQL comparison is: "estimated" or "awarded" (the column itself),
    "average" (a subquery on the right: the average it is compared with), or None."""
    lowered = expression.lower().strip()
    if lowered.startswith("("):
        return "average" if right else None
    if "(" in lowered:
        return None  # an aggregate of the group (HAVING AVG(...)): the side compared, not with
    if lowered.endswith("estimated_value"):
        return "estimated"
    if lowered.endswith("awarded_value"):
        return "awarded"
    return None


def sql_directions(sql: str | None) -> dict[str, set[bool]]:
    """For each quantity the SQL's filter compares with ("estimated", "awarded", "average"), the
    directions the other side is on: True above it, False below."""
    directions: dict[str, set[bool]] = {}
    text = sql or ""
    if re.search(r"\bcase\b|\bnot\s+\(|\bnot\s+\w+\s*[<>]", text, re.IGNORECASE):
        return {}  # a CASE splits the rows both ways; a NOT turns the comparison
    for left, relation, right in _SQL_COMPARISON.findall(text):
        left_side, right_side = _side(left, False), _side(right, True)
        if right_side is not None and left_side != right_side:
            directions.setdefault(right_side, set()).add(relation.startswith(">"))
        if left_side is not None and right_side in ("estimated", "awarded") and left_side != right_side:
            directions.setdefault(left_side, set()).add(_TURN[relation].startswith(">"))
    return directions


# A duration bound in words ("أكثر من سنتين"، "لا تقل عن سنة") against the SQL's months.
_DURATION_WORDS = {"شهر": 1, "شهرا": 1, "شهرين": 2, "سنه": 12, "عام": 12, "سنتين": 24, "عامين": 24}
_DURATION = re.compile(rf"(?<!\w)(?:[وب]?(?:ال)?)?({_COMPARATOR})\s+(?:(\d+)\s+(سنوات|اعوام|سنه|عاما|اشهر|شهور|شهرا)|"
                       rf"({'|'.join(_DURATION_WORDS)}))(?!\w)")
_SQL_MONTHS = re.compile(r"\w*months?\w*\s*(<=|>=|<|>)\s*(\d+)", re.IGNORECASE)


def _durations(insight: Folded, sql: str | None) -> list[tuple[int, int, str, str]]:
    """"بمدة أقل من سنتين" over ``duration_months > 24``: told the other way round."""
    filters = [(relation, int(months)) for relation, months in _SQL_MONTHS.findall(sql or "")]
    if not filters or re.search(r"\bcase\b", sql or "", re.IGNORECASE):
        return []
    found = []
    for start, end, match in insight.find(_DURATION):
        if match.group(2):
            months = int(match.group(2)) * (12 if match.group(3) in ("سنوات", "اعوام", "سنه", "عاما") else 1)
        else:
            months = _DURATION_WORDS[match.group(4)]
        above = _says_above(insight, start, match.group(1))
        matching = [relation for relation, number in filters if number == months]
        said = {relation.startswith(">") for relation in matching}
        if len(said) == 1 and above not in said:
            found.append((start, end, insight.original[start:end], f"the SQL filters {matching[0]} {months} months"))
    return found


def _says_above(insight: Folded, start: int, comparator: str) -> bool:
    """Whether ``comparator`` says above, turned by a negation right before it ("لا تقل عن")."""
    before = fold(insight.original[max(0, start - 8) : start]).split()
    return (comparator in GREATER_THAN) != bool(before and before[-1] in _NEGATIONS)


def comparison_contradictions(insight: Folded, sql: str | None) -> list[tuple[int, int, str, str]]:
    """The comparisons ``insight`` states the other way round than its SQL's filter: each as
    (start, end, the words as written, what the SQL says)."""
    directions = sql_directions(sql)
    found = _durations(insight, sql)
    if not directions:
        return found
    for start, end, match in insight.find(_STATED):
        kind = COMPARED_QUANTITIES[match.group(2)]
        said = directions.get(kind)
        if not said or len(said) != 1:
            continue
        above = _says_above(insight, start, match.group(1))
        if above != next(iter(said)):
            found.append((start, end, insight.original[start:end],
                          f"the SQL keeps the rows {'above' if not above else 'below'} the {kind}"))
    return found
