"""What `--robustness` adds to `nabahan eval` (issue 29): the shipped 20 cases, the embedded agent,
whole process, runs with and without the option alternated (each in a fresh folder; the median).

    .venv/bin/python bench/bench_robustness.py [--repeat 3]

Prints each run's wall and CPU, the difference of the medians (target: at most ROBUSTNESS_TARGET_S
more wall), the robustness step's own wall from the Dagster event log, and how many variants it
asked. CPU is printed beside wall because the machine is shared: a loaded machine stretches wall,
not CPU.
"""

from __future__ import annotations

import argparse
import statistics

from eval_runs import figure, nabahan_eval, run_timeline, scratch_folder

# "At most a few seconds" (issue 29), for 20 cases.
ROBUSTNESS_TARGET_S = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs with and without the option (default 3)")
    args = parser.parse_args()
    with scratch_folder() as warm:
        nabahan_eval(warm)  # databases built if missing, files cached
    walls: dict[bool, list[float]] = {False: [], True: []}
    cpus: dict[bool, list[float]] = {False: [], True: []}
    steps, variants = [], 0
    for _ in range(args.repeat):
        for robust in (False, True):
            with scratch_folder() as folder:
                run = nabahan_eval(folder, *(["--robustness"] if robust else []))
                walls[robust].append(run.wall_s)
                cpus[robust].append(run.cpu_s)
                if robust:
                    steps.append(run_timeline(folder / "home").step("robustness").wall_s)
                    overall = next(line for line in run.stdout.splitlines() if line.startswith("overall"))
                    variants = int(overall.split()[1])
                print(f"  {'with' if robust else 'without':<8} wall {run.wall_s:6.2f} s  CPU {run.cpu_s:6.2f} s")
    added = statistics.median(walls[True]) - statistics.median(walls[False])
    added_cpu = statistics.median(cpus[True]) - statistics.median(cpus[False])
    print(figure("nabahan eval, 20 cases, without (wall)", statistics.median(walls[False]), "s"))
    print(figure("nabahan eval, 20 cases, --robustness (wall)", statistics.median(walls[True]), "s"))
    print(figure("added by --robustness (wall)", added, "s", ROBUSTNESS_TARGET_S))
    print(figure("added by --robustness (CPU)", added_cpu, "s", ROBUSTNESS_TARGET_S))
    print(figure("the robustness step (wall)", statistics.median(steps), "s", note=f"{variants} variants asked"))


if __name__ == "__main__":
    main()
