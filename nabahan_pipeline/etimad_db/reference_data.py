"""Etimad reference data (shared/reference/etimad_facts.md): the generator's lookup tables and the
agent's vocabulary, rows in reference_data.json (read once), one list per table. Names keep the
platform's quirks (tabs, a trailing space, 'إتفاقية'); compare them only after ``normalize_arabic``.
Agencies 1..40 have the most awarded tenders; the rest give each region its municipality, health
cluster, university and hospitals. The first city of each region is its seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Region:
    region_id: int
    name_ar: str  # the full form, as in the database: 'منطقة الرياض', 'المنطقة الشرقية'
    name_en: str
    short_ar: str  # as people say it: 'الرياض', 'الشرقية' (the agent's vocabulary starts from it)
    awarded: int  # awarded tenders 2024-2026 on Etimad


@dataclass(frozen=True, slots=True)
class TenderType:
    tender_type_id: int
    name_ar: str
    name_en: str


@dataclass(frozen=True, slots=True)
class Status:
    status_id: int
    name_ar: str
    name_en: str


@dataclass(frozen=True, slots=True)
class Activity:
    activity_id: int
    name_ar: str  # as written on the platform, padding included
    name_en: str
    sector: str  # a coarse grouping of ours (medical, it, construction, ...)
    tenders: int  # tenders on Etimad in this activity


@dataclass(frozen=True, slots=True)
class Agency:
    agency_id: int
    name_ar: str
    name_en: str
    region_id: int  # home region (head office for national bodies)
    kind: str  # health, military, security, ministry, municipality, university, technical, emirate, utility, industry
    national: bool  # tenders for sites all over the kingdom, not only the home region
    awarded: int | None = None  # awarded tenders 2024-2026 on Etimad, where the facts list it


@dataclass(frozen=True, slots=True)
class City:
    name_ar: str
    name_en: str
    region_id: int


_ROWS = json.loads((Path(__file__).with_name("reference_data.json")).read_text(encoding="utf-8"))
REGIONS: tuple[Region, ...] = tuple(Region(*row) for row in _ROWS["regions"])
TENDER_TYPES: tuple[TenderType, ...] = tuple(TenderType(*row) for row in _ROWS["tender_types"])
STATUSES: tuple[Status, ...] = tuple(Status(*row) for row in _ROWS["statuses"])
ACTIVITIES: tuple[Activity, ...] = tuple(Activity(*row) for row in _ROWS["activities"])
AGENCIES: tuple[Agency, ...] = tuple(Agency(*row) for row in _ROWS["agencies"])
CITIES: tuple[City, ...] = tuple(City(*row) for row in _ROWS["cities"])
