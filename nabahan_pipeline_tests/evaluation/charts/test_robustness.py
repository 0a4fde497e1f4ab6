"""The robustness chart: a pair of bars per perturbation and overall, or a panel saying none applied."""

from __future__ import annotations

import pandas as pd

from nabahan_pipeline.evaluation.charts.robustness import plot_robustness
from nabahan_pipeline.evaluation.robustness.variants import SUMMARY_COLUMNS


def test_a_pair_of_bars_per_row_with_the_drop() -> None:
    summary = pd.DataFrame([["typo", "typo", 4, 4, 2, 1.0, 0.5, 0.5, 2, "a: x; b: y"],
                            ["overall", "", 4, 4, 2, 1.0, 0.5, 0.5, 2, "a: x; b: y"]], columns=SUMMARY_COLUMNS)
    ax = plot_robustness(summary).axes[0]
    widths = sorted(round(patch.get_width()) for patch in ax.patches)
    assert widths == [50, 50, 100, 100]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["overall", "typo"]
    assert any("2 broke" in text.get_text() for text in ax.texts)


def test_no_perturbation_applied() -> None:
    fig = plot_robustness(pd.DataFrame(columns=SUMMARY_COLUMNS))
    assert not fig.axes[0].axison and "No perturbation" in fig.axes[0].texts[0].get_text()
