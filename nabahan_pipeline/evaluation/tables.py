"""The tables between the assets, declared once as pandera schemas (docs/internals.md).

    test_cases -> agent_responses -> case_scores -> evaluation_summary   (per agent)
    agent_comparison                                                      (the agents side by side)

Each column has its dtype, whether it may be missing, the values the contract allows and a
description (the Dagster UI shows them on each asset's type). The column lists the code needs
derive from these schemas; the Dagster layer checks every table against its schema at the step
that makes it. ``agent_responses`` is declared with the agents (``agents.responses_table``), who
make it, and re-exported here. JSON-valued fields are JSON text, so that Parquet keeps one type
per column.
"""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import AGENT_RESPONSES, NON_NEGATIVE, json_text, non_text_dtypes

_POINT = pa.Check.isin((0, 1))
_RATE = pa.Check.in_range(0, 1)
_MATCH = pa.Check.isin((0.0, 1.0))


# The words a case's category may be; out_of_scope cases name no table.
CATEGORIES: tuple[str, ...] = (
    "count", "region_filter", "aggregation", "distribution", "lookup", "time_filter", "value_filter",
    "out_of_scope",
)
OUT_OF_SCOPE = "out_of_scope"

# The seed's latency table: < 2 s Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor; each bound belongs
# to the tier below it (5.0 s is Good, 10.0 s Acceptable), 2.0 s is no longer "< 2".
# (upper bound s, bound included, tier, score); scoring.latency reads an answer's tier from it,
# the charts draw its bands.
LATENCY_TIERS: tuple[tuple[float, bool, str, float], ...] = (
    (2.0, False, "Excellent", 1.0),
    (5.0, True, "Good", 0.8),
    (10.0, True, "Acceptable", 0.5),
)
POOR = ("Poor", 0.2)
# Every tier and its score, best first.
TIERS: tuple[tuple[str, float], ...] = tuple((tier, score) for _, _, tier, score in LATENCY_TIERS) + (POOR,)


def _known_category(category: pd.Series) -> pd.Series:
    return category.isin(CATEGORIES)


def _has_expected_table(cases: pd.DataFrame) -> pd.Series:
    return (cases["category"] == OUT_OF_SCOPE) | cases["expected_table"].notna()


def _latency_tier(tier: pd.Series) -> pd.Series:
    return tier.isin([name for name, _ in TIERS])


def _latency_score(score: pd.Series) -> pd.Series:
    return score.isin([value for _, value in TIERS])


def _correct_needs_overall_passed(scores: pd.DataFrame) -> pd.Series:
    return ~scores["correct"].astype(bool) | scores["overall_passed"].astype(bool)


def _overall_first(summary: pd.DataFrame) -> pd.Series:
    first = pd.Series(range(len(summary)), index=summary.index) == 0
    return (summary["scope"] == "overall") == first


def _count(description: str, *, trend: bool = False, at_least: int = 0) -> pa.Column:
    return pa.Column(int, pa.Check.ge(at_least), description=description, metadata=_trend(trend))


def _rate(description: str, *, trend: bool = False, nullable: bool = False) -> pa.Column:
    return pa.Column(float, _RATE, nullable=nullable, description=description, metadata=_trend(trend))


def _bounds(rate: str) -> dict[str, pa.Column]:
    """``rate``'s 95 % interval (evaluation.intervals): ``rate_low`` and ``rate_high``."""
    return {f"{rate}_{side}": pa.Column(float, _RATE, nullable=True,
                                        description=f"{edge} bound of {rate}'s 95 % interval; NaN where it is NaN.")
            for side, edge in (("low", "Lower"), ("high", "Upper"))}


def _seconds(description: str, *, trend: bool = False) -> pa.Column:
    return pa.Column(float, NON_NEGATIVE, description=description, metadata=_trend(trend))


def _trend(trend: bool) -> dict[str, bool] | None:
    # A figure followed across runs: the Dagster UI plots it from each run's metadata.
    return {"trend": True} if trend else None


TEST_CASES = pa.DataFrameSchema(
    {
        "case_id": pa.Column(str, unique=True, description="`id` from the file, else derived from the content (stable)."),
        "question": pa.Column(str, description="The question asked of the agent."),
        "category": pa.Column(
            str,
            pa.Check(_known_category, name="known_category", description="one of evaluation.tables.CATEGORIES"),
            description="What the case asks for (count, lookup ...); out_of_scope: the agent should refuse.",
        ),
        "expected_table": pa.Column(str, nullable=True, description="The table the SQL should read; required for in-scope cases."),
        "expected_response": pa.Column(str, nullable=True, description="What a good answer says (for people)."),
        "description": pa.Column(str, nullable=True, description="What the case tests."),
        "filters": pa.Column(str, json_text(dict), nullable=True, description="JSON object text, passed to the agent."),
        "expected_sql": pa.Column(str, nullable=True, description="Gold SQL on the evaluation database."),
        "tags": pa.Column(str, json_text(list), description="JSON list text, [] when absent."),
        "must_pass": pa.Column(bool, description="no_regression fails when this case is not right (false when absent)."),
    },
    checks=[
        pa.Check(_has_expected_table, name="in_scope_cases_name_a_table",
                 description="every in-scope case has an expected_table"),
    ],
    name="test_cases",
    description="The validated test cases, one row per case, in file order.",
    strict=True,
    ordered=True,
)

_RESPONSE = AGENT_RESPONSES.columns
_CASE = TEST_CASES.columns
CASE_SCORES = pa.DataFrameSchema(
    {
        "query_num": _count("The case's number, 1-based in file order.", at_least=1),
        "case_id": _RESPONSE["case_id"],
        "repeat": _RESPONSE["repeat"],
        "timestamp": pa.Column(str, description="When the run scored its answers (ISO 8601, one per run)."),
        "question": _CASE["question"],
        "category": pa.Column(str, description=_CASE["category"].description),
        "expected_table": _CASE["expected_table"],
        "status": _RESPONSE["status"],
        "sql": _RESPONSE["sql"],
        "dialect": _RESPONSE["dialect"],
        "data_rows": _RESPONSE["data_rows"],
        "insights": _RESPONSE["insights"],
        "error": _RESPONSE["error"],
        "latency_s": _RESPONSE["latency_s"],
        "cached": _RESPONSE["cached"],
        "prompt_tokens": _RESPONSE["prompt_tokens"],
        "completion_tokens": _RESPONSE["completion_tokens"],
        "result_digest": pa.Column(str, description="Order-blind digest of the result rows."),
        "sql_valid": pa.Column(int, _POINT, description="Retrieval point: SQL present and one read-only SELECT."),
        "table_match": pa.Column(int, _POINT, description="Retrieval point: the SQL reads the expected table."),
        "has_rows": pa.Column(int, _POINT, description="Retrieval point: the result has rows."),
        "retrieval_points": pa.Column(int, pa.Check.in_range(0, 3), description="The three retrieval points summed."),
        "retrieval_accuracy": pa.Column(
            int, _POINT, description="The seed's retrieval verdict: 2 of 3 points; out of scope, the refusal."
        ),
        "status_match": pa.Column(int, _POINT, description="Fidelity point: the text fits the status (an apology for a refusal)."),
        "arabic_text": pa.Column(int, _POINT, description="Fidelity point: the text is mostly Arabic."),
        "numbers_present": pa.Column(int, _POINT, description="Fidelity point: rows came back and the text has a digit."),
        "no_hallucination": pa.Column(int, _POINT, description="Fidelity point: no disclaimer, placeholder or ungrounded number."),
        "fidelity_points": pa.Column(int, pa.Check.in_range(0, 4), description="The four fidelity points summed."),
        "generation_fidelity": pa.Column(int, _POINT, description="The seed's fidelity verdict: 3 of 4 points."),
        "latency_tier": pa.Column(
            str,
            pa.Check(_latency_tier, name="latency_tier", description="a tier of LATENCY_TIERS"),
            description="The seed's latency tier, Excellent to Poor (LATENCY_TIERS).",
        ),
        "latency_score": pa.Column(
            float,
            pa.Check(_latency_score, name="latency_score", description="a score of LATENCY_TIERS"),
            description="The latency tier's score, 1.0 (Excellent) to 0.2 (Poor).",
        ),
        "execution_match": pa.Column(
            float, _MATCH, nullable=True, description="The result is the gold SQL's: 1.0/0.0, NaN when the case has no gold SQL."
        ),
        "ungrounded_numbers": pa.Column(str, json_text(list), description="JSON list of the numbers, as written, traced to nothing."),
        "hallucination_markers": pa.Column(str, json_text(list), description="JSON list of what marks a hallucination."),
        "claims_checked": _count("Claims of the insight checked against the rows its SQL returns."),
        "claims_contradicted": _count("Claims the rows contradict (a figure on the wrong row, a wrong superlative ...)."),
        "claim_details": pa.Column(
            str, json_text(list), description="JSON list of each claim: {claim, verdict (supported, contradicted, unsupported), why}."
        ),
        "false_refusal": pa.Column(bool, description="An in-scope case refused."),
        "false_answer": pa.Column(bool, description="An out-of-scope case answered."),
        "overall_passed": pa.Column(
            bool, description="The seed's verdict (retrieval and fidelity) with two hardenings: no error, no unsafe SQL."
        ),
        "unsafe_sql": pa.Column(bool, description="The SQL is not one read-only SELECT (never run)."),
        "sql_problem": pa.Column(str, nullable=True, description="Why the SQL is unsafe, or why it could not run here."),
        "rows_verified": pa.Column(
            "boolean", nullable=True, description="The re-run SQL returns the reported rows; NA when it could not run."
        ),
        "test_suite_match": pa.Column(
            float, _MATCH, nullable=True,
            description="Right on every test-suite database too: 1.0/0.0 (0.0 when it fails on one), NaN without gold SQL, suite or SQL that ran here.",
        ),
        "correct": pa.Column(bool, description="Our verdict, the gate's."),
        "not_correct_because": pa.Column(str, description='Why not Correct, the reasons joined by "; "; empty when correct.'),
        "error_location": pa.Column(
            str, description='Where a wrong answer goes wrong: "clause: detail; ..." (its SQL against the gold\'s, or the insight); empty when correct or not located.'
        ),
        "judge_verdict": pa.Column(
            str, pa.Check.isin(("supported", "unsupported")), nullable=True,
            description="The optional LLM judge (--judge): supported or unsupported; None when off, failed or not judged. Never decides Correct.",
        ),
        "judge_reason": pa.Column(
            str, nullable=True, description="The judge's reason (its untrusted text, scrubbed), or why it failed; None when off or not judged."
        ),
        "repeat_pass_share": _rate("Share of the case's repeats that passed (Overall Passed)."),
        "distinct_sql": _count("Distinct SQL texts over the case's repeats.", at_least=1),
        "distinct_results": _count("Distinct result sets over the case's repeats.", at_least=1),
    },
    checks=[
        pa.Check(_correct_needs_overall_passed, name="correct_needs_overall_passed",
                 description="a Correct answer also passes the seed's verdict"),
    ],
    name="case_scores",
    description="Each answer scored: one row per case and repeat, in file order.",
    strict=True,
    ordered=True,
)


EVALUATION_SUMMARY = pa.DataFrameSchema(
    {
        "scope": pa.Column(str, unique=True, description='"overall", then one row per category.'),
        "cases": _count("Distinct cases (the seed's Total Queries)."),
        "total": _count("Answers: cases x repeats.", trend=True),
        "passed": _count("Answers that passed the seed's verdict (Overall Passed).", trend=True),
        "failed": _count("Answers that did not.", trend=True),
        "pass_rate": _rate("The seed's pass rate (Overall Passed), a fraction 0..1.", trend=True),
        **_bounds("pass_rate"),
        "correct": _count("Correct answers (ours)."),
        "correct_rate": _rate("Correct answers, a fraction 0..1 (the gate's).", trend=True),
        **_bounds("correct_rate"),
        "avg_retrieval_accuracy": _rate("Mean retrieval accuracy.", trend=True),
        **_bounds("avg_retrieval_accuracy"),
        "avg_generation_fidelity": _rate("Mean generation fidelity.", trend=True),
        **_bounds("avg_generation_fidelity"),
        "avg_latency_score": _rate("Mean latency score."),
        "avg_latency": _seconds("Mean latency, seconds.", trend=True),
        "p50_latency": _seconds("Median latency, seconds.", trend=True),
        "p95_latency": _seconds("95th percentile latency, seconds.", trend=True),
        "execution_accuracy": _rate(
            "Execution match over the answers with gold SQL; NaN when no case has gold SQL.", trend=True, nullable=True
        ),
        **_bounds("execution_accuracy"),
        "execution_cases": _count("Answers whose case has gold SQL."),
        "test_suite_accuracy": _rate(
            "Test-suite match over the answers run there; NaN when none ran on the test-suite databases.",
            trend=True, nullable=True,
        ),
        **_bounds("test_suite_accuracy"),
        "test_suite_cases": _count("Answers run on the test-suite databases."),
        "errors": _count("Error answers.", trend=True),
        "unsafe_sql": _count("Answers whose SQL is not one read-only SELECT.", trend=True),
        "rows_not_verified": _count("Answers reporting rows their SQL does not return.", trend=True),
        "false_refusals": _count("In-scope cases refused.", trend=True),
        "false_answers": _count("Out-of-scope cases answered.", trend=True),
        "cached_answers": _count("Answers reused from the response cache."),
        "repeats": _count("Answers per case.", at_least=1),
        "pass_hat_n": _rate("Share of cases whose every repeat passed; NaN for single runs.", trend=True, nullable=True),
        **_bounds("pass_hat_n"),
        "total_tokens": pa.Column(
            float, nullable=True, description="Prompt + completion tokens; NaN when the agent reports none.",
            metadata=_trend(True),
        ),
        "judged": _count("Answers the optional LLM judge (--judge) gave a verdict on."),
        "judge_agreement": _rate(
            "Share of the judged answers where the judge's supported matches no contradicted claim; NaN when none judged.",
            nullable=True,
        ),
        **_bounds("judge_agreement"),
    },
    checks=[pa.Check(_overall_first, name="overall_first", description='the first row, and only it, is "overall"')],
    name="evaluation_summary",
    description='Totals, rates and latency percentiles: the "overall" row, then one row per category.',
    strict=True,
    ordered=True,
)

AGENT_COMPARISON = pa.DataFrameSchema(
    {
        "agent": pa.Column(str, unique=True, description="The agent's label (its partition)."),
        "cases": _count("Distinct cases of its evaluation."),
        "answers": _count("Answers: cases x repeats."),
        "correct": _count("Correct answers."),
        "correct_rate": _rate("Correct answers, a fraction 0..1."),
        **_bounds("correct_rate"),
        "pass_rate": _rate("The seed's pass rate (Overall Passed), a fraction 0..1."),
        **_bounds("pass_rate"),
        "execution_accuracy": _rate("Execution match over the answers with gold SQL; NaN without.", nullable=True),
        **_bounds("execution_accuracy"),
        "test_suite_accuracy": _rate("Test-suite match over the answers run there; NaN without.", nullable=True),
        **_bounds("test_suite_accuracy"),
        "p50_latency": _seconds("Median latency, seconds."),
        "p95_latency": _seconds("95th percentile latency, seconds."),
        "errors": _count("Error answers."),
        "unsafe_sql": _count("Answers whose SQL is not one read-only SELECT."),
        "total_tokens": pa.Column(float, nullable=True, description="Prompt + completion tokens; NaN when none reported."),
    },
    name="agent_comparison",
    description="The agents side by side: each one's overall figures on the same cases, one row per agent.",
    strict=True,
    ordered=True,
)

TEST_CASE_COLUMNS: tuple[str, ...] = tuple(TEST_CASES.columns)
CASE_SCORE_DTYPES: dict[str, str] = non_text_dtypes(CASE_SCORES)
SUMMARY_COLUMNS: tuple[str, ...] = tuple(EVALUATION_SUMMARY.columns)
SUMMARY_DTYPES: dict[str, str] = non_text_dtypes(EVALUATION_SUMMARY)
AGENT_COMPARISON_DTYPES: dict[str, str] = non_text_dtypes(AGENT_COMPARISON)
TREND_FIGURES: tuple[str, ...] = tuple(
    name for name, column in EVALUATION_SUMMARY.columns.items() if (column.metadata or {}).get("trend")
)

__all__ = [
    "AGENT_COMPARISON", "AGENT_COMPARISON_DTYPES", "AGENT_RESPONSES", "CASE_SCORES", "CASE_SCORE_DTYPES",
    "EVALUATION_SUMMARY", "SUMMARY_COLUMNS", "SUMMARY_DTYPES", "TEST_CASES", "TEST_CASE_COLUMNS",
    "TREND_FIGURES",
]
