"""Shared fixtures: a private database cache for the session, a small and the default database."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

SMALL_TENDERS = 2_000
_CACHE_ENV = "NABAHAN_CACHE_DIR"
_HOME_ENV = "NABAHAN_HOME"
_saved_env: dict[str, str | None] = {}
_created_dirs: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # The tests never touch the user's cache: the default database is built (once, ~0.5 s) into a
    # directory of this session. xdist workers inherit the controller's variable and share it.
    if hasattr(config, "workerinput"):
        return
    _saved_env[_CACHE_ENV] = os.environ.get(_CACHE_ENV)
    cache = tempfile.mkdtemp(prefix="nabahan-test-cache-")
    _created_dirs.append(cache)
    os.environ[_CACHE_ENV] = cache
    # Nor the user's home (~/.nabahan by default): a test that runs in this process without its own
    # NABAHAN_HOME records into the session's. Our commands' tests give each run its own (commands.py).
    _saved_env[_HOME_ENV] = os.environ.get(_HOME_ENV)
    home = tempfile.mkdtemp(prefix="nabahan-test-home-")
    _created_dirs.append(home)
    os.environ[_HOME_ENV] = home


def pytest_unconfigure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or _CACHE_ENV not in _saved_env:
        return
    for variable in (_CACHE_ENV, _HOME_ENV):
        previous = _saved_env.pop(variable, None)
        if previous is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = previous
    for directory in _created_dirs:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small database (2,000 tenders, default seed), built once per session."""
    from nabahan_pipeline.etimad_db.generator import build_database

    return build_database(tmp_path_factory.mktemp("db") / "small.sqlite", tenders=SMALL_TENDERS)


@pytest.fixture(scope="session")
def default_db() -> Path:
    """The default database (20,000 tenders) from the session's cache, built on first use."""
    from nabahan_pipeline.etimad_db.store import ensure_database

    return ensure_database()
