"""What identifies an agent's version, so that a cached answer is reused only for the same agent."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def source_hash(paths: Iterable[Path]) -> str:
    """sha256 over the given source files' bytes, in sorted path order (first 16 hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(f"{path.parent.name}/{path.name}".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compose(*parts: str | None) -> str:
    """Join the parts that are given into one fingerprint string."""
    return "|".join(part for part in parts if part)
