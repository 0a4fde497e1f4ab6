"""The insight read as claims and each checked against the rows the agent's SQL returned: a
number with the row label, measure word and comparator it is attached to, "none", yes/no, a
direction, a superlative. One module per idea: the words, the labels, the reading, the evidence,
the question's implied dates, the checking."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

_EXPORTS = {
    "Claim": "reading",
    "read_claims": "reading",
    "ClaimCheck": "checking",
    "check_insight": "checking",
    "SUPPORTED": "checking",
    "CONTRADICTED": "checking",
    "UNSUPPORTED": "checking",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.claims.checking import (
        CONTRADICTED, SUPPORTED, UNSUPPORTED, ClaimCheck, check_insight,
    )
    from nabahan_pipeline.evaluation.claims.reading import Claim, read_claims
