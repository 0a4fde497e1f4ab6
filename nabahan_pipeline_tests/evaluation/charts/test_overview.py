"""The metrics chart's first bar is Correct, the seed's pass rate beside it."""

from __future__ import annotations

from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
from nabahan_fixtures.synthetic import fixed_summary


def test_correct_is_the_first_bar_and_the_pass_rate_the_second():
    ax = plot_metrics_overview(fixed_summary()).axes[0]
    ticks = [label.get_text().split("\n")[0] for label in ax.get_xticklabels()]
    assert ticks == ["Correct rate", "Pass rate (seed)", "Retrieval accuracy", "Generation fidelity",
                     "Execution accuracy"]
    heights = [round(bar.get_height(), 6) for bar in ax.patches]
    assert heights[:2] == [79.0, 81.2]
