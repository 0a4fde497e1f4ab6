"""The question parser: an Arabic question read into a QueryFrame (or a Refusal), and the
caller's filters applied to it."""

from nabahan_pipeline.reference_agent.parser.filters import apply_filters
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.question_parser import MAX_QUESTION_CHARS, QuestionParser

__all__ = ["MAX_QUESTION_CHARS", "Condition", "QueryFrame", "QuestionParser", "Refusal", "apply_filters"]
