"""metrics_overview.png: Correct (the gate's figure) first, the seed's pass rate beside it, then
retrieval accuracy, generation fidelity and execution accuracy, as bars against the threshold."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.formats import format_count, format_pct
from nabahan_pipeline.evaluation.charts.inputs import check_threshold, overall_row
from nabahan_pipeline.evaluation.charts.style import (
    INK, LABEL_BOX, MUTED, chart_style, new_figure, percent_ticks, rate_bar, threshold_legend,
)


def draw_metrics_overview(ax: Axes, overall: pd.Series, threshold: float, *, compact: bool = False) -> None:
    """The overall rates as bars on ``ax``, Correct first (when the summary has it) and the seed's
    pass rate beside it; ``compact`` for a dashboard panel."""
    exec_cases = int(overall["execution_cases"]) if pd.notna(overall["execution_cases"]) else 0
    if compact:
        exec_note = f"{exec_cases:,} gold" if exec_cases else "no gold SQL"
        if len(exec_note) > 12:  # a count of millions would run into the next bar's label
            exec_note = exec_note.replace(" ", "\n")
        names = (("Correct", "صحيح"), ("Seed pass", "النجاح"), ("Retrieval", "الاسترجاع"),
                 ("Fidelity", "الأمانة"), ("Exec", "التنفيذ"))
    else:
        exec_note = f"({exec_cases:,} cases with gold SQL)" if exec_cases else "(no gold SQL)"
        names = (("Correct rate", "نسبة الصحيح"), ("Pass rate (seed)", "نسبة النجاح"),
                 ("Retrieval accuracy", "دقة الاسترجاع"), ("Generation fidelity", "أمانة التوليد"),
                 ("Execution accuracy", "دقة التنفيذ"))
    values = (overall.get("correct_rate"), overall["pass_rate"], overall["avg_retrieval_accuracy"],
              overall["avg_generation_fidelity"], overall["execution_accuracy"])
    notes = (None, None if compact else "(form checks only)", None, None, exec_note)
    metrics = [(en, ar, v, note) for (en, ar), v, note in zip(names, values, notes)]
    if values[0] is None or pd.isna(values[0]):  # a summary from before the Correct verdict
        metrics = metrics[1:]
    x = np.arange(len(metrics))
    for xi, (_, _, value, _) in zip(x, metrics):
        if pd.isna(value):
            ax.bar(xi, 0, width=0.6)
            ax.text(xi, 2, "n/a", ha="center", va="bottom", fontsize=11, color=MUTED)
            continue
        ax.bar(xi, float(value) * 100, width=0.6, **rate_bar(float(value) >= threshold))
        ax.text(xi, float(value) * 100 + 1.5, format_pct(value), ha="center", va="bottom",
                fontsize=12 if compact else 11, fontweight="bold", color=INK, bbox=LABEL_BOX,
                zorder=5)
    ax.axhline(threshold * 100, color=INK, linestyle="--", linewidth=1.2, zorder=4)
    labels = [f"{en}\n{ar}" + (f"\n{note}" if note else "") for en, ar, _, note in metrics]
    ax.set_xticks(x, labels)
    ax.tick_params(axis="x", length=0, labelsize=9 if compact else 9.5, labelcolor=INK)
    ax.set_xlim(-0.6, len(metrics) - 0.4)
    ax.set_ylim(0, 126 if compact else 120)
    percent_ticks(ax.yaxis)
    ax.set_ylabel("Score (%)")
    threshold_legend(ax, threshold, wordy=not compact, loc="upper center", fontsize=9.5 if compact else 8.5,
                     columnspacing=1.0)


def plot_metrics_overview(summary: pd.DataFrame, *, pass_threshold: float = 0.8) -> Figure:
    """Bars: Correct, the seed's pass rate, retrieval accuracy, generation fidelity, execution
    accuracy (overall, %)."""
    threshold = check_threshold(pass_threshold)
    overall = overall_row(summary)
    with chart_style():
        fig = new_figure(9.5, 6.0)
        ax = fig.add_subplot()
        draw_metrics_overview(ax, overall, threshold)
        ax.set_title(f"Evaluation metrics — مقاييس التقييم\n{format_count(overall['total'])} cases",
                     linespacing=1.4)
    return fig
