"""latency_analysis.png: a latency histogram over the tier bands, and latency per case in query
order, both on log axes."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator

from nabahan_pipeline.evaluation.formats import format_pct, seconds_tick_label
from nabahan_pipeline.evaluation.charts.inputs import latencies, require_scores
from nabahan_pipeline.evaluation.charts.style import (
    FAIL_COLOR, FAIL_HATCH, INK, MUTED, PASS_COLOR, chart_style, new_figure, no_data, tick_fontsize,
)
from nabahan_pipeline.evaluation.charts.ticks import LATENCY_FLOOR, SpacedLogLocator
from nabahan_pipeline.evaluation.charts.tiers import (
    TIER_ALPHA, TIER_BOUNDARIES, TIER_COLORS, TIER_SPANS, tier_counts, tier_range,
)


def _latency_range(lat: np.ndarray) -> tuple[float, float]:
    lo = min(float(lat.min()), 0.5) / 1.4
    hi = max(float(lat.max()), 14.0) * 1.35
    return max(lo, LATENCY_FLOOR / 1.4), hi


def draw_latency_hist(ax: Axes, scores: pd.DataFrame, *, compact: bool = False) -> None:
    """Passed and failed answers stacked per latency bin (log bins), the tiers shaded behind."""
    df = latencies(scores)
    if df.empty:
        no_data(ax, "No latency data — لا توجد بيانات زمن")
        return
    lat = np.clip(df["latency_s"].to_numpy(), LATENCY_FLOOR, None)
    ok = df["passed"].to_numpy()
    lo, hi = _latency_range(lat)
    dmin, dmax = float(lat.min()), float(lat.max())
    if dmax / dmin < 1.05:
        dmin, dmax = dmin / 1.1, dmax * 1.1
    n_bins = int(np.clip(np.sqrt(lat.size) * 2, 10, 60))
    bins = np.geomspace(dmin, dmax, n_bins + 1)
    counts, _, containers = ax.hist(
        [lat[ok], lat[~ok]], bins=bins, stacked=True, color=[PASS_COLOR, FAIL_COLOR],
        edgecolor="white", linewidth=0.4,
    )
    for patch in containers[1]:
        patch.set_hatch(FAIL_HATCH)
    counts = np.asarray(counts[-1])  # stacked: the last row is the total per bin
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    per_tier = tier_counts(scores)
    total = max(sum(per_tier.values()), 1)
    ymax = float(counts.max()) if counts.size else 1.0
    ax.set_ylim(0, ymax * 2.1)  # the upper half is kept free for the legend
    # The tier bands are shaded but not labelled in place: between 2, 5 and 10 s they are too
    # narrow on a log axis that also shows millisecond answers. The legend names each band with
    # its range and share instead.
    tier_handles = []
    for (name, ar, a, b), colour in zip(TIER_SPANS, TIER_COLORS):
        a_vis, b_vis = max(a, lo), min(b, hi)
        if a_vis < b_vis:
            ax.axvspan(a_vis, b_vis, color=colour, alpha=TIER_ALPHA, linewidth=0, zorder=0)
        share = per_tier[name] / total
        label = (f"{name} {tier_range(a, b)}: {format_pct(share)}" if compact
                 else f"{name} ({tier_range(a, b)}): {per_tier[name]:,} · {format_pct(share)}"
                      f" — {ar}")
        tier_handles.append(Patch(facecolor=to_rgba(colour, 2 * TIER_ALPHA), edgecolor=MUTED,
                                  linewidth=0.5, label=label))
    for boundary in TIER_BOUNDARIES:
        ax.axvline(boundary, color=INK, linestyle="--", linewidth=1.0)
    ax.xaxis.set_major_locator(SpacedLogLocator(tick_fontsize()))
    ax.xaxis.set_major_formatter(FuncFormatter(seconds_tick_label))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("Latency (s, log scale) — زمن الاستجابة")
    ax.set_ylabel("Cases")
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    ax.yaxis.grid(True)
    # Two columns filled top to bottom: the tiers on the first two rows, passed/failed below.
    bars = [Patch(facecolor=PASS_COLOR, label="Passed — ناجح"),
            Patch(facecolor=FAIL_COLOR, hatch=FAIL_HATCH, edgecolor="white", label="Failed — راسب")]
    handles = [*tier_handles[:2], bars[0], *tier_handles[2:], bars[1]]
    ax.legend(handles=handles, loc="upper center", ncol=2, fontsize=9.5 if compact else 9,
              frameon=True, facecolor="white", edgecolor="none", framealpha=0.92,
              handlelength=1.6, columnspacing=1.2)


def draw_latency_per_case(ax: Axes, scores: pd.DataFrame, *, compact: bool = False) -> None:
    """Each answer's latency by query number (a rolling median over more than 300 answers)."""
    df = latencies(scores)
    if df.empty:
        no_data(ax, "No latency data — لا توجد بيانات زمن")
        return
    q = df["query_num"].to_numpy(dtype=float)
    lat = np.clip(df["latency_s"].to_numpy(), LATENCY_FLOOR, None)
    ok = df["passed"].to_numpy()
    many = len(df) > 300
    if not many:
        ax.plot(q, lat, color="#AAAAAA", linewidth=0.8, zorder=1)
    size_pass, size_fail = (3, 10) if many else (22, 34)
    alpha = 0.35 if many else 0.95
    ax.scatter(q[ok], lat[ok], s=size_pass, color=PASS_COLOR, alpha=alpha, linewidths=0,
               label="Passed — ناجح", zorder=2)
    ax.scatter(q[~ok], lat[~ok], s=size_fail, color=FAIL_COLOR, marker="x", alpha=min(1, alpha + 0.3),
               linewidths=1.0, label="Failed — راسب", zorder=3)
    if many:
        per_query = pd.Series(lat).groupby(q).median()
        window = max(11, len(per_query) // 100)
        rolling = per_query.rolling(window, center=True, min_periods=1).median()
        ax.plot(rolling.index, rolling.to_numpy(), color=INK, linewidth=1.6, zorder=4,
                label=f"Rolling median ({window:,} cases)")
    lo, hi = _latency_range(lat)
    ax.set_yscale("log")
    ax.set_ylim(lo, hi * (hi / lo) ** 0.16)  # a band above the data for the legend
    for boundary in TIER_BOUNDARIES:
        ax.axhline(boundary, color=INK, linestyle="--", linewidth=0.9, zorder=0)
    ax.yaxis.set_major_locator(
        SpacedLogLocator(tick_fontsize(), gap_em=0.15, upper=max(float(lat.max()) * 1.1, 10.0),
                         fill=False))
    ax.yaxis.set_major_formatter(FuncFormatter(seconds_tick_label))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_xlim(q.min() - 0.5, q.max() + 0.5) if len(q) < 50 else ax.margins(x=0.01)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{int(v):,}"))
    ax.set_xlabel("Query # (file order) — رقم السؤال")
    ax.set_ylabel("Latency (s, log)")
    ax.legend(loc="upper left", ncol=3, fontsize=9.5 if compact else 9, markerscale=2.5 if many else 1,
              handletextpad=0.4, columnspacing=1.2, frameon=True, facecolor="white",
              edgecolor="none", framealpha=0.9)


def plot_latency_analysis(scores: pd.DataFrame) -> Figure:
    """Latency histogram with the tier bands, and latency per case in query order."""
    require_scores(scores)
    with chart_style():
        fig = new_figure(11.0, 8.5)
        ax_hist, ax_case = fig.subplots(2, 1, height_ratios=[1.1, 1])
        draw_latency_hist(ax_hist, scores)
        ax_hist.set_title("Latency distribution — توزيع زمن الاستجابة")
        draw_latency_per_case(ax_case, scores)
        ax_case.set_title("Latency per case — زمن الاستجابة لكل حالة")
    return fig
