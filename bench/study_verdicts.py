"""How many wrong answers execution match accepts on one database, and how many the test suite
catches; what the test-suite databases cost. The figures of docs/verdict_study.md.

    .venv/bin/python bench/study_verdicts.py            # K = 3 (the default) and the K curve

Wrong answers come from two sources: near-miss SQL written by hand for realistic mistakes (each
with a note), and mutants of the shipped suite's gold SQL made with sqlglot (an operator flipped, a
condition dropped or added, an aggregate or sort direction swapped, a LIMIT moved). Right answers
written differently (equivalent SQL) measure false alarms: the test suite must accept them all.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from sqlglot import exp, parse_one

from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
from nabahan_pipeline.evaluation.agent_sql import QueryRunner, check_agent_sql
from nabahan_pipeline.evaluation.execution_match import result_matches
from nabahan_pipeline.settings import SHIPPED_TEST_CASES

T = "tenders_full_details"
# (gold, near miss, the mistake)
NEAR_MISSES = [
    (f"SELECT region_name FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id ORDER BY SUM(estimated_value) DESC LIMIT 1",
     f"SELECT region_name FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id ORDER BY COUNT(*) DESC LIMIT 1",
     "top region by count, asked by value"),
    (f"SELECT agency_name FROM {T} GROUP BY agency_id ORDER BY COUNT(*) DESC LIMIT 1",
     f"SELECT agency_name FROM {T} GROUP BY agency_id ORDER BY SUM(estimated_value) DESC LIMIT 1",
     "top agency by value, asked by count"),
    (f"SELECT activity_name FROM {T} GROUP BY activity_id ORDER BY COUNT(*) DESC LIMIT 3",
     f"SELECT activity_name FROM {T} WHERE region_id IS NOT NULL GROUP BY activity_id ORDER BY COUNT(*) DESC LIMIT 3",
     "tenders without a region dropped"),
    (f"SELECT MAX(bids_count) FROM {T}",
     f"SELECT MAX(bids_count) FROM {T} WHERE status_id = 4",
     "awarded tenders only"),
    (f"SELECT COUNT(*) FROM {T} WHERE estimated_value > 1000000",
     f"SELECT COUNT(*) FROM {T} WHERE estimated_value >= 1000000",
     "> written >="),
    (f"SELECT COUNT(*) FROM {T} WHERE bids_count = 1",
     f"SELECT COUNT(*) FROM {T} WHERE bids_count <= 1",
     "single bid read as at most one"),
    (f"SELECT SUM(estimated_value) FROM {T} WHERE region_id = 1",
     f"SELECT SUM(estimated_value) FROM {T} WHERE region_id = 1 AND estimated_value > 300",
     "the smallest tenders dropped"),
    (f"SELECT AVG(estimated_value) FROM {T} WHERE tender_type_id = 1",
     f"SELECT AVG(estimated_value) FROM {T} WHERE tender_type_id = 1 AND status_id <> 5",
     "cancelled tenders left out"),
    (f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', publish_date) = '2024'",
     f"SELECT COUNT(*) FROM {T} WHERE publish_date BETWEEN '2024-01-01' AND '2024-12-30'",
     "year range one day short"),
    (f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', publish_date) = '2024'",
     f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', last_offer_date) = '2024'",
     "deadline year for publish year"),
    (f"SELECT region_name, COUNT(*) FROM {T} WHERE status_id = 1 GROUP BY region_id",
     f"SELECT region_name, COUNT(*) FROM {T} WHERE status_id = 1 AND region_id IS NOT NULL GROUP BY region_id",
     "the no-region group dropped"),
    (f"SELECT COUNT(*) FROM {T} WHERE agency_id IN (SELECT agency_id FROM government_agencies WHERE region_id = 1)",
     f"SELECT COUNT(*) FROM {T} WHERE region_id = 1",
     "tender region for agency region"),
    (f"SELECT tender_type_name, SUM(awarded_value) FROM {T} GROUP BY tender_type_id",
     f"SELECT tender_type_name, SUM(estimated_value) FROM {T} WHERE awarded_value IS NOT NULL GROUP BY tender_type_id",
     "estimated value of awarded tenders for awarded value"),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 AND status_id = 1",
     f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 OR status_id = 1",
     "OR for AND"),
    (f"SELECT agency_name, COUNT(*) AS n FROM {T} WHERE region_id = 6 GROUP BY agency_id ORDER BY n DESC LIMIT 3",
     f"SELECT agency_name, COUNT(*) AS n FROM {T} WHERE region_id = 6 GROUP BY agency_name ORDER BY n DESC LIMIT 3",
     "grouped by a name that two agencies share"),
    ("SELECT COUNT(*) FROM future_projects WHERE expected_offering_date < '2027-07-01'",
     "SELECT COUNT(*) FROM future_projects WHERE expected_offering_date <= '2027-07-01'",
     "< written <= on a date"),
]
# (gold, the same answer written differently)
EQUIVALENTS = [
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1",
     f"SELECT COUNT(tender_id) FROM {T} WHERE region_name = 'منطقة الرياض'"),
    (f"SELECT COUNT(*) FROM {T} WHERE status_id = 1",
     f"SELECT COUNT(*) FROM {T} t JOIN tender_statuses s ON s.status_id = t.status_id WHERE s.name_en LIKE 'active%'"),
    (f"SELECT tender_type_name, COUNT(*) FROM {T} GROUP BY tender_type_id",
     f"SELECT COUNT(*) AS n, tender_type_name FROM {T} GROUP BY tender_type_name"),
    (f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_id ORDER BY n DESC LIMIT 5",
     f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_id ORDER BY n DESC, agency_name DESC LIMIT 5"),
    (f"SELECT activity_name, COUNT(*) AS n FROM {T} WHERE region_id = 12 GROUP BY activity_id ORDER BY n DESC LIMIT 3",
     f"SELECT activity_name, COUNT(*) AS n FROM {T} WHERE region_id = 12 GROUP BY activity_id ORDER BY n DESC, activity_id DESC LIMIT 3"),
    (f"SELECT region_name, SUM(estimated_value) AS v FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id ORDER BY v DESC",
     f"SELECT r.name_ar, ROUND(SUM(t.estimated_value), 2) FROM {T} t JOIN regions r ON r.region_id = t.region_id GROUP BY r.region_id ORDER BY 2 DESC"),
    (f"SELECT AVG(estimated_value) FROM {T}",
     f"SELECT ROUND(SUM(estimated_value) / COUNT(*), 2) FROM {T}"),
    (f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', publish_date) = '2024'",
     f"SELECT COUNT(*) FROM {T} WHERE publish_date >= '2024-01-01' AND publish_date < '2025-01-01'"),
    ("SELECT name_ar FROM regions ORDER BY region_id",
     "SELECT DISTINCT r.name_ar, r.region_id FROM regions r ORDER BY r.region_id"),
    (f"SELECT MAX(bids_count) FROM {T}",
     f"SELECT bids_count FROM {T} WHERE bids_count IS NOT NULL ORDER BY bids_count DESC LIMIT 1"),
    ("SELECT g.name_ar, r.name_ar FROM government_agencies g JOIN regions r ON r.region_id = g.region_id",
     "SELECT g.name_ar AS agency, r.name_ar AS region FROM regions r JOIN government_agencies g USING (region_id)"),
]


def mutants(sql: str) -> list[tuple[str, str]]:
    """Single-edit mutants of ``sql`` as (SQL, what changed); syntax errors are left out."""
    tree = parse_one(sql, read="sqlite")
    found: list[tuple[str, str]] = []

    def mutate(label: str, change) -> None:
        copy = tree.copy()
        if change(copy):
            text = copy.sql(dialect="sqlite")
            if text != sql:
                found.append((text, label))

    flips = {exp.GT: exp.GTE, exp.GTE: exp.GT, exp.LT: exp.LTE, exp.LTE: exp.LT}
    for index, node in enumerate(n for n in tree.walk() if type(n) in flips):

        def flip(copy, index=index):
            target = [n for n in copy.walk() if type(n) in flips][index]
            target.replace(flips[type(target)](this=target.this.copy(), expression=target.expression.copy()))
            return True

        mutate(f"{type(node).__name__} flipped", flip)
    where = tree.find(exp.Where)
    if where is not None and isinstance(where.this, exp.And):
        for side in ("this", "expression"):
            mutate(f"a condition dropped ({side})", lambda c, s=side: bool(c.find(exp.Where).this.replace(c.find(exp.Where).this.args[s].copy())))
    for extra in ("region_id IS NOT NULL", "bids_count IS NOT NULL", "status_id <> 5", "estimated_value > 1000"):
        mutate(f"condition added: {extra}", lambda c, e=extra: bool(c.where(e, copy=False)) if isinstance(c, exp.Select) else False)
    swaps = {exp.Sum: exp.Avg, exp.Avg: exp.Sum, exp.Max: exp.Min, exp.Min: exp.Max}
    for kind, other in swaps.items():
        if tree.find(kind):
            mutate(f"{kind.__name__} for {other.__name__}", lambda c, k=kind, o=other: bool(c.find(k).replace(o(this=c.find(k).this.copy()))))
    if tree.find(exp.Count) and isinstance(tree.find(exp.Count).this, exp.Star):
        for column in ("region_id", "bids_count", "awarded_value"):
            mutate(f"COUNT({column}) for COUNT(*)", lambda c, col=column: bool(c.find(exp.Count).set("this", exp.column(col)) or True))
    if tree.find(exp.Ordered):
        mutate("sort direction reversed", lambda c: bool(c.find(exp.Ordered).set("desc", not c.find(exp.Ordered).args.get("desc")) or True))
    limit = tree.args.get("limit")
    if limit is not None and isinstance(limit.expression, exp.Literal):
        n = int(limit.expression.name)
        mutate("LIMIT + 1", lambda c: bool(c.args["limit"].set("expression", exp.Literal.number(n + 1)) or True))
    if "estimated_value" in sql:
        mutate("awarded_value for estimated_value", lambda c: bool(c.transform(lambda n: exp.column("awarded_value") if isinstance(n, exp.Column) and n.name == "estimated_value" else n, copy=False)) or True)
    return found


def verdicts(runner: QueryRunner, gold: str, agent: str) -> list[bool | None]:
    """Match of the agent's rows against the gold's on each database (None: the agent SQL failed)."""
    expected = runner.expected(gold)
    runs = runner.agent_runs(check_agent_sql(agent))
    return [result_matches(run.result.rows, e) if run.result is not None else None for e, run in zip(expected, runs)]


def tolerance_figures(database: Path) -> None:
    """Summation-order noise against the smallest change a one-row filter mistake makes, over every
    group-by sum and average of the money columns: what the numeric tolerance must sit between."""
    import math
    import random
    import sqlite3

    connection = sqlite3.connect(database)
    rng = random.Random(0)
    noise, smallest_drop, hidden, pairs = 0.0, math.inf, 0, 0
    groups = ("'all'", "region_id", "tender_type_id", "status_id", "agency_id", "activity_id", "strftime('%Y', publish_date)")
    for column in ("estimated_value", "awarded_value", "booklet_price"):
        for group in groups:
            query = f"SELECT SUM({column}), group_concat({column}) FROM {T} GROUP BY {group}"
            for total, values in connection.execute(query):
                if not values or not total:
                    continue
                xs = [float(v) for v in values.split(",")]
                exact = math.fsum(xs)
                for _ in range(3):
                    rng.shuffle(xs)
                    naive = 0.0
                    for x in xs:
                        naive += x
                    noise = max(noise, abs(naive - exact) / abs(exact), abs(total - exact) / abs(exact))
                nonzero = [abs(x) for x in xs if x]
                if nonzero:
                    smallest_drop = min(smallest_drop, min(nonzero) / abs(exact))
                if len(xs) > 1:
                    mean = exact / len(xs)
                    # Dropping row x moves the average by (mean - x) / (n - 1).
                    hidden += sum(1 for x in xs if abs(mean - x) / (len(xs) - 1) <= 0.005)
                    pairs += len(xs)
    connection.close()
    print("Numeric tolerance, measured on the evaluation database:")
    print(f"  summation-order noise, worst relative: {noise:.2e}")
    print(f"  smallest relative change of a sum when a filter drops one row: {smallest_drop:.2e}")
    print(f"  one-row drops that move an average by at most 0.005 (hidden by rounding to 2 decimals): "
          f"{hidden} of {pairs:,} ({hidden / pairs:.3%})")


def main() -> None:
    database = ensure_database()
    tolerance_figures(database)
    started = time.perf_counter()
    suite = suite_databases(10)
    print(f"10 test-suite databases ready in {time.perf_counter() - started:.2f} s (built once, then cached)")
    runner = QueryRunner(database, suite)
    shipped = [case for case in json.loads(SHIPPED_TEST_CASES.read_text(encoding="utf-8")) if case.get("expected_sql")]
    wrong = [(g, a, note) for g, a, note in NEAR_MISSES]
    for case in shipped:
        wrong += [(case["expected_sql"], sql, f"{case['id']}: {label}") for sql, label in mutants(case["expected_sql"])]

    def report(title: str, pairs: list[tuple[str, str, str]], show: bool) -> dict[int, int]:
        results = [(note, verdicts(runner, gold, agent)) for gold, agent, note in pairs]
        ran = [(note, r) for note, r in results if None not in r]
        accepted_main = [(note, r) for note, r in ran if r[0]]
        print(f"\n{title}: {len(pairs)} pairs, {len(ran)} ran on every database")
        print(f"  single-database execution match accepts {len(accepted_main)} of {len(ran)}")
        caught = {}
        for k in (1, 2, 3, 5, 10):
            caught[k] = sum(1 for _, r in accepted_main if not all(r[: k + 1]))
            print(f"  test suite with K={k:<2} catches {caught[k]} of those {len(accepted_main)}")
        if show:
            for note, r in accepted_main:
                marks = "".join("." if ok else "x" for ok in r)
                print(f"    {marks}  {note}")
        return caught

    report("Hand-written near misses", wrong[: len(NEAR_MISSES)], show=True)
    report(f"Mutants of the shipped suite's {len(shipped)} gold queries", wrong[len(NEAR_MISSES) :], show=False)
    false_alarms = [(gold, agent) for gold, agent in EQUIVALENTS if not all(verdicts(runner, gold, agent))]
    print(f"\nEquivalent rewrites: {len(EQUIVALENTS)} pairs, {len(false_alarms)} rejected on some database (false alarms)")
    for gold, agent in false_alarms:
        print(f"    rejected: {agent}")

    print("\nCost of K: scoring the shipped suite's answers (gold and agent SQL on 1 + K databases)")
    from nabahan_pipeline.agents.runner import run_agent
    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
    from nabahan_pipeline.evaluation.cases import load_test_cases

    cases = load_test_cases(SHIPPED_TEST_CASES)
    responses = run_agent(cases, resolve_agent("embedded"))
    baseline = None
    for k in (0, 1, 3, 5, 10):
        best = min(_timed(lambda: score_responses(cases, responses, database, suite=suite[:k])) for _ in range(5))
        baseline = baseline or best
        print(f"  K={k:<2} {best * 1000:7.1f} ms per run of 20 cases ({best / baseline:.2f}x K=0)")


def _timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
