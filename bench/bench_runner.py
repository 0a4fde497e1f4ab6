"""Concurrency of agent calls: 400 calls of an agent that takes 50 ms, at several bounds.

Prints wall time per concurrency and its ratio to the ideal (calls x 50 ms / concurrency).
Run: python bench/bench_runner.py
"""

from __future__ import annotations

import time

import pandas as pd

from nabahan_pipeline.agents.runner import run_agent

CALLS = 400
AGENT_SECONDS = 0.05


class SleepingAgent:
    """An agent whose every answer takes AGENT_SECONDS, like a service on the network."""

    spec = "bench:sleeping"

    def ask(self, question: str, filters: dict | None = None) -> dict:
        time.sleep(AGENT_SECONDS)
        return {"status": "success", "sql": "SELECT 1", "data": [{"n": 1}], "insights": "عدد 1", "error": None}

    def fingerprint(self) -> str:
        return self.spec


def main() -> None:
    cases = pd.DataFrame({"case_id": [f"c{i}" for i in range(CALLS)], "question": ["سؤال"] * CALLS, "filters": [None] * CALLS})
    print(f"{CALLS} calls of a {AGENT_SECONDS * 1000:.0f} ms agent")
    for concurrency in (1, 8, 32, 64):
        started = time.perf_counter()
        responses = run_agent(cases, SleepingAgent(), concurrency=concurrency, timeout_s=5)
        wall = time.perf_counter() - started
        ideal = CALLS * AGENT_SECONDS / concurrency
        measured = responses["latency_s"].median()
        print(
            f"concurrency {concurrency:>3}: {wall:6.2f} s wall, ideal {ideal:6.2f} s, ratio {wall / ideal:4.2f}; "
            f"median measured latency {measured * 1000:.1f} ms (true {AGENT_SECONDS * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
