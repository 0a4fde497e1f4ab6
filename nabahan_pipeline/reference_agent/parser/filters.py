"""Filters sent with a question (region, year, status, type: names or ids) as conditions that
narrow the question's frame."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.dates import year_span
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import REGION_KEYS, REGIONS, STATUS_KEYS, STATUSES, TYPE_KEYS, TYPES
from nabahan_pipeline.reference_agent.parser.question_parser import QuestionParser


def apply_filters(frame: QueryFrame, filters: Mapping[str, object], parser: QuestionParser) -> QueryFrame:
    """``frame`` narrowed by the caller's ``filters`` (region, year, status, type: names or ids);
    raises ValueError naming a filter it cannot read."""
    extra: list[Condition] = []
    catalog = parser.catalog
    for key, raw in filters.items():
        if raw is None or raw == "":
            continue
        key_norm = str(key).strip().lower()
        if key_norm in ("region", "region_id", "المنطقه", "منطقه"):
            ids = _resolve(raw, catalog.regions, REGIONS, REGION_KEYS, "region")
            extra.append(Condition("region", "in", ids, "في " + catalog.label("region", ids)))
        elif key_norm in ("status", "status_id", "الحاله", "حاله"):
            ids = _resolve(raw, catalog.statuses, STATUSES, STATUS_KEYS, "status")
            extra.append(Condition("status", "in", ids, "ذات الحالة " + catalog.label("status", ids)))
        elif key_norm in ("type", "tender_type", "tender_type_id", "النوع", "نوع"):
            ids = _resolve(raw, catalog.types, TYPES, TYPE_KEYS, "type")
            extra.append(Condition("type", "in", ids, "من نوع " + catalog.label("type", ids)))
        elif key_norm in ("year", "السنه", "سنه", "عام"):
            if isinstance(raw, bool) or not isinstance(raw, (int, str)):
                raise ValueError(f"filter 'year' must be a year such as 2024, got {raw!r}")
            text = normalize_arabic(str(raw)).strip()
            hijri = re.fullmatch(r"(14\d\d)\s?(?:ه|هـ|هجري)?", text)
            if hijri and int(hijri.group(1)) in lx.HIJRI_NEW_YEAR and int(hijri.group(1)) + 1 in lx.HIJRI_NEW_YEAR:
                year = int(hijri.group(1))
                span = (lx.HIJRI_NEW_YEAR[year], lx.HIJRI_NEW_YEAR[year + 1])
            elif re.fullmatch(r"\d{4}", text) and 1900 <= int(text) <= 2100:
                span = year_span(int(text))
            else:
                raise ValueError(f"filter 'year' must be a year such as 2024, got {raw!r}")
            extra.append(Condition("date", "date_range", span, "في السنة المحددة"))
    if not extra:
        return frame
    if frame.entity in ("tenders", "projects"):
        usable = [c for c in extra if not (frame.entity == "projects" and c.field == "status")]
    elif frame.entity == "agencies":
        usable = [c for c in extra if c.field == "region"]
    else:
        usable = []
    return replace(frame, conditions=frame.conditions + tuple(usable))


def _resolve(
    raw: object, table: Mapping[int, str], pattern: re.Pattern[str], keys: Mapping[str, object], name: str
) -> tuple[int, ...]:
    """Ids for a filter value given as an id, a list of ids, or an Arabic name."""
    if isinstance(raw, bool):
        raise ValueError(f"filter {name!r} must be a name or an id, got {raw!r}")
    if isinstance(raw, (list, tuple)):
        ids: list[int] = []
        for item in raw:
            ids.extend(_resolve(item, table, pattern, keys, name))
        if not ids:
            raise ValueError(f"filter {name!r} is empty")
        return tuple(dict.fromkeys(ids))
    if isinstance(raw, int) or (isinstance(raw, str) and normalize_arabic(raw).strip().isdigit()):
        value = int(normalize_arabic(str(raw)).strip())
        if value in table:
            return (value,)
        raise ValueError(f"filter {name!r}: no {name} with id {value}")
    if isinstance(raw, str):
        text = normalize_arabic(raw)
        for entity_id, label in table.items():
            if normalize_arabic(label) == text:
                return (entity_id,)
        found = [int(keys[m.lastgroup]) for m in pattern.finditer(text) if m.lastgroup]  # type: ignore[call-overload]
        if found:
            return tuple(dict.fromkeys(found))
        raise ValueError(f"filter {name!r}: unknown {name} {raw!r}")
    raise ValueError(f"filter {name!r} must be a name or an id, got {type(raw).__name__}")
