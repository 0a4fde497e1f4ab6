"""detailed_results.png: a table of the cases, failures first, at most MAX_TABLE_ROWS rows, with a
footnote for the rest; which rows it shows, and what its heading and footnote say."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from nabahan_pipeline.evaluation.formats import format_seconds
from nabahan_pipeline.evaluation.charts.inputs import require_scores, verdict_mask
from nabahan_pipeline.evaluation.charts.style import (
    FAIL_COLOR, FAIL_TINT, FONT_FAMILY, INK, PASS_COLOR, PASS_TINT, chart_style, new_figure,
)
from nabahan_pipeline.evaluation.charts.text import safe_text, text_width_px, truncate_text
from nabahan_pipeline.evaluation.charts.tiers import tier_of

MAX_TABLE_ROWS = 40
# The table cuts a question to the width of its column (measured), starting from this many chars.
TABLE_QUESTION_MAX_CHARS = 120

# (key, header, width fraction, horizontal alignment)
TABLE_COLUMNS = (
    ("num", "#", 0.045, "center"),
    ("question", "Question — السؤال", 0.29, "right"),
    ("category", "Category", 0.105, "left"),
    ("status", "Status", 0.085, "left"),
    ("retrieval", "Retrieval", 0.075, "center"),
    ("fidelity", "Fidelity", 0.065, "center"),
    ("latency", "Latency", 0.105, "left"),
    ("result", "Seed", 0.07, "center"),
    ("correct", "Correct — صحيحة", 0.16, "left"),
)


@dataclass(frozen=True)
class TableSelection:
    """Rows of the detailed table and what was left out."""

    rows: pd.DataFrame
    total: int
    omitted: int
    omitted_failed: int
    omitted_passed: int


def select_table_rows(scores: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> TableSelection:
    """Failures first (in query order), then passes, at most ``max_rows`` rows; count the rest."""
    if max_rows < 0:
        raise ValueError(f"max_rows must be >= 0, got {max_rows}")
    passed = verdict_mask(scores)
    repeats = (pd.to_numeric(scores["repeat"], errors="coerce").to_numpy() if "repeat" in scores.columns
               else np.zeros(len(scores)))
    query = pd.to_numeric(scores["query_num"], errors="coerce").to_numpy()
    keys = pd.DataFrame({"_passed": passed, "_q": query, "_r": repeats}, index=scores.index)
    order = keys.sort_values(["_passed", "_q", "_r"], kind="stable").index
    shown_idx, rest_idx = order[:max_rows], order[max_rows:]
    rest_passed = int(keys.loc[rest_idx, "_passed"].sum())
    return TableSelection(
        rows=scores.loc[shown_idx],
        total=len(scores),
        omitted=len(rest_idx),
        omitted_failed=len(rest_idx) - rest_passed,
        omitted_passed=rest_passed,
    )


def table_heading(sel: TableSelection) -> tuple[str, str]:
    """How the table's rows are ordered, for its heading, as (English, Arabic).

    "failures first" when the run has both; when every case passed (or every one failed) the
    table is simply in query order, and the heading says so.
    """
    if sel.total == 0:
        return ("none", "لا توجد حالات")
    failed = int((~verdict_mask(sel.rows)).sum()) + sel.omitted_failed
    if failed == 0:
        return ("all passed", "جميعها ناجحة")
    if failed == sel.total:
        return ("all failed", "جميعها راسبة")
    return ("failures first", "الراسبة أولاً")


def omitted_note(sel: TableSelection) -> tuple[str, str]:
    """The table's footnote as (English, Arabic)."""
    n = sel.omitted
    if n == 0:
        return (f"All {sel.total:,} cases shown", "جميع الحالات معروضة")
    if sel.omitted_failed == 0:
        return (f"+ {n:,} more cases not shown (all passed)", f"لم تُعرض {n:,} حالة أخرى (كلها ناجحة)")
    if sel.omitted_passed == 0:
        return (f"+ {n:,} more cases not shown (all failed)", f"لم تُعرض {n:,} حالة أخرى (كلها راسبة)")
    f, p = sel.omitted_failed, sel.omitted_passed
    return (
        f"+ {n:,} more cases not shown ({f:,} failed, {p:,} passed)",
        f"لم تُعرض {n:,} حالة أخرى (منها {f:,} راسبة و{p:,} ناجحة)",
    )


def _table_cells(row: pd.Series, multi_repeat: bool) -> dict[str, str]:
    num = f"{int(row['query_num'])}"
    if multi_repeat and "repeat" in row.index and pd.notna(row["repeat"]):
        num += f"·{int(row['repeat']) + 1}"
    ret_ok = bool(row["retrieval_accuracy"] == 1)
    fid_ok = bool(row["generation_fidelity"] == 1)
    lat = row["latency_s"]
    tier = row["latency_tier"] if pd.notna(row.get("latency_tier")) else (
        str(tier_of(np.array([float(lat)]))[0]) if pd.notna(lat) else ""
    )
    passed = bool(row["overall_passed"]) if pd.notna(row["overall_passed"]) else False
    correct = bool(row["correct"]) if pd.notna(row.get("correct")) else passed
    why = str(row.get("not_correct_because") or "").split("; ")[0] if not correct else ""
    return {
        "num": num,
        "question": safe_text(truncate_text(row["question"] if pd.notna(row["question"]) else "",
                                            TABLE_QUESTION_MAX_CHARS)),
        "category": safe_text(row["category"]),
        "status": safe_text(row["status"]),
        # Out-of-scope cases score retrieval by refusing, not by points.
        "retrieval": (
            f"{'✓' if ret_ok else '✗'} {'refused' if row['status'] == 'out_of_scope' else 'answered'}"
            if row["category"] == "out_of_scope"
            else f"{'✓' if ret_ok else '✗'} {int(row['retrieval_points'])}/3"
        ),
        "fidelity": f"{'✓' if fid_ok else '✗'} {int(row['fidelity_points'])}/4",
        "latency": f"{format_seconds(lat)} · {safe_text(tier)}" if pd.notna(lat) else "n/a",
        "result": "✓ PASS" if passed else "✗ FAIL",
        "correct": "✓" if correct else safe_text(f"✗ {why}".strip()),
        "_passed": correct,
    }


def _draw_table(ax: Axes, sel: TableSelection, *, fontsize: float = 9.0) -> None:
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    n = len(sel.rows)
    slots = n + 1 + 1.5  # header, rows, footnote
    h = 1.0 / slots
    edges = np.concatenate([[0.0], np.cumsum([c[2] for c in TABLE_COLUMNS])])
    edges = edges / edges[-1]
    pad = 0.006

    def x_for(i: int, align: str) -> float:
        return {"left": edges[i] + pad, "right": edges[i + 1] - pad}.get(align, (edges[i] + edges[i + 1]) / 2)

    # Cells are measured on the Agg canvas and shortened (on a word boundary) to fit their
    # column, so that a long unbroken question cannot run into the next column. The table axes
    # spans the figure width, less the layout pads.
    table_px = ax.figure.bbox.width - 0.3 * ax.figure.dpi
    regular = font_manager.FontProperties(family=FONT_FAMILY, size=fontsize)
    bold = font_manager.FontProperties(family=FONT_FAMILY, size=fontsize, weight="bold")

    def fit(text: str, i: int, prop) -> str:
        room = (edges[i + 1] - edges[i] - 2 * pad) * table_px
        full = text_width_px(ax.figure, text, prop)
        if full <= room:
            return text
        # Start from the proportional estimate, then shorten two characters at a time.
        limit = max(min(len(text) - 1, int(len(text) * room / full) + 2), 5)
        short = truncate_text(text, limit)
        while limit > 5 and text_width_px(ax.figure, short, prop) > room:
            limit -= 2
            short = truncate_text(text, limit)
        return short

    # Every text of the table lies inside its axes, so none is left to the constrained layout
    # (in_layout=False), which would measure each of them twice for nothing: the same layout.
    # They are the figure's texts placed in the axes' coordinates: an axes' text is clipped to
    # the axes, a clip set up per text (a fifth of the table's build, bench/README.md) that cuts
    # nothing here (each cell fitted to its column, the footnote inside the axes: the same pixels).
    def cell(x: float, y: float, text: str, **style) -> None:
        fig.text(x, y, text, transform=ax.transAxes, va="center", in_layout=False, **style)

    fig = ax.figure
    y_header = 1 - h / 2
    ax.add_patch(Rectangle((0, 1 - h), 1, h, facecolor="#E8E8E8", edgecolor="none"))
    for i, (_, header, _, align) in enumerate(TABLE_COLUMNS):
        cell(x_for(i, align), y_header, header, ha=align, fontsize=fontsize, fontweight="bold", color=INK)
    multi_repeat = "repeat" in sel.rows.columns and sel.rows["repeat"].fillna(0).max() > 0
    for r, (_, row) in enumerate(sel.rows.iterrows()):
        cells = _table_cells(row, multi_repeat)
        y_top = 1 - (r + 1) * h
        ax.add_patch(Rectangle((0, y_top - h), 1, h,
                               facecolor=PASS_TINT if cells["_passed"] else FAIL_TINT,
                               edgecolor="white", linewidth=1.0))
        for i, (key, _, _, align) in enumerate(TABLE_COLUMNS):
            style = {}
            if key in ("result", "correct"):
                ok = cells["result"].startswith("✓") if key == "result" else cells["_passed"]
                style = {"fontweight": "bold", "color": PASS_COLOR if ok else FAIL_COLOR}
            text = fit(cells[key], i, bold if style else regular)
            cell(x_for(i, align), y_top - h / 2, text, ha=align, fontsize=fontsize,
                 color=style.pop("color", INK), **style)
    en, ar = omitted_note(sel)
    y_note = (1.5 * h) / 2
    cell(0.0, y_note, en, ha="left", fontsize=fontsize + 0.5, color=INK, fontweight="bold")
    cell(1.0, y_note, ar, ha="right", fontsize=fontsize + 0.5, color=INK, fontweight="bold")


def plot_detailed_results(scores: pd.DataFrame, *, max_rows: int = MAX_TABLE_ROWS) -> Figure:
    """Table of cases, failures first, at most ``max_rows`` rows, with how many were left out."""
    require_scores(scores)
    sel = select_table_rows(scores, max_rows)
    row_in = 0.27
    with chart_style():
        fig = new_figure(13.0, 0.85 + row_in * (len(sel.rows) + 2.5))
        ax = fig.add_subplot()
        _draw_table(ax, sel)
        ax.set_title(
            f"Detailed results — النتائج التفصيلية\n"
            f"{len(sel.rows):,} of {sel.total:,} cases shown, {table_heading(sel)[0]}",
            linespacing=1.4,
        )
    return fig
