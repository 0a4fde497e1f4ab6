"""The reference agent's answers to every question in the repository, in one JSON file.

A change to the parser is checked byte-identical (issue 37) by dumping both trees and comparing.

    python bench/dump_reference_answers.py OUT.json [--questions EARLIER.json]

The questions: every case file (nabahan_pipeline/data, nabahan_pipeline_tests/data), each case's
meaning-keeping variants (every perturbation, seeds 0 and 1), and every Arabic string literal in
the reference agent's tests; or, with --questions, those of an earlier dump (or a JSON list), so
that two trees whose tests differ are asked the same questions and their files compare with cmp.
For each: the agent's whole answer and the parser's reading (frame, what each part consumed, the
words left over). Prints how many questions and the file's digest.
Runs with PYTHONHASHSEED=0 (it re-executes itself so): the typo reader's choice between two forms
of a region name follows set order, which string hashing otherwise varies from run to run.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import sys
from pathlib import Path

from nabahan_pipeline.evaluation.robustness.perturbations import PERTURBATIONS, perturb
from nabahan_pipeline.reference_agent.agent import default_agent

ROOT = Path(__file__).resolve().parent.parent
CASE_FILES = sorted([*ROOT.glob("nabahan_pipeline/data/*.json"), *ROOT.glob("nabahan_pipeline_tests/data/*questions*.json"),
                     ROOT / "nabahan_pipeline_tests/data/claims_labelled.json"])


def questions() -> list[str]:
    """Every question, each once, in a fixed order."""
    found: dict[str, None] = {}
    for path in CASE_FILES:
        for case in json.loads(path.read_text(encoding="utf-8")):
            question = case["question"]
            found[question] = None
            for perturbation in PERTURBATIONS:
                for seed in (0, 1):
                    variant = perturb(question, perturbation.name, seed)
                    if variant:
                        found[variant] = None
    for path in sorted((ROOT / "nabahan_pipeline_tests/reference_agent").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and any("\u0621" <= c <= "\u064a" for c in node.value):
                found[node.value] = None
    return list(found)


def main() -> None:
    """Answer every question and write the answers, one entry per question."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the JSON file to write")
    parser.add_argument("--questions", type=Path, help="ask the questions of this earlier dump (or JSON list) instead")
    args = parser.parse_args()
    asked = list(json.loads(args.questions.read_text(encoding="utf-8"))) if args.questions else questions()
    agent = default_agent()
    out = {}
    for question in asked:
        parse = agent.parser.read(question)
        out[question] = {"answer": agent.ask(question), "parse": repr(parse)}
    text = json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True, default=str)
    args.out.write_text(text, encoding="utf-8")
    print(f"{len(out)} questions, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")


if __name__ == "__main__":
    main()
