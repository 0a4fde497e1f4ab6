"""The case file's check with and without the gold cache: a first run, a later run, no cache.

    .venv/bin/python bench/bench_gold_cache.py [--cases 2000] [--repeat 3]

The distinct suite (``eval_runs.write_cases``: the shipped 20 cases repeated, each copy with its own
gold SQL, 17 in 20 with gold SQL) checked on the evaluation database and 3 test-suite databases, in
this process, as `nabahan eval` checks it before its first call:

- without the cache: ``check_against_database`` (every gold SQL on every database: before issue 40);
- a first run: ``gold_cache.checked_golds`` in an empty home, then ``store_golds`` (as the run's
  test_cases step keeps them);
- a later run: ``checked_golds`` again in that home, the file and databases unchanged (no gold SQL).

Each is parsed from the file's bytes first (not timed: every run does it). Wall and CPU (this
process, both threads of the check), medians of ``--repeat``, and the cache file's size.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from eval_runs import write_cases

from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
from nabahan_pipeline.evaluation.cases import check_against_database, parse_test_cases, read_case_file
from nabahan_pipeline.evaluation.gold_cache import SUFFIX, checked_golds, store_golds


def timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    database, suite = ensure_database(), suite_databases(3)
    figures: dict[str, list[tuple[float, float]]] = {"without the cache": [], "a first run (cache written)": [],
                                                     "a later run (cache read)": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = write_cases(Path(tmp) / "cases.json", args.cases)
        data = read_case_file(path)
        sha256 = hashlib.sha256(data).hexdigest()
        cases = parse_test_cases(data, path)
        limits = {"timeout_s": 10.0, "max_rows": 1000}
        size = 0
        for index in range(args.repeat):
            home = Path(tmp) / f"home-{index}"

            def cached() -> object:
                golds, unkept = checked_golds(cases, path, sha256, database, suite, folder=home, **limits)
                if unkept is not None:
                    store_golds(unkept, golds)
                return golds

            figures["without the cache"].append(timed(lambda: check_against_database(cases, path, database, suite,
                                                                                    **limits)))
            figures["a first run (cache written)"].append(timed(cached))
            figures["a later run (cache read)"].append(timed(cached))
            size = sum(entry.stat().st_size for entry in home.glob(f"*{SUFFIX}"))
    print(f"{args.cases:,} cases ({len(cases):,}; gold SQL on 4 databases), medians of {args.repeat}: wall, CPU")
    for name, runs in figures.items():
        print(f"  {name:<30} {statistics.median(w for w, _ in runs):7.2f} s {statistics.median(c for _, c in runs):7.2f} s")
    print(f"  the cache file: {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
