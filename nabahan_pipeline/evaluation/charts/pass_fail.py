"""pass_fail_distribution.png: a donut of passed, failed (answered but wrong) and errors."""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.formats import format_count, format_pct
from nabahan_pipeline.evaluation.charts.inputs import overall_row
from nabahan_pipeline.evaluation.charts.style import (
    ERROR_COLOR, ERROR_HATCH, FAIL_COLOR, FAIL_HATCH, INK, MUTED, PASS_COLOR, chart_style, new_figure,
    no_data,
)


def _pass_fail_slices(overall: pd.Series) -> list[tuple[str, str, int, str, str, str | None]]:
    """(English, Arabic, count, percent text, colour, hatch); errors are counted among failures."""
    total = int(overall["total"])
    passed = int(overall["passed"])
    errors = int(overall["errors"])
    failed_answered = max(int(overall["failed"]) - errors, 0)
    pct = (lambda n: format_pct(n / total)) if total else (lambda n: "n/a")
    slices = [
        ("Passed", "ناجح", passed, format_pct(overall["pass_rate"]), PASS_COLOR, None),
        ("Failed", "راسب", failed_answered, pct(failed_answered), FAIL_COLOR, FAIL_HATCH),
    ]
    if errors:
        slices.append(("Errors", "أخطاء", errors, pct(errors), ERROR_COLOR, ERROR_HATCH))
    return slices


def draw_pass_fail(ax: Axes, overall: pd.Series, *, legend_fontsize: float = 9.5) -> None:
    """The donut on ``ax``, the number of cases in its hole and a legend with counts at its right."""
    total = int(overall["total"])
    if total <= 0:
        no_data(ax, "No cases — لا توجد حالات")
        return
    slices = [s for s in _pass_fail_slices(overall) if s[2] > 0]
    result = ax.pie(
        [s[2] for s in slices],
        colors=[s[4] for s in slices],
        hatch=[s[5] or "" for s in slices],
        startangle=90, counterclock=False,
        wedgeprops={"width": 0.42, "edgecolor": "white", "linewidth": 1.5},
    )
    wedges = getattr(result, "wedges", None) or result[0]
    for wedge, s in zip(wedges, slices):
        if s[2] / total < 0.06:
            continue  # too thin to hold a label; the legend has it
        angle = math.radians((wedge.theta1 + wedge.theta2) / 2)
        r = 0.79
        ax.text(r * math.cos(angle), r * math.sin(angle), s[3], ha="center", va="center",
                fontsize=10, fontweight="bold", color="white",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": s[4], "edgecolor": "none"})
    # Stacked in points from the centre, so that they keep apart however small the donut is.
    ax.annotate(format_count(total), (0, 0), xytext=(0, 1), textcoords="offset points", ha="center",
                va="bottom", fontsize=17, fontweight="bold", color=INK)
    ax.annotate("cases\nحالة", (0, 0), xytext=(0, -1), textcoords="offset points", ha="center",
                va="top", fontsize=10, color=MUTED, linespacing=1.3)
    ax.set_aspect("equal")
    ax.legend(
        wedges,
        [f"{en} — {ar}\n{format_count(n)} cases · {pct}" for en, ar, n, pct, _, _ in slices],
        loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=legend_fontsize,
        labelspacing=1.1, handlelength=1.6, handleheight=1.4,
    )


def plot_pass_fail_distribution(summary: pd.DataFrame) -> Figure:
    """Donut of passed / failed (answered but wrong) / errors, with counts and percentages."""
    overall = overall_row(summary)
    with chart_style():
        fig = new_figure(8.5, 5.5)
        ax = fig.add_subplot()
        draw_pass_fail(ax, overall)
        ax.set_title("Pass / fail distribution — توزيع النجاح والرسوب")
    return fig
