"""Latency of the reference agent: every question of the agent suite, N times, on the default DB.

    python bench/bench_agent.py [--repeat N]

Prints p50 / p95 / max in milliseconds and the ratio of p95 to the 50 ms budget.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from nabahan_pipeline.reference_agent.agent import default_agent

BUDGET_MS = 50.0
SUITE = Path(__file__).resolve().parent.parent / "nabahan_pipeline_tests" / "data" / "agent_questions.json"


def main() -> None:
    """Run the suite ``--repeat`` times and print the latency figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="times each question is asked (default 5)")
    args = parser.parse_args()
    cases = json.loads(SUITE.read_text(encoding="utf-8"))
    agent = default_agent()
    agent.ask("كم مناقصة؟")  # build or open the database and load the lookup tables first
    timings: list[tuple[float, str]] = []
    for _ in range(max(1, args.repeat)):
        for case in cases:
            start = time.perf_counter()
            agent.ask(case["question"], case.get("filters"))
            timings.append(((time.perf_counter() - start) * 1000.0, case["question"]))
    values = sorted(ms for ms, _ in timings)
    p50 = statistics.median(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    slowest = max(timings)
    print(f"questions: {len(cases)} x {args.repeat} = {len(values)} calls")
    print(f"p50: {p50:.2f} ms   p95: {p95:.2f} ms   max: {slowest[0]:.2f} ms ({slowest[1]})")
    print(f"p95 / budget ({BUDGET_MS:.0f} ms): {p95 / BUDGET_MS:.2f}")


if __name__ == "__main__":
    main()
