"""agent_comparison.png: several agents side by side, each category's correct rate as grouped bars
and each agent's median latency against its correct rate."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.charts.formats import format_pct, format_seconds
from nabahan_pipeline.evaluation.charts.style import (
    CORRECT_COLOR,
    EXEC_COLOR,
    FAIL_COLOR,
    INK,
    P95_COLOR,
    PASS_COLOR,
    ERROR_COLOR,
    chart_style,
    new_figure,
    no_data,
)
from nabahan_pipeline.evaluation.charts.text import category_label, safe_text, truncate_text

# One colour and hatch per agent, cycled (colour-blind safe; the hatch tells them apart in grey).
AGENT_COLORS = (PASS_COLOR, FAIL_COLOR, P95_COLOR, EXEC_COLOR, ERROR_COLOR, CORRECT_COLOR)
AGENT_HATCHES = (None, "///", "...", "xx", "\\\\", "--")
AGENT_LABEL_CHARS = 24


def agent_label(label: object) -> str:
    """An agent's label as drawn: drawable characters, at most AGENT_LABEL_CHARS."""
    return truncate_text(safe_text(label), AGENT_LABEL_CHARS)


def draw_category_bars(ax: Axes, categories: pd.DataFrame) -> None:
    """Grouped bars: per category, one bar per agent, its correct rate."""
    agents = [c for c in categories.columns if c != "category"]
    if categories.empty or not agents:
        no_data(ax, "No categories — لا توجد فئات")
        return
    y = np.arange(len(categories))[::-1]
    height = 0.8 / len(agents)
    for i, agent in enumerate(agents):
        rates = categories[agent].astype(float).fillna(0.0).to_numpy() * 100
        offset = (len(agents) - 1) / 2 * height - i * height
        ax.barh(y + offset, rates, height=height * 0.92, color=AGENT_COLORS[i % len(AGENT_COLORS)],
                hatch=AGENT_HATCHES[i % len(AGENT_HATCHES)], edgecolor="white", linewidth=0.6,
                label=agent_label(agent))
    ax.set_yticks(y, [category_label(c) for c in categories["category"]])
    ax.tick_params(axis="y", length=0, labelcolor=INK)
    ax.set_xlim(0, 100)
    ax.set_xticks(range(0, 101, 20), [f"{v}%" for v in range(0, 101, 20)])
    ax.xaxis.grid(True)
    ax.set_xlabel("Correct rate (%) — نسبة الإجابات الصحيحة")
    ax.set_title("Correct rate by category — حسب الفئة")
    ax.legend(loc="lower right", fontsize=8.5)


def draw_latency_scatter(ax: Axes, agents: pd.DataFrame) -> None:
    """One point per agent: median latency (x) against correct rate (y), named."""
    shown = agents.dropna(subset=["p50_latency", "correct_rate"])
    if shown.empty:
        no_data(ax, "No answers — لا توجد إجابات")
        return
    for i, (_, row) in enumerate(agents.iterrows()):
        if pd.isna(row["p50_latency"]) or pd.isna(row["correct_rate"]):
            continue
        x, y = float(row["p50_latency"]), float(row["correct_rate"]) * 100
        ax.scatter([x], [y], s=70, color=AGENT_COLORS[i % len(AGENT_COLORS)], edgecolor=INK, zorder=3)
        ax.annotate(f"{agent_label(row['agent'])}  {format_pct(row['correct_rate'])}, {format_seconds(x)}",
                    (x, y), textcoords="offset points", xytext=(6, 6), fontsize=8.5, color=INK)
    right = max(float(shown["p50_latency"].max()) * 1.35, 0.01)
    ax.set_xlim(0, right)
    ax.set_ylim(0, 105)
    ax.grid(True)
    ax.set_xlabel("Median latency (s) — الزمن الوسيط")
    ax.set_ylabel("Correct rate (%)")
    ax.set_title("Latency vs correct rate — الزمن مقابل الصحة")


def plot_agent_comparison(agents: pd.DataFrame, categories: pd.DataFrame) -> Figure:
    """The comparison chart of ``evaluation.comparison.compare_agents``'s agents and categories."""
    rows = max(len(categories), 1) * max(len(agents), 1)
    with chart_style():
        fig = new_figure(13.0, max(4.5, 1.6 + 0.28 * rows))
        bars, scatter = fig.subplots(1, 2, width_ratios=(1.25, 1))
        draw_category_bars(bars, categories)
        draw_latency_scatter(scatter, agents)
        fig.suptitle("Agents compared — مقارنة الوكلاء", fontweight="bold")
    return fig
