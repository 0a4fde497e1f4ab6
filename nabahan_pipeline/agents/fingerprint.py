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


def python_sources(module_name: str, module_file: Path) -> list[Path]:
    """The source files a ``python:`` agent is loaded from: every ``.py`` file of its top-level
    package (a helper module changed is a new agent), or of the folder of a top-level module."""
    depth = module_name.count(".") + (module_file.name == "__init__.py")
    if depth == 0:
        return sorted(path for path in module_file.parent.glob("*.py") if path.is_file())
    root = module_file.parents[depth - 1]
    return sorted(
        path for path in root.rglob("*.py")
        if path.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                      for part in path.relative_to(root).parts[:-1])
    )
