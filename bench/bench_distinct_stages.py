"""The distinct suite's stages in one process: where a real suite's time per case goes.

    .venv/bin/python bench/bench_distinct_stages.py [--cases 5000] [--repeat 1]

The cases are ``bench_scale.py``'s distinct suite (``eval_runs.write_cases``: every copy its own
question, gold SQL and answer), on the default evaluation database and 3 test-suite databases.
Each stage of a run is called on its own, in order, and timed (wall, and CPU of all threads):

- the case file loaded and validated (every gold SQL parsed);
- its gold SQL checked on the 4 databases (``check_against_database``, two threads);
- the instant agent asked every case, the console's block made for each answer (the seed's verdict);
- case_scores of those answers (the agent's SQL re-run);
- case_scores of right answers whose SQL costs what the gold's does (a real agent's).

With ``--repeat`` the stages run again on fresh copies (nothing kept from the last: other numbers
in the questions and SQL) and the run of median CPU is shown per stage. Not a target of issue 14
by itself: it says which stage a change moved.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from eval_runs import INSTANT_AGENT, write_cases

from nabahan_pipeline import console
from nabahan_pipeline.agents.registry import resolve_agent
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
from nabahan_pipeline.evaluation.cases import check_against_database, load_test_cases, numbered_cases
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses

SUITE_DATABASES = 3


def timed(figures: dict[str, list[tuple[float, float]]], name: str, work: Callable[[], object]) -> object:
    """``work()``, its wall and CPU (all threads) added to ``figures[name]``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    figures.setdefault(name, []).append((time.perf_counter() - wall, time.process_time() - cpu))
    return result


def right_answers(cases: pd.DataFrame, responses: pd.DataFrame, mark: str) -> pd.DataFrame:
    """The responses with each in-scope case's gold SQL as the agent's, its text marked with
    ``mark`` (so that it is read and run anew: what a real agent's right answer costs to check)."""
    gold = dict(zip(cases["case_id"], cases["expected_sql"]))
    right = responses.copy()
    right["sql"] = [sql if not isinstance(gold[case], str) else gold[case].replace("SELECT", f"SELECT /* {mark} */", 1)
                    for case, sql in zip(right["case_id"], right["sql"])]
    return right


def one_round(n: int, offset: int, figures: dict[str, list[tuple[float, float]]]) -> None:
    """Every stage once, on ``n`` fresh distinct cases (numbered from ``offset``)."""
    database, suite = ensure_database(), suite_databases(SUITE_DATABASES)
    with tempfile.TemporaryDirectory() as folder:
        path = write_cases(Path(folder) / "cases.json", n + offset)
        path.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))[offset:], ensure_ascii=False),
                        encoding="utf-8")
        cases = timed(figures, "case file loaded", lambda: load_test_cases(path))
        timed(figures, "gold checked (4 databases)", lambda: check_against_database(cases, path, database, suite))
    agent = resolve_agent(INSTANT_AGENT, database=database)
    numbered = numbered_cases(cases)
    with open(os.devnull, "w", encoding="utf-8") as sink:
        def show(row: dict, _result: object) -> None:
            sink.write(console.case_block(numbered(row["case_id"]), row, n))

        responses = timed(figures, "agent asked, console blocks", lambda: run_agent(cases, agent, on_answer=show))
    timed(figures, "case_scores", lambda: score_responses(cases, responses, database, suite=suite))
    right = right_answers(cases, responses, "agent")
    timed(figures, "case_scores, right answers", lambda: score_responses(cases, right, database, suite=suite))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    figures: dict[str, list[tuple[float, float]]] = {}
    for round_number in range(args.repeat):
        one_round(args.cases, round_number * args.cases, figures)
    print(f"{args.cases:,} distinct cases, {SUITE_DATABASES} test-suite databases; median of {args.repeat} "
          f"by CPU (load {os.getloadavg()[0]:.1f})")
    for name, runs in figures.items():
        wall, cpu = sorted(runs, key=lambda run: run[1])[len(runs) // 2]
        spread = ", ".join(f"{c:.2f}" for _, c in runs)
        print(f"  {name:32s} wall {wall:6.2f} s  CPU {cpu:6.2f} s  {cpu / args.cases * 1000:6.3f} ms/case"
              f"  (CPU of each: {spread} s)")


if __name__ == "__main__":
    main()
