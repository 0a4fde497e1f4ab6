"""The embedded reference agent as an adapter (spec ``embedded``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nabahan_pipeline.version import __version__
from nabahan_pipeline.agents.fingerprint import compose, source_hash

_PACKAGE = Path(__file__).resolve().parent.parent
# The agent's brain and the Arabic text functions it reads questions with; not the database
# generator nor the evaluation, whose edits do not change an answer.
_AGENT_SOURCES = (_PACKAGE / "reference_agent", _PACKAGE / "arabic")


class EmbeddedAgent:
    """The reference agent over the embedded (or a given) SQLite database."""

    def __init__(self, database: str | Path | None = None, agent_version: str | None = None) -> None:
        from nabahan_pipeline.reference_agent.agent import ReferenceAgent

        self.spec = "embedded"
        self._agent = ReferenceAgent(database=Path(database) if database else None)
        self._agent_version = agent_version

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Ask the reference agent."""
        return self._agent.ask(question, filters)

    def fingerprint(self) -> str:
        """Spec, package version and the source hash of the agent's own code."""
        return compose(
            self.spec,
            __version__,
            source_hash(path for folder in _AGENT_SOURCES for path in folder.rglob("*.py")),
            self._agent_version,
        )
