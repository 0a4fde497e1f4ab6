"""The agent phase over HTTP alone: the runner and the HTTP agent against the Node loopback agent.

    python bench/bench_http_runner.py [--cases 2000] [--latency-ms 50] [--concurrency 32 64] [--repeat 3]

No Dagster, no console, no scoring: what `bench_side_by_side.py`'s agent-phase figures measure,
with this process's own cost beside them. Per concurrency C, the median of ``--repeat`` runs
(after one warm-up run) of: agent-phase efficiency (ideal N*L/C over the calls alone, first arrival
to last answer as the agent saw them; target >= 0.95), latency fidelity (mean |latency_s - L|;
target <= 2 ms at 64) beside the agent's own mean hold (L plus Node's timer overshoot), and this
process's CPU (user + sys, all threads) and context switches per call. Skipped without node.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import time

import pandas as pd
from bench_side_by_side import AGENT_PHASE_TARGET, FIDELITY_TARGET_MS, LoopbackAgent, call_window_s
from eval_runs import figure

from nabahan_pipeline.agents.http import HttpAgent
from nabahan_pipeline.agents.runner import run_agent


def one_run(agent: HttpAgent, loop: LoopbackAgent, cases: pd.DataFrame, concurrency: int, latency: float) -> dict[str, float]:
    """One agent phase: its efficiency, fidelity and our cost per call."""
    loop.reset()
    before = resource.getrusage(resource.RUSAGE_SELF)
    responses = run_agent(cases, agent, concurrency=concurrency, timeout_s=30)
    after = resource.getrusage(resource.RUSAGE_SELF)
    stats = loop.stats()
    n = len(cases)
    if stats["calls"] != n or (responses["status"] == "error").any():
        raise RuntimeError(f"{stats['calls']} calls answered, {(responses['status'] == 'error').sum()} errors, of {n}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw)
    return {
        "efficiency": n * latency / concurrency / call_window_s(stats),
        "fidelity_ms": float((responses["latency_s"] - latency).abs().mean() * 1000),
        "held_ms": stats["mean_held_ms"],
        "cpu_us": cpu / n * 1e6,
        "switches": switches / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2_000)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("skipped: node is not on the PATH; the loopback agent (bench/loopback_agent.js) needs it")
        return
    n, latency = args.cases, args.latency_ms / 1000
    cases = pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "question": ["كم عدد المناقصات في منطقة الرياض؟"] * n,
                          "filters": [None] * n})
    with LoopbackAgent(node, args.latency_ms) as loop:
        agent = HttpAgent(loop.url)
        try:
            for concurrency in args.concurrency:
                one_run(agent, loop, cases.head(10 * concurrency), concurrency, latency)  # warm-up
                runs = [one_run(agent, loop, cases, concurrency, latency) for _ in range(max(1, args.repeat))]
                median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                shown = ", ".join(f"{run['efficiency']:.3f}" for run in runs)
                print(f"{n:,} calls x {args.latency_ms:g} ms at {concurrency} in flight "
                      f"(ideal {n * latency / concurrency:.2f} s; median of {len(runs)}, {time.strftime('%H:%M:%S')})")
                print(figure("  agent-phase efficiency", median["efficiency"], "", AGENT_PHASE_TARGET, at_least=True,
                             note=f"(runs: {shown})"))
                print(figure("  mean |latency_s - L|", median["fidelity_ms"], "ms", FIDELITY_TARGET_MS,
                             note=f"(the agent's mean hold {median['held_ms']:.2f} ms)"))
                print(figure("  our CPU per call (all threads)", median["cpu_us"], "us"))
                print(figure("  context switches per call", median["switches"], ""))
        finally:
            agent.close()


if __name__ == "__main__":
    main()
