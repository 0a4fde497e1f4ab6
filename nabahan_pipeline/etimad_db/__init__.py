"""The evaluation database: Etimad-shaped synthetic data built from a seed (``generator``), kept
in a cache and opened read-only (``store``). The checks on untrusted SQL (``sql_safety``) are
imported from their own module: they load sqlglot."""

from nabahan_pipeline.errors import DatabaseBuildError
from nabahan_pipeline.etimad_db.generator import build_database
from nabahan_pipeline.etimad_db.store import (
    connect_readonly, database_hash, default_database_path, ensure_database, suite_databases,
)

__all__ = [
    "DatabaseBuildError",
    "build_database",
    "connect_readonly",
    "database_hash",
    "default_database_path",
    "ensure_database",
    "suite_databases",
]
