"""The question parser: an Arabic question read into a QueryFrame (or a Refusal), and the
caller's filters applied to it."""

from nabahan_pipeline.reference_agent.parser.question_parser import apply_filters
from nabahan_pipeline.reference_agent.parser.frame import Condition, Parse, QueryFrame, Refusal, Side
from nabahan_pipeline.reference_agent.parser.question_parser import MAX_QUESTION_CHARS, QuestionParser

__all__ = ["MAX_QUESTION_CHARS", "Condition", "Parse", "QueryFrame", "QuestionParser", "Refusal", "Side", "apply_filters"]
