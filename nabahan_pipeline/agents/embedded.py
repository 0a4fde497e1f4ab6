"""The embedded reference agent as an adapter (spec ``embedded``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nabahan_pipeline
from nabahan_pipeline.agents.fingerprint import compose, source_hash

_DOMAIN_DIR = Path(__file__).resolve().parent.parent / "domain"


class EmbeddedAgent:
    """The reference agent over the embedded (or a given) SQLite database."""

    def __init__(self, database: str | Path | None = None, agent_version: str | None = None) -> None:
        from nabahan_pipeline.domain.reference_agent import ReferenceAgent

        self.spec = "embedded"
        self._agent = ReferenceAgent(database=Path(database) if database else None)
        self._agent_version = agent_version

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Ask the reference agent."""
        return self._agent.ask(question, filters)

    def fingerprint(self) -> str:
        """Spec, package version and the source hash of the domain code (the agent's brain)."""
        return compose(
            self.spec,
            nabahan_pipeline.__version__,
            source_hash(_DOMAIN_DIR.glob("*.py")),
            self._agent_version,
        )
