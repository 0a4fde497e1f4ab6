"""Nabahan evaluation pipeline: run Arabic test cases through an agent, score, report, as Dagster assets."""

from __future__ import annotations

from typing import Any

from nabahan_pipeline.version import __version__

__all__ = ["NabahanEvaluationPipeline", "__version__", "nabahan_agent"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: `import nabahan_pipeline` does not import Dagster.
    if name == "NabahanEvaluationPipeline":
        from nabahan_pipeline.api import NabahanEvaluationPipeline

        return NabahanEvaluationPipeline
    if name == "nabahan_agent":
        from nabahan_pipeline.reference_agent.agent import nabahan_agent

        return nabahan_agent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
