"""Synthetic case_scores, summaries and history for tests and benchmarks: every column of
case_scores, its values holding together as ``scoring`` makes them (points add up to their
verdicts; Correct and why not from ``scoring.not_correct_reasons``, the latency tier from
``scoring.latency_tier``), summarized by the real ``summary.summarize``."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from nabahan_pipeline.evaluation.scoring.case_scores import CASE_SCORE_COLUMNS, DECLARED, REPEAT_COLUMNS
from nabahan_pipeline.evaluation.scoring.consistency import add_repeat_consistency, result_digest
from nabahan_pipeline.evaluation.scoring.hallucination import hallucination_markers
from nabahan_pipeline.evaluation.scoring.latency import latency_tier
from nabahan_pipeline.evaluation.scoring.verdicts import not_correct_reasons
from nabahan_pipeline.evaluation.intervals import wilson
from nabahan_pipeline.evaluation.case_table import CATEGORIES, OUT_OF_SCOPE
from nabahan_pipeline.evaluation.summary import SUMMARY_COLUMNS

__all__ = ["all_passed_scores", "fixed_summary", "make_history", "make_scores"]

_REGIONS = ("الرياض", "مكة المكرمة", "المنطقة الشرقية", "المدينة المنورة", "القصيم", "عسير", "تبوك",
            "حائل", "الجوف", "جازان", "نجران", "الباحة", "الحدود الشمالية")
_AGENCIES = ("وزارة الصحة", "وزارة التعليم", "وزارة النقل والخدمات اللوجستية", "أمانة منطقة الرياض",
             "وزارة الشؤون البلدية والقروية والإسكان", "الهيئة السعودية للبيانات والذكاء الاصطناعي")
# A short and a long question per category.
_TEMPLATES = {
    "count": ("كم عدد المناقصات في منطقة {r}؟",
              "كم عدد المناقصات المطروحة من {a} خلال عام {y} في منطقة {r}؟"),
    "region_filter": ("ما المناقصات المطروحة في منطقة {r}؟",
                      "اعرض المناقصات القائمة في منطقة {r} التي تزيد قيمتها على {v} مليون ريال"),
    "aggregation": ("ما إجمالي قيمة عقود {a}؟",
                    "ما متوسط قيمة المناقصات الترسية لدى {a} في الربع الثاني من عام {y}؟"),
    "distribution": ("ما توزيع المناقصات حسب المنطقة؟",
                     "كيف تتوزع المشاريع المستقبلية لـ{a} على المناطق والأنشطة في عام {y}؟"),
    "lookup": ("ما حالة المناقصة رقم {n}؟",
               "ما تفاصيل المناقصة رقم {n} المطروحة من {a} (SQL, PDF)؟"),
    "time_filter": ("ما المناقصات المطروحة في عام {y}؟",
                    "ما المناقصات التي ينتهي موعد تقديم عروضها قبل نهاية شهر رمضان {y}؟"),
    "value_filter": ("ما المناقصات التي تزيد قيمتها على {v} مليون ريال؟",
                     "ما المناقصات التي تتراوح قيمتها بين {v} و{v2} مليون ريال في منطقة {r}؟"),
    "out_of_scope": ("ما حالة الطقس في الرياض اليوم؟",
                     "اكتب لي قصيدة عن البحر والسفر والحنين إلى الوطن في عشرة أبيات"),
}
_TABLE = "tenders_full_details"
_RIGHT_SQL = f"SELECT COUNT(*) FROM {_TABLE}"
_WRONG_TABLE_SQL = "SELECT COUNT(*) FROM future_projects"
_ANSWER = "بلغ عدد المناقصات 120 مناقصة في منطقة الرياض."  # its rows are 120s: grounded
_NO_ROWS = "لم أجد مناقصات مطابقة لهذا السؤال في البيانات المتاحة."
_HEDGED = "كنموذج لغوي لا يمكنني تأكيد هذه المعلومات."  # a disclaimer, and no number
_REFUSAL = "عذراً، هذا السؤال خارج نطاق بيانات المنافسات الحكومية."
_TIMEOUT = "timeout after 30 s"


def make_scores(n: int, *, seed: int = 0, fail_share: float = 0.15, error_share: float = 0.01,
                gold_share: float = 0.6, wrong_share: float = 0.0, repeats: int = 1) -> pd.DataFrame:
    """A realistic case_scores table: ``n`` cases in the eight categories, each answered ``repeats`` times.

    About ``error_share`` of the answers are errors (half of them timeouts of 30 s) and
    ``fail_share`` fail the seed's checks: a hedged answer, the wrong table, no rows, an in-scope
    question refused, an out-of-scope one answered. Every other answer passes, and is Correct
    unless it is among the ``wrong_share`` of passes whose result differs from the gold's. About
    ``gold_share`` of the in-scope cases have gold SQL, checked on test-suite databases too.
    """
    rng = np.random.default_rng(seed)
    cases = []
    for q in range(1, n + 1):
        cat = CATEGORIES[(q - 1) % len(CATEGORIES)] if rng.random() < 0.7 else str(rng.choice(CATEGORIES))
        question = _TEMPLATES[cat][int(rng.random() < 0.4)].format(
            r=rng.choice(_REGIONS), a=rng.choice(_AGENCIES), y=int(rng.integers(2019, 2026)),
            v=int(rng.integers(1, 50)), v2=int(rng.integers(50, 500)), n=int(rng.integers(10**5, 10**6)),
        )
        has_gold = cat != OUT_OF_SCOPE and rng.random() < gold_share
        cases += [(q, rep, cat, question, has_gold) for rep in range(repeats)]
    m = len(cases)
    q, rep, cat, question, gold = (
        (np.array(column, dtype=object) for column in zip(*cases)) if m else (np.array([], dtype=object),) * 5
    )
    gold = gold.astype(bool)
    in_scope = cat != OUT_OF_SCOPE

    is_error = rng.random(m) < error_share
    is_fail = (rng.random(m) < fail_share) & ~is_error
    # In scope, a failure is now and then a refusal; out of scope, every answer but a failure is one.
    refused = np.where(in_scope, is_fail & (rng.random(m) < 0.1), ~is_fail) & ~is_error
    status = np.where(is_error, "error", np.where(refused, "out_of_scope", "success"))
    answered = status == "success"
    table_match = answered & in_scope & ~(is_fail & (rng.random(m) < 0.7))
    has_rows = answered & ~(is_fail & in_scope & (rng.random(m) < 0.6))
    retrieval_points = answered.astype(int) + table_match + has_rows
    retrieval_accuracy = np.where(in_scope, retrieval_points >= 2, refused)
    # A failure that still retrieved well fails on its text: hedged, without the numbers.
    hedged = answered & is_fail & ((retrieval_accuracy == 1) | (rng.random(m) < 0.5))
    insights = np.where(is_error, "", np.where(refused, _REFUSAL, np.where(
        hedged, _HEDGED, np.where(has_rows, _ANSWER, _NO_ROWS))))
    markers = {text: hallucination_markers(text, []) for text in (_ANSWER, _NO_ROWS, _HEDGED, _REFUSAL, "")}
    status_match = ~is_error
    arabic_text = ~is_error
    numbers_present = has_rows & ~hedged
    no_hallucination = np.array([not markers[text] for text in insights], dtype=bool)
    fidelity_points = status_match.astype(int) + arabic_text + numbers_present + no_hallucination
    generation_fidelity = fidelity_points >= 3
    overall_passed = (retrieval_accuracy == 1) & generation_fidelity & ~is_error

    wrong = overall_passed & gold & (rng.random(m) < wrong_share)
    execution_match = np.where(
        # The gold's result comes from the right table and rows: a retrieval that failed never has it.
        gold, np.where(answered & ~wrong & (overall_passed | ((rng.random(m) < 0.3) & (retrieval_accuracy == 1))),
                       1.0, 0.0), np.nan
    )
    # The test-suite databases see only SQL that ran (answers); right there means right here.
    test_suite_match = np.where(gold & answered, execution_match, np.nan)
    latency = np.where(is_error & (rng.random(m) < 0.5), 30.0 + rng.random(m),
                       rng.lognormal(mean=0.2, sigma=0.75, size=m))
    tiers = [latency_tier(float(seconds)) for seconds in latency]
    data_rows = np.where(has_rows, rng.integers(1, 200, m), 0)
    sql = np.where(answered, np.where(table_match | ~in_scope, _RIGHT_SQL, _WRONG_TABLE_SQL), None)

    # What this world draws, by column name; a column it does not name is drawn by its declaration.
    world = pd.DataFrame({
        "query_num": q.astype("int64"),
        "case_id": [f"case-{int(x):05d}" for x in q],
        "repeat": rep.astype("int64"),
        "timestamp": "2025-03-01T02:00:00+03:00",
        "question": question.astype(str),
        "category": cat.astype(str),
        "expected_table": np.where(in_scope, _TABLE, None),
        "status": status,
        "sql": sql,
        "dialect": np.where(answered, "sqlite", None),
        "data_rows": data_rows.astype("int64"),
        "insights": insights,
        "error": np.where(is_error, _TIMEOUT, None),
        "latency_s": latency.astype(float),
        "cached": False,
        "prompt_tokens": np.nan,
        "completion_tokens": np.nan,
        "result_digest": [result_digest([(int(rows),)]) for rows in data_rows],
        "sql_valid": answered.astype("int64"),
        "table_match": table_match.astype("int64"),
        "has_rows": has_rows.astype("int64"),
        "retrieval_points": retrieval_points.astype("int64"),
        "retrieval_accuracy": retrieval_accuracy.astype("int64"),
        "status_match": status_match.astype("int64"),
        "arabic_text": arabic_text.astype("int64"),
        "numbers_present": numbers_present.astype("int64"),
        "no_hallucination": no_hallucination.astype("int64"),
        "fidelity_points": fidelity_points.astype("int64"),
        "generation_fidelity": generation_fidelity.astype("int64"),
        "latency_tier": [tier for tier, _ in tiers],
        "latency_score": np.array([score for _, score in tiers], dtype=float),
        "execution_match": execution_match,
        "hallucination_markers": [json.dumps(markers[text], ensure_ascii=False) for text in insights],
        "false_refusal": in_scope & (status == "out_of_scope"),
        "false_answer": ~in_scope & answered,
        "overall_passed": overall_passed,
        "unsafe_sql": False,
        "sql_problem": None,
        "rows_verified": pd.array(np.where(answered, True, None), dtype="boolean"),
        "test_suite_match": test_suite_match,
    })
    reasons = [
        not_correct_reasons(row, status=row["status"], in_scope=row["category"] != OUT_OF_SCOPE,
                            error=row["error"], ungrounded=[])
        for row in world.to_dict("records")
    ]
    world["correct"] = np.array([not r for r in reasons], dtype=bool)
    world["not_correct_because"] = ["; ".join(r) for r in reasons]
    world["error_location"] = _error_locations(world, gold, rng)
    world["judge_verdict"] = world["judge_reason"] = None  # no LLM judge
    return add_repeat_consistency(drawn_table(world))[[*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS]]


def drawn_table(world: pd.DataFrame) -> pd.DataFrame:
    """case_scores' columns but the repeats', in its order: each the world's column of its name, or
    else drawn from the world by its declaration (``Column.draw``); a column neither names fails."""
    missing = [name for name in CASE_SCORE_COLUMNS if name not in world and DECLARED[name].draw is None]
    if missing:
        raise ValueError(f"synthetic scores: no draw for {', '.join(missing)} (declare Column.draw)")
    return pd.DataFrame({name: world[name] if name in world else DECLARED[name].draw(world)
                         for name in CASE_SCORE_COLUMNS}, index=world.index)


# Wrong answers' locations as a run finds them, a wrong table's first (drawn after every other
# column, so that those are the same with or without this one).
_LOCATIONS = (
    "where: missing condition status_id = 1",
    "literal: region_id = 2 where the gold has region_id = 1",
    "date window: STRFTIME('%Y', publish_date) = '2023' where the gold has STRFTIME('%Y', publish_date) = '2024'",
    "aggregation: AVG(estimated_value) where the gold has SUM(estimated_value)",
    "group by: region_name where the gold groups by region_id",
    "order by: COUNT(*) ASC where the gold orders by COUNT(*) DESC",
    "insight: جدة 1,204: the row says 860",
)


def _error_locations(table: pd.DataFrame, gold: np.ndarray, rng: np.random.Generator) -> list[str]:
    picks = rng.integers(0, len(_LOCATIONS), len(table))
    locations = []
    for row, has_gold, pick in zip(table.to_dict("records"), gold, picks):
        if row["correct"] or not has_gold or row["status"] != "success" or row["category"] == OUT_OF_SCOPE:
            locations.append("")
        elif row["sql"] == _WRONG_TABLE_SQL:
            locations.append("tables: reads future_projects where the gold reads tenders_full_details")
        else:
            locations.append(_LOCATIONS[int(pick)])
    return locations


def all_passed_scores(n: int = 20) -> pd.DataFrame:
    """Like a small real run against the reference agent: every case passed and Correct, answers
    in milliseconds (the last one in 0.04 ms)."""
    scores = make_scores(n, seed=3, fail_share=0.0, error_share=0.0)
    scores["latency_s"] = np.random.default_rng(0).lognormal(np.log(0.01), 0.8, len(scores))
    scores.loc[scores.index[-1], "latency_s"] = 0.00004
    tiers = [latency_tier(seconds) for seconds in scores["latency_s"]]
    scores["latency_tier"] = [tier for tier, _ in tiers]
    scores["latency_score"] = [score for _, score in tiers]
    return scores


def make_history(n_runs: int, *, seed: int = 1, exec_nan: bool = False, correct: bool = True) -> pd.DataFrame:
    """``n_runs`` daily runs, oldest first, as orchestration.history.summary_history returns them:
    run_label ("MM-DD HH:MM" and the run's label), timestamp (UTC) and the trend figures.
    ``correct=False``: runs recorded before the Correct verdict (correct_rate NaN)."""
    rng = np.random.default_rng(seed)
    moments = pd.date_range("2025-01-01 02:00", periods=n_runs, freq="D", tz="UTC")
    pass_rate = np.clip(0.7 + np.cumsum(rng.normal(0.005, 0.02, n_runs)), 0, 1)
    execution_accuracy = np.nan if exec_nan else np.clip(0.6 + rng.normal(0, 0.05, n_runs), 0, 1)
    p95_latency = np.abs(3 + rng.normal(0, 0.8, n_runs))
    correct_rate = np.clip(pass_rate - np.abs(rng.normal(0.05, 0.02, n_runs)), 0, 1) if correct else np.nan
    return pd.DataFrame({
        "run_label": [f"{moment:%m-%d %H:%M} embedded · test_cases.json" for moment in moments],
        "timestamp": [moment.isoformat() for moment in moments],
        "correct_rate": correct_rate,
        "pass_rate": pass_rate,
        "execution_accuracy": execution_accuracy,
        "p95_latency": p95_latency,
    })


def fixed_summary() -> pd.DataFrame:
    """An evaluation_summary with every column summarize writes and round numbers written by hand,
    for checking what the charts print: 1,000 cases, 812 passed (7 errors among the 188 failed),
    790 Correct, retrieval 90%, fidelity 85.67%, P50 1.234 s, P95 4.5678 s, no gold SQL; two
    categories, count (450 of 600 passed) and out_of_scope (362 of 400); the pass and Correct
    rates' Wilson intervals, the other intervals NaN."""
    nan = math.nan
    base = {"avg_latency_score": 0.9, "avg_latency": 1.1, "execution_accuracy": nan, "execution_cases": 0,
            "test_suite_accuracy": nan, "test_suite_cases": 0, "unsafe_sql": 0, "rows_not_verified": 0,
            "cached_answers": 0, "repeats": 1, "pass_hat_n": nan, "total_tokens": nan, "judged": 0,
            "judge_agreement": nan}
    rows = [
        {**base, "scope": "overall", "cases": 1000, "total": 1000, "passed": 812, "failed": 188,
         "pass_rate": 0.812, "correct": 790, "correct_rate": 0.79, "avg_retrieval_accuracy": 0.9,
         "avg_generation_fidelity": 0.8567, "p50_latency": 1.234, "p95_latency": 4.5678, "errors": 7,
         "false_refusals": 2, "false_answers": 1},
        {**base, "scope": "count", "cases": 600, "total": 600, "passed": 450, "failed": 150,
         "pass_rate": 0.75, "correct": 430, "correct_rate": 430 / 600, "avg_retrieval_accuracy": 0.8,
         "avg_generation_fidelity": 0.8, "p50_latency": 1.0, "p95_latency": 4.0, "errors": 5,
         "false_refusals": 2, "false_answers": 0},
        {**base, "scope": "out_of_scope", "cases": 400, "total": 400, "passed": 362, "failed": 38,
         "pass_rate": 0.905, "correct": 360, "correct_rate": 0.9, "avg_retrieval_accuracy": 0.95,
         "avg_generation_fidelity": 0.95, "p50_latency": 0.5, "p95_latency": 2.0, "errors": 2,
         "false_refusals": 0, "false_answers": 1},
    ]
    for row in rows:  # the intervals summarize would give these counts
        for rate, count in (("pass_rate", "passed"), ("correct_rate", "correct")):
            row[f"{rate}_low"], row[f"{rate}_high"] = wilson(row[count], row["total"])
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
