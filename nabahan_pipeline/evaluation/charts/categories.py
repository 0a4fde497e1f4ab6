"""category_breakdown.png: the pass rate of each category, with its counts, against the threshold."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.formats import format_pct
from nabahan_pipeline.evaluation.charts.inputs import category_rows, check_threshold
from nabahan_pipeline.evaluation.charts.style import (
    INK, LABEL_BOX, MUTED, chart_style, new_figure, no_data, percent_ticks, rate_bar, threshold_legend,
)
from nabahan_pipeline.evaluation.charts.text import category_label


def draw_categories(ax: Axes, summary: pd.DataFrame, threshold: float, *, compact: bool = False) -> None:
    """One horizontal bar per category row of the summary, labelled "rate  (passed/total)"."""
    cats = category_rows(summary)
    if cats.empty:
        no_data(ax, "No categories — لا توجد فئات")
        return
    y = np.arange(len(cats))[::-1]
    fontsize = 10 if compact else 9.5
    for yi, (_, row) in zip(y, cats.iterrows()):
        rate = row["pass_rate"]
        counts = f"({int(row['passed']):,}/{int(row['total']):,})"
        if pd.isna(rate):
            ax.text(1, yi, f"n/a {counts}", va="center", fontsize=fontsize, color=MUTED)
            continue
        ax.barh(yi, float(rate) * 100, height=0.62, **rate_bar(float(rate) >= threshold))
        ax.text(float(rate) * 100 + 1.2, yi, f"{format_pct(rate)}  {counts}", va="center",
                fontsize=fontsize, color=INK, bbox=LABEL_BOX, zorder=5)
    # Only across the bars, so that it does not run through the legend above them.
    ax.vlines(threshold * 100, -0.6, len(cats) - 0.4, color=INK, linestyle="--", linewidth=1.1,
              zorder=4)
    ax.set_yticks(y, [category_label(c) for c in cats["scope"]])
    ax.tick_params(axis="y", length=0, labelsize=fontsize, labelcolor=INK)
    ax.set_ylim(-0.7, len(cats) - 0.3 + (0.9 if not compact else 1.1))
    ax.set_xlim(0, 136)
    percent_ticks(ax.xaxis)
    ax.set_xlabel("Pass rate (%) — نسبة النجاح")
    threshold_legend(ax, threshold, loc="upper right", fontsize=9.5 if compact else 8.5)


def plot_category_breakdown(summary: pd.DataFrame, *, pass_threshold: float = 0.8) -> Figure:
    """Horizontal bars, one per category row of the summary: pass rate with case counts."""
    threshold = check_threshold(pass_threshold)
    n = max(len(category_rows(summary)), 1)
    with chart_style():
        fig = new_figure(10.0, 2.0 + 0.5 * n)
        ax = fig.add_subplot()
        draw_categories(ax, summary, threshold)
        ax.set_title("Pass rate by category — نسبة النجاح حسب الفئة")
    return fig
