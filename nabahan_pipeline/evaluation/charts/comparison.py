"""agent_comparison.png: agents side by side. Left, grouped bars: each agent's Correct rate overall
and per category, an error bar over its 95 % interval; right, each agent's Correct rate against its
latency (a dot at p50, a whisker to p95). Drawn from the tables of ``evaluation.comparison``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from nabahan_pipeline.evaluation.formats import format_pct, format_seconds
from nabahan_pipeline.evaluation.charts.style import (
    CORRECT_COLOR, ERROR_COLOR, EXEC_COLOR, FAIL_COLOR, INK, LABEL_BOX, MUTED, P95_COLOR,
    PASS_COLOR, chart_style, new_figure, no_data, percent_ticks,
)
from nabahan_pipeline.evaluation.charts.text import category_label, safe_text, truncate_text

# One colour per agent (Okabe-Ito), doubled by a hatch so that print and colour-blind eyes can
# tell the bars apart; past seven agents the pairs repeat with another hatch.
AGENT_COLORS = (PASS_COLOR, FAIL_COLOR, P95_COLOR, EXEC_COLOR, ERROR_COLOR, "#56B4E9", CORRECT_COLOR)
AGENT_HATCHES = ("", "///", "...", "xx", "\\\\\\", "++", "--")
LABEL_CHARS = 28


def agent_style(position: int) -> dict[str, str]:
    """The colour and hatch of the agent at ``position``."""
    colors, hatches = len(AGENT_COLORS), len(AGENT_HATCHES)
    return {"color": AGENT_COLORS[position % colors],
            "hatch": AGENT_HATCHES[(position + position // colors) % hatches]}


def agent_name(label: object) -> str:
    """An agent's label as the chart shows it: drawable, at most LABEL_CHARS characters."""
    return truncate_text(safe_text(label), LABEL_CHARS)


def draw_category_bars(ax: Axes, agents: pd.DataFrame, categories: pd.DataFrame) -> None:
    """Grouped bars: overall, then each category; one bar per agent, its Correct rate in %, an
    error bar from its interval's lower to its upper bound (none where it has none)."""
    labels = agents["agent"].tolist()
    groups = ["overall", *dict.fromkeys(categories["category"])]
    figures = ("correct_rate", "correct_rate_low", "correct_rate_high")
    rates = {(row["agent"], "overall"): tuple(row.get(f, np.nan) for f in figures) for _, row in agents.iterrows()}
    rates.update({(row["agent"], row["category"]): tuple(row.get(f, np.nan) for f in figures)
                  for _, row in categories.iterrows()})
    width = 0.8 / max(len(labels), 1)
    x = np.arange(len(groups))
    for position, label in enumerate(labels):
        style = agent_style(position)
        values = [rates.get((label, group), (np.nan,) * 3) for group in groups]
        heights = [0.0 if pd.isna(rate) else float(rate) * 100 for rate, _, _ in values]
        below = [0.0 if pd.isna(low) else height - float(low) * 100 for height, (_, low, _) in zip(heights, values)]
        above = [0.0 if pd.isna(high) else float(high) * 100 - height for height, (_, _, high) in zip(heights, values)]
        ax.bar(x - 0.4 + width * (position + 0.5), heights, width * 0.92, color=style["color"],
               hatch=style["hatch"] or None, edgecolor="white", linewidth=0.6, label=agent_name(label),
               yerr=[below, above], error_kw={"ecolor": INK, "elinewidth": 0.8, "capsize": 2.0})
    names = ["overall — الكل", *(category_label(group) for group in groups[1:])]
    ax.set_xticks(x, names, rotation=30, ha="right", rotation_mode="anchor")
    ax.set_ylim(0, 112)
    percent_ticks(ax.yaxis)
    ax.set_ylabel("Correct rate (%) — نسبة الإجابات الصحيحة")
    ax.legend(loc="upper right", ncol=min(len(labels), 3), fontsize=8.5, handlelength=1.6)
    ax.set_title("Correct rate by category, 95% intervals — الدقة حسب الفئة")


def draw_latency_scatter(ax: Axes, agents: pd.DataFrame) -> None:
    """One point per agent: p50 latency against Correct rate, a whisker from p50 to p95."""
    drawable = agents.dropna(subset=["p50_latency", "correct_rate"])
    if drawable.empty:
        no_data(ax, "No latencies — لا توجد أزمنة")
        return
    for position, row in enumerate(agents.itertuples()):
        if pd.isna(row.p50_latency) or pd.isna(row.correct_rate):
            continue
        color = agent_style(position)["color"]
        y = float(row.correct_rate) * 100
        if not pd.isna(row.p95_latency):
            ax.plot([row.p50_latency, row.p95_latency], [y, y], color=color, linewidth=1.6, alpha=0.8)
        ax.scatter([row.p50_latency], [y], s=60, color=color, edgecolor=INK, linewidth=0.6, zorder=5)
        ax.annotate(f"{agent_name(row.agent)}\n{format_pct(row.correct_rate)} · p50 {format_seconds(row.p50_latency)}",
                    (row.p50_latency, y), xytext=(6, 6 if position % 2 == 0 else -26),
                    textcoords="offset points", fontsize=8,
                    color=INK, bbox=LABEL_BOX, zorder=6)
    slowest = float(np.nanmax(drawable[["p50_latency", "p95_latency"]].to_numpy(dtype=float)))
    ax.set_xlim(0, slowest * 1.35 if slowest > 0 else 1)
    ax.set_ylim(0, 112)
    percent_ticks(ax.yaxis)
    ax.xaxis.grid(True)
    ax.set_xlabel("Latency (s): dot p50, line to p95 — زمن الاستجابة")
    ax.set_ylabel("Correct rate (%)")
    ax.set_title("Correct rate vs latency — الدقة والسرعة")
    ax.legend(handles=[Patch(color=MUTED, label="up and to the left is better")], loc="lower right", fontsize=8)


def plot_agent_comparison(agents: pd.DataFrame, categories: pd.DataFrame) -> Figure:
    """The comparison chart: Correct rate by category (grouped bars) beside Correct rate against
    latency, one colour per agent."""
    with chart_style():
        fig = new_figure(13.0, 5.6)
        bars, scatter = fig.subplots(1, 2, width_ratios=[1.9, 1.0])
        draw_category_bars(bars, agents, categories)
        draw_latency_scatter(scatter, agents)
        fig.suptitle(f"{len(agents)} agents side by side — مقارنة الوكلاء", fontweight="bold")
    return fig
