"""Scoring, one module per metric (docs/internals.md lists them): each scorer declares the
case_scores columns it fills, and ``case_scores`` walks them (SCORERS, in order) over every answer,
then adds the consistency over each case's repeats."""

from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.case_scores import (
    CASE_SCORE_COLUMNS,
    REPEAT_COLUMNS,
    SCORE_COLUMNS,
    SCORERS,
    SEED_VERDICT_COLUMNS,
    score_answer,
    score_responses,
    seed_verdict,
)
from nabahan_pipeline.evaluation.scoring.consistency import add_repeat_consistency, result_digest
from nabahan_pipeline.evaluation.scoring.hallucination import hallucination_markers
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, Scorer, scorer
from nabahan_pipeline.evaluation.scoring.latency import LATENCY_BOUNDS, latency_tier
from nabahan_pipeline.evaluation.scoring.verdicts import not_correct_reasons

__all__ = [
    "CASE_SCORE_COLUMNS",
    "LATENCY_BOUNDS",
    "REPEAT_COLUMNS",
    "SCORERS",
    "SCORE_COLUMNS",
    "SEED_VERDICT_COLUMNS",
    "Answer",
    "Column",
    "Figure",
    "Scorer",
    "add_repeat_consistency",
    "hallucination_markers",
    "latency_tier",
    "not_correct_reasons",
    "result_digest",
    "score_answer",
    "score_responses",
    "scorer",
]
