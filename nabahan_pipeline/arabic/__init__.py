"""Arabic text as the agent and the judge read it: one normalization, one reader of numbers."""

from nabahan_pipeline.arabic.normalize import normalize_arabic, normalize_digits
from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers

__all__ = ["NumberMention", "find_numbers", "normalize_arabic", "normalize_digits"]
