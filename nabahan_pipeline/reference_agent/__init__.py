"""The embedded reference agent: an Arabic question read into a frame (``parser``), one SELECT
built from it (``sql_builder``), run on the embedded database, and its rows worded (``insights``).

The names below load on first use, so that importing one of the agent's modules stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

_EXPORTS = {"ReferenceAgent": "agent", "default_agent": "agent", "nabahan_agent": "agent"}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.reference_agent.agent import ReferenceAgent, default_agent, nabahan_agent
