"""The embedded reference agent: an Arabic question read into a frame (``parser``), one SELECT
built from it (``sql_builder``), run on the embedded database, and its rows worded (``insights``).

The names below load on first use, so that importing one of the agent's modules stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ReferenceAgent", "default_agent", "nabahan_agent"]

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.reference_agent.agent import ReferenceAgent, default_agent, nabahan_agent


def __getattr__(name: str) -> Any:
    if name in __all__:
        from nabahan_pipeline.reference_agent import agent

        return getattr(agent, name)
    raise AttributeError(f"module 'nabahan_pipeline.reference_agent' has no attribute {name!r}")
