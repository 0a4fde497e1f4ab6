"""An agent's robustness to perturbed questions as tables: a suite's variant cases (gold and rules
unchanged), each variant's verdict beside its original's, and per perturbation the drop and the
cases that broke. The caller asks and scores them as any run's answers."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.reports import write_tables
from nabahan_pipeline.evaluation.robustness.perturbations import PERTURBATIONS, perturb

# A variant's case id: its case's and its perturbation's, joined by this mark.
SEPARATOR = "~"
RESULT_COLUMNS = ["case_id", "perturbation", "family", "category", "question", "variant", "original_correct",
                  "variant_correct", "broke", "fixed", "status", "not_correct_because", "sql"]
SUMMARY_COLUMNS = ["perturbation", "family", "cases", "correct_original", "correct_variant", "original_rate",
                   "variant_rate", "drop", "broken", "broken_cases"]


def variant_cases(cases: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The test_cases table of every variant: each case (out-of-scope ones too) once per
    perturbation that applies to it, case id ``<case_id>~<perturbation>``, the rest of the case
    as it is; in case order, perturbations in their order."""
    rows = []
    for case in cases.to_dict("records"):
        for perturbation in PERTURBATIONS:
            variant = perturb(case["question"], perturbation.name, seed)
            if variant is not None:
                case_id = f"{case['case_id']}{SEPARATOR}{perturbation.name}"
                rows.append({**case, "case_id": case_id, "question": variant})
    return pd.DataFrame(rows, columns=cases.columns)


def robustness_results(cases: pd.DataFrame, scores: pd.DataFrame, variants: pd.DataFrame,
                       variant_scores: pd.DataFrame) -> pd.DataFrame:
    """One row per variant: its case, perturbation and text, Correct on the original (every
    repeat of it) and on the variant (its one answer), whether it broke (right, then wrong) or was
    fixed (wrong, then right), and the variant's answer."""
    original_correct = scores.groupby("case_id")["correct"].all()
    questions = dict(zip(cases["case_id"], cases["question"]))
    families = {perturbation.name: perturbation.family for perturbation in PERTURBATIONS}
    answers = variant_scores.drop_duplicates("case_id").set_index("case_id")
    rows = []
    for variant in variants.to_dict("records"):
        case_id, name = variant["case_id"].rsplit(SEPARATOR, 1)
        answer = answers.loc[variant["case_id"]]
        before, after = bool(original_correct[case_id]), bool(answer["correct"])
        rows.append({"case_id": case_id, "perturbation": name, "family": families.get(name, ""),
                     "category": variant["category"], "question": questions[case_id], "variant": variant["question"],
                     "original_correct": before, "variant_correct": after, "broke": before and not after,
                     "fixed": after and not before, "status": answer["status"],
                     "not_correct_because": answer["not_correct_because"], "sql": answer["sql"]})
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def robustness_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per perturbation (in their order), then ``overall``: the cases it applied to, Correct on
    their originals and on the variants (counts and rates), the drop (original rate less variant
    rate) and the cases that broke, each as ``case_id: variant``."""
    order = [p.name for p in PERTURBATIONS if p.name in set(results["perturbation"])]
    groups = [(name, results[results["perturbation"] == name]) for name in order]
    rows = [_summary_row(name, group["family"].iloc[0], group) for name, group in groups]
    rows.append(_summary_row("overall", "", results))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _summary_row(name: str, family: str, group: pd.DataFrame) -> dict:
    cases = len(group)
    before, after = int(group["original_correct"].sum()), int(group["variant_correct"].sum())
    broken = group[group["broke"]]
    rate = (lambda count: count / cases) if cases else (lambda count: math.nan)
    return {
        "perturbation": name, "family": family, "cases": cases, "correct_original": before,
        "correct_variant": after, "original_rate": rate(before), "variant_rate": rate(after),
        "drop": rate(before - after), "broken": len(broken),
        "broken_cases": "; ".join(f"{row.case_id}: {row.variant}" for row in broken.itertuples()),
    }


def write_robustness(results: pd.DataFrame, summary: pd.DataFrame, output_dir: str | Path,
                     stamp: str) -> dict[str, Path]:
    """Write the per-variant and per-perturbation CSV files atomically, under names no other run
    holds (no cell a formula: ``write_tables``)."""
    return write_tables({"robustness_results_csv": ("robustness_results", results),
                         "robustness_summary_csv": ("robustness_summary", summary)}, output_dir, stamp)
