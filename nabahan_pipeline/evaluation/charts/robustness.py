"""robustness_<stamp>.png: per perturbation, Correct on the originals beside Correct on the variants
(the drop printed at the end of each pair), from ``evaluation.robustness``'s summary; drawn apart
from the run's chart set, only when robustness is measured."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.formats import format_pct
from nabahan_pipeline.evaluation.charts.style import (
    FAIL_COLOR, FAIL_HATCH, INK, LABEL_BOX, PASS_COLOR, chart_style, new_figure, no_data,
    percent_ticks,
)
from nabahan_pipeline.evaluation.charts.text import safe_text


def plot_robustness(summary: pd.DataFrame) -> Figure:
    """Horizontal bar pairs, one per perturbation and one overall: Correct rate on the originals
    (solid) and on their variants (hatched), with the drop in points."""
    with chart_style():
        rows = summary.iloc[::-1]  # overall at the bottom, the first perturbation on top
        fig = new_figure(10.0, 1.2 + 0.42 * max(len(rows), 1))
        ax = fig.subplots()
        if rows.empty:
            no_data(ax, "No perturbation applied — لم ينطبق أي تغيير")
            return fig
        y = np.arange(len(rows))
        ax.barh(y + 0.2, rows["original_rate"] * 100, 0.38, color=PASS_COLOR, label="originals — الأصلية")
        ax.barh(y - 0.2, rows["variant_rate"] * 100, 0.38, color="white", edgecolor=FAIL_COLOR, hatch=FAIL_HATCH,
                label="variants — المتغيّرة")
        for position, row in zip(y, rows.itertuples()):
            ax.annotate(f"−{format_pct(row.drop)} ({row.broken} broke, n={row.cases})" if row.drop > 0 else
                        f"{format_pct(-row.drop)} gain (n={row.cases})" if row.drop < 0 else f"no drop (n={row.cases})",
                        (max(row.original_rate, row.variant_rate) * 100, position), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=8, color=INK, bbox=LABEL_BOX)
        ax.set_yticks(y, [safe_text(name) for name in rows["perturbation"]])
        ax.set_xlim(0, 135)
        percent_ticks(ax.xaxis)
        ax.set_xlabel("Correct rate (%) — نسبة الإجابات الصحيحة")
        ax.legend(loc="lower right", fontsize=8.5)
        ax.set_title("Robustness to perturbed questions — المتانة أمام صيغ السؤال")
    return fig
