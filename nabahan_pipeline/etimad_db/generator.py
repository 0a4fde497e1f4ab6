"""The embedded evaluation database (shared/docs/schema.md) from the reference data and a random seed.

One ``random.Random(random_seed)`` drawn in a fixed order fills an in-memory SQLite database, written
out by ``VACUUM INTO`` and ``os.replace``: the same random seed and sizes give a byte-identical file
(with the same SQLite library), never a half-written one. The data is shaped after Etimad
(shared/reference/etimad_facts.md), by the parameters below: regions weighted by their awarded
tenders (some NULL), agencies national or the region's own, activities tilted by the kind of agency,
types and statuses by their shares, dates that agree with the status as of LAST_PUBLISH, and
estimated values log-normal per type so that the awarded values (0.7-1.1 x estimate) follow Etimad's
award quantiles (median ~60k SAR, p90 ~2.5M; the upper quartile comes out higher than Etimad's).

Quirks of the real data are kept on purpose (see reference_data): the names in
tenders_full_details are copied from the lookup tables, padding and Persian yeh included;
framework-agreement names are written both 'اتفاقية' and 'إتفاقية', reverse auctions both
'إلكترونية' and 'الكترونية'; ~1.5 % of tender names are English only; ~12 % of tender numbers
are NULL.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import random
import sqlite3
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Generic, TypeVar

from nabahan_pipeline.arabic.hijri_calendar import hijri_date
from nabahan_pipeline.errors import DatabaseBuildError
from nabahan_pipeline.etimad_db.reference_data import (
    ACTIVITIES, AGENCIES, CITIES, REGIONS, STATUSES, TENDER_TYPES, Activity, Agency,
)
from nabahan_pipeline.files import fsync_file, fsync_folder, temporary_name

# Bump whenever the generated content changes: the cache file name carries it.
GENERATOR_VERSION = 1

DEFAULT_RANDOM_SEED: int = 1446
DEFAULT_TENDERS = 20_000
DEFAULT_PROJECTS = 1_500
MAX_TENDERS = 2_000_000  # beyond this the in-memory build needs gigabytes
MAX_PROJECTS = 1_000_000

FIRST_PUBLISH = date(2022, 1, 1)
LAST_PUBLISH = date(2026, 10, 31)  # also the "as of" date the statuses agree with
FIRST_OFFERING = date(2026, 11, 1)
LAST_OFFERING = date(2028, 12, 31)

T = TypeVar("T")


# --- schema ---------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE regions (
    region_id INTEGER PRIMARY KEY,
    name_ar TEXT NOT NULL,
    name_en TEXT NOT NULL
);
CREATE TABLE tender_types (
    tender_type_id INTEGER PRIMARY KEY,
    name_ar TEXT NOT NULL,
    name_en TEXT NOT NULL
);
CREATE TABLE tender_statuses (
    status_id INTEGER PRIMARY KEY,
    name_ar TEXT NOT NULL,
    name_en TEXT NOT NULL
);
CREATE TABLE activities (
    activity_id INTEGER PRIMARY KEY,
    name_ar TEXT NOT NULL,
    name_en TEXT NOT NULL
);
CREATE TABLE government_agencies (
    agency_id INTEGER PRIMARY KEY,
    name_ar TEXT NOT NULL,
    name_en TEXT NOT NULL,
    region_id INTEGER REFERENCES regions
);
CREATE TABLE tenders_full_details (
    tender_id INTEGER PRIMARY KEY,
    reference_number TEXT NOT NULL UNIQUE,
    tender_number TEXT,
    tender_name TEXT NOT NULL,
    agency_id INTEGER NOT NULL REFERENCES government_agencies,
    agency_name TEXT NOT NULL,
    tender_type_id INTEGER NOT NULL REFERENCES tender_types,
    tender_type_name TEXT NOT NULL,
    status_id INTEGER NOT NULL REFERENCES tender_statuses,
    status_name TEXT NOT NULL,
    activity_id INTEGER NOT NULL REFERENCES activities,
    activity_name TEXT NOT NULL,
    region_id INTEGER REFERENCES regions,
    region_name TEXT,
    publish_date TEXT NOT NULL,
    last_enquiry_date TEXT,
    last_offer_date TEXT,
    offers_opening_date TEXT,
    booklet_price REAL NOT NULL,
    estimated_value REAL NOT NULL,
    awarded_value REAL,
    bids_count INTEGER
);
CREATE TABLE future_projects (
    project_id INTEGER PRIMARY KEY,
    project_name TEXT NOT NULL,
    agency_id INTEGER NOT NULL REFERENCES government_agencies,
    agency_name TEXT NOT NULL,
    region_id INTEGER REFERENCES regions,
    region_name TEXT,
    activity_id INTEGER NOT NULL REFERENCES activities,
    activity_name TEXT NOT NULL,
    tender_type_id INTEGER NOT NULL REFERENCES tender_types,
    tender_type_name TEXT NOT NULL,
    expected_offering_date TEXT NOT NULL,
    estimated_value REAL NOT NULL,
    duration_months INTEGER NOT NULL
);
"""

INDEXES = """
CREATE INDEX idx_tenders_region_id ON tenders_full_details (region_id);
CREATE INDEX idx_tenders_status_id ON tenders_full_details (status_id);
CREATE INDEX idx_tenders_tender_type_id ON tenders_full_details (tender_type_id);
CREATE INDEX idx_tenders_agency_id ON tenders_full_details (agency_id);
CREATE INDEX idx_tenders_activity_id ON tenders_full_details (activity_id);
CREATE INDEX idx_tenders_publish_date ON tenders_full_details (publish_date);
CREATE INDEX idx_tenders_estimated_value ON tenders_full_details (estimated_value);
CREATE INDEX idx_projects_region_id ON future_projects (region_id);
CREATE INDEX idx_projects_agency_id ON future_projects (agency_id);
CREATE INDEX idx_projects_expected_offering_date ON future_projects (expected_offering_date);
"""

# --- generator parameters (shaped after etimad_facts.md) ------------------------------------------

NULL_REGION_SHARE = 0.10
NATIONAL_SHARE = 0.40

# Direct purchase and public tender as on Etimad; the rare types raised so that each has rows.
TENDER_TYPE_WEIGHTS = {2: 0.645, 1: 0.300, 11: 0.025, 4: 0.015, 6: 0.008, 5: 0.004, 12: 0.003}
# Awarded, closed, cancelled, active, under evaluation, awarding.
STATUS_WEIGHTS = {4: 0.58, 6: 0.13, 5: 0.12, 1: 0.08, 2: 0.05, 3: 0.04}

# Estimated value: (median SAR, sigma of the log) per type.
VALUE_MODEL = {2: (30_000, 1.4), 1: (1_050_000, 1.9), 4: (550_000, 1.6), 5: (2_000_000, 1.5),
               6: (20_000_000, 1.5), 11: (1_050_000, 1.8), 12: (500_000, 1.2)}
MIN_VALUE = 300.0
MAX_VALUE = 2_500_000_000.0

# Days between publishing and the offer deadline, per type.
OFFER_WINDOW = {2: (5, 21), 1: (20, 75), 4: (15, 45), 5: (7, 20), 6: (30, 90), 11: (25, 70), 12: (30, 90)}

# An agency's weight by kind where the facts do not count it, and how much more (or less) often each
# kind of agency buys from a sector than the platform average (package data, read once).
_WEIGHTS = json.loads(Path(__file__).with_name("generator_weights.json").read_text(encoding="utf-8"))
AGENCY_DEFAULT_WEIGHT: dict[str, int] = _WEIGHTS["agency_default_weight"]
KIND_SECTOR_FACTORS: dict[str, dict[str, float]] = _WEIGHTS["kind_sector_factors"]

# What is bought in each sector, and the other words of a tender's name (package data, read once):
# a tender name is one of these objects plus, often, a place or a period.
_NAMES = json.loads(Path(__file__).with_name("tender_names.json").read_text(encoding="utf-8"))
SECTOR_OBJECTS: dict[str, list[str]] = _NAMES["sector_objects"]
CONTEST_OBJECTS: list[str] = _NAMES["contest_objects"]
ENGLISH_NAMES: dict[str, list[str]] = _NAMES["english_names"]
ENGLISH_FALLBACK: list[str] = _NAMES["english_fallback"]
DURATIONS: list[str] = _NAMES["durations"]
PHASES: list[str] = _NAMES["phases"]

SERVICE_SECTORS = frozenset(
    {"om", "security", "food", "transport", "rental", "it", "road_om", "equip_maint", "vehicle_maint", "telecom"}
)


# --- building -------------------------------------------------------------------------------------


def build_database(
    out: str | Path,
    tenders: int | None = None,
    projects: int | None = None,
    random_seed: int | None = None,
) -> Path:
    """Write the whole database to ``out`` and return its path; same arguments, same bytes.

    ``projects`` defaults to DEFAULT_PROJECTS at the default size, else to 7.5 % of ``tenders``
    (at least 1), the default ratio. The file appears atomically or not at all.
    """
    tenders, projects, random_seed = checked_sizes(tenders, projects, random_seed)
    target = _check_target(out)
    tmp = _claim_temp_file(target)
    try:
        con = sqlite3.connect(":memory:")
        try:
            _fill(con, tenders, projects, random_seed)
            try:
                con.execute("VACUUM INTO ?", (str(tmp),))
            except sqlite3.Error as exc:
                raise DatabaseBuildError(f"cannot write {target}: {exc}") from None
        finally:
            con.close()
        fsync_file(tmp)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise DatabaseBuildError(f"cannot write {target}: {exc.strerror or exc}") from None
        fsync_folder(target.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target

# --- checking the arguments -----------------------------------------------------------------------


def checked_sizes(tenders: int | None, projects: int | None, random_seed: int | None) -> tuple[int, int, int]:
    """The (tenders, projects, random_seed) a build uses: the defaults filled in (see ``build_database``),
    each checked; DatabaseBuildError names the one that cannot be used."""
    for name, value in (("tenders", tenders), ("projects", projects), ("seed", random_seed)):  # named as `nabahan build-db --seed` names it
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise DatabaseBuildError(f"{name} must be a whole number, got {value!r}")
    if tenders is None:
        tenders = DEFAULT_TENDERS
        if projects is None:
            projects = DEFAULT_PROJECTS
    if not 1 <= tenders <= MAX_TENDERS:
        raise DatabaseBuildError(f"tenders must be between 1 and {MAX_TENDERS:,}, got {tenders}")
    if projects is None:
        projects = max(1, (tenders * DEFAULT_PROJECTS + DEFAULT_TENDERS // 2) // DEFAULT_TENDERS)
    if not 0 <= projects <= MAX_PROJECTS:
        raise DatabaseBuildError(f"projects must be between 0 and {MAX_PROJECTS:,}, got {projects}")
    return tenders, projects, DEFAULT_RANDOM_SEED if random_seed is None else random_seed


def _check_target(out: str | Path) -> Path:
    target = Path(out).expanduser()
    if target.is_dir():
        raise DatabaseBuildError(f"output path is a directory, not a file: {target}")
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise DatabaseBuildError(f"cannot create directory {parent}: a parent is not a directory") from None
    except OSError as exc:
        raise DatabaseBuildError(f"cannot create directory {parent}: {exc.strerror or exc}") from None
    return target


def _claim_temp_file(target: Path) -> Path:
    # Create the temporary file now so that an unwritable directory fails before the generator
    # runs; VACUUM INTO accepts an existing empty file.
    tmp = temporary_name(target)
    try:
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError as exc:
        raise DatabaseBuildError(f"cannot write to {target.parent}: {exc.strerror or exc}") from None
    os.close(fd)
    return tmp


# --- generator ------------------------------------------------------------------------------------


class _Picker(Generic[T]):
    """Weighted choice over cumulative weights summed once (``choices`` given weights sums them per call)."""

    __slots__ = ("items", "cum")

    def __init__(self, items: Sequence[T], weights: Sequence[float]) -> None:
        self.items = tuple(items)
        self.cum = list(itertools.accumulate(weights))

    def pick(self, rng: random.Random) -> T:
        return rng.choices(self.items, cum_weights=self.cum)[0]


def _fill(con: sqlite3.Connection, tenders: int, projects: int, random_seed: int) -> None:
    rng = random.Random(random_seed)
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    con.executescript(SCHEMA)
    gen = _Generator(rng)
    tables = {
        "regions": [(r.region_id, r.name_ar, r.name_en) for r in REGIONS],
        "tender_types": [(t.tender_type_id, t.name_ar, t.name_en) for t in TENDER_TYPES],
        "tender_statuses": [(s.status_id, s.name_ar, s.name_en) for s in STATUSES],
        "activities": [(a.activity_id, a.name_ar, a.name_en) for a in ACTIVITIES],
        "government_agencies": [(a.agency_id, a.name_ar, a.name_en, a.region_id) for a in AGENCIES],
        "tenders_full_details": gen.tenders(tenders),
        "future_projects": gen.projects(projects),
    }
    for table, rows in tables.items():
        if rows:
            con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    con.executescript(INDEXES)
    con.execute(f"PRAGMA user_version = {GENERATOR_VERSION}")
    con.commit()


# Bounded in any process: the dates drawn lie between FIRST_PUBLISH and LAST_OFFERING.
@functools.cache
def _iso(ordinal: int) -> str:
    return date.fromordinal(ordinal).isoformat()


def _li(text: str) -> str:
    """Arabic 'for': ل + word, with the article folded (ل + الـ -> لل)."""
    return "لل" + text[2:] if text.startswith("ال") else "ل" + text


class _Generator:
    """Draws rows in a fixed order from one Random; the same random seed gives the same rows."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.region_name = {r.region_id: r.name_ar for r in REGIONS}
        self.type_name = {t.tender_type_id: t.name_ar for t in TENDER_TYPES}
        self.status_name = {s.status_id: s.name_ar for s in STATUSES}
        self.region_picker = _Picker([r.region_id for r in REGIONS], [r.awarded for r in REGIONS])
        self.type_picker = _Picker(list(TENDER_TYPE_WEIGHTS), list(TENDER_TYPE_WEIGHTS.values()))
        self.status_picker = _Picker(list(STATUS_WEIGHTS), list(STATUS_WEIGHTS.values()))

        def weight(agency: Agency) -> float:
            return float(agency.awarded or AGENCY_DEFAULT_WEIGHT[agency.kind])

        national = [a for a in AGENCIES if a.national]
        self.national_picker = _Picker(national, [weight(a) for a in national])
        self.all_picker = _Picker(AGENCIES, [weight(a) for a in AGENCIES])
        local = {r.region_id: [a for a in AGENCIES if not a.national and a.region_id == r.region_id]
                 for r in REGIONS}
        self.local_pickers = {region: _Picker(agencies, [weight(a) for a in agencies])
                              for region, agencies in local.items()}

        def activity_weights(kind: str) -> list[float]:
            factors = KIND_SECTOR_FACTORS.get(kind, {})
            return [a.tenders * factors.get(a.sector, 1.0) for a in ACTIVITIES]

        self.activity_pickers = {a.agency_id: _Picker(ACTIVITIES, activity_weights(a.kind)) for a in AGENCIES}
        cities = {r.region_id: [c.name_ar for c in CITIES if c.region_id == r.region_id] for r in REGIONS}
        # The region's seat (listed first) is named most often.
        self.cities = {region: _Picker(names, [4.0] + [1.0] * (len(names) - 1))
                       for region, names in cities.items()}

    # -- shared draws

    def region_and_agency(self, null_share: float) -> tuple[int | None, Agency]:
        rng = self.rng
        if rng.random() < null_share:
            return None, self.all_picker.pick(rng)
        region_id = self.region_picker.pick(rng)
        if rng.random() < NATIONAL_SHARE:
            return region_id, self.national_picker.pick(rng)
        return region_id, self.local_pickers[region_id].pick(rng)

    def value(self, type_id: int, scale: float = 1.0) -> float:
        median, sigma = VALUE_MODEL[type_id]
        raw = math.exp(self.rng.gauss(math.log(median * scale), sigma))
        return round(min(max(raw, MIN_VALUE), MAX_VALUE), 2)

    def place_suffix(self, region_id: int | None) -> str:
        if region_id is None:
            return ""
        return " ب" + self.cities[region_id].pick(self.rng)

    def name(self, activity: Activity, agency: Agency, region_id: int | None, type_id: int, day: date) -> str:
        rng = self.rng
        sector = activity.sector
        if rng.random() < 0.015:
            return rng.choice(ENGLISH_NAMES.get(sector, ENGLISH_FALLBACK))
        if type_id == 12:
            base = rng.choice(CONTEST_OBJECTS)
        else:
            base = rng.choice(SECTOR_OBJECTS[sector])
        if type_id == 11:
            base = ("إتفاقية إطارية " if rng.random() < 0.4 else "اتفاقية إطارية ") + _li(base)
        elif type_id == 5:
            base = ("مزايدة عكسية الكترونية - " if rng.random() < 0.4 else "مزايدة عكسية إلكترونية - ") + base
        r = rng.random()
        if r < 0.30:
            base += self.place_suffix(region_id)
        elif r < 0.48:
            base += " " + _li(agency.name_ar)
        elif r < 0.60:
            base += f" لعام {hijri_date(day)[0]}هـ"
        elif r < 0.70 and sector in SERVICE_SECTORS:
            base += rng.choice(DURATIONS)
        if type_id == 6:
            base += " (المرحلة الأولى)"
        elif rng.random() < 0.03:
            base += rng.choice(PHASES)
        return base

    # -- tenders

    def tender_dates(self, status_id: int, type_id: int) -> tuple[int, int, int]:
        """(publish, last offer, offers opening) as ordinals, agreeing with the status as of LAST_PUBLISH."""
        rng = self.rng
        first, last = FIRST_PUBLISH.toordinal(), LAST_PUBLISH.toordinal()
        lo, hi = OFFER_WINDOW[type_id]
        window = rng.randint(lo, hi)
        if status_id == 1:  # offers still open
            publish = last - int(120 * rng.random() ** 1.5)
            offer = max(publish + window, last + rng.randint(1, 21))
        elif status_id in (2, 3):  # offers closed recently, not yet decided
            offer = last - rng.randint(1, 150 if status_id == 2 else 300)
            publish = max(first, offer - window)
        else:  # decided: anywhere in the span, more in recent years (the platform grows)
            latest = last - window - 14
            publish = first + int((latest - first) * rng.random() ** 0.9)
            offer = publish + window
        opening = offer + rng.choice((0, 1, 1, 1, 2, 3, 7))
        return publish, offer, opening

    def tenders(self, count: int) -> list[tuple]:
        rng = self.rng
        rows = []
        seen_refs: set[str] = set()
        for _ in range(count):
            status_id = self.status_picker.pick(rng)
            type_id = self.type_picker.pick(rng)
            region_id, agency = self.region_and_agency(NULL_REGION_SHARE)
            activity = self.activity_pickers[agency.agency_id].pick(rng)
            publish, offer, opening = self.tender_dates(status_id, type_id)
            publish_day = date.fromordinal(publish)
            enquiry = None if rng.random() < 0.04 else publish + max(1, int((offer - publish) * rng.uniform(0.4, 0.8)))

            estimated = self.value(type_id)
            awarded = round(estimated * rng.uniform(0.7, 1.1), 2) if status_id == 4 else None
            booklet = self.booklet_price(type_id, estimated)
            bids = self.bids(status_id, type_id)

            while True:
                ref = f"{publish_day.year % 100:02d}{publish_day.month:02d}{rng.randrange(10**8):08d}"
                if ref not in seen_refs:
                    seen_refs.add(ref)
                    break
            rows.append((
                publish, ref, self.tender_number(type_id, publish_day),
                self.name(activity, agency, region_id, type_id, publish_day),
                agency.agency_id, agency.name_ar, type_id, self.type_name[type_id],
                status_id, self.status_name[status_id], activity.activity_id, activity.name_ar,
                region_id, self.region_name.get(region_id),
                _iso(publish), None if enquiry is None else _iso(enquiry), _iso(offer),
                None if rng.random() < 0.01 else _iso(opening),
                booklet, estimated, awarded, bids,
            ))
        # tender_id follows publishing order, as on the platform.
        rows.sort(key=lambda row: (row[0], row[1]))
        return [(i, *row[1:]) for i, row in enumerate(rows, start=1)]

    def booklet_price(self, type_id: int, estimated: float) -> float:
        rng = self.rng
        if type_id == 2:
            return 0.0 if rng.random() < 0.97 else float(rng.choice((100, 200, 300)))
        if type_id == 5:
            return 0.0
        if type_id == 12:
            return rng.choice((0.0, 0.0, 500.0))
        if rng.random() < 0.6:
            return 500.0
        if estimated > 50_000_000:
            return float(rng.choice((1500, 5000, 10000)))
        if estimated > 5_000_000:
            return float(rng.choice((1000, 1500, 5000)))
        return float(rng.choice((100, 200, 300, 1000)))

    def bids(self, status_id: int, type_id: int) -> int | None:
        rng = self.rng
        if status_id == 1:
            return None
        p = 0.45 if type_id == 2 else 0.28 if type_id == 1 else 0.35
        n = 1
        while n < 40 and rng.random() > p:
            n += 1
        if status_id in (5, 6):  # cancelled or closed: often without any offer
            return 0 if rng.random() < 0.35 else n
        return n

    def tender_number(self, type_id: int, day: date) -> str | None:
        rng = self.rng
        if rng.random() < 0.12:
            return None
        n = rng.randint(1, 999)
        hijri = hijri_date(day)[0]
        styles = (f"{hijri}/{n}", f"{n}-{hijri}", f"T{day.year}{n:04d}",
                  f"{'م ع' if type_id == 1 else 'ش م'}/{n}/{hijri}", f"{day.year}-{n:03d}")
        return styles[rng.randrange(5)]

    # -- future projects

    def projects(self, count: int) -> list[tuple]:
        rng = self.rng
        first, last = FIRST_OFFERING.toordinal(), LAST_OFFERING.toordinal()
        type_picker = _Picker((1, 2, 11, 4, 6), (0.70, 0.15, 0.08, 0.04, 0.03))
        rows = []
        for project_id in range(1, count + 1):
            region_id, agency = self.region_and_agency(0.08)
            activity = self.activity_pickers[agency.agency_id].pick(rng)
            type_id = type_picker.pick(rng)
            base = rng.choice(SECTOR_OBJECTS[activity.sector])
            name = base if base.startswith("مشروع") else "مشروع " + base
            if rng.random() < 0.5:
                name += self.place_suffix(region_id)
            offering = rng.randint(first, last)
            duration = int(round(math.exp(rng.uniform(math.log(3), math.log(60)))))
            rows.append((
                project_id, name, agency.agency_id, agency.name_ar,
                region_id, self.region_name.get(region_id),
                activity.activity_id, activity.name_ar, type_id, self.type_name[type_id],
                _iso(offering), self.value(type_id, scale=3.0), min(max(duration, 3), 60),
            ))
        return rows
