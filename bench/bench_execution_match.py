"""Time execution match on large results: 10,000 rows x 10 columns, the agent's columns permuted
and renamed, an extra column, rows shuffled (the case the column matching and multiset compare
must do in near-linear time).

    .venv/bin/python bench/bench_execution_match.py [--rows 10000] [--repeat 5]

The ideal is the floor of any order-insensitive comparison of two row lists: sorting both once.
Issue 14 sets no target here; the ratio shows what the column matching and the numeric tolerance
cost above that floor (a quadratic pairing of 10,000 rows would be thousands of times it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from nabahan_pipeline.evaluation.execution_match import rows_match

def _results(n: int) -> tuple[list[tuple], list[dict]]:
    rng = random.Random(7)
    gold = [tuple(rng.randint(1, 30) if c % 2 else rng.random() * 1e6 for c in range(10)) for _ in range(n)]
    permutation = [3, 1, 4, 0, 2, 9, 8, 7, 6, 5]
    agent = [{f"c{j}": row[c] for j, c in enumerate(permutation)} | {"extra": 1} for row in gold]
    rng.shuffle(agent)
    return gold, agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    gold, agent = _results(args.rows)
    columns = [f"g{i}" for i in range(10)]
    agent_tuples = [tuple(row.values()) for row in agent]

    matches, floors = [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        assert rows_match(agent, columns, gold, ordered=False)
        matches.append(time.perf_counter() - started)
        started = time.perf_counter()
        sorted(gold), sorted(agent_tuples)
        floors.append(time.perf_counter() - started)
    wrong = [dict(row) for row in agent]
    wrong[17]["c5"] *= 1.001
    started = time.perf_counter()
    assert not rows_match(wrong, columns, gold, ordered=False)
    mismatch = time.perf_counter() - started

    match_s, floor_s = statistics.median(matches), statistics.median(floors)
    ratio = match_s / floor_s
    print(f"{args.rows:,} rows x 10 columns, permuted, renamed, shuffled (median of {args.repeat})")
    print(f"  match                          {match_s * 1000:9.1f} ms")
    print(f"  one cell off by 0.1% (no match) {mismatch * 1000:8.1f} ms")
    print(f"  ideal: sort both row lists     {floor_s * 1000:9.1f} ms")
    print(f"  match / ideal                  {ratio:9.1f} x")


if __name__ == "__main__":
    main()
