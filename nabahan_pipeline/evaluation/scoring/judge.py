"""The optional LLM judge's verdict of an insight (``evaluation.judge``), beside Correct: never
read by the verdicts, which run before it. Off (no judge), its columns are None.

The judge sees what the claims scorer checks: the question, the rows the agent's SQL really
returns and the insight; it is asked once per distinct answer of a run (repeats that say the same
thing over the same rows share one call). A refusal or an error makes no claims about rows and is
not judged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from nabahan_pipeline.evaluation.scoring.answer import Answer, Scorer, scorer
from nabahan_pipeline.evaluation.scoring.claims import answer_rows

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.judge import Judge

COLUMNS = ("judge_verdict", "judge_reason")


@scorer(*COLUMNS)
def judge_off(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """No judge configured: nothing judged."""
    return dict.fromkeys(COLUMNS)


def judge_scorer(judge: Judge | None) -> Scorer:
    """The scorer of the judge's columns: ``judge_off`` without a judge, else one that asks
    ``judge`` once per distinct (question, rows, insight) of the run it scores."""
    if judge is None:
        return judge_off
    verdicts: dict[tuple[str, str, str], tuple[str | None, str]] = {}

    def judged(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
        if answer.status != "success" or not answer.insight.strip():
            return dict.fromkeys(COLUMNS)
        columns, rows = answer_rows(answer)
        key = (answer.question, json.dumps([columns, rows], ensure_ascii=False, default=str), answer.insight)
        if key not in verdicts:
            verdicts[key] = judge.judge(answer.question, columns, rows, answer.insight)
        return dict(zip(COLUMNS, verdicts[key]))

    return Scorer("judge", COLUMNS, judged)
