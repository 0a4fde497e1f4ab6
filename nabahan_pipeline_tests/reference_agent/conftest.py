"""Fixtures the reference agent's tests share: the agent over the default database, a read-only
connection to it, and a parser over the small database's names with "today" fixed, so that
relative dates have one meaning."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser import QuestionParser

# "Today" for the parser fixture (the test modules that read relative dates name it as AS_OF).
PARSER_AS_OF = date(2025, 6, 15)


@pytest.fixture(scope="module")
def agent(default_db: Path) -> ReferenceAgent:
    """The embedded agent over the default database."""
    return ReferenceAgent()


@pytest.fixture(scope="module")
def db(default_db: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the default database, for the gold figures the tests compare with."""
    con = sqlite3.connect(f"file:{default_db}?mode=ro", uri=True)
    yield con
    con.close()


@pytest.fixture(scope="module")
def parser(small_db: Path) -> Iterator[QuestionParser]:
    """A parser over the small database's names, "today" fixed at 2025-06-15."""
    con = sqlite3.connect(f"file:{small_db}?mode=ro", uri=True)
    try:
        yield QuestionParser(Catalog.load(con), as_of=PARSER_AS_OF)
    finally:
        con.close()
