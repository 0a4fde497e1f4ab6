"""Dagster's cost per run: one agent's four tables (test_cases -> agent_responses -> case_scores ->
evaluation_summary) with every check on them, materialized again and again in this process on one
home, as a warm `make eval` runs them (the shipped cases, the embedded agent).

    PYTHONPATH=TREE:TREE/bench .venv/bin/python bench/bench_steps.py [--runs 9] [--cases FILE] [--agent SPEC]

Prints per run the CPU of this process (``time.process_time``: every thread, so the load of other
processes does not count), the steps and the events Dagster stored, and the median over the runs
after the first (the first pays the imports pandera makes at its first check and fills the gold
cache). The charts and the report page are left out: theirs is another cost. Compare two trees
alternating in the same minutes (``git archive REV | tar -x -C DIR``; PYTHONPATH=DIR): the agent's
answers and the scoring are the same in both, so the difference is the run's own machinery (steps,
events, type checks, the IO manager, the checks). Not run by `make bench`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

TABLES = ("test_cases", "agent_responses", "case_scores", "evaluation_summary")
LABEL = "bench"
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}  # as our entry points run a job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs in all, the first not counted")
    parser.add_argument("--cases", type=Path, help="the case file (default: the shipped cases)")
    parser.add_argument("--agent", default="embedded", help="the agent's spec (default: embedded)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-steps-") as scratch:
        home = Path(scratch)
        os.environ["NABAHAN_HOME"] = str(home)
        os.environ.pop("DAGSTER_HOME", None)
        import dagster as dg

        from nabahan_pipeline.agents.labels import LabelledAgent
        from nabahan_pipeline.api import open_instance
        from nabahan_pipeline.definitions import defs
        from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
        from nabahan_pipeline.orchestration.partitions import register_agents
        from nabahan_pipeline.orchestration.resources import EvaluationSettings, run_resources

        options = {"test_file": str(args.cases)} if args.cases else {}
        settings = EvaluationSettings(output_dir=str(home / "out"), agent=args.agent, **options)
        resources = {**run_resources(settings), "io_manager": ParquetIOManager()}
        definitions = [*defs.assets, *(defs.asset_checks or [])]  # a tree's checks, defined either way
        selection = dg.AssetSelection.assets(*TABLES)  # with the checks on them
        cpu: list[float] = []
        with open_instance(home / "dagster") as instance:
            register_agents(instance, [LabelledAgent(LABEL, args.agent)])
            for number in range(args.runs):
                started = time.process_time()
                result = dg.materialize(definitions, selection=selection, resources=resources, instance=instance,
                                        partition_key=LABEL, run_config=QUIET)
                spent = time.process_time() - started
                events = instance.all_logs(result.run_id)
                steps = {event.step_key for event in events if event.step_key}
                checks = len(result.get_asset_check_evaluations())
                print(f"run {number + 1}: CPU {spent:.3f} s, {len(steps)} steps, {len(events)} events, {checks} checks"
                      + ("  (not counted)" if number == 0 else ""), flush=True)
                if number:
                    cpu.append(spent)
    print(f"median CPU of runs 2 to {args.runs}: {statistics.median(cpu):.3f} s")


if __name__ == "__main__":
    main()
