"""error_locations.png: wrong answers by where they go wrong (the clause, or the insight), one bar
per location, stacked by category."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from nabahan_pipeline.evaluation.charts.style import INK, LABEL_BOX, chart_style, new_figure, no_data
from nabahan_pipeline.evaluation.charts.text import category_label
from nabahan_pipeline.evaluation.error_location import location_counts

# Okabe-Ito, then greys: told apart by readers with colour-blindness, one per category.
CATEGORY_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
                   "#999999", "#666666")


def plot_error_locations(scores: pd.DataFrame) -> Figure:
    """Horizontal bars, one per location named in ``scores``' error_location (in the order a query
    reads, the insight last), each split by category, with its total."""
    counts = location_counts(scores)
    locations = list(dict.fromkeys(counts["location"]))
    categories = sorted(set(counts["category"]))
    with chart_style():
        fig = new_figure(10.0, 2.4 + 0.45 * max(len(locations), 1))
        ax = fig.add_subplot()
        ax.set_title("Where wrong answers go wrong — موضع الخطأ")
        if counts.empty:
            no_data(ax, "No wrong answer located — لا توجد أخطاء محددة الموضع")
            return fig
        table = counts.pivot_table(index="location", columns="category", values="answers", aggfunc="sum",
                                   fill_value=0).reindex(index=locations, columns=categories, fill_value=0)
        y = np.arange(len(locations))[::-1]
        left = np.zeros(len(locations))
        for index, category in enumerate(categories):
            widths = table[category].to_numpy(dtype=float)
            ax.barh(y, widths, left=left, height=0.62, color=CATEGORY_COLORS[index % len(CATEGORY_COLORS)],
                    edgecolor="white", linewidth=0.8, label=category_label(category))
            left += widths
        for yi, total in zip(y, left):
            ax.text(total + left.max() * 0.01, yi, f"{int(total):,}", va="center", fontsize=9, color=INK,
                    bbox=LABEL_BOX)
        ax.set_yticks(y, locations)
        ax.tick_params(axis="y", length=0)
        ax.set_xlim(0, left.max() * 1.12)
        ax.xaxis.grid(True)
        ax.set_xlabel("Wrong answers (an answer counts under each location it names)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, title="Category — الفئة",
                  title_fontsize=9)
    return fig
