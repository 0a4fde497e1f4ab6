"""case_scores -> the ``evaluation_summary`` table: one row for all answers, then one per category.

Every answer (case x repeat) counts once. Latency percentiles interpolate linearly between
answers (pandas quantile, as numpy.percentile's default); execution accuracy is over the answers
whose case has gold SQL only, test-suite accuracy over those that also ran on the test-suite
databases, each NaN when there are none. ``pass_rate`` is the seed's (Overall Passed),
``correct_rate`` ours (Correct), the one the gate uses by default. ``judge_agreement`` is the
optional LLM judge's agreement with the claims verdict, over the answers it judged.

Every rate R of a share of answers (or of cases, for pass^N) has its 95 % interval beside it,
``R_low`` and ``R_high`` (``intervals.rate_interval``: Wilson's, clustered by case with repeats);
the mean latency score is a score, not a share, and has none.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import pandas as pd

from nabahan_pipeline.evaluation.intervals import rate_interval
from nabahan_pipeline.evaluation.tables import CATEGORIES, SUMMARY_COLUMNS, SUMMARY_DTYPES


def summarize(scores: pd.DataFrame) -> pd.DataFrame:
    """The evaluation_summary table: the "overall" row, then one row per category present, in
    CATEGORIES order (a category outside it follows, in order of appearance)."""
    rows = [_scope_row("overall", scores)]
    for category in category_order(scores["category"]):
        rows.append(_scope_row(category, scores[scores["category"] == category]))
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS)).astype(SUMMARY_DTYPES)


def category_order(categories: Iterable[str]) -> list[str]:
    """The distinct ``categories`` in CATEGORIES order, then any other in order of appearance."""
    present = list(dict.fromkeys(categories))
    return [c for c in CATEGORIES if c in present] + [c for c in present if c not in CATEGORIES]


def summary_dict(summary: pd.DataFrame) -> dict[str, Any]:
    """The overall figures as plain Python numbers (NaN -> None), with ``categories`` mapping each
    category to its own figures: for JSON, the Python API and the console."""
    records = [{key: _plain(value) for key, value in row.items()} for row in summary.to_dict("records")]
    overall = next(record for record in records if record["scope"] == "overall")
    result = {key: value for key, value in overall.items() if key != "scope"}
    result["categories"] = {
        record["scope"]: {key: value for key, value in record.items() if key != "scope"}
        for record in records
        if record["scope"] != "overall"
    }
    return result


def _scope_row(scope: str, scores: pd.DataFrame) -> dict[str, Any]:
    total = len(scores)
    passed = int(scores["overall_passed"].astype(bool).sum())
    latency = scores["latency_s"].astype(float)
    execution = scores["execution_match"].astype(float).dropna()
    suite = scores["test_suite_match"].astype(float).dropna()
    correct = int(scores["correct"].astype(bool).sum())
    return {
        "scope": scope,
        "cases": int(scores["case_id"].nunique()) if "case_id" in scores else total,
        "total": total,
        "passed": passed,
        "failed": total - passed,
        "pass_rate": passed / total if total else math.nan,
        "correct": correct,
        "correct_rate": correct / total if total else math.nan,
        "avg_retrieval_accuracy": _mean(scores["retrieval_accuracy"]),
        "avg_generation_fidelity": _mean(scores["generation_fidelity"]),
        "avg_latency_score": _mean(scores["latency_score"]),
        "avg_latency": _mean(latency),
        "p50_latency": float(latency.quantile(0.5)) if total else math.nan,
        "p95_latency": float(latency.quantile(0.95)) if total else math.nan,
        "execution_accuracy": float(execution.mean()) if len(execution) else math.nan,
        "execution_cases": len(execution),
        "test_suite_accuracy": float(suite.mean()) if len(suite) else math.nan,
        "test_suite_cases": len(suite),
        "errors": int((scores["status"] == "error").sum()),
        "unsafe_sql": int(scores["unsafe_sql"].astype(bool).sum()),
        "rows_not_verified": int((~scores["rows_verified"].astype("boolean").fillna(True)).sum()),
        "false_refusals": int(scores["false_refusal"].astype(bool).sum()),
        "false_answers": int(scores["false_answer"].astype(bool).sum()),
        "cached_answers": int(scores["cached"].astype(bool).sum()) if "cached" in scores else 0,
        **_repeat_figures(scores),
        "total_tokens": _token_total(scores),
        **_judge_figures(scores),
        **_intervals(scores),
    }


def _intervals(scores: pd.DataFrame) -> dict[str, float]:
    """The answer rates' ``_low`` and ``_high``: over the answers each counts, clustered by case."""
    cases = scores["case_id"] if "case_id" in scores else None
    shares = {
        "pass_rate": scores["overall_passed"].astype(bool),
        "correct_rate": scores["correct"].astype(bool),
        "avg_retrieval_accuracy": scores["retrieval_accuracy"],
        "avg_generation_fidelity": scores["generation_fidelity"],
        "execution_accuracy": scores["execution_match"],
        "test_suite_accuracy": scores["test_suite_match"],
    }
    return {key: value for rate, outcomes in shares.items() for key, value in _bounds(rate, outcomes, cases).items()}


def _bounds(rate: str, outcomes: pd.Series, cases: pd.Series | None) -> dict[str, float]:
    low, high = rate_interval(outcomes, cases)
    return {f"{rate}_low": low, f"{rate}_high": high}


def _judge_figures(scores: pd.DataFrame) -> dict[str, Any]:
    # Agreement: the judge says supported exactly when the rules contradict no claim.
    verdicts = scores["judge_verdict"] if "judge_verdict" in scores else pd.Series(dtype=object)
    judged = verdicts.notna()
    if not judged.any():
        return {"judged": 0, **dict.fromkeys(("judge_agreement", "judge_agreement_low", "judge_agreement_high"),
                                             math.nan)}
    agree = (verdicts[judged] == "supported") == (scores.loc[judged, "claims_contradicted"].astype(int) == 0)
    return {"judged": int(judged.sum()), "judge_agreement": float(agree.mean()),
            **_bounds("judge_agreement", agree, scores.loc[judged, "case_id"] if "case_id" in scores else None)}


def _repeat_figures(scores: pd.DataFrame) -> dict[str, Any]:
    # pass^N: the share of cases whose every one of N repeats passed; NaN for single runs.
    repeats = int(scores["repeat"].max()) + 1 if len(scores) and "repeat" in scores.columns else 1
    if repeats < 2:
        return {"repeats": repeats, "pass_hat_n": math.nan, "pass_hat_n_low": math.nan, "pass_hat_n_high": math.nan}
    all_passed = scores["overall_passed"].astype(bool).groupby(scores["case_id"]).all()
    # A share of cases, each one observation: no clustering.
    return {"repeats": repeats, "pass_hat_n": float(all_passed.mean()), **_bounds("pass_hat_n", all_passed, None)}


def _token_total(scores: pd.DataFrame) -> float:
    if "prompt_tokens" not in scores.columns:
        return math.nan
    tokens = scores[["prompt_tokens", "completion_tokens"]].astype(float)
    return float(tokens.sum().sum()) if tokens.notna().any().any() else math.nan


def _mean(values: pd.Series) -> float:
    return float(values.astype(float).mean()) if len(values) else math.nan


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
