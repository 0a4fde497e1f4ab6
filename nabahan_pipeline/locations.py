"""Where things live on disk: the shipped suite, default outputs, and the state kept between runs.

State (Dagster run history, Parquet materializations, the response cache) lives under
``$NABAHAN_HOME``, by default ``.nabahan`` in the working directory, so that every entry point
started from the project root shares it.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SHIPPED_TEST_CASES = PACKAGE_DIR / "data" / "test_cases.json"
DEFAULT_OUTPUT_DIR = Path("evaluation") / "results"


def nabahan_home() -> Path:
    """The state directory: $NABAHAN_HOME, else ./.nabahan (absolute)."""
    return Path(os.environ.get("NABAHAN_HOME") or ".nabahan").expanduser().resolve()


def parquet_dir() -> Path:
    """Where the Parquet materializations go by default."""
    return nabahan_home() / "parquet"


def dagster_home() -> Path:
    """The Dagster home of our own entry points: $DAGSTER_HOME, else <nabahan_home>/dagster."""
    configured = os.environ.get("DAGSTER_HOME")
    return Path(configured).expanduser().resolve() if configured else nabahan_home() / "dagster"


def response_cache_path() -> Path:
    """The SQLite file of the response cache."""
    return nabahan_home() / "response_cache.sqlite"
