"""Years compared: "قارن إجمالي القيمة التقديرية بين 2024 و2025", "مقارنة عدد المنافسات في 2023
وفي 2025": the measure grouped by year over the years named (ANDed, two years would ask for no
day at all; summed together, they would answer no comparison)."""

from __future__ import annotations

import re
from dataclasses import replace

from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import COMPARE
from nabahan_pipeline.reference_agent.parser.reading import Reading


def _whole_years(c: Condition, question: str) -> list[int] | None:
    """The years a date condition spans whole, if it does: one, or those of a range the question
    names ("بين 2024 و2025" is read as a range; compared, it is those two years)."""
    if c.op == "date_range" and len(c.values) == 2 and all(isinstance(v, str) for v in c.values):
        start, end = c.values
        if start.endswith("-01-01") and end.endswith("-01-01") and int(end[:4]) > int(start[:4]):
            first, last = int(start[:4]), int(end[:4]) - 1
            if first == last:
                return [first]
            named = sorted({int(y) for y in re.findall(r"(?<!\d)(20\d\d)(?!\d)", question) if first <= int(y) <= last})
            return named if len(named) >= 2 else None
    return None


def periods_compared(frame: QueryFrame, r: Reading) -> QueryFrame:
    """``frame`` grouped by year when the question compares two or more whole years; else as it is."""
    if not COMPARE.search(r.original) or frame.group_by or frame.sides or frame.measure not in ("count", "sum", "avg"):
        return frame
    dated = [c for c in frame.conditions if c.field in ("date", "deadline")]
    years: list[int] = []
    for c in dated:
        if c.op == "year_in":
            years += [int(y) for y in c.values]
        else:
            whole = _whole_years(c, r.original)
            if whole is None:
                return frame
            years += whole
    years = sorted(set(years))
    if len(years) < 2:
        return frame
    label = "في الأعوام " + " و".join(str(y) for y in years)
    rest = tuple(c for c in frame.conditions if c not in dated)
    return replace(frame, group_by=("year",), conditions=(*rest, Condition(dated[0].field, "year_in", tuple(years), label)))
