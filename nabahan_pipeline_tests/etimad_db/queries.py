"""Reading a built database in the tests: its bytes' hash, a query's rows, one value."""

from __future__ import annotations

import hashlib
from pathlib import Path

from nabahan_pipeline.etimad_db.store import connect_readonly


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def query(path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    con = connect_readonly(path)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def scalar(path: Path, sql: str, params: tuple = ()) -> object:
    return query(path, sql, params)[0][0]
