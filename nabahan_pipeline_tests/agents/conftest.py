"""Fixtures of the agent tests: a loopback HTTP server, and no agent token from the shell."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from nabahan_pipeline_tests.loopback import LoopbackServer


@pytest.fixture
def no_agent_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NABAHAN_AGENT_TOKEN", raising=False)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as srv:
        yield srv
