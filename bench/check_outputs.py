"""Does a change leave every output the same? The outputs of two trees of the code, compared.

    python bench/check_outputs.py TREE_A TREE_B [--cases 430] [--keep DIR]

(a tree: a checkout or worktree, or ``git archive REV | tar -x -C DIR``). Not run by `make bench`.

The cases: the fresh, holdout and shipped suites and the first red-team probes (in scope and out,
most with gold SQL). Their answers come from ``varied_agent`` (the reference agent's, half of them
spoiled: wrong, unsafe, unparseable, another dialect, false rows, no rows, ungrounded numbers,
disclaimers, placeholders, refusals, errors, exceptions, malformed answers).

Two comparisons, each tree's code in its own process:

1. Scoring alone, on one fixed agent_responses table (asked once, under TREE_A, two repeats per
   case, the second repeat of some cases another case's answer, latencies fixed and spread over
   every tier and its bounds): case_scores (as Parquet, and every value with its dtype), the
   summary, both CSV reports, the console's block for every answer and its summary, and the pandera
   checks of both tables. Everything must be equal, byte for byte.
2. `nabahan eval --agent python:varied_agent:answer` end to end, in a fresh home: the results and
   summary CSVs, the case_scores Parquet and the console's output, with what the clock decides set
   aside (the run's timestamp, each latency and the latency figures and text; the latency tier is
   compared, every answer being instant). The verdicts (Overall Passed, Correct) of every row are
   compared apart and named when they differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DATA = BENCH.parent / "nabahan_pipeline_tests" / "data"
SHIPPED = BENCH.parent / "nabahan_pipeline" / "data" / "test_cases.json"
TIMESTAMP = "2026-01-01T02:00:00+03:00"
STAMP = "20260101_020000"
# Latencies of the fixed table: every tier, and each bound (2.0 is Good, 5.0 Good, 10.0 Acceptable).
LATENCIES = (0.01, 0.5, 1.999, 2.0, 2.5, 4.99, 5.0, 7.5, 10.0, 10.01, 31.0)
VERDICTS = ("overall_passed", "correct")


def write_cases(path: Path, n: int) -> Path:
    """Up to ``n`` cases from the suites we ship, each id once."""
    cases: list[dict] = []
    seen: set[str] = set()
    for name in ("fresh_questions.json", "holdout_questions.json", str(SHIPPED), "redteam_questions.json"):
        source = Path(name) if name.startswith("/") else DATA / name
        for case in json.loads(source.read_text(encoding="utf-8")):
            if case["id"] in seen:
                continue
            seen.add(case["id"])
            cases.append({key: value for key, value in case.items() if key not in ("kind", "note")})
    path.write_text(json.dumps(cases[:n], ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def _digest(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


# --- in the tree's own process ------------------------------------------------------------------


def ask(cases_file: Path, out: Path) -> None:
    """The fixed agent_responses table: every case asked twice; the second answer of one case in
    five is another case's; latencies fixed."""
    import varied_agent
    from nabahan_pipeline.agents.runner import run_agent
    from nabahan_pipeline.evaluation.cases import load_test_cases

    cases = load_test_cases(cases_file)
    agent = type("Varied", (), {"spec": "varied", "ask": staticmethod(varied_agent.answer),
                                "fingerprint": staticmethod(lambda: "varied")})()
    responses = run_agent(cases, agent, concurrency=4, repeat=2).reset_index(drop=True)
    answer_columns = ["status", "sql", "dialect", "columns", "rows", "data_rows", "insights", "error"]
    for index in range(len(responses)):
        if responses.at[index, "repeat"] == 1 and _digest(responses.at[index, "case_id"]) % 5 == 0:
            donor = (index + 7) % len(responses)
            for column in answer_columns:
                responses.at[index, column] = responses.at[donor, column]
    responses["latency_s"] = [LATENCIES[_digest(f"{case_id}/{r}") % len(LATENCIES)]
                              for case_id, r in zip(responses["case_id"], responses["repeat"])]
    responses["cached"] = [_digest(case_id) % 9 == 0 for case_id in responses["case_id"]]
    responses["prompt_tokens"] = [float(_digest(case_id) % 500) if _digest(case_id) % 3 == 0 else float("nan")
                                  for case_id in responses["case_id"]]
    responses["completion_tokens"] = [t / 4 for t in responses["prompt_tokens"]]
    # Out of file order, as the runner never gives them but a stored table may.
    responses = responses.sample(frac=1.0, random_state=7).reset_index(drop=True)
    responses.to_parquet(out, engine="pyarrow", index=False)


def produce(cases_file: Path, responses_file: Path, out: Path) -> None:
    """Score the fixed table with this tree's code; write every output under ``out``."""
    import pandas as pd

    from nabahan_pipeline.console import case_block, summary_text
    from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
    from nabahan_pipeline.evaluation.cases import load_test_cases, numbered_cases
    from nabahan_pipeline.evaluation.reports import write_reports
    from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
    from nabahan_pipeline.evaluation.summary import summarize
    from nabahan_pipeline.evaluation.tables import AGENT_RESPONSES, CASE_SCORES, EVALUATION_SUMMARY, TEST_CASES

    out.mkdir(parents=True, exist_ok=True)
    cases = load_test_cases(cases_file)
    responses = pd.read_parquet(responses_file)
    TEST_CASES.validate(cases)
    AGENT_RESPONSES.validate(responses)
    numbered = numbered_cases(cases)
    blocks = [case_block(numbered(row["case_id"]), row, len(cases), 2) for row in responses.to_dict("records")]
    scores = score_responses(cases, responses, ensure_database(), suite=suite_databases(3), timestamp=TIMESTAMP)
    CASE_SCORES.validate(scores)
    summary = summarize(scores)
    EVALUATION_SUMMARY.validate(summary)
    (out / "console.txt").write_text("\n".join(blocks) + summary_text(scores, summary), encoding="utf-8")
    scores.to_parquet(out / "case_scores.parquet", engine="pyarrow", index=False)
    summary.to_parquet(out / "evaluation_summary.parquet", engine="pyarrow", index=False)
    (out / "case_scores.json").write_text(_table_json(scores), encoding="utf-8")
    paths = write_reports(scores, summary, out / "reports", STAMP)
    print(f"{len(scores)} answers scored: {int(scores['overall_passed'].sum())} passed, "
          f"{int(scores['correct'].sum())} correct, {len(paths)} reports")


def _table_json(frame) -> str:  # noqa: ANN001
    import math

    import pandas as pd

    def cell(value):  # noqa: ANN001, ANN202
        if value is None:
            return {"none": True}
        if value is pd.NA:
            return {"na": True}
        if isinstance(value, float) and math.isnan(value):
            return {"nan": True}
        return value.item() if hasattr(value, "item") else value

    return json.dumps({"dtypes": {name: str(dtype) for name, dtype in frame.dtypes.items()},
                       "rows": [[cell(v) for v in row] for row in frame.astype(object).itertuples(index=False)]},
                      ensure_ascii=False, indent=0)


# --- the driver ----------------------------------------------------------------------------------


def _env(tree: Path, home: Path) -> dict[str, str]:
    names = ("NABAHAN_HOME", "NABAHAN_PARQUET_DIR", "NABAHAN_AGENT", "DAGSTER_HOME", "NABAHAN_OUTPUT_DIR")
    env = {key: value for key, value in os.environ.items() if key not in names}
    return {**env, "NABAHAN_HOME": str(home), "PYTHONPATH": f"{tree}{os.pathsep}{BENCH}", "PYTHONUNBUFFERED": "1"}


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args[:4])} ... exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done


def _end_to_end(tree: Path, cases_file: Path, out: Path) -> None:
    home = out / "home"
    nabahan = Path(sys.executable).parent / "nabahan"
    done = _run([str(nabahan), "eval", "--agent", "python:varied_agent:answer", "--test-file", str(cases_file),
                 "--output-dir", str(out / "results")], out, _env(tree, home))
    (out / "stdout.txt").write_text(done.stdout, encoding="utf-8")
    shutil.copy(home / "parquet" / "case_scores.parquet", out / "case_scores.parquet")


def _same_files(a: Path, b: Path, what: str) -> list[str]:
    problems = []
    names_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    names_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    if names_a != names_b:
        problems.append(f"{what}: other files: {names_a} vs {names_b}")
    for name in set(names_a) & set(names_b):
        if (a / name).read_bytes() != (b / name).read_bytes():
            problems.append(f"{what}: {name} differs")
    return problems


def _clock_free(text: str) -> str:
    text = re.sub(r"\d{8}_\d{6}", "STAMP", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", "TIME", text)
    text = re.sub(r"Latency: \d+\.\d\ds", "Latency: Ns", text)
    text = re.sub(r"(Avg|P50|P95) Latency: \d+\.\d\ds", r"\1 Latency: Ns", text)
    text = re.sub(r"p95 \d+\.\d\ds", "p95 Ns", text)
    text = re.sub(r"Timestamp: .*", "Timestamp: T", text)
    text = re.sub(r"/tmp/\S+", "PATH", text)
    return text


def _console(path: Path) -> list[str]:
    """The console's output without the clock's figures, its case blocks sorted (they are printed
    as the answers arrive, in no set order)."""
    parts = re.split(r"\n(?=\[\d+/\d+\] )", _clock_free(path.read_text(encoding="utf-8")))
    last = parts[-1].split("\n")
    block_end = next((i for i, line in enumerate(last) if i and not line.startswith("    ")), len(last))
    blocks = [*parts[1:-1], "\n".join(last[:block_end])]
    return [parts[0], *sorted(blocks), "\n".join(last[block_end:])]


def _compare_end_to_end(a: Path, b: Path) -> list[str]:
    import pandas as pd

    problems = []
    scores_a, scores_b = (pd.read_parquet(side / "case_scores.parquet") for side in (a, b))
    for verdict in VERDICTS:
        differ = scores_a[verdict].to_numpy() != scores_b[verdict].to_numpy()
        if differ.any():
            problems.append(f"end to end: {verdict} differs on {int(differ.sum())} rows: "
                            f"{scores_a.loc[differ, 'case_id'].tolist()[:10]}")
    clock = ["timestamp", "latency_s"]
    if not scores_a.drop(columns=clock).equals(scores_b.drop(columns=clock)):
        columns = [c for c in scores_a.columns if c not in clock and not scores_a[c].equals(scores_b[c])]
        problems.append(f"end to end: case_scores.parquet differs in {columns}")
    for name in ("results", "summary"):
        [file_a], [file_b] = ((side / "results").glob(f"evaluation_{name}_*.csv") for side in (a, b))
        table_a, table_b = pd.read_csv(file_a, dtype=str), pd.read_csv(file_b, dtype=str)
        if name == "summary":  # Metric, Value: the latency rows are the clock's
            table_a, table_b = (t[~t["Metric"].str.contains(r"Latency \(s\)")] for t in (table_a, table_b))
        clock_columns = [c for c in table_a.columns if c in ("Timestamp", "Latency (s)")]
        if not table_a.drop(columns=clock_columns).equals(table_b.drop(columns=clock_columns)):
            columns = [c for c in table_a.columns if not table_a[c].equals(table_b[c])]
            problems.append(f"end to end: {name} CSV differs in {columns}")
    if _console(a / "stdout.txt") != _console(b / "stdout.txt"):
        problems.append("end to end: the console's output differs")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs="*", metavar="TREE")
    parser.add_argument("--cases", type=int, default=430)
    parser.add_argument("--keep", type=Path, help="keep the outputs in this folder")
    parser.add_argument("--ask", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--produce", nargs=3, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ask:
        return ask(*args.ask)
    if args.produce:
        return produce(*args.produce)
    if len(args.trees) != 2:
        parser.error("two trees")
    trees = [tree.resolve() for tree in args.trees]
    root = Path(tempfile.mkdtemp(prefix="nabahan-check-")) if args.keep is None else args.keep.resolve()
    root.mkdir(parents=True, exist_ok=True)
    try:
        cases_file = write_cases(root / "cases.json", args.cases)
        responses = root / "agent_responses.parquet"
        me = [sys.executable, str(Path(__file__).resolve())]
        _run([*me, "--ask", str(cases_file), str(responses)], root, _env(trees[0], root / "ask-home"))
        for index, tree in enumerate(trees):
            side = root / f"tree{index}"
            done = _run([*me, "--produce", str(cases_file), str(responses), str(side / "scoring")], root,
                        _env(tree, root / f"home{index}"))
            print(f"{tree}: {done.stdout.strip()}")
            (side / "e2e").mkdir(parents=True, exist_ok=True)
            _end_to_end(tree, cases_file, side / "e2e")
        problems = _same_files(root / "tree0" / "scoring", root / "tree1" / "scoring", "scoring")
        problems += _compare_end_to_end(root / "tree0" / "e2e", root / "tree1" / "e2e")
        for problem in problems:
            print("DIFFERS:", problem)
        print("the outputs are the same" if not problems else f"{len(problems)} difference(s); outputs in {root}")
        if problems:
            args.keep = root
            raise SystemExit(1)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
