"""Agents: the answer contract, the adapters (embedded, python, http, openai-compatible) behind one
spec string, and the runner that asks them concurrently, capped and scrubbed of secrets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

# Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS = {
    "Agent": "contract",
    "AgentAnswer": "contract",
    "AnswerLimits": "contract",
    "normalize_answer": "contract",
    "resolve_agent": "registry",
    "effective_spec": "registry",
    "run_agent": "runner",
    "scrub": "secrets",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.agents.contract import Agent, AgentAnswer, AnswerLimits, normalize_answer
    from nabahan_pipeline.agents.registry import effective_spec, resolve_agent
    from nabahan_pipeline.agents.runner import run_agent
    from nabahan_pipeline.agents.secrets import scrub
