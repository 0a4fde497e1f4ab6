"""Latency of the reference agent: every question of a suite, N times, on the default DB; with
--suite, also how well it answers that suite.

    python bench/bench_agent.py [--repeat N] [--suite PATH [--show-failures]]

Prints p50 / p95 / max in milliseconds and the ratio of p95 to the 50 ms budget. Without --suite
the suite is the agent's own (nabahan_pipeline_tests/data/agent_questions.json) and that is all.
With --suite PATH (a case file with gold SQL, e.g. data/fresh_questions.json) it also prints the
execution match in scope (as the pipeline scores it: tie-aware, on the default database), the
out-of-scope questions refused, the in-scope questions answered wrongly with status success, a
breakdown by each case's "kind" (its category when it has none), and the failing ids;
--show-failures adds each failure's question and the agent's SQL.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.evaluation.execution_match import execution_match, expected_result
from nabahan_pipeline.evaluation.tables import OUT_OF_SCOPE
from nabahan_pipeline.reference_agent.agent import default_agent

BUDGET_MS = 50.0
SUITE = Path(__file__).resolve().parent.parent / "nabahan_pipeline_tests" / "data" / "agent_questions.json"


def main() -> None:
    """Run the suite ``--repeat`` times and print the latency figures (and, with --suite, the scores)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="times each question is asked (default 5)")
    parser.add_argument("--suite", type=Path, help="a case file to time and score (default: time the agent suite only)")
    parser.add_argument("--show-failures", action="store_true", help="with --suite: each failure's question and SQL")
    args = parser.parse_args()
    cases = json.loads((args.suite or SUITE).read_text(encoding="utf-8"))
    agent = default_agent()
    agent.ask("كم مناقصة؟")  # build or open the database and load the lookup tables first
    timings: list[tuple[float, str]] = []
    answers: list[dict[str, Any]] = []
    for repeat in range(max(1, args.repeat)):
        for case in cases:
            start = time.perf_counter()
            answer = agent.ask(case["question"], case.get("filters"))
            timings.append(((time.perf_counter() - start) * 1000.0, case["question"]))
            if repeat == 0:
                answers.append(answer)
    values = sorted(ms for ms, _ in timings)
    p50 = statistics.median(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    slowest = max(timings)
    print(f"questions: {len(cases)} x {args.repeat} = {len(values)} calls")
    print(f"p50: {p50:.2f} ms   p95: {p95:.2f} ms   max: {slowest[0]:.2f} ms ({slowest[1]})")
    print(f"p95 / budget ({BUDGET_MS:.0f} ms): {p95 / BUDGET_MS:.2f}")
    if args.suite is not None:
        verdicts = [verdict(case, answer) for case, answer in zip(cases, answers)]
        print_scores(cases, answers, verdicts, show_failures=args.show_failures)


def verdict(case: dict[str, Any], answer: dict[str, Any]) -> str:
    """One answer judged: "match", "wrong" (in scope, success, other rows), "refused" (in scope),
    "error", "refusal" (out of scope, refused) or "answered" (out of scope, not refused)."""
    status = answer["status"]
    if case["category"] == OUT_OF_SCOPE:
        return "refusal" if status == "out_of_scope" else "answered"
    if status == "out_of_scope":
        return "refused"
    if status != "success":
        return "error"
    gold_sql = case["expected_sql"]
    gold = expected_result(ensure_database(), gold_sql)
    return "match" if execution_match(answer["rows"], gold, gold_sql) else "wrong"


def print_scores(cases: list[dict], answers: list[dict], verdicts: list[str], *, show_failures: bool) -> None:
    """The suite's figures: totals, one line per kind, the failing ids."""
    total = Counter(verdicts)
    in_scope = sum(case["category"] != OUT_OF_SCOPE for case in cases)
    out_of_scope = len(cases) - in_scope
    print()
    print(f"execution match in scope: {total['match']}/{in_scope} ({_pct(total['match'], in_scope)})")
    print(f"  wrong answers returned as success: {total['wrong']}   refused: {total['refused']}   errors: {total['error']}")
    print(f"out of scope refused: {total['refusal']}/{out_of_scope} ({_pct(total['refusal'], out_of_scope)})")
    by_kind: dict[str, Counter] = defaultdict(Counter)
    for case, outcome in zip(cases, verdicts):
        by_kind[case.get("kind") or case["category"]][outcome] += 1
    print()
    print(f"{'kind':<22}{'cases':>6}{'right':>7}{'share':>7}{'wrong':>7}{'refused':>9}{'errors':>8}{'answered':>10}")
    for kind, counts in sorted(by_kind.items(), key=lambda item: -sum(item[1].values())):
        n = sum(counts.values())
        right = counts["match"] + counts["refusal"]
        print(
            f"{kind:<22}{n:>6}{right:>7}{_pct(right, n):>7}{counts['wrong']:>7}{counts['refused']:>9}"
            f"{counts['error']:>8}{counts['answered']:>10}"
        )
    print()
    for outcome in ("wrong", "refused", "error", "answered"):
        ids = [case["id"] for case, v in zip(cases, verdicts) if v == outcome]
        print(f"{outcome} ({len(ids)}): {' '.join(ids) if ids else '-'}")
    if show_failures:
        print()
        for case, answer, outcome in zip(cases, answers, verdicts):
            if outcome not in ("match", "refusal"):
                print(f"[{outcome}] {case['id']}: {case['question']}")
                print(f"    agent: {answer['sql'] or answer['insights'][:160]}")
                if case["expected_sql"]:
                    print(f"    gold:  {case['expected_sql']}")


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "-"


if __name__ == "__main__":
    main()
