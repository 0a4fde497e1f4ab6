"""Side by side over HTTP: `nabahan eval` and promptfoo 0.120.0 asking one loopback agent.

    .venv/bin/python bench/bench_side_by_side.py [--install-promptfoo] [--cases 2000]
        [--latency-ms 50] [--concurrency 32] [--fidelity-concurrency 64] [--repeat 1]

The agent is bench/loopback_agent.js, served by Node, answering every call after a fixed latency
L (50 ms), so it is never the bottleneck. With N cases (2,000) and C calls in flight (32) no tool
can finish before the ideal N*L/C (3.1 s). Both tools run end to end as subprocesses in a fresh
temporary folder: `nabahan eval` as a user runs it (HTTP agent, cache off, charts on), promptfoo
with an HTTP provider, one trivial assertion and `-j C`. Printed against issue 26's targets:

- each wall, the ideal and ideal/wall (nabahan's target >= 0.7, set for 20,000 cases at 64 in
  flight), and nabahan's speed-up over promptfoo (target >= 2);
- agent-phase efficiency: ideal / the time of the calls alone, from the first call's arrival to
  the last answer's end as the agent saw them (target >= 0.95); the runner's step (agent_responses,
  from the run's Dagster event log) is shown beside it;
- latency fidelity: a second nabahan run at 64 in flight; the mean absolute difference between the
  latency nabahan recorded per call and the true L (target <= 2 ms), with the agent's own
  measure of how long it held each call (Node's timer overshoots a little) to tell the two apart.

promptfoo is installed with npm into a cache folder ($XDG_CACHE_HOME/nabahan-bench/promptfoo) only
with --install-promptfoo, reused when present, and skipped, with a line saying why, when it is
missing, npm is missing or the install fails. Runs with --repeat alternate the two tools; the
medians are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from eval_runs import (
    BENCH,
    ProcessRun,
    figure,
    nabahan_eval,
    print_stages,
    responses_table,
    run_process,
    run_timeline,
    scratch_folder,
    write_cases,
)

PROMPTFOO_VERSION = "0.120.0"
IDEAL_RATIO_TARGET = 0.7
SPEEDUP_TARGET = 2.0
AGENT_PHASE_TARGET = 0.95
FIDELITY_TARGET_MS = 2.0


# --- the loopback agent ---------------------------------------------------------------------------


class LoopbackAgent:
    """bench/loopback_agent.js under Node, on a free loopback port, for the ``with`` block."""

    def __init__(self, node: str, latency_ms: float) -> None:
        self._args = [node, str(BENCH / "loopback_agent.js"), "--latency-ms", str(latency_ms), "--port", "0"]
        self.process: subprocess.Popen | None = None
        self.port = 0

    def __enter__(self) -> LoopbackAgent:
        self.process = subprocess.Popen(self._args, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            raise RuntimeError(f"the loopback agent did not start: {line!r}")
        self.port = int(line.split()[-1])
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/ask"

    def _call(self, method: str, path: str) -> dict:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def reset(self) -> None:
        """Forget the calls seen so far."""
        self._call("POST", "/reset")

    def stats(self) -> dict:
        """calls, first_start_ms, last_end_ms, mean_held_ms since the last reset."""
        return self._call("GET", "/stats")


def call_window_s(stats: dict) -> float:
    """From the first call's arrival to the last answer's end, as the agent saw them."""
    return (stats["last_end_ms"] - stats["first_start_ms"]) / 1000


# --- promptfoo --------------------------------------------------------------------------------------


def promptfoo_folder() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "nabahan-bench" / "promptfoo"


def find_promptfoo(folder: Path, install: bool) -> Path | None:
    """promptfoo's executable in ``folder``, installed there first with ``install``; None, saying
    why on one line, when it cannot be had."""
    executable = folder / "node_modules" / ".bin" / "promptfoo"
    if not executable.exists():
        command = ["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", f"promptfoo@{PROMPTFOO_VERSION}"]
        if not install:
            print(f"promptfoo skipped: not installed in {folder}; --install-promptfoo runs `{' '.join(command)}`")
            return None
        if shutil.which("npm") is None:
            print("promptfoo skipped: npm is not on the PATH, so promptfoo cannot be installed")
            return None
        print(f"installing promptfoo {PROMPTFOO_VERSION}: {' '.join(command)} (a few minutes)")
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 or not executable.exists():
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            print(f"promptfoo skipped: npm install failed (exit {done.returncode}): {tail}")
            return None
    link_migrations(folder / "node_modules" / "promptfoo")
    with tempfile.TemporaryDirectory(prefix="nabahan-bench-promptfoo-") as home:
        check = subprocess.run([str(executable), "--version"], capture_output=True, text=True,
                               env=promptfoo_environment(Path(home)))
    if check.returncode != 0:
        tail = " | ".join(check.stderr.strip().splitlines()[:2])
        print(f"promptfoo skipped: `promptfoo --version` fails in {folder}: {tail}")
        return None
    if check.stdout.strip() != PROMPTFOO_VERSION:
        print(f"note: promptfoo in {folder} is {check.stdout.strip()}, not {PROMPTFOO_VERSION}")
    return executable


def link_migrations(package: Path) -> None:
    """promptfoo 0.120.0 from npm looks for its database migrations in <package>/drizzle but ships
    them in dist/drizzle, so every command fails ("Can't find meta/_journal.json file"); a
    symbolic link puts them where it looks."""
    shipped, expected = package / "dist" / "drizzle", package / "drizzle"
    if shipped.is_dir() and not expected.exists():
        expected.symlink_to(Path("dist") / "drizzle")
        print(f"note: linked {expected} -> dist/drizzle (promptfoo {PROMPTFOO_VERSION}'s package misplaces its migrations)")


def promptfoo_environment(config_dir: Path) -> dict[str, str]:
    """A fresh promptfoo home; nothing sent anywhere but to the loopback agent."""
    return {**os.environ, "PROMPTFOO_CONFIG_DIR": str(config_dir), "PROMPTFOO_DISABLE_TELEMETRY": "1",
            "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_DISABLE_SHARING": "1",
            "PROMPTFOO_DISABLE_REMOTE_GENERATION": "1"}


def promptfoo_config(path: Path, cases: Path, url: str) -> Path:
    """A promptfoo config asking the same questions of the same agent, with one trivial assertion."""
    questions = [case["question"] for case in json.loads(cases.read_text(encoding="utf-8"))]
    config = {
        "description": "nabahan side-by-side benchmark",
        "prompts": ["{{question}}"],
        "providers": [{
            "id": url,
            "config": {
                "method": "POST",
                "headers": {"Content-Type": "application/json"},
                "body": {"question": "{{prompt}}", "filters": None},
                "transformResponse": "json.insights",
            },
        }],
        # In every insight the loopback agent gives, whichever copy of a case it answers.
        "defaultTest": {"assert": [{"type": "contains", "value": "المناقصات المطابقة"}]},
        "tests": [{"vars": {"question": question}} for question in questions],
    }
    path.write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    return path


def run_promptfoo(executable: Path, folder: Path, cases: Path, agent: LoopbackAgent, concurrency: int) -> tuple[ProcessRun, dict]:
    """One promptfoo eval, end to end; its process and what the agent saw."""
    config = promptfoo_config(folder / "promptfooconfig.json", cases, agent.url)
    agent.reset()
    run = run_process([str(executable), "eval", "-c", str(config), "-j", str(concurrency), "--no-cache"], folder,
                      promptfoo_environment(folder / "promptfoo-home"))
    if run.returncode != 0:
        raise RuntimeError(f"promptfoo exited {run.returncode}: {run.stderr[-1500:] or run.stdout[-1500:]}")
    stats = agent.stats()
    successes = re.search(r"Successes: (\d+)", run.stdout)
    check_complete("promptfoo", stats, int(successes[1]) if successes else 0, len(json.loads(cases.read_text("utf-8"))))
    return run, stats


def check_complete(tool: str, stats: dict, answered: int, n: int) -> None:
    """Raise unless the agent answered all ``n`` calls once each and the tool counted ``n`` good
    answers: a run with failed calls would time less work than it claims."""
    if stats["calls"] != n or answered != n:
        raise RuntimeError(f"{tool}: the agent answered {stats['calls']} calls and {tool} got {answered} "
                           f"good answers, of {n} cases")


# --- the benchmark ------------------------------------------------------------------------------------


def run_nabahan(folder: Path, cases: Path, agent: LoopbackAgent, concurrency: int) -> tuple[ProcessRun, dict]:
    """One `nabahan eval` over HTTP, end to end; its process and what the agent saw."""
    agent.reset()
    run = nabahan_eval(folder, "--agent", agent.url, "--test-file", str(cases), "--concurrency", str(concurrency))
    stats = agent.stats()
    statuses = responses_table(folder / "home")["status"]
    check_complete("nabahan", stats, int((statuses != "error").sum()), len(statuses))
    return run, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2_000, help="N (default 2000)")
    parser.add_argument("--latency-ms", type=float, default=50.0, help="the agent's fixed latency L (default 50)")
    parser.add_argument("--concurrency", type=int, default=32, help="C, calls in flight (default 32)")
    parser.add_argument("--fidelity-concurrency", type=int, default=64, help="calls in flight of the fidelity run (default 64)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tool, alternating; medians shown (default 1)")
    parser.add_argument("--install-promptfoo", action="store_true", help=f"npm install promptfoo {PROMPTFOO_VERSION} if missing")
    parser.add_argument("--repeated", action="store_true",
                        help="the copies of the suite alike but for their ids (the figures before 2026-11-23 19:45): "
                             "each gold SQL text checked once, not once per case")
    parser.add_argument("--promptfoo-dir", type=Path, default=promptfoo_folder(), help="where promptfoo is (installed)")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("skipped: node is not on the PATH; the loopback agent (bench/loopback_agent.js) needs it")
        return
    n, latency, concurrency = args.cases, args.latency_ms / 1000, args.concurrency
    ideal = n * latency / concurrency
    promptfoo = find_promptfoo(args.promptfoo_dir, args.install_promptfoo)
    with scratch_folder() as folder, LoopbackAgent(node, args.latency_ms) as agent:
        cases = write_cases(folder / "cases.json", n, repeated=args.repeated)
        warm = folder / "warm-up"
        warm.mkdir()
        warm_run, _ = run_nabahan(warm, write_cases(warm / "cases.json", 20), agent, concurrency)
        print(f"warm-up: nabahan eval, 20 cases over HTTP in {warm_run.wall_s:.2f} s (not counted)")
        print(f"\n{n:,} cases x {args.latency_ms:g} ms at {concurrency} in flight: ideal N*L/C = {ideal:.2f} s")
        ours: list[tuple[ProcessRun, dict, Path]] = []
        theirs: list[tuple[ProcessRun, dict]] = []
        for i in range(max(1, args.repeat)):
            workdir = folder / f"nabahan-{i}"
            workdir.mkdir()
            ours.append((*run_nabahan(workdir, cases, agent, concurrency), workdir))
            if promptfoo is not None:
                workdir = folder / f"promptfoo-{i}"
                workdir.mkdir()
                theirs.append(run_promptfoo(promptfoo, workdir, cases, agent, concurrency))

        ours.sort(key=lambda item: item[0].wall_s)
        run, stats, workdir = ours[len(ours) // 2]
        timeline = run_timeline(workdir / "home")
        walls = ", ".join(f"{r.wall_s:.2f}" for r, _, _ in ours)
        print(figure("nabahan eval over HTTP: wall", run.wall_s, "s", note=f"(runs: {walls} s; median shown)"))
        print(figure("  ideal / wall", ideal / run.wall_s, "", IDEAL_RATIO_TARGET, at_least=True))
        print(figure("  calls alone (agent: first in to last out)", call_window_s(stats), "s",
                     note=f"({stats['calls']:,} calls)"))
        print(figure("  agent-phase efficiency: ideal / calls alone", ideal / call_window_s(stats), "",
                     AGENT_PHASE_TARGET, at_least=True))
        step = timeline.step("agent_responses")
        print(figure("  agent_responses step's compute (Dagster)", step.compute_s, "s",
                     note=f"(ideal / it {ideal / step.compute_s:.2f}; the step's whole wall {step.wall_s:.2f} s)"))
        print("  where its wall went:")
        print_stages(run, timeline, indent="    ")

        if theirs:
            theirs.sort(key=lambda item: item[0].wall_s)
            prun, pstats = theirs[len(theirs) // 2]
            walls = ", ".join(f"{r.wall_s:.2f}" for r, _ in theirs)
            print(figure(f"promptfoo {PROMPTFOO_VERSION} -j {concurrency}: wall", prun.wall_s, "s",
                         note=f"(runs: {walls} s; median shown)"))
            print(figure("  ideal / wall", ideal / prun.wall_s, ""))
            print(figure("  agent-phase efficiency: ideal / calls alone", ideal / call_window_s(pstats), "",
                         note=f"(calls alone {call_window_s(pstats):.2f} s, {pstats['calls']:,} calls)"))
            print(figure("nabahan's speed-up over promptfoo (wall/wall)", prun.wall_s / run.wall_s, "x",
                         SPEEDUP_TARGET, at_least=True))
        else:
            print("nabahan's speed-up over promptfoo: not measured (promptfoo skipped, see above)")

        fidelity = args.fidelity_concurrency
        workdir = folder / "fidelity"
        workdir.mkdir()
        frun, fstats = run_nabahan(workdir, cases, agent, fidelity)
        measured = responses_table(workdir / "home")["latency_s"]
        error_ms = float((measured - latency).abs().mean() * 1000)
        fideal = n * latency / fidelity
        print(f"\nlatency fidelity: nabahan eval, {n:,} cases at {fidelity} in flight (ideal {fideal:.2f} s)")
        print(figure("  mean |measured latency - true latency|", error_ms, "ms", FIDELITY_TARGET_MS))
        print(figure("  mean measured latency", float(measured.mean() * 1000), "ms",
                     note=f"(median {measured.median() * 1000:.1f} ms, p95 {measured.quantile(0.95) * 1000:.1f} ms)"))
        print(figure("  mean held per call (the agent's own clock)", fstats["mean_held_ms"], "ms",
                     note="(the true latency plus Node's timer overshoot)"))
        print(figure("  of which ours: mean measured - mean held", float(measured.mean() * 1000) - fstats["mean_held_ms"],
                     "ms", note="(client, threads, loopback)"))
        print(figure("  wall", frun.wall_s, "s", note=f"(ideal / wall {fideal / frun.wall_s:.2f})"))
        print(figure("  agent-phase efficiency: ideal / calls alone", fideal / call_window_s(fstats), "",
                     AGENT_PHASE_TARGET, at_least=True))


if __name__ == "__main__":
    main()
