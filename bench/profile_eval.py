"""Where a `nabahan eval` spends its CPU, from start to exit: cProfile on the CPU clock, in process.

    .venv/bin/python bench/profile_eval.py [--out FILE] [--home DIR] [-- EVAL_ARGS ...]

Runs ``nabahan eval EVAL_ARGS`` (default: the shipped cases, the embedded agent, as `make eval`)
in this process under cProfile timed by ``time.process_time``: CPU, not wall, so the shares hold
on a loaded machine (every thread's CPU is charged to the main thread's frame of the moment; the
profiler's own cost inflates the total about 2x, evenly). ``--home`` keeps NABAHAN_HOME (run once
first for a warm figure: `make eval` a second time). Prints the CPU of each part of the run
(imports, the inputs' check, each step, the charts' drawing, Dagster's events, pandera's type
checks) and its share; the stats go to ``--out`` for ``python -m pstats`` or snakeviz.
Not run by `make bench` (it is a profile, not a figure against a target).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

# (label, a function's file ending and name, as pstats keys them); the cumulative CPU of each.
PARTS: tuple[tuple[str, str, str], ...] = (
    ("imports before the run (nabahan_pipeline.api)", "nabahan_pipeline/api.py", "<module>"),
    ("the run (api.run)", "nabahan_pipeline/api.py", "run"),
    ("  case file and agent checked (api._check)", "nabahan_pipeline/api.py", "_check"),
    ("  Dagster's job in process", "dagster/_core/definitions/job_definition.py", "execute_in_process"),
    ("    step test_cases", "orchestration/assets.py", "test_cases"),
    ("    step agent_responses", "orchestration/assets.py", "agent_responses"),
    ("    step case_scores", "orchestration/assets.py", "case_scores"),
    ("    step evaluation_summary", "orchestration/assets.py", "evaluation_summary"),
    ("    step evaluation_reports", "orchestration/assets.py", "evaluation_reports"),
    ("    step evaluation_charts", "orchestration/assets.py", "evaluation_charts"),
    ("      drawing (render_charts)", "evaluation/charts/render.py", "render_charts"),
    ("    step evaluation_report_page", "orchestration/assets.py", "evaluation_report_page"),
    ("    Dagster's events stored", "dagster/_core/instance/methods/event_methods.py", "handle_new_event"),
    ("    pandera type checks of outputs", "dagster_pandera/__init__.py", "type_check_fn"),
)


def part_cpu(stats: pstats.Stats) -> dict[str, float]:
    """Each part's cumulative seconds (summed over functions of that name in that file)."""
    found = {label: 0.0 for label, _, _ in PARTS}
    for (path, _line, name), (_cc, _nc, _tt, cumulative, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        for label, ending, function in PARTS:
            if name == function and path.endswith(ending):
                found[label] += cumulative
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("profile_eval.pstats"))
    parser.add_argument("--home", type=Path, help="NABAHAN_HOME to use and keep (default: a new one)")
    parser.add_argument("eval_args", nargs="*", help="after --: nabahan eval's own arguments")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home = args.home or Path(scratch) / "home"
        os.environ["NABAHAN_HOME"] = str(home)
        sys.argv = ["nabahan", "eval", "--output-dir", str(home / "results"), *args.eval_args]
        profile = cProfile.Profile(time.process_time)
        started = time.process_time()
        profile.enable()
        try:
            from nabahan_pipeline.cli import console_main  # its imports are part of the profile

            console_main()
        except SystemExit as exit_:
            code = exit_.code
        else:
            code = 0
        finally:
            profile.disable()
        total = time.process_time() - started
    profile.dump_stats(args.out)
    print(f"\nnabahan eval exited {code}; CPU under the profiler {total:.2f} s; stats in {args.out}",
          file=sys.stderr)
    for label, seconds in part_cpu(pstats.Stats(str(args.out))).items():
        print(f"{label:<50} {seconds:7.2f} s  {100 * seconds / total:5.1f}%", file=sys.stderr)


if __name__ == "__main__":
    main()
