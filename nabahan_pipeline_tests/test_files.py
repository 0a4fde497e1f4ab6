"""Files written whole or not at all: exclusive claims, folders switched in whole, the leftovers
of killed writers removed (and a live writer's left alone), a lock between processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nabahan_pipeline import files
from nabahan_pipeline.files import (
    NameTakenError,
    atomic_folder,
    atomic_path,
    file_lock,
    folder_problem,
    linked_folder_problem,
    remove_stale_temporaries,
    temporary_name,
)

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults


def test_an_exclusive_write_never_replaces_a_file(tmp_path: Path):
    target = tmp_path / "report.csv"
    target.write_text("earlier", encoding="utf-8")
    with pytest.raises(FileExistsError), atomic_path(target, replace=False) as tmp:
        tmp.write_text("later", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_leftovers_of_dead_writers_go_and_live_writers_files_stay(tmp_path: Path):
    dead = tmp_path / f".report.csv.{dead_pid()}.0123456789ab.tmp"
    dead.write_text("half", encoding="utf-8")
    dead_folder = tmp_path / f".20261123_020000.{dead_pid()}.0123456789ab.tmp"
    dead_folder.mkdir()
    (dead_folder / "metrics_overview.png").write_bytes(b"half")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".report.csv.{sleeper.pid}.0123456789ab.tmp"
        live.write_text("being written", encoding="utf-8")
        ours = temporary_name(tmp_path / "chart.png")
        ours.write_bytes(b"being written by us")
        earlier_us = tmp_path / f".x.csv.{os.getpid()}.0123456789ab.tmp"  # same pid, earlier process
        earlier_us.write_text("half", encoding="utf-8")
        legacy_old = tmp_path / ".report.csv.k2j3h4.tmp"
        legacy_old.write_text("half", encoding="utf-8")
        old = time.time() - files.LEGACY_TEMPORARY_AGE_S - 10
        os.utime(legacy_old, (old, old))
        legacy_new = tmp_path / ".other.csv.k2j3h4.tmp"
        legacy_new.write_text("half", encoding="utf-8")
        keep = tmp_path / "evaluation_results_1.csv"
        keep.write_text("a report", encoding="utf-8")

        removed = remove_stale_temporaries(tmp_path)

        assert sorted(p.name for p in removed) == sorted([dead.name, dead_folder.name, earlier_us.name, legacy_old.name])
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, ours.name, legacy_new.name, keep.name])
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_folder_is_switched_in_whole_or_not_at_all(tmp_path: Path):
    link = tmp_path / "charts"
    with atomic_folder(link) as first:
        (first.path / "a.png").write_bytes(b"one")
    assert link.is_symlink() and (link / "a.png").read_bytes() == b"one"
    assert link.resolve() == first.final.resolve()

    with pytest.raises(RuntimeError), atomic_folder(link) as second:
        (second.path / "a.png").write_bytes(b"two, half")
        raise RuntimeError("killed while drawing")
    assert (link / "a.png").read_bytes() == b"one", "the failed set never became visible"
    assert not second.path.exists()

    with atomic_folder(link, keep=2) as third:
        (third.path / "a.png").write_bytes(b"three")
    assert (link / "a.png").read_bytes() == b"three"
    assert first.final.exists(), "a reader that resolved the link a moment ago still finds its files"


def test_a_folder_from_before_links_is_adopted_and_a_foreign_one_refused(tmp_path: Path):
    charts = tmp_path / "charts"
    charts.mkdir()
    (charts / "metrics_overview.png").write_bytes(b"old chart")
    with atomic_folder(charts) as staged:
        (staged.path / "metrics_overview.png").write_bytes(b"new chart")
    assert charts.is_symlink()
    kept = list((tmp_path / ".charts_runs").glob("*-before/metrics_overview.png"))
    assert [p.read_bytes() for p in kept] == [b"old chart"]

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "notes.txt").write_text("mine", encoding="utf-8")
    (mixed / "photo.png").write_bytes(b"mine")
    with pytest.raises(FileExistsError, match="folder of other files"), atomic_folder(mixed):
        pass
    assert (mixed / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_lock_makes_a_second_process_wait(tmp_path: Path):
    lock = tmp_path / "state.lock"
    script = (
        "import sys, time; from nabahan_pipeline.files import file_lock\n"
        f"with file_lock({str(lock)!r}):\n    print('got it', flush=True)\n"
    )
    with file_lock(lock):
        waiter = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        assert waiter.poll() is None, "the second process waits while the lock is held"
    assert waiter.communicate(timeout=30)[0] == "got it\n"


def test_only_a_taken_name_is_name_taken_and_a_file_on_the_way_is_not_a_folder(tmp_path: Path):
    (tmp_path / "report.csv").write_text("mine", encoding="utf-8")
    with pytest.raises(NameTakenError), atomic_path(tmp_path / "report.csv", replace=False) as tmp:
        tmp.write_text("later", encoding="utf-8")
    with pytest.raises(NotADirectoryError, match="report.csv is not a folder") as caught, \
            atomic_path(tmp_path / "report.csv" / "a" / "b.csv", replace=False):
        pass
    assert not isinstance(caught.value, FileExistsError)
    assert (tmp_path / "report.csv").read_text(encoding="utf-8") == "mine"


def test_where_files_cannot_go_is_told_before_writing(tmp_path: Path):
    (tmp_path / "file").write_text("mine", encoding="utf-8")
    assert folder_problem(tmp_path / "file") == f"{tmp_path / 'file'} is not a folder"
    assert folder_problem(tmp_path / "file" / "below") == f"{tmp_path / 'file'} is not a folder"
    assert folder_problem(tmp_path / "new" / "folder") is None
    charts = tmp_path / "out" / "charts"
    assert linked_folder_problem(charts) is None  # nothing there yet
    charts.mkdir(parents=True)
    (charts / "a.png").write_bytes(b"png")
    assert linked_folder_problem(charts) is None  # charts of ours from before links: adopted
    (charts / "notes.txt").write_text("mine", encoding="utf-8")
    assert "a folder of other files" in linked_folder_problem(charts)
    with pytest.raises(FileExistsError), atomic_folder(charts):
        pass
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "charts").write_text("mine", encoding="utf-8")
    assert "is a file" in linked_folder_problem(tmp_path / "other" / "charts")
    (tmp_path / "third").mkdir()
    (tmp_path / "third" / ".charts_runs").write_text("mine", encoding="utf-8")
    assert linked_folder_problem(tmp_path / "third" / "charts") == f"{tmp_path / 'third' / '.charts_runs'} is not a folder"
