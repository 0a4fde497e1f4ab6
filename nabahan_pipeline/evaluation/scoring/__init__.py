"""Scoring, one module per metric (docs/internals.md lists them): each scorer declares the
case_scores columns it fills; ``case_scores`` walks them (SCORERS, in order) over every answer.
Import a name from its module: this face loads nothing."""
