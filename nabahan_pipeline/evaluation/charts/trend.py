"""pass_rate_trend.png: pass rate, Correct rate and execution accuracy over runs, P95 latency on
the right axis; a "first run" note until there are two runs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, MaxNLocator, ScalarFormatter

from nabahan_pipeline.evaluation.formats import format_pct, format_seconds
from nabahan_pipeline.evaluation.charts.inputs import check_threshold, require_history
from nabahan_pipeline.evaluation.charts.style import (
    CORRECT_COLOR, EXEC_COLOR, INK, LABEL_BOX, MUTED, NA_COLOR, P95_COLOR, PASS_COLOR, chart_style,
    new_figure, percent_ticks,
)
from nabahan_pipeline.evaluation.charts.text import run_label


def _draw_first_run(ax: Axes, history: pd.DataFrame | None, *, compact: bool) -> None:
    """No trend yet: a note, with this run's figures when ``history`` has its one row."""
    ax.set_axis_off()
    title_pt, arabic_pt, lines_pt = (14, 13, 11) if compact else (16, 15, 10.5)
    if history is not None and len(history) == 1:
        row = history.iloc[0]
        figures = [f"pass rate {format_pct(row['pass_rate'])}",
                   f"execution accuracy {format_pct(row['execution_accuracy'])}",
                   f"P95 latency {format_seconds(row['p95_latency'])}"]
        # A dashboard panel is too narrow for the three figures on one line.
        lines = [f"This run ({run_label(row['run_label'])}):",
                 *(figures if compact else [" · ".join(figures)])]
    else:
        lines = ["No run history given."]
    # Stacked in points, the block centred on the panel, so that they never run into each other.
    block = (("First run, no trend yet", title_pt, "bold", INK),
             ("التشغيل الأول، لا يوجد اتجاه بعد", arabic_pt, "normal", INK),
             ("\n".join(lines), lines_pt, "normal", MUTED))
    heights = [size * (1.2 + 1.5 * text.count("\n")) + size * 0.6 for text, size, _, _ in block]
    y = -sum(heights) / 2
    for (text, size, weight, colour), height in zip(block, heights):
        ax.annotate(text, (0.5, 0.5), xycoords="axes fraction", xytext=(0, -y),
                    textcoords="offset points", ha="center", va="top", fontsize=size,
                    fontweight=weight, color=colour, linespacing=1.5)
        y += height


def draw_trend(ax: Axes, history: pd.DataFrame | None, threshold: float, *, compact: bool = False) -> None:
    """The rates over runs on ``ax`` (P95 latency on a twin axis); ``compact`` for a dashboard panel."""
    if history is not None:
        require_history(history)
    n = 0 if history is None else len(history)
    if n < 2:
        _draw_first_run(ax, history, compact=compact)
        return

    x = np.arange(n)
    pass_pct = pd.to_numeric(history["pass_rate"], errors="coerce").to_numpy(dtype=float) * 100
    exec_pct = pd.to_numeric(history["execution_accuracy"], errors="coerce").to_numpy(dtype=float) * 100
    p95 = pd.to_numeric(history["p95_latency"], errors="coerce").to_numpy(dtype=float)
    show_markers = n <= 60
    mk = (lambda m: m) if show_markers else (lambda m: None)

    handles = []
    if "correct_rate" in history:
        correct_pct = pd.to_numeric(history["correct_rate"], errors="coerce").to_numpy(dtype=float) * 100
        if np.isfinite(correct_pct).any():
            handles += ax.plot(x, correct_pct, color=CORRECT_COLOR, marker=mk("D"), markersize=4.5,
                               linewidth=2, label="Correct rate — الصحيحة")
    handles += ax.plot(x, pass_pct, color=PASS_COLOR, marker=mk("o"), markersize=5, linewidth=2,
                       label="Pass rate — نسبة النجاح")
    if np.isfinite(exec_pct).any():
        handles += ax.plot(x, exec_pct, color=EXEC_COLOR, marker=mk("s"), markersize=4.5,
                           linewidth=1.8, linestyle="-.",
                           label="Exec. accuracy — دقة التنفيذ" if compact
                           else "Execution accuracy — دقة التنفيذ")
    else:
        handles.append(Line2D([], [], color=NA_COLOR, linestyle="-.", label="Execution accuracy: n/a"))
    handles.append(ax.axhline(threshold * 100, color=INK, linestyle="--", linewidth=1.0,
                              label=f"{'Threshold' if compact else 'Pass threshold'} "
                                    f"{format_pct(threshold)}"))
    ax.set_ylim(0, 138)
    percent_ticks(ax.yaxis)
    ax.set_ylabel("Rate (%)")

    ax2 = ax.twinx()
    ax2.spines["right"].set_visible(True)
    finite = p95[np.isfinite(p95)]
    if finite.size:
        # Dotted reads well over a few runs; over hundreds it turns to noise, so solid and thin.
        handles += ax2.plot(x, p95, color=P95_COLOR, marker=mk("^"), markersize=5,
                            linewidth=1.6 if show_markers else 0.9,
                            linestyle=":" if show_markers else "-", alpha=1 if show_markers else 0.8,
                            label="P95 latency (right)" if compact
                            else "P95 latency (right axis)")
        top = max(float(finite.max()), 0.1)
        ax2.set_ylim(0, top / 0.7)
    ax2.set_ylabel("P95 latency (s)", color=P95_COLOR)
    ax2.tick_params(axis="y", colors=P95_COLOR)
    # Same number of decimals on every tick ("0.10", "0.12", not "0.1", "0.12").
    ax2.yaxis.set_major_formatter(ScalarFormatter(useOffset=False))

    last = pass_pct[-1]
    if np.isfinite(last):
        # Ends at the last point, so that it stays inside the plot.
        ax.annotate(format_pct(history["pass_rate"].iloc[-1]), (x[-1], last), xytext=(2, 7),
                    textcoords="offset points", ha="right", va="bottom", fontsize=9.5,
                    fontweight="bold", color=PASS_COLOR, bbox=LABEL_BOX, zorder=6)

    labels = [run_label(v) for v in history["run_label"]]
    ax.set_xlim(-0.5, n - 0.5)
    # As many run labels as fit side by side; rotated when even a few would not.
    width_in = 4.6 if compact else 8.3
    longest = max((len(s) for s in labels), default=1)
    fit_flat = int(width_in * 12 / (longest + 3))
    if fit_flat >= min(n, 4):
        nbins = max(1, min(fit_flat, 12) - 1)
    else:
        # Turned 30 degrees, a label still spans its length times cos 30 (and its height times
        # sin 30) along the axis.
        per_label_in = (longest + 3) / 12 * math.cos(math.radians(30)) + 0.08
        nbins = max(1, min(int(width_in / per_label_in), 12) - 1)
        ax.tick_params(axis="x", labelrotation=30, labelrotation_mode="xtick")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=nbins, integer=True))
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _p: labels[int(v)] if 0 <= int(v) < n and v == int(v) else "")
    )
    ax.set_xlabel("Run (oldest → newest) — التشغيل")
    if compact and len(handles) > 4:
        # A third legend row (the Correct rate's line): more room above 100%, so that the legend
        # clears the last pass rate's label up there.
        ax.set_ylim(0, 152)
    ax.legend(handles=handles, loc="upper center", ncol=2, fontsize=9,
              handlelength=2.0 if compact else 2.2, columnspacing=1.0 if compact else 1.5)


def plot_pass_rate_trend(history: pd.DataFrame | None, *, pass_threshold: float = 0.8) -> Figure:
    """Pass rate and execution accuracy (%) over runs, P95 latency on the right axis."""
    threshold = check_threshold(pass_threshold)
    with chart_style():
        fig = new_figure(10.0, 5.5)
        ax = fig.add_subplot()
        draw_trend(ax, history, threshold)
        ax.set_title("Pass rate trend — اتجاه نسبة النجاح")
    return fig
