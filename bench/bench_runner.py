"""Concurrency of agent calls: 400 calls of an agent that takes 50 ms, at several bounds.

Prints wall time per concurrency and its ratio to the ideal (calls x 50 ms / concurrency), for the
agent in this process (as before `python:` agents had a child process: the runner alone) and for
``python:bench_runner:sleeping_answer`` in its child process (what a `python:` agent costs now).
Run: python bench/bench_runner.py [--mode in-process|child|both]
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from nabahan_pipeline.agents.child_process import ChildProcessAgent
from nabahan_pipeline.agents.runner import run_agent

CALLS = 400
AGENT_SECONDS = 0.05


def sleeping_answer(question: str, filters: dict | None = None) -> dict:
    """Answers after AGENT_SECONDS, like a service on the network."""
    time.sleep(AGENT_SECONDS)
    return {"status": "success", "sql": "SELECT 1", "data": [{"n": 1}], "insights": "عدد 1", "error": None}


class SleepingAgent:
    """An agent whose every answer takes AGENT_SECONDS, like a service on the network."""

    spec = "bench:sleeping"

    def ask(self, question: str, filters: dict | None = None) -> dict:
        return sleeping_answer(question, filters)

    def fingerprint(self) -> str:
        return self.spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["in-process", "child", "both"], default="both",
                        help="the agent in this process, in its child process, or both (the default)")
    args = parser.parse_args()
    cases = pd.DataFrame({"case_id": [f"c{i}" for i in range(CALLS)], "question": ["سؤال"] * CALLS, "filters": [None] * CALLS})
    print(f"{CALLS} calls of a {AGENT_SECONDS * 1000:.0f} ms agent")
    modes = ["in-process", "child"] if args.mode == "both" else [args.mode]
    for mode in modes:
        for concurrency in (1, 8, 32, 64):
            agent = SleepingAgent() if mode == "in-process" else ChildProcessAgent("python:bench_runner:sleeping_answer")
            try:
                started = time.perf_counter()
                responses = run_agent(cases, agent, concurrency=concurrency, timeout_s=5)
                wall = time.perf_counter() - started
            finally:
                if mode == "child":
                    agent.close()
            ideal = CALLS * AGENT_SECONDS / concurrency
            measured = responses["latency_s"].median()
            print(
                f"{mode:>10} concurrency {concurrency:>3}: {wall:6.2f} s wall, ideal {ideal:6.2f} s, "
                f"ratio {wall / ideal:4.2f}; median measured latency {measured * 1000:.1f} ms "
                f"(true {AGENT_SECONDS * 1000:.0f} ms)"
            )


if __name__ == "__main__":
    main()
