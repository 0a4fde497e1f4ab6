"""The gold SQL's results kept per version of the case file and the databases, in the home.

Every run checks its case file before any agent call (``cases.check_against_database``): each
expected_table a table of the database, each gold SQL run on the evaluation database and the
test-suite databases. Running the gold SQL is the costly part, and its results only change when
the case file, a database, the run's limits or this code's reading of a result do; so they are
kept in ``<home>/gold_results/<key>.json``, the key a digest of the case file's sha256, each
database's sha256, the time limit, the row cap and ``FORMAT``. A run whose key is there checks the
file as always but runs no gold SQL; any change makes a new key, and the gold SQL runs again.

The file is written atomically (``files.atomic_open``: a temporary file, fsync, one rename), so a
crash leaves the old version or none, never half of one; a file that does not read as a cache of
this format is a miss, run again and written over. The results are kept once the run starts
(the ``test_cases`` step), never by a run refused for bad input. JSON, not pickle: what the home holds is read
as data, never run. The newest ``KEEP`` files are kept.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from nabahan_pipeline.etimad_db.store import database_hash
from nabahan_pipeline.evaluation.cases import check_against_database
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.files import atomic_open

# Raised when what a cached result holds, or how a gold result is read, changes: old files are misses.
FORMAT = 1
# Case file versions whose results are kept (the newest by modification time).
KEEP = 16
SUFFIX = ".json"

Golds = dict[str, list[ExpectedResult]]


def gold_key(case_file_sha256: str, databases: Sequence[str | Path], *, timeout_s: float, max_rows: int) -> str:
    """The key of the gold results of one case file (its sha256) on ``databases`` (evaluation
    database first) under one time limit and row cap."""
    parts = [FORMAT, case_file_sha256, [database_hash(path) for path in databases], float(timeout_s), int(max_rows)]
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()


class CheckedGolds(NamedTuple):
    """The case file's gold results, and where to keep them when they were run, not read (None:
    read from there): kept once the run starts (``store_golds``), so that a run refused for bad
    input writes nothing in the home."""

    golds: Golds
    unkept: Path | None


def checked_golds(
    cases: pd.DataFrame,
    file: str | Path,
    case_file_sha256: str,
    database: str | Path,
    suite: Sequence[str | Path],
    *,
    timeout_s: float,
    max_rows: int,
    folder: str | Path,
) -> CheckedGolds:
    """``check_against_database`` of the case file, its gold SQL's results read from ``folder``
    when this version of the file and databases was checked before (no gold SQL runs), else run
    (and the path to keep them at). Raises what the check raises."""
    key = gold_key(case_file_sha256, [database, *suite], timeout_s=timeout_s, max_rows=max_rows)
    path = Path(folder) / f"{key}{SUFFIX}"
    known = load_golds(path)
    golds = check_against_database(cases, file, database, suite, timeout_s=timeout_s, max_rows=max_rows, known=known)
    return CheckedGolds(golds, path if known is None else None)


def load_golds(path: str | Path) -> Golds | None:
    """The gold results kept at ``path``; None when there are none, or they are not of this format."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return None
        return {sql: [_result(item) for item in results] for sql, results in data["golds"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def store_golds(path: str | Path, golds: Mapping[str, list[ExpectedResult]]) -> None:
    """Keep ``golds`` at ``path``, atomically; then only the newest ``KEEP`` files of its folder.
    A home that cannot be written to costs the next run its gold SQL again, never this run."""
    path = Path(path)
    data = {"format": FORMAT, "golds": {sql: [_plain(result) for result in results] for sql, results in golds.items()}}
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # json.dump: Python's slow encoder
        with atomic_open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        _prune(path.parent)
    except OSError:
        return


def _prune(folder: Path) -> None:
    kept = sorted(folder.glob(f"*{SUFFIX}"), key=lambda entry: entry.stat().st_mtime_ns, reverse=True)
    for old in kept[KEEP:]:
        old.unlink(missing_ok=True)


def _plain(result: ExpectedResult) -> dict[str, Any]:
    return {"columns": list(result.columns), "rows": [_row(row) for row in result.rows], "groups": result.groups,
            "alternates": [_row(row) for row in result.alternates], "truncated": result.truncated}


def _result(item: Mapping[str, Any]) -> ExpectedResult:
    groups = item["groups"]
    return ExpectedResult(columns=[str(name) for name in item["columns"]],
                          rows=[_values(row) for row in item["rows"]],
                          groups=None if groups is None else [int(group) for group in groups],
                          alternates=[_values(row) for row in item["alternates"]],
                          truncated=bool(item["truncated"]))


# SQLite's values are None, int, float, str and bytes; JSON holds all but bytes (and Python's json
# writes and reads back the non-finite floats): bytes are kept as {"bytes": base64}.
def _row(row: Sequence[Any]) -> list[Any]:
    return [{"bytes": base64.b64encode(value).decode("ascii")} if isinstance(value, bytes) else value for value in row]


def _values(row: Sequence[Any]) -> tuple:
    return tuple(base64.b64decode(value["bytes"]) if isinstance(value, dict) else value for value in row)
