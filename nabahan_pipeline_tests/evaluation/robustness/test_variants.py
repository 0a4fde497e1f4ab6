"""The variant cases of a suite, each variant's verdict beside its original's, the per-perturbation
summary and the CSV files (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.cases import load_test_cases
from nabahan_pipeline.evaluation.robustness.perturbations import PERTURBATIONS, perturb
from nabahan_pipeline.evaluation.robustness.variants import (
    RESULT_COLUMNS,
    SUMMARY_COLUMNS,
    robustness_results,
    robustness_summary,
    variant_cases,
    write_robustness,
)
from nabahan_pipeline.settings import SHIPPED_TEST_CASES


def test_every_case_once_per_perturbation_that_applies_out_of_scope_ones_too() -> None:
    cases = load_test_cases(SHIPPED_TEST_CASES)
    variants = variant_cases(cases)
    expected = [(case_id, p.name) for case_id, question in zip(cases["case_id"], cases["question"])
                for p in PERTURBATIONS if perturb(question, p.name) is not None]
    assert [tuple(case_id.rsplit("~", 1)) for case_id in variants["case_id"]] == expected
    assert variants["case_id"].is_unique and list(variants.columns) == list(cases.columns)
    assert "out_of_scope" in set(variants["category"])
    originals = cases.set_index("case_id")
    for variant in variants.to_dict("records"):
        case = originals.loc[variant["case_id"].rsplit("~", 1)[0]]
        assert variant["question"] != case["question"]
        assert variant["expected_sql"] == case["expected_sql"] and variant["category"] == case["category"]
    assert variant_cases(cases, seed=3)["case_id"].tolist() == variant_cases(cases, seed=3)["case_id"].tolist()


def _tables() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    cases = pd.DataFrame({"case_id": ["a", "b"], "question": ["كم عدد المناقصات في منطقة الرياض؟",
                                                              "ما هي حالة الطقس؟"],
                          "category": ["region_filter", "out_of_scope"]})
    # Case a: right in both repeats; case b: wrong once.
    scores = pd.DataFrame({"case_id": ["a", "a", "b", "b"], "correct": [True, True, True, False]})
    variants = pd.DataFrame({"case_id": ["a~typo", "a~english_name", "b~typo"],
                             "question": ["كم عدد المناقصت في منطقة الرياض؟", "كم عدد المناقصات في Riyadh؟",
                                          "ما هي حالة الطقص؟"],
                             "category": ["region_filter", "region_filter", "out_of_scope"]})
    variant_scores = pd.DataFrame({"case_id": ["a~typo", "a~english_name", "b~typo"],
                                   "correct": [False, True, True],
                                   "status": ["out_of_scope", "success", "out_of_scope"],
                                   "not_correct_because": ["refused", "", ""], "sql": [None, "SELECT 1", None]})
    return cases, scores, variants, variant_scores


def test_a_variant_breaks_when_its_original_was_right_and_it_is_not() -> None:
    results = robustness_results(*_tables())
    assert list(results.columns) == RESULT_COLUMNS
    assert results[["case_id", "perturbation", "original_correct", "variant_correct", "broke", "fixed"]] \
        .values.tolist() == [["a", "typo", True, False, True, False], ["a", "english_name", True, True, False, False],
                             ["b", "typo", False, True, False, True]]
    assert results["family"].tolist() == ["typo", "loanword", "typo"]


def test_the_summary_per_perturbation_then_overall() -> None:
    summary = robustness_summary(robustness_results(*_tables()))
    assert list(summary.columns) == SUMMARY_COLUMNS
    assert summary["perturbation"].tolist() == ["typo", "english_name", "overall"]  # in PERTURBATIONS' order
    typo = summary.iloc[0]
    assert (typo["cases"], typo["correct_original"], typo["correct_variant"], typo["broken"]) == (2, 1, 1, 1)
    assert typo["drop"] == 0.0 and typo["broken_cases"] == "a: كم عدد المناقصت في منطقة الرياض؟"
    overall = summary.iloc[-1]
    assert overall["cases"] == 3 and abs(overall["drop"] - (2 - 2) / 3) < 1e-9 and overall["broken"] == 1


def test_the_files_hold_the_tables_and_no_formula(tmp_path: Path) -> None:
    cases, scores, variants, variant_scores = _tables()
    variant_scores.loc[1, "sql"] = "=HYPERLINK(\"http://x\")"
    results = robustness_results(cases, scores, variants, variant_scores)
    paths = write_robustness(results, robustness_summary(results), tmp_path, "20260101_000000")
    again = write_robustness(results, robustness_summary(results), tmp_path, "20260101_000000")
    assert set(paths) == {"robustness_results_csv", "robustness_summary_csv"} and paths != again  # never overwritten
    written = pd.read_csv(paths["robustness_results_csv"], encoding="utf-8-sig")
    assert len(written) == 3 and not written["sql"].astype(str).str.startswith("=").any()
    assert pd.read_csv(paths["robustness_summary_csv"], encoding="utf-8-sig")["perturbation"].iloc[-1] == "overall"
