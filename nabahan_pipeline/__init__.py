"""Nabahan evaluation pipeline: run Arabic test cases through an agent, score, report, as Dagster assets."""

from __future__ import annotations

import importlib
from typing import Any

from nabahan_pipeline.version import __version__

__all__ = ["NabahanEvaluationPipeline", "__version__", "nabahan_agent"]
# Loaded on first use, from their modules: `import nabahan_pipeline` does not import Dagster.
_LAZY = {"NabahanEvaluationPipeline": "nabahan_pipeline.api",
         "nabahan_agent": "nabahan_pipeline.reference_agent.agent"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
