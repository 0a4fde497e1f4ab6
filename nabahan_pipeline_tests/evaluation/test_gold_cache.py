"""The gold SQL's results kept per version of the case file and the databases: a second check of
the same file on the same databases runs no gold SQL; a changed file, database or limit does."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from nabahan_pipeline.evaluation import gold_cache
from nabahan_pipeline.evaluation.cases import TestCaseError, parse_test_cases, read_case_file
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.gold_cache import SUFFIX, checked_golds, load_golds, store_golds

GOLDS = ["SELECT COUNT(*) FROM tenders_full_details", "SELECT name_en FROM regions ORDER BY region_id LIMIT 1"]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "procurement.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE regions (region_id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT);
        INSERT INTO regions VALUES (1, 'منطقة الرياض', 'Riyadh'), (2, 'منطقة مكة المكرمة', 'Makkah');
        CREATE TABLE tenders_full_details (tender_id INTEGER PRIMARY KEY, region_id INTEGER, estimated_value REAL);
        INSERT INTO tenders_full_details VALUES (1, 1, 100.0), (2, 1, 250.0), (3, 2, 50.0);
        """
    )
    connection.commit()
    connection.close()
    return path


def case_file(folder: Path, golds: list[str]) -> Path:
    cases = [{"id": f"c{number}", "question": "كم عدد المناقصات في منطقة الرياض؟", "category": "count",
              "expected_table": "tenders_full_details", "expected_sql": sql} for number, sql in enumerate(golds, 1)]
    path = folder / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def gold_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every gold SQL run, as (database file name, SQL)."""
    import nabahan_pipeline.evaluation.agent_sql as agent_sql

    ran: list[tuple[str, str]] = []
    real = agent_sql.expected_result

    def expected_result(database: object, sql: str, **options: object) -> ExpectedResult:
        ran.append((Path(str(database)).name, sql))
        return real(database, sql, **options)

    monkeypatch.setattr(agent_sql, "expected_result", expected_result)
    return ran


def check(path: Path, database: Path, suite: list[Path], folder: Path, *, timeout_s: float = 5.0,
          max_rows: int = 1000) -> dict[str, list[ExpectedResult]]:
    data = read_case_file(path)
    golds, unkept = checked_golds(parse_test_cases(data, path), path, hashlib.sha256(data).hexdigest(), database,
                                  suite, timeout_s=timeout_s, max_rows=max_rows, folder=folder)
    if unkept is not None:  # as the run's test_cases step does
        store_golds(unkept, golds)
    return golds


def test_a_second_check_of_the_same_file_and_databases_runs_no_gold_sql(
    tmp_path: Path, database: Path, gold_runs: list[tuple[str, str]]
) -> None:
    suite = tmp_path / "suite.sqlite"
    shutil.copy(database, suite)
    path, home = case_file(tmp_path, GOLDS), tmp_path / "home"
    first = check(path, database, [suite], home)
    assert sorted(gold_runs) == sorted((name, sql) for sql in GOLDS for name in ("procurement.sqlite", "suite.sqlite"))
    gold_runs.clear()
    second = check(path, database, [suite], home)
    assert gold_runs == [], "the same case file on the same databases: no gold SQL runs"
    assert second == first and second[GOLDS[1]][0].rows == [("Riyadh",)]
    assert len(list(home.glob(f"*{SUFFIX}"))) == 1


def test_a_changed_case_file_runs_its_gold_sql_again(
    tmp_path: Path, database: Path, gold_runs: list[tuple[str, str]]
) -> None:
    home = tmp_path / "home"
    check(case_file(tmp_path, GOLDS), database, [], home)
    gold_runs.clear()
    changed = check(case_file(tmp_path, [GOLDS[0], "SELECT COUNT(*) FROM regions"]), database, [], home)
    assert sorted(sql for _, sql in gold_runs) == sorted([GOLDS[0], "SELECT COUNT(*) FROM regions"])
    assert changed["SELECT COUNT(*) FROM regions"][0].rows == [(2,)]


def test_a_changed_database_or_limit_runs_the_gold_sql_again(
    tmp_path: Path, database: Path, gold_runs: list[tuple[str, str]]
) -> None:
    path, home = case_file(tmp_path, GOLDS), tmp_path / "home"
    check(path, database, [], home)
    connection = sqlite3.connect(database)
    connection.execute("INSERT INTO tenders_full_details VALUES (4, 2, 75.0)")
    connection.commit()
    connection.close()
    gold_runs.clear()
    assert check(path, database, [], home)[GOLDS[0]][0].rows == [(4,)], "the new rows, not the kept ones"
    assert len(gold_runs) == 2
    gold_runs.clear()
    check(path, database, [], home, max_rows=10)
    assert len(gold_runs) == 2, "another row cap: another key"


def test_the_check_keeps_nothing_itself(tmp_path: Path, database: Path) -> None:
    path, home = case_file(tmp_path, GOLDS), tmp_path / "home"
    data = read_case_file(path)
    golds, unkept = checked_golds(parse_test_cases(data, path), path, hashlib.sha256(data).hexdigest(), database, [],
                                  timeout_s=5.0, max_rows=1000, folder=home)
    assert not home.exists(), "a run refused later (a bad agent) leaves the home as it was"
    assert unkept is not None and unkept.parent == home
    store_golds(unkept, golds)
    assert checked_golds(parse_test_cases(data, path), path, hashlib.sha256(data).hexdigest(), database, [],
                         timeout_s=5.0, max_rows=1000, folder=home) == (golds, None)


def test_the_check_still_runs_on_a_kept_version(tmp_path: Path, database: Path) -> None:
    path, home = case_file(tmp_path, GOLDS), tmp_path / "home"
    check(path, database, [], home)
    connection = sqlite3.connect(database)
    connection.execute("ALTER TABLE tenders_full_details RENAME TO tenders")
    connection.commit()
    connection.close()
    with pytest.raises(TestCaseError, match="case 1 .*field 'expected_table'"):
        check(path, database, [], home)


def test_a_crash_while_writing_leaves_no_half_written_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "home" / f"key{SUFFIX}"
    golds = {GOLDS[0]: [ExpectedResult(["n"], [(3,)])]}

    real = gold_cache.atomic_open

    @contextmanager
    def dies(path: Path, *args: object, **kwargs: object) -> Iterator[object]:
        with real(path, *args, **kwargs) as handle:
            handle.write('{"format": 1, "golds": {"SELECT')
            yield handle
            raise KeyboardInterrupt  # the process ends half way through the file

    monkeypatch.setattr(gold_cache, "atomic_open", dies)
    with pytest.raises(KeyboardInterrupt):
        store_golds(target, golds)
    assert list(target.parent.iterdir()) == [], "neither the file nor its temporary survives"
    monkeypatch.undo()
    store_golds(target, golds)
    assert load_golds(target) == golds


def test_a_file_that_is_not_a_cache_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / f"key{SUFFIX}"
    for text in ("", "{", "[]", '{"format": 1}', '{"format": 99, "golds": {}}', '{"format": 1, "golds": {"x": [1]}}'):
        path.write_text(text, encoding="utf-8")
        assert load_golds(path) is None, text
    assert load_golds(tmp_path / "absent.json") is None


def test_every_sqlite_value_comes_back_as_it_was(tmp_path: Path) -> None:
    rows = [(1, 2.5, "منطقة", None, b"\x00\xff", float("inf"), -(2**62))]
    golds = {"SELECT 1": [ExpectedResult(["a", "b", "c", "d", "e", "f", "g"], rows, groups=[0], alternates=rows,
                                         truncated=False)],
             "SELECT 2": [ExpectedResult([], [])]}
    store_golds(tmp_path / f"key{SUFFIX}", golds)
    loaded = load_golds(tmp_path / f"key{SUFFIX}")
    assert loaded == golds
    assert [type(value) for value in loaded["SELECT 1"][0].rows[0]] == [type(value) for value in rows[0]]


def test_only_the_newest_versions_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gold_cache, "KEEP", 2)
    for number in range(4):
        store_golds(tmp_path / f"key{number}{SUFFIX}", {})
        os.utime(tmp_path / f"key{number}{SUFFIX}", (1_000 + number, 1_000 + number))  # each older than the next
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"key2{SUFFIX}", f"key3{SUFFIX}"]
