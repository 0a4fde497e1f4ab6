"""The response cache: an agent's answer reused while the case, the agent and the database are
unchanged. A key is the sha256 of the question and filters, the repeat, the agent's fingerprint
and the database hash; a record keeps the latency measured when it was fetched.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nabahan_pipeline.errors import StorageError

# Bumped when the stored record changes shape (2: columns + rows): no older record is read back.
RECORD_FORMAT = 3


def response_key(case: Mapping[str, Any], repeat: int, fingerprint: str, database_hash: str) -> str:
    """The cache key of one case and repeat for an agent and a database."""
    payload = json.dumps({"question": case["question"], "filters": case.get("filters"), "repeat": int(repeat),
                          "agent": fingerprint, "database": database_hash, "format": RECORD_FORMAT},
                         ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """Answers in one SQLite file, safe to use from the runner's threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        try:
            with self._lock, self._conn:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute(
                    "CREATE TABLE IF NOT EXISTS responses ("
                    " key TEXT PRIMARY KEY, record TEXT NOT NULL,"
                    " stored_at TEXT NOT NULL DEFAULT (datetime('now')))"
                )
                # A file cut short reads as "malformed" only when its pages are read: now, before any call.
                (verdict,) = self._conn.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StorageError(f"response cache {self.path}: cannot be read ({exc}); delete it to start "
                               "an empty cache") from None
        if verdict != "ok":
            self._conn.close()
            raise StorageError(f"response cache {self.path}: damaged ({verdict}); delete it to start an empty cache")

    def get(self, key: str) -> dict | None:
        """The cached record for ``key``, or None."""
        with self._lock:
            row = self._conn.execute("SELECT record FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, record: dict) -> None:
        """Store ``record`` (a response row) under ``key``."""
        stored = {k: v for k, v in record.items() if k not in ("case_id", "repeat", "cached")}
        text = json.dumps(stored, ensure_ascii=False)
        with self._lock, self._conn:
            self._conn.execute("INSERT OR REPLACE INTO responses (key, record) VALUES (?, ?)", (key, text))

    def __len__(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._conn.close()

