"""Refusal accounting: an in-scope case refused."""

from __future__ import annotations

from nabahan_pipeline_tests.evaluation.scoring.answers import COUNT_CASE, refusal, score


def test_false_refusal() -> None:
    result = score(COUNT_CASE, refusal())
    assert result["false_refusal"] is True
    assert result["retrieval_accuracy"] == 0
    assert result["overall_passed"] is False
