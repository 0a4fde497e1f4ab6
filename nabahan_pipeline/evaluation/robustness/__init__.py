"""Robustness to the ways users write a question (issue 29): perturbations that keep a question's
meaning, and the evaluation of an agent on the variants beside the originals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

_EXPORTS = {
    "PERTURBATIONS": "perturbations",
    "perturb": "perturbations",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.robustness.perturbations import PERTURBATIONS, perturb
