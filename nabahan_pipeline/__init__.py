"""Nabahan evaluation pipeline: run Arabic test cases through an agent, score, report, as Dagster assets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nabahan_pipeline.version import __version__

__all__ = ["NabahanEvaluationPipeline", "nabahan_agent", "__version__"]

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.api import NabahanEvaluationPipeline
    from nabahan_pipeline.reference_agent.agent import nabahan_agent


def __getattr__(name: str) -> Any:
    # Lazy so that `import nabahan_pipeline` stays cheap and does not import Dagster.
    if name == "nabahan_agent":
        from nabahan_pipeline.reference_agent.agent import nabahan_agent

        return nabahan_agent
    if name == "NabahanEvaluationPipeline":
        from nabahan_pipeline.api import NabahanEvaluationPipeline

        return NabahanEvaluationPipeline
    raise AttributeError(f"module 'nabahan_pipeline' has no attribute {name!r}")
