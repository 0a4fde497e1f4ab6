"""Nabahan evaluation pipeline: run Arabic test cases through an agent, score, report, as Dagster assets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports
from nabahan_pipeline.version import __version__

# Loaded on first use, so that `import nabahan_pipeline` stays cheap and does not import Dagster.
_EXPORTS = {"NabahanEvaluationPipeline": "api", "nabahan_agent": "reference_agent"}
__all__ = ["NabahanEvaluationPipeline", "__version__", "nabahan_agent"]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.api import NabahanEvaluationPipeline
    from nabahan_pipeline.reference_agent import nabahan_agent
