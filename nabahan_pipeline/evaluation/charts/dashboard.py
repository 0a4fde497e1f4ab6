"""evaluation_dashboard.png: one 16:9 slide, the headline numbers as tiles above six chart panels."""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib
import pandas as pd
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from nabahan_pipeline.evaluation.charts.categories import draw_categories
from nabahan_pipeline.evaluation.formats import format_count, format_pct, format_seconds, interval_text
from nabahan_pipeline.evaluation.charts.inputs import check_threshold, overall_row, require_scores
from nabahan_pipeline.evaluation.charts.latency import draw_latency_hist, draw_latency_per_case
from nabahan_pipeline.evaluation.charts.overview import draw_metrics_overview
from nabahan_pipeline.evaluation.charts.pass_fail import draw_pass_fail
from nabahan_pipeline.evaluation.charts.style import (
    DPI, ERROR_COLOR, FAIL_COLOR, FONT_FAMILY, INK, MUTED, PASS_COLOR, chart_style, new_figure,
)
from nabahan_pipeline.evaluation.charts.text import text_width_px
from nabahan_pipeline.evaluation.charts.trend import draw_trend
from nabahan_pipeline.evaluation.summary import report_rows

# The dashboard is a 16:9 slide: 1920 x 1080 pixels at DPI, text sized to be read when projected.
DASHBOARD_PX = (1920, 1080)
TILE_VALUE_PT = 30.0  # the big number; shrunk to fit its tile, never below TILE_VALUE_MIN_PT
TILE_VALUE_MIN_PT = 28.0
TILE_LABEL_PT = 13.0  # English name (bold); the Arabic name and the notes are TILE_TEXT_PT
TILE_TEXT_PT = 12.0
# A tile's big number by its figure's kind (a count missing: 0).
_SHOWN = {"rate": format_pct, "seconds": format_seconds,
          "count": lambda n: format_count(0 if pd.isna(n) else n)}
# Panel text a little larger than on the single charts, for a projector.
_DASHBOARD_RC = {"axes.titlesize": 14, "axes.labelsize": 11, "xtick.labelsize": 10.5, "ytick.labelsize": 10.5}


@dataclass(frozen=True)
class _Tile:
    """One headline number of the dashboard: its name in English and Arabic, the value, up to two
    short note lines, and the colour of the value."""

    key: str
    en: str
    ar: str
    value: str
    notes: tuple[str, ...] = ()
    colour: str = INK


def _headline_tiles(overall: pd.Series, threshold: float, gated: str | None = None) -> list[_Tile]:
    """The dashboard's big numbers, five at most (each wide enough for its number): the Correct
    rate and the seed's pass rate (a summary without Correct: the pass rate alone), then execution
    accuracy, P95 latency and errors; the gated rate judged against the threshold. ``gated``: the
    summary column the run's gate judges (``RunSettings.gated_figure``), by default the Correct
    rate, else the pass rate. The figures are the summary's report rows (``summary.report_rows``);
    the gated rate's and execution accuracy's intervals follow their first note, "17 of 20 correct
    · 95% CI 62.1-94.8" (the pass rate beside Correct has no room for its own)."""
    rows = {row.key: row for row in report_rows(overall)}

    def tile(key: str, en: str, ar: str, notes: tuple[str, ...], colour: str = INK) -> _Tile:
        return _Tile(key, en, ar, _SHOWN[rows[key].kind](rows[key].value), notes, colour)

    def with_interval(note: str, key: str) -> str:
        interval = interval_text(rows[key].low, rows[key].high)
        return f"{note} · 95% CI {interval}" if interval else note

    exec_cases = int(overall["execution_cases"]) if pd.notna(overall["execution_cases"]) else 0
    has_correct = pd.notna(rows["correct_rate"].value)
    if gated is None or gated not in overall.index or pd.isna(overall[gated]):
        gated = "correct_rate" if has_correct else "pass_rate"
    rate_ok = pd.notna(overall[gated]) and float(overall[gated]) >= threshold
    judged = f"{'at or above' if rate_ok else 'below'} threshold {format_pct(threshold)}"
    if gated.endswith("_low"):  # the bound is the interval's first figure, on the line above
        judged = f"CI low {judged}"
    judged_colour = PASS_COLOR if rate_ok else FAIL_COLOR
    on_correct = has_correct and not gated.startswith("pass_rate")
    total = format_count(overall["total"])
    passed_failed = f"{format_count(overall['passed'])} passed · {format_count(overall['failed'])} failed"
    tiles = []
    if has_correct:
        correct = with_interval(f"{format_count(overall['correct'])} of {total} correct", "correct_rate")
        tiles.append(tile("correct_rate", "Correct rate", "نسبة الإجابات الصحيحة",
                          (correct, judged) if on_correct else (correct,),
                          judged_colour if on_correct else INK))
        tiles.append(tile("pass_rate", "Pass rate (seed)", "نسبة النجاح",
                          (passed_failed, "form checks only") if on_correct else (passed_failed, judged),
                          INK if on_correct else judged_colour))
    else:
        tiles.append(tile("pass_rate", "Pass rate", "نسبة النجاح",
                          (with_interval(passed_failed, "pass_rate"), judged), judged_colour))
    suite = overall.get("test_suite_accuracy")
    exec_notes = ((with_interval(f"{exec_cases:,} cases with gold SQL", "execution_accuracy"),)
                  if exec_cases else ("no gold SQL",))
    if exec_cases and suite is not None and pd.notna(suite):
        exec_notes += (f"test suite {format_pct(suite)}",)
    unsafe = int(overall["unsafe_sql"]) if pd.notna(overall.get("unsafe_sql")) else 0
    errors = int(overall["errors"]) if pd.notna(overall["errors"]) else 0
    return [
        *tiles,
        tile("execution_accuracy", "Exec accuracy", "دقة التنفيذ", exec_notes),
        tile("p95_latency", "P95 latency", "المئين 95 لزمن الاستجابة",
             (f"median (P50) {format_seconds(overall['p50_latency'])}",)),
        tile("errors", "Errors", "الأخطاء",
             (f"unsafe SQL {unsafe:,}", f"false answers {format_count(overall['false_answers'])}",
              f"false refusals {format_count(overall['false_refusals'])}"),
             ERROR_COLOR if errors else INK),
    ]


def _draw_tile(ax: Axes, tile: _Tile) -> None:
    """A rounded box with the tile's texts stacked from its top. Each is measured: a note too
    wide for the box is broken at its " · " separators, and what still does not fit is set
    smaller, the value not below TILE_VALUE_MIN_PT and the rest not below TILE_TEXT_PT."""
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_gid(f"tile:{tile.key}")
    ax.add_patch(FancyBboxPatch((0.015, 0.02), 0.97, 0.96, boxstyle="round,pad=0,rounding_size=0.05",
                                facecolor="#F3F3F3", edgecolor="#D5D5D5", linewidth=1.0,
                                mutation_aspect=0.5))
    fig = ax.figure
    # The grid cell's width, less a margin for the layout's padding and the box's edges.
    room_pt = ax.get_position().width * fig.get_figwidth() * 72 * 0.88

    def width_pt(text: str, size: float, weight: str) -> float:
        prop = font_manager.FontProperties(family=FONT_FAMILY, size=size, weight=weight)
        return text_width_px(fig, text, prop) * 72 / fig.dpi

    def size_to_fit(text: str, size: float, floor: float, weight: str) -> float:
        w = width_pt(text, size, weight)
        return size if w <= room_pt else max(floor, size * room_pt / w)

    notes: list[str] = []
    for note in tile.notes:
        parts = note.split(" · ")
        line = parts[0]
        for part in parts[1:]:
            if width_pt(f"{line} · {part}", TILE_TEXT_PT, "normal") <= room_pt:
                line = f"{line} · {part}"
            else:
                notes.append(line)
                line = part
        notes.append(line)
    # (text, size, minimum size, weight, colour, space above in points)
    lines = [
        (tile.en, TILE_LABEL_PT, TILE_TEXT_PT, "bold", "#444444", 8),
        (tile.ar, TILE_TEXT_PT, TILE_TEXT_PT, "normal", "#444444", 2),
        (tile.value, TILE_VALUE_PT, TILE_VALUE_MIN_PT, "bold", tile.colour, 4),
        *((note, TILE_TEXT_PT, TILE_TEXT_PT, "normal", MUTED, 5 if i == 0 else 1)
          for i, note in enumerate(notes)),
    ]
    y = 0.0
    for text, size, floor, weight, colour, above in lines:
        size = size_to_fit(text, size, floor, weight)
        y += above
        ax.annotate(text, xy=(0.5, 0.98), xycoords="axes fraction", xytext=(0, -y),
                    textcoords="offset points", ha="center", va="top", fontsize=size,
                    fontweight=weight, color=colour)
        y += size * 1.22


def plot_dashboard(
    scores: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    history: pd.DataFrame | None = None,
    pass_threshold: float = 0.8,
    gated: str | None = None,
) -> Figure:
    """One 16:9 slide, exactly 1920 x 1080 pixels: the headline numbers as tiles (the Correct rate
    and the seed's pass rate first), then the metrics, pass/fail and category panels, then latency
    and the trend over runs. The per-case table is in ``plot_detailed_results`` only."""
    threshold = check_threshold(pass_threshold)
    require_scores(scores)
    overall = overall_row(summary)
    width_px, height_px = DASHBOARD_PX
    with chart_style(), matplotlib.rc_context(_DASHBOARD_RC):
        fig = new_figure(width_px / DPI, height_px / DPI)
        fig.suptitle(
            f"Nabahan evaluation dashboard · {format_count(overall['total'])} cases · pass threshold "
            f"{format_pct(threshold)} — لوحة تقييم نبهان",
            fontsize=17, fontweight="bold",
        )
        gs = fig.add_gridspec(3, 1, height_ratios=[2.2, 3.6, 3.6])
        headline = _headline_tiles(overall, threshold, gated)
        tiles = gs[0].subgridspec(1, len(headline), wspace=0.03)
        for i, tile in enumerate(headline):
            _draw_tile(fig.add_subplot(tiles[0, i]), tile)

        # Each chart row is a grid of its own, so that the constrained layout sizes the margins
        # of its columns (the category names, the donut's legend) for that row alone, instead of
        # aligning both rows and leaving every panel as narrow as the most crowded one.
        top = gs[1].subgridspec(1, 3, width_ratios=[1.0, 0.95, 1.15])
        middle = gs[2].subgridspec(1, 3, width_ratios=[1.3, 1.0, 1.0])
        panels = (
            (top[0, 0], "Metrics — المقاييس",
             lambda ax: draw_metrics_overview(ax, overall, threshold, compact=True)),
            (top[0, 1], "Correct / passed / failed — الصحيح والنجاح",
             lambda ax: draw_pass_fail(ax, overall, legend_fontsize=10.5)),
            (top[0, 2], "By category — حسب الفئة",
             lambda ax: draw_categories(ax, summary, threshold, compact=True)),
            (middle[0, 0], "Latency distribution — توزيع زمن الاستجابة",
             lambda ax: draw_latency_hist(ax, scores, compact=True)),
            (middle[0, 1], "Latency per case — زمن الاستجابة لكل حالة",
             lambda ax: draw_latency_per_case(ax, scores, compact=True)),
            (middle[0, 2], "Trend — الاتجاه", lambda ax: draw_trend(ax, history, threshold, compact=True)),
        )
        for cell, title, draw in panels:
            ax = fig.add_subplot(cell)
            draw(ax)
            ax.set_title(title)
    return fig
