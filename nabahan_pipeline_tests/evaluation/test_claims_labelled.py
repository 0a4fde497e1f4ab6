"""The labelled claims set (issue 25): insights over real rows, half right and half wrong, judged
by the public table-level scoring. Correct must let through at most 3 % of the wrong ones and flag
at most 3 % of the right ones; every item's SQL runs and returns rows (or the item is a refusal)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.evaluation.claims_labelled import load_items, run_item_sql, score_items

CLAIMS_SET = Path(__file__).resolve().parents[1] / "data" / "claims_labelled.json"
TARGET = 0.97
WRONG_KINDS = {"wrong_row", "wrong_superlative", "wrong_direction", "wrong_yes_no", "bound_as_rounding",
               "wrong_measure", "none_but_rows", "not_arabic", "wrong_number", "wrong_approximation"}
RIGHT_STYLES = {"terse", "llm_prose", "dialect", "words", "arabic_indic", "approximation", "derived_in_row",
                "implied_dates", "hijri_years", "teens", "refusal", "superlative", "direction", "yes_no", "bound"}

ITEMS = load_items(CLAIMS_SET)


@pytest.fixture(scope="module")
def scores() -> pd.DataFrame:
    return score_items(ITEMS, ensure_database())


def test_the_set_is_at_least_300_items_half_right_half_wrong_over_every_kind() -> None:
    labels = Counter(item["label"] for item in ITEMS)
    assert len(ITEMS) >= 300 and labels["right"] == labels["wrong"], labels
    assert len({item["id"] for item in ITEMS}) == len(ITEMS), "item ids are unique"
    kinds = Counter(item["kind"] for item in ITEMS if item["label"] == "wrong")
    styles = Counter(item["kind"] for item in ITEMS if item["label"] == "right")
    assert set(kinds) == WRONG_KINDS and min(kinds.values()) >= 5, kinds
    assert set(styles) == RIGHT_STYLES and min(styles.values()) >= 5, styles


@pytest.mark.parametrize("item", ITEMS, ids=[item["id"] for item in ITEMS])
def test_every_items_sql_runs_and_returns_rows_or_the_item_is_a_refusal(item: dict) -> None:
    result = run_item_sql(item, ensure_database())
    if item["sql"] is None:
        assert item["status"] == "out_of_scope" and item["category"] == "out_of_scope"
    else:
        assert item["status"] == "success" and result is not None and result.rows and not result.truncated


def test_correct_lets_through_at_most_3_percent_of_the_wrong_items(scores: pd.DataFrame) -> None:
    wrong = scores[scores["label"] == "wrong"]
    passed = wrong[wrong["correct"]]
    through, allowed = len(passed), (1 - TARGET) * len(wrong)
    assert through <= allowed, (
        f"{through}/{len(wrong)} wrong items judged Correct, by kind: "
        f"{passed['kind'].value_counts().to_dict()}; first: {passed['item'].head(10).tolist()}"
    )


def test_correct_flags_at_most_3_percent_of_the_right_items(scores: pd.DataFrame) -> None:
    right = scores[scores["label"] == "right"]
    flagged = right[~right["correct"]]
    missed, allowed = len(flagged), (1 - TARGET) * len(right)
    assert missed <= allowed, (
        f"{missed}/{len(right)} right items not Correct, by style: "
        f"{flagged['kind'].value_counts().to_dict()}; first: "
        f"{[f'{row.item}: {row.not_correct_because}' for row in flagged.head(5).itertuples()]}"
    )
