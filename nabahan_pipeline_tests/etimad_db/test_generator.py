"""The database generator: the schema.md contract, determinism, the data's shape, safe building."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nabahan_pipeline.errors import DatabaseBuildError
from nabahan_pipeline.etimad_db import generator
from nabahan_pipeline.etimad_db.generator import (
    DEFAULT_PROJECTS,
    DEFAULT_RANDOM_SEED,
    DEFAULT_TENDERS,
    build_database,
)
from nabahan_pipeline.etimad_db.store import connect_readonly, database_hash
from nabahan_pipeline_tests.conftest import SMALL_TENDERS
from nabahan_pipeline_tests.etimad_db.queries import query, scalar, sha256


# (column, declared type, NOT NULL, primary key) exactly as schema.md writes them.
EXPECTED_COLUMNS: dict[str, list[tuple[str, str, bool, bool]]] = {
    "regions": [
        ("region_id", "INTEGER", False, True),
        ("name_ar", "TEXT", True, False),
        ("name_en", "TEXT", True, False),
    ],
    "tender_types": [
        ("tender_type_id", "INTEGER", False, True),
        ("name_ar", "TEXT", True, False),
        ("name_en", "TEXT", True, False),
    ],
    "tender_statuses": [
        ("status_id", "INTEGER", False, True),
        ("name_ar", "TEXT", True, False),
        ("name_en", "TEXT", True, False),
    ],
    "activities": [
        ("activity_id", "INTEGER", False, True),
        ("name_ar", "TEXT", True, False),
        ("name_en", "TEXT", True, False),
    ],
    "government_agencies": [
        ("agency_id", "INTEGER", False, True),
        ("name_ar", "TEXT", True, False),
        ("name_en", "TEXT", True, False),
        ("region_id", "INTEGER", False, False),
    ],
    "tenders_full_details": [
        ("tender_id", "INTEGER", False, True),
        ("reference_number", "TEXT", True, False),
        ("tender_number", "TEXT", False, False),
        ("tender_name", "TEXT", True, False),
        ("agency_id", "INTEGER", True, False),
        ("agency_name", "TEXT", True, False),
        ("tender_type_id", "INTEGER", True, False),
        ("tender_type_name", "TEXT", True, False),
        ("status_id", "INTEGER", True, False),
        ("status_name", "TEXT", True, False),
        ("activity_id", "INTEGER", True, False),
        ("activity_name", "TEXT", True, False),
        ("region_id", "INTEGER", False, False),
        ("region_name", "TEXT", False, False),
        ("publish_date", "TEXT", True, False),
        ("last_enquiry_date", "TEXT", False, False),
        ("last_offer_date", "TEXT", False, False),
        ("offers_opening_date", "TEXT", False, False),
        ("booklet_price", "REAL", True, False),
        ("estimated_value", "REAL", True, False),
        ("awarded_value", "REAL", False, False),
        ("bids_count", "INTEGER", False, False),
    ],
    "future_projects": [
        ("project_id", "INTEGER", False, True),
        ("project_name", "TEXT", True, False),
        ("agency_id", "INTEGER", True, False),
        ("agency_name", "TEXT", True, False),
        ("region_id", "INTEGER", False, False),
        ("region_name", "TEXT", False, False),
        ("activity_id", "INTEGER", True, False),
        ("activity_name", "TEXT", True, False),
        ("tender_type_id", "INTEGER", True, False),
        ("tender_type_name", "TEXT", True, False),
        ("expected_offering_date", "TEXT", True, False),
        ("estimated_value", "REAL", True, False),
        ("duration_months", "INTEGER", True, False),
    ],
}

EXPECTED_FOREIGN_KEYS = {
    "government_agencies": {("region_id", "regions")},
    "tenders_full_details": {
        ("agency_id", "government_agencies"),
        ("tender_type_id", "tender_types"),
        ("status_id", "tender_statuses"),
        ("activity_id", "activities"),
        ("region_id", "regions"),
    },
    "future_projects": {
        ("agency_id", "government_agencies"),
        ("region_id", "regions"),
        ("activity_id", "activities"),
        ("tender_type_id", "tender_types"),
    },
}

INDEXED_TENDER_COLUMNS = {
    "region_id",
    "status_id",
    "tender_type_id",
    "agency_id",
    "activity_id",
    "publish_date",
    "estimated_value",
}

REGIONS = [
    (1, "منطقة الرياض", "Riyadh"),
    (2, "منطقة مكة المكرمة", "Makkah"),
    (3, "منطقة المدينة المنورة", "Madinah"),
    (4, "منطقة القصيم", "Qassim"),
    (5, "المنطقة الشرقية", "Eastern Province"),
    (6, "منطقة عسير", "Asir"),
    (7, "منطقة تبوك", "Tabuk"),
    (8, "منطقة حائل", "Hail"),
    (9, "منطقة الحدود الشمالية", "Northern Borders"),
    (10, "منطقة جازان", "Jazan"),
    (11, "منطقة نجران", "Najran"),
    (12, "منطقة الباحة", "Al-Baha"),
    (13, "منطقة الجوف", "Al-Jawf"),
]
TENDER_TYPES = {
    1: "منافسة عامة",
    2: "شراء مباشر",
    4: "منافسة محدودة",
    5: "المزايدة العكسية الإلكترونية",
    6: "المنافسة على مرحلتين",
    11: "منافسة اتفاقية إطارية",
    12: "مسابقة",
}
STATUSES = {1: "نشطة", 2: "قيد الفحص", 3: "قيد الترسية", 4: "تمت الترسية", 5: "ملغاة", 6: "منتهية"}


def count(path: Path, where: str, table: str = "tenders_full_details") -> int:
    return scalar(path, f"SELECT count(*) FROM {table} WHERE {where}")  # type: ignore[return-value]


# --- determinism --------------------------------------------------------------------------------


def test_same_seed_and_size_give_the_same_bytes(small_db: Path, tmp_path: Path) -> None:
    again = build_database(tmp_path / "again.sqlite", tenders=SMALL_TENDERS, random_seed=DEFAULT_RANDOM_SEED)
    assert sha256(again) == sha256(small_db)
    assert database_hash(again) == sha256(small_db)


def test_a_different_seed_gives_a_different_file(small_db: Path, tmp_path: Path) -> None:
    other = build_database(tmp_path / "other.sqlite", tenders=SMALL_TENDERS, random_seed=DEFAULT_RANDOM_SEED + 1)
    assert sha256(other) != sha256(small_db)
    assert scalar(other, "SELECT count(*) FROM tenders_full_details") == SMALL_TENDERS


# --- the schema.md contract ---------------------------------------------------------------------


def test_tables_and_columns_follow_schema_md(small_db: Path) -> None:
    con = connect_readonly(small_db)
    try:
        tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert set(EXPECTED_COLUMNS) <= tables
        for table, expected in EXPECTED_COLUMNS.items():
            info = {row[1]: row for row in con.execute(f"PRAGMA table_info({table})")}
            for name, decl_type, not_null, pk in expected:
                assert name in info, f"{table}.{name} missing"
                _, _, actual_type, actual_not_null, _, actual_pk = info[name]
                assert actual_type == decl_type, f"{table}.{name}"
                assert bool(actual_not_null) == not_null, f"{table}.{name} NOT NULL"
                assert bool(actual_pk) == pk, f"{table}.{name} PRIMARY KEY"
        for table, expected_fks in EXPECTED_FOREIGN_KEYS.items():
            fks = {(row[3], row[2]) for row in con.execute(f"PRAGMA foreign_key_list({table})")}
            assert expected_fks <= fks, table
        unique_columns = set()
        indexed = set()
        for _, index_name, unique, *_ in con.execute("PRAGMA index_list(tenders_full_details)"):
            columns = [row[2] for row in con.execute(f"PRAGMA index_info({index_name})")]
            indexed.add(columns[0])
            if unique:
                unique_columns.update(columns)
        assert INDEXED_TENDER_COLUMNS <= indexed
        assert "reference_number" in unique_columns
    finally:
        con.close()


def test_lookup_tables_hold_the_etimad_ids_and_names(small_db: Path) -> None:
    assert query(small_db, "SELECT region_id, name_ar, name_en FROM regions ORDER BY region_id") == REGIONS
    assert dict(query(small_db, "SELECT tender_type_id, name_ar FROM tender_types")) == TENDER_TYPES
    assert dict(query(small_db, "SELECT status_id, name_ar FROM tender_statuses")) == STATUSES
    assert 20 <= scalar(small_db, "SELECT count(*) FROM activities") <= 40
    assert 60 <= scalar(small_db, "SELECT count(*) FROM government_agencies") <= 120
    orphans = "region_id IS NULL OR region_id NOT IN (SELECT region_id FROM regions)"
    assert count(small_db, orphans, table="government_agencies") == 0


def test_denormalized_names_are_copied_from_the_lookup_tables(small_db: Path) -> None:
    mismatches = """
        SELECT count(*) FROM tenders_full_details t
        JOIN government_agencies g ON g.agency_id = t.agency_id
        JOIN tender_types y ON y.tender_type_id = t.tender_type_id
        JOIN tender_statuses s ON s.status_id = t.status_id
        JOIN activities a ON a.activity_id = t.activity_id
        LEFT JOIN regions r ON r.region_id = t.region_id
        WHERE t.agency_name != g.name_ar OR t.tender_type_name != y.name_ar OR t.status_name != s.name_ar
           OR t.activity_name != a.name_ar OR t.region_name IS NOT r.name_ar
    """
    assert scalar(small_db, mismatches) == 0
    joined = "SELECT count(*) FROM tenders_full_details t JOIN government_agencies g USING (agency_id)"
    assert scalar(small_db, joined) == SMALL_TENDERS
    project_mismatches = """
        SELECT count(*) FROM future_projects p
        JOIN government_agencies g ON g.agency_id = p.agency_id
        JOIN activities a ON a.activity_id = p.activity_id
        JOIN tender_types y ON y.tender_type_id = p.tender_type_id
        LEFT JOIN regions r ON r.region_id = p.region_id
        WHERE p.agency_name != g.name_ar OR p.activity_name != a.name_ar
           OR p.tender_type_name != y.name_ar OR p.region_name IS NOT r.name_ar
    """
    assert scalar(small_db, project_mismatches) == 0


# --- the shape of the data (default size) -------------------------------------------------------


def test_regions_are_skewed_like_etimad(default_db: Path) -> None:
    counts = dict(
        query(default_db, "SELECT region_id, count(*) FROM tenders_full_details WHERE region_id IS NOT NULL GROUP BY 1")
    )
    assert set(counts) == set(range(1, 14))
    ranked = sorted(counts, key=counts.get, reverse=True)
    assert ranked[:3] == [1, 2, 5]  # Riyadh, then Makkah, then the Eastern Province
    null_share = scalar(default_db, "SELECT avg(region_id IS NULL) FROM tenders_full_details")
    assert 0.05 <= null_share <= 0.15


def test_direct_purchase_is_the_most_common_type_and_every_type_occurs(default_db: Path) -> None:
    counts = dict(query(default_db, "SELECT tender_type_id, count(*) FROM tenders_full_details GROUP BY 1"))
    assert set(counts) == set(TENDER_TYPES)
    assert max(counts, key=counts.get) == 2
    assert 0.55 <= counts[2] / DEFAULT_TENDERS <= 0.75
    assert 0.20 <= counts[1] / DEFAULT_TENDERS <= 0.40
    assert min(counts[4], counts[5], counts[12]) >= 5


def test_status_mix(default_db: Path) -> None:
    counts = dict(query(default_db, "SELECT status_id, count(*) FROM tenders_full_details GROUP BY 1"))
    assert set(counts) == set(STATUSES)
    assert max(counts, key=counts.get) == 4
    assert 0.05 <= counts[1] / DEFAULT_TENDERS <= 0.12


def test_awarded_value_and_bids_agree_with_the_status(default_db: Path) -> None:
    assert count(default_db, "awarded_value IS NOT NULL AND status_id != 4") == 0
    assert count(default_db, "awarded_value IS NULL AND status_id = 4") == 0
    assert count(default_db, "bids_count IS NOT NULL AND status_id = 1") == 0
    assert count(default_db, "bids_count IS NULL AND status_id != 1") == 0
    assert scalar(default_db, "SELECT min(bids_count) FROM tenders_full_details WHERE status_id = 4") >= 1
    ratio = query(
        default_db,
        """SELECT min(awarded_value / estimated_value), max(awarded_value / estimated_value)
           FROM tenders_full_details WHERE status_id = 4""",
    )[0]
    assert 0.69 <= ratio[0] and ratio[1] <= 1.11
    # Active tenders still take offers as of the last publish date.
    assert count(default_db, "status_id = 1 AND last_offer_date <= '2026-10-31'") == 0


def test_dates_are_iso_in_range_and_in_order(default_db: Path) -> None:
    first, last = query(default_db, "SELECT min(publish_date), max(publish_date) FROM tenders_full_details")[0]
    assert "2022-01-01" <= first and last <= "2026-10-31"
    assert first < "2022-02-01" and last > "2026-10-01"
    out_of_order = """
        SELECT count(*) FROM tenders_full_details
        WHERE date(publish_date) IS NOT publish_date OR last_offer_date <= publish_date
           OR last_enquiry_date < publish_date OR last_enquiry_date > last_offer_date
           OR offers_opening_date < last_offer_date
    """
    assert scalar(default_db, out_of_order) == 0
    # tender_id follows publishing order.
    backwards = """SELECT count(*) FROM tenders_full_details a JOIN tenders_full_details b
                   ON b.tender_id = a.tender_id + 1 WHERE b.publish_date < a.publish_date"""
    assert scalar(default_db, backwards) == 0
    sql = "SELECT DISTINCT substr(publish_date, 1, 4) FROM tenders_full_details"
    years = {row[0] for row in query(default_db, sql)}
    assert years == {"2022", "2023", "2024", "2025", "2026"}


def test_values_are_log_normal_with_etimad_medians(default_db: Path) -> None:
    def median(where: str, column: str = "estimated_value") -> float:
        sql = f"SELECT {column} FROM tenders_full_details WHERE {where} ORDER BY 1"
        values = [r[0] for r in query(default_db, sql)]
        return values[len(values) // 2]

    assert 40_000 <= median("status_id = 4", "awarded_value") <= 100_000
    assert 15_000 <= median("tender_type_id = 2") <= 60_000
    assert 500_000 <= median("tender_type_id = 1") <= 2_500_000
    assert scalar(default_db, "SELECT max(estimated_value) FROM tenders_full_details") > 100_000_000
    assert count(default_db, "estimated_value != round(estimated_value, 2)") == 0


def test_booklet_prices(default_db: Path) -> None:
    dp_free = scalar(default_db, "SELECT avg(booklet_price = 0) FROM tenders_full_details WHERE tender_type_id = 2")
    assert dp_free >= 0.9
    sql = "SELECT booklet_price, count(*) FROM tenders_full_details WHERE tender_type_id = 1 GROUP BY 1"
    public = dict(query(default_db, sql))
    assert max(public, key=public.get) == 500
    assert set(public) <= {100, 200, 300, 500, 1000, 1500, 5000, 10000}


def test_reference_numbers_are_unique_12_digits(default_db: Path) -> None:
    assert count(default_db, "length(reference_number) != 12 OR reference_number GLOB '*[^0-9]*'") == 0
    assert scalar(default_db, "SELECT count(DISTINCT reference_number) FROM tenders_full_details") == DEFAULT_TENDERS


def test_agencies_mostly_tender_in_their_own_region(default_db: Path) -> None:
    share = scalar(
        default_db,
        """SELECT avg(t.region_id = g.region_id) FROM tenders_full_details t
           JOIN government_agencies g USING (agency_id) WHERE t.region_id IS NOT NULL""",
    )
    assert share >= 0.6
    # National bodies (e.g. the Border Guard, based in Riyadh) tender all over the kingdom.
    sql = "SELECT count(DISTINCT region_id) FROM tenders_full_details WHERE agency_name = 'حرس الحدود'"
    regions = scalar(default_db, sql)
    assert regions >= 10


def test_quirks_of_the_real_data_are_present(default_db: Path) -> None:
    def present(where: str) -> bool:
        return count(default_db, where) > 0

    assert present("instr(agency_name, char(1740)) > 0")  # Persian yeh
    assert present("activity_name LIKE char(9) || '%' OR activity_name LIKE '%' || char(9)")
    assert present("activity_name LIKE '% '")
    assert present("tender_name LIKE '%إتفاقية%'") and present("tender_name LIKE '%اتفاقية%'")
    assert present("tender_name LIKE '%الكترونية%'") and present("tender_name LIKE '%إلكترونية%'")
    assert present("tender_name NOT GLOB '*[ء-ي]*'")  # English only
    assert present("tender_number IS NULL")


def test_future_projects(default_db: Path) -> None:
    row = query(
        default_db,
        """SELECT min(expected_offering_date), max(expected_offering_date), min(duration_months),
                  max(duration_months), min(estimated_value), sum(project_name LIKE 'مشروع%')
           FROM future_projects""",
    )[0]
    assert "2026-11-01" <= row[0] and row[1] <= "2028-12-31"
    assert 3 <= row[2] and row[3] <= 60
    assert row[4] > 0
    assert row[5] == DEFAULT_PROJECTS


def test_projects_default_to_the_default_ratio(tmp_path: Path) -> None:
    path = build_database(tmp_path / "ratio.sqlite", tenders=400)
    assert scalar(path, "SELECT count(*) FROM future_projects") == 30
    path = build_database(tmp_path / "one.sqlite", tenders=1, projects=0)
    assert scalar(path, "SELECT count(*) FROM tenders_full_details") == 1
    assert scalar(path, "SELECT count(*) FROM future_projects") == 0


# --- building safely ---------------------------------------------------------------------------


def test_paths_with_spaces_and_uri_characters(tmp_path: Path) -> None:
    path = build_database(tmp_path / "مجلد مع مسافة" / "db ?#%20.sqlite", tenders=10)
    assert scalar(path, "SELECT count(*) FROM tenders_full_details") == 10


def test_concurrent_builds_of_one_path_end_in_one_complete_file(tmp_path: Path) -> None:
    import threading

    target = tmp_path / "shared.sqlite"
    errors: list[BaseException] = []

    def build() -> None:
        try:
            build_database(target, tenders=300)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [p.name for p in tmp_path.iterdir()] == ["shared.sqlite"]
    assert scalar(target, "SELECT count(*) FROM tenders_full_details") == 300


# --- mistakes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("tenders", [0, -1, -5])
def test_tenders_must_be_positive(tmp_path: Path, tenders: int) -> None:
    with pytest.raises(DatabaseBuildError, match="tenders"):
        build_database(tmp_path / "x.sqlite", tenders=tenders)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"projects": -1}, "projects"),
        ({"tenders": 2.5}, "tenders"),
        ({"tenders": True}, "tenders"),
        ({"random_seed": "1"}, "seed"),
    ],
)
def test_other_bad_arguments(tmp_path: Path, kwargs: dict, fragment: str) -> None:
    with pytest.raises(DatabaseBuildError, match=fragment):
        build_database(tmp_path / "x.sqlite", **kwargs)


def test_output_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseBuildError, match="directory") as info:
        build_database(tmp_path, tenders=10)
    assert "\n" not in str(info.value)


def test_output_under_a_regular_file_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a directory")
    with pytest.raises(DatabaseBuildError, match="not a directory"):
        build_database(blocker / "sub" / "db.sqlite", tenders=10)
    assert blocker.read_text() == "not a directory"


def test_parent_directories_are_created(tmp_path: Path) -> None:
    path = build_database(tmp_path / "a" / "b" / "db.sqlite", tenders=10)
    assert path.is_file()


def test_a_failed_build_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "db.sqlite"
    target.write_bytes(b"previous content")

    def explode(self: object, count: int) -> list:
        raise RuntimeError("generator failed")

    monkeypatch.setattr(generator._Generator, "projects", explode)
    with pytest.raises(RuntimeError, match="generator failed"):
        build_database(target, tenders=10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.sqlite"]
    assert target.read_bytes() == b"previous content"


# --- the command line ---------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nabahan_pipeline", "db", "build", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_cli_builds_a_database(tmp_path: Path) -> None:
    out = tmp_path / "cli" / "db.sqlite"
    result = run_cli("--out", str(out), "--tenders", "300", "--projects", "7", "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert str(out) in result.stdout
    assert scalar(out, "SELECT count(*) FROM tenders_full_details") == 300
    assert scalar(out, "SELECT count(*) FROM future_projects") == 7
    assert sha256(out) == sha256(build_database(tmp_path / "api.sqlite", tenders=300, projects=7, random_seed=5))


@pytest.mark.parametrize("case", ["negative tenders", "under a file", "proc", "a directory"])
def test_cli_mistakes_exit_2_with_one_line(tmp_path: Path, case: str) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    args = {
        "negative tenders": ["--out", str(tmp_path / "db.sqlite"), "--tenders", "-5"],
        "under a file": ["--out", str(blocker / "db.sqlite"), "--tenders", "10"],
        "proc": ["--out", "/proc/nabahan-test/db.sqlite", "--tenders", "10"],
        "a directory": ["--out", str(tmp_path), "--tenders", "10"],
    }[case]
    result = run_cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]
