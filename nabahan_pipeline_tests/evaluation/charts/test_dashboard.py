"""The dashboard's headline tiles judge the figure the run's gate reads (issue 28's --gate-on lower,
--gate pass_rate), not always the Correct rate itself."""

from __future__ import annotations

import pytest

from nabahan_pipeline.evaluation.charts.dashboard import _headline_tiles
from nabahan_pipeline.evaluation.charts.inputs import overall_row
from nabahan_pipeline.evaluation.charts.style import FAIL_COLOR, INK, PASS_COLOR
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_scores


@pytest.fixture(scope="module")
def overall():
    return overall_row(summarize(make_scores(60, seed=7)))


def _tiles(overall, threshold, gated=None):
    return {tile.key: tile for tile in _headline_tiles(overall, threshold, gated)}


def test_by_default_the_correct_rate_is_judged(overall):
    threshold = float(overall["correct_rate"]) - 0.01
    tiles = _tiles(overall, threshold)
    assert tiles["correct_rate"].notes[-1].startswith("at or above threshold")
    assert tiles["correct_rate"].colour == PASS_COLOR and tiles["pass_rate"].notes[-1] == "form checks only"


def test_under_gate_on_lower_the_lower_bound_is_judged_and_shown(overall):
    threshold = 0.8
    assert overall["correct_rate_low"] < threshold <= overall["correct_rate"], "the rate clears it, its bound not"
    assert _tiles(overall, threshold)["correct_rate"].colour == PASS_COLOR
    tile = _tiles(overall, threshold, "correct_rate_low")["correct_rate"]
    assert tile.colour == FAIL_COLOR and tile.notes[-1] == "CI low below threshold 80.0%"


def test_under_the_seeds_gate_the_pass_rate_tile_carries_the_verdict(overall):
    threshold = float(overall["pass_rate"]) + 0.01
    tiles = _tiles(overall, threshold, "pass_rate")
    assert tiles["pass_rate"].colour == FAIL_COLOR and tiles["pass_rate"].notes[-1].startswith("below threshold")
    assert tiles["correct_rate"].colour == INK and not any("threshold" in note for note in tiles["correct_rate"].notes)
