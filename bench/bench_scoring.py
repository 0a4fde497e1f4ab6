"""Our CPU per answer, the agent aside: an instant in-process agent asked 1,000 and 10,000 cases,
then each answer's console verdict, scoring, and the table checks, as `nabahan eval` runs them.

Two agents: one gives every case the same answer (the issue's instant agent: what is left is our
own work per answer), the other a different SQL, insight and row for every case (the SQL is
parsed, and run on every database, once per answer: the work a real agent's answers cost).
Prints CPU ms per answer per stage, the total against the 0.25 ms budget, and time(10k)/time(1k).
Run: python bench/bench_scoring.py
"""

from __future__ import annotations

import re
import time

import pandas as pd

from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses, seed_verdict
from nabahan_pipeline.evaluation.tables import AGENT_RESPONSES, CASE_SCORES

SIZES = (1_000, 10_000)
BUDGET_MS = 0.25
QUESTIONS = [
    ("كم عدد المناقصات الكلي؟", "count"),
    ("كم عدد المناقصات في منطقة الرياض؟", "region_filter"),
    ("ما إجمالي القيمة التقديرية للمناقصات؟", "aggregation"),
    ("ما توزيع المناقصات حسب المنطقة؟", "distribution"),
    ("ما هي المناطق؟", "lookup"),
]
GOLD = "SELECT COUNT(*) FROM tenders_full_details"


class SameAnswerAgent:
    """Every case, the same answer at once."""

    spec = "bench:same"

    def ask(self, question: str, filters: dict | None = None) -> dict:
        return {
            "status": "success",
            "sql": "SELECT COUNT(*) AS n FROM tenders_full_details",
            "data": [{"n": 20000}],
            "insights": "بلغ عدد المناقصات في المنصة 20000 مناقصة وفق البيانات المتاحة حالياً.",
            "error": None,
        }

    def fingerprint(self) -> str:
        return self.spec


class DistinctAnswerAgent(SameAnswerAgent):
    """Every case its own SQL, row and insight, at once (the case's number is in its question)."""

    spec = "bench:distinct"

    def ask(self, question: str, filters: dict | None = None) -> dict:
        number = int(re.search(r"\d+", question).group())
        return {  # an index look-up: the query's own cost stays small beside ours
            "status": "success",
            "sql": f"SELECT COUNT(*) AS n FROM tenders_full_details WHERE tender_id = {number + 1}",
            "data": [{"n": 1}],
            "insights": f"توجد مناقصة واحدة رقمها {number + 1} في البيانات، أي 1 مناقصة فقط.",
            "error": None,
        }


def cases(n: int) -> pd.DataFrame:
    rows = []
    for i in range(n):
        question, category = QUESTIONS[i % len(QUESTIONS)]
        rows.append({"case_id": f"case-{i}", "question": f"{question} (رقم {i})", "category": category,
                     "expected_table": "tenders_full_details", "expected_response": None, "description": None,
                     "filters": None, "expected_sql": GOLD if i % 2 else None, "tags": "[]"})
    return pd.DataFrame(rows)


def cpu(stage: dict[str, float], name: str, work):  # noqa: ANN001, ANN201 - a timing helper
    started = time.process_time()
    result = work()
    stage[name] = time.process_time() - started
    return result


def measure(agent: SameAnswerAgent, n: int, database, suite) -> dict[str, float]:  # noqa: ANN001
    stage: dict[str, float] = {}
    table = cases(n)
    responses = cpu(stage, "agent calls", lambda: run_agent(table, agent, concurrency=8))
    records = table.to_dict("records")
    cpu(stage, "console verdict", lambda: [seed_verdict(case, row) for case, row in
                                           zip(records, responses.to_dict("records"))])
    scores = cpu(stage, "scoring", lambda: score_responses(table, responses, database, suite=suite))
    cpu(stage, "table checks", lambda: (AGENT_RESPONSES.validate(responses), CASE_SCORES.validate(scores)))
    return stage


def main() -> None:
    database, suite = ensure_database(), suite_databases(3)
    print(f"CPU ms per answer (budget for all our work: {BUDGET_MS} ms); machine load shows in every figure")
    for agent in (SameAnswerAgent(), DistinctAnswerAgent()):
        totals = {}
        for n in SIZES:
            stage = measure(agent, n, database, suite)
            totals[n] = sum(stage.values())
            parts = ", ".join(f"{name} {seconds / n * 1000:.3f}" for name, seconds in stage.items())
            print(f"{agent.spec:>15} {n:>6} answers: {totals[n] / n * 1000:.3f} ms "
                  f"({totals[n] / n * 1000 / BUDGET_MS:.2f} x budget) = {parts}")
        print(f"{agent.spec:>15} time(10k)/time(1k): {totals[SIZES[1]] / totals[SIZES[0]]:.1f}")


if __name__ == "__main__":
    main()
