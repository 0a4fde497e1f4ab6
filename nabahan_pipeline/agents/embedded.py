"""The embedded reference agent as an adapter (spec ``embedded``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nabahan_pipeline.agents.contract import Agent, AgentOptions
from nabahan_pipeline.agents.fingerprint import compose, source_hash
from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.version import __version__

_PACKAGE = Path(__file__).resolve().parent.parent


def agent_sources(package: Path | None = None) -> list[Path]:
    """The files whose edits can change the embedded agent's answers (its code, arabic/, the
    reference data) under ``package``; not the generator nor the evaluation."""
    root = package or _PACKAGE
    code = [path for folder in (root / "reference_agent", root / "arabic") for path in folder.rglob("*.py")]
    return [*code, root / "etimad_db" / "reference_data.py"]


class EmbeddedAgent(Agent):
    """The reference agent over the embedded (or a given) SQLite database."""

    def __init__(self, database: str | Path | None = None, agent_version: str | None = None) -> None:
        from nabahan_pipeline.reference_agent.agent import ReferenceAgent

        self.spec = "embedded"
        self._agent = ReferenceAgent(database=Path(database) if database else None)
        self._agent_version = agent_version

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Ask the reference agent."""
        return self._agent.ask(question, filters)

    def close(self) -> None:
        """Close the agent's database connections."""
        self._agent.close()

    def fingerprint(self) -> str:
        """Spec, package version and the source hash of the agent's own code."""
        return compose(self.spec, __version__, source_hash(agent_sources()), self._agent_version)


def build(options: AgentOptions) -> Agent:
    """The reference agent over ``options.database`` (the embedded one when None, built on first use)."""
    return EmbeddedAgent(database=ensure_database(options.database), agent_version=options.agent_version)
