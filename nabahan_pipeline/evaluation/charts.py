"""The PNG charts of an evaluation run.

Plain functions over the ``case_scores`` and ``evaluation_summary`` DataFrames (see
docs/internals.md); no Dagster, no pyplot. Every figure is a ``matplotlib.figure.Figure`` on an
Agg canvas, built inside :func:`_style` (an ``rc_context`` that selects DejaVu Sans, which has the
Arabic glyphs), so nothing here touches global matplotlib state at import time.

Arabic text is passed to matplotlib in logical order, as written. Matplotlib 3.11 shapes and
orders it itself (libraqm); pre-shaping it with a reshaper or a bidi library would render it
reversed. A "Glyph missing" warning is a bug: text from the data (questions, categories, run
labels) goes through :func:`safe_text`, which replaces characters the font cannot draw.

Bidi rule followed by every label: a string that mixes scripts is "English — عربي", with any
digits in the English part, or the Arabic on a line of its own. Digits written right after Arabic
in a left-to-right string are reordered into the Arabic run by the Unicode bidi algorithm.

Public API: :data:`CHART_FILES`, :func:`render_charts`, :func:`dashboard_markdown`, one
``plot_*`` function per chart, and the helpers :func:`truncate_text`,
:func:`select_table_rows`, :func:`table_heading`, :func:`omitted_note`, :func:`format_pct`,
:func:`format_seconds`.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import math
import re
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib import font_manager, ft2font
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyBboxPatch, Patch, Rectangle
from matplotlib.ticker import FuncFormatter, Locator, MaxNLocator, NullLocator, ScalarFormatter

from nabahan_pipeline.evaluation.reports import format_pct
from nabahan_pipeline.files import atomic_folder, atomic_open, remove_stale_temporaries

__all__ = [
    "CHART_FILES",
    "TableSelection",
    "dashboard_markdown",
    "format_pct",
    "format_seconds",
    "omitted_note",
    "plot_category_breakdown",
    "plot_dashboard",
    "plot_detailed_results",
    "plot_latency_analysis",
    "plot_metrics_overview",
    "plot_pass_fail_distribution",
    "plot_pass_rate_trend",
    "render_charts",
    "safe_text",
    "save_figure",
    "select_table_rows",
    "table_heading",
    "truncate_text",
]

CHART_FILES: tuple[str, ...] = (
    "metrics_overview.png",
    "pass_fail_distribution.png",
    "latency_analysis.png",
    "category_breakdown.png",
    "detailed_results.png",
    "evaluation_dashboard.png",
    "pass_rate_trend.png",
)

DPI = 110
FONT_FAMILY = "DejaVu Sans"

# Okabe-Ito, colour-blind safe. Where colour carries meaning it is doubled by hatching or a word.
PASS_COLOR = "#0072B2"  # blue
FAIL_COLOR = "#D55E00"  # vermillion
ERROR_COLOR = "#CC79A7"  # reddish purple
EXEC_COLOR = "#E69F00"  # orange
P95_COLOR = "#009E73"  # bluish green
CORRECT_COLOR = "#000000"  # black, solid with diamonds (the threshold is dashed)
NA_COLOR = "#BBBBBB"
INK = "#222222"
MUTED = "#555555"
FAIL_HATCH = "///"
ERROR_HATCH = "xx"
PASS_TINT = "#E3EFF8"
FAIL_TINT = "#FBE3D6"

MAX_TABLE_ROWS = 40
QUESTION_MAX_CHARS = 45
# The table cuts a question to the width of its column (measured), starting from this many chars.
TABLE_QUESTION_MAX_CHARS = 120
ELLIPSIS = "\u2026"

CATEGORY_AR = {
    "count": "عدّ",
    "region_filter": "تصفية بالمنطقة",
    "aggregation": "تجميع",
    "distribution": "توزيع",
    "lookup": "استعلام",
    "time_filter": "تصفية زمنية",
    "value_filter": "تصفية بالقيمة",
    "out_of_scope": "خارج النطاق",
}

# (name, Arabic, lower bound s, upper bound s) as in the metrics: < 2, 2-5, 5-10, > 10.
LATENCY_TIERS = (
    ("Excellent", "ممتاز", 0.0, 2.0),
    ("Good", "جيد", 2.0, 5.0),
    ("Acceptable", "مقبول", 5.0, 10.0),
    ("Poor", "ضعيف", 10.0, math.inf),
)
_TIER_COLORS = ("#56B4E9", "#F0E442", EXEC_COLOR, FAIL_COLOR)
_TIER_ALPHA = 0.15

_SUMMARY_COLUMNS = (
    "scope", "total", "passed", "failed", "pass_rate", "avg_retrieval_accuracy",
    "avg_generation_fidelity", "p50_latency", "p95_latency", "execution_accuracy",
    "execution_cases", "errors", "false_refusals", "false_answers",
)
_SCORES_COLUMNS = (
    "query_num", "question", "category", "status", "latency_s", "retrieval_points",
    "retrieval_accuracy", "fidelity_points", "generation_fidelity", "overall_passed",
)
_HISTORY_COLUMNS = ("run_label", "timestamp", "pass_rate", "execution_accuracy", "p95_latency")

_RC = {
    "font.family": [FONT_FAMILY],
    "font.size": 10,
    "text.parse_math": False,  # a "$" in a question is text, not mathtext
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.titlepad": 8,
    "axes.labelcolor": INK,
    "axes.edgecolor": "#888888",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "axes.grid": False,
    "grid.color": "#E5E5E5",
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "legend.frameon": False,
    "legend.fontsize": 9,
    "hatch.linewidth": 0.8,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.constrained_layout.h_pad": 0.06,
    "figure.constrained_layout.w_pad": 0.06,
}

# rc_context swaps the process-wide rcParams: serialize figure building and saving so that two
# threads rendering at once cannot see each other's settings.
_RENDER_LOCK = threading.RLock()


@contextlib.contextmanager
def _style() -> Iterator[None]:
    with _RENDER_LOCK, matplotlib.rc_context(_RC):
        yield


def _new_figure(width: float, height: float, *, constrained: bool = True) -> Figure:
    # Whole pixels, so the PNG is exactly figsize * DPI.
    width, height = round(width * DPI) / DPI, round(height * DPI) / DPI
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained" if constrained else None)
    FigureCanvasAgg(fig)
    return fig


# --------------------------------------------------------------------------------------------
# Text helpers


@functools.cache
def _font_charmap() -> frozenset[int]:
    path = font_manager.findfont(
        font_manager.FontProperties(family=FONT_FAMILY), fallback_to_default=False
    )
    return frozenset(ft2font.FT2Font(path).get_charmap())


def safe_text(value: object) -> str:
    """Display form of a value from the data: one line, only characters DejaVu Sans can draw.

    White space (newlines included) collapses to single spaces; a character the font lacks
    (an emoji, a CJK ideograph, a rare Arabic letter) becomes U+FFFD (one per run of them)
    rather than a "Glyph missing" warning and an empty box. Invisible format characters
    (ZWNJ, RLM, ...) pass.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = " ".join(str(value).split())
    charmap = _font_charmap()
    text = "".join(
        ch if ord(ch) in charmap or unicodedata.category(ch) == "Cf" else "\ufffd" for ch in text
    )
    return re.sub("\ufffd+", "\ufffd", text)


_TRAILING_JUNK = " \t,.;:!?\u060c\u061b\u061f-\u2013\u2014(["


def truncate_text(text: object, max_chars: int = QUESTION_MAX_CHARS, *, ellipsis: str = ELLIPSIS) -> str:
    """Shorten ``text`` to at most ``max_chars`` characters, ellipsis included, on a word boundary.

    Works on the logical (typed) order, so for Arabic the ellipsis ends up at the left end, where
    the sentence stops. Cuts at the last space that keeps the result within bounds; only a
    single word longer than half the budget is cut inside the word. Trailing punctuation before
    the ellipsis is dropped.
    """
    if max_chars <= len(ellipsis):
        raise ValueError(f"max_chars must exceed the ellipsis length, got {max_chars}")
    s = " ".join(str(text).split())
    if len(s) <= max_chars:
        return s
    budget = max_chars - len(ellipsis)
    # s[budget] is included so that a space right after the budget counts as a boundary.
    space = s.rfind(" ", 0, budget + 1)
    head = s[:space] if space >= budget // 2 else s[:budget]
    head = head.rstrip(_TRAILING_JUNK) or s[:budget].rstrip()
    return head + ellipsis


def format_seconds(seconds: float | None) -> str:
    """Seconds with at least two significant digits: ``4.5678 -> "4.57 s"``, ``0.0076 -> "0.0076 s"``.

    Two decimals from 0.1 s up; below that as many as it takes (at most four), so that a fast
    cached answer does not read "0.00 s". NaN or None -> ``"n/a"``.
    """
    if seconds is None or pd.isna(seconds):
        return "n/a"
    v = float(seconds)
    if v == 0:
        return "0 s"
    if 0 < abs(v) < 0.0001:
        return "< 0.0001 s"
    decimals = min(max(2, 1 - math.floor(math.log10(abs(v)))), 4)
    return f"{v:.{decimals}f} s"


def _count(n: object) -> str:
    return f"{int(n):,}"


_ISO_DATETIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})")


def _run_label(value: object) -> str:
    """A run label for an axis: ISO timestamps shortened to "YYYY-MM-DD HH:MM", at most 20 chars."""
    text = safe_text(value)
    m = _ISO_DATETIME.match(text)
    if m:
        text = f"{m.group(1)} {m.group(2)}"
    return truncate_text(text, 20)


def _category_label(category: str) -> str:
    name = safe_text(category)
    ar = CATEGORY_AR.get(category)
    return f"{name} — {ar}" if ar else name


# --------------------------------------------------------------------------------------------
# Inputs


def _require(df: pd.DataFrame, columns: tuple[str, ...], what: str) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} is missing column(s): {', '.join(missing)}")


def _check_threshold(pass_threshold: float) -> float:
    t = float(pass_threshold)
    if not 0.0 <= t <= 1.0:
        raise ValueError(f"pass_threshold is a fraction 0..1, got {pass_threshold!r}")
    return t


def _overall(summary: pd.DataFrame) -> pd.Series:
    _require(summary, _SUMMARY_COLUMNS, "evaluation_summary")
    rows = summary[summary["scope"] == "overall"]
    if rows.empty:
        raise ValueError('evaluation_summary has no row with scope == "overall"')
    return rows.iloc[0]


def _categories(summary: pd.DataFrame) -> pd.DataFrame:
    _require(summary, _SUMMARY_COLUMNS, "evaluation_summary")
    return summary[summary["scope"] != "overall"].reset_index(drop=True)


def _passed_mask(scores: pd.DataFrame) -> np.ndarray:
    return scores["overall_passed"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def _verdict_mask(scores: pd.DataFrame) -> np.ndarray:
    """The gate's verdict per row: Correct where the scores have it, else the seed's Overall Passed."""
    if "correct" not in scores.columns:
        return _passed_mask(scores)
    return scores["correct"].astype("boolean").fillna(False).to_numpy(dtype=bool)


def _latencies(scores: pd.DataFrame) -> pd.DataFrame:
    """query_num, latency_s (float, finite) and passed, in query order."""
    df = pd.DataFrame(
        {
            "query_num": pd.to_numeric(scores["query_num"], errors="coerce").to_numpy(),
            "latency_s": pd.to_numeric(scores["latency_s"], errors="coerce").to_numpy(dtype=float),
            "passed": _passed_mask(scores),
        }
    )
    df = df[np.isfinite(df["latency_s"]) & df["query_num"].notna()]
    return df.sort_values("query_num", kind="stable").reset_index(drop=True)


def _tier_of(latency: np.ndarray) -> np.ndarray:
    # Same boundaries as the metrics: < 2 Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor.
    return np.select(
        [latency < 2.0, latency <= 5.0, latency <= 10.0],
        ["Excellent", "Good", "Acceptable"],
        default="Poor",
    )


def _tier_counts(scores: pd.DataFrame) -> dict[str, int]:
    if "latency_tier" in scores.columns:
        tiers = scores["latency_tier"].dropna().astype(str)
    else:
        lat = pd.to_numeric(scores["latency_s"], errors="coerce").dropna().to_numpy(dtype=float)
        tiers = pd.Series(_tier_of(lat))
    counts = tiers.value_counts()
    return {name: int(counts.get(name, 0)) for name, *_ in LATENCY_TIERS}


def _no_data(ax, message: str) -> None:
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=11, color=MUTED,
            transform=ax.transAxes)


# --------------------------------------------------------------------------------------------
# Table rows


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
    passed = _verdict_mask(scores)
    keys = pd.DataFrame(
        {
            "_passed": passed,
            "_q": pd.to_numeric(scores["query_num"], errors="coerce").to_numpy(),
            "_r": (
                pd.to_numeric(scores["repeat"], errors="coerce").to_numpy()
                if "repeat" in scores.columns else np.zeros(len(scores))
            ),
        },
        index=scores.index,
    )
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
    failed = int((~_verdict_mask(sel.rows)).sum()) + sel.omitted_failed
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


# --------------------------------------------------------------------------------------------
# Drawing on an Axes (shared by the single charts and the dashboard)


_LABEL_BOX = {"boxstyle": "square,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.9}


def _draw_metrics_overview(ax, overall: pd.Series, threshold: float, *, compact: bool = False) -> None:
    exec_cases = int(overall["execution_cases"]) if pd.notna(overall["execution_cases"]) else 0
    if compact:
        exec_note = f"{exec_cases:,} gold" if exec_cases else "no gold SQL"
        names = (("Retrieval", "الاسترجاع"), ("Fidelity", "الأمانة"), ("Execution", "التنفيذ"),
                 ("Pass rate", "النجاح"))
    else:
        exec_note = f"({exec_cases:,} cases with gold SQL)" if exec_cases else "(no gold SQL)"
        names = (("Retrieval accuracy", "دقة الاسترجاع"), ("Generation fidelity", "أمانة التوليد"),
                 ("Execution accuracy", "دقة التنفيذ"), ("Pass rate", "نسبة النجاح"))
    values = (overall["avg_retrieval_accuracy"], overall["avg_generation_fidelity"],
              overall["execution_accuracy"], overall["pass_rate"])
    notes = (None, None, exec_note, None)
    metrics = [(en, ar, v, note) for (en, ar), v, note in zip(names, values, notes)]
    x = np.arange(len(metrics))
    for xi, (_, _, value, _) in zip(x, metrics):
        if pd.isna(value):
            ax.bar(xi, 0, width=0.6)
            ax.text(xi, 2, "n/a", ha="center", va="bottom", fontsize=11, color=MUTED)
            continue
        ok = float(value) >= threshold
        ax.bar(
            xi, float(value) * 100, width=0.6,
            color=PASS_COLOR if ok else FAIL_COLOR,
            hatch=None if ok else FAIL_HATCH, edgecolor="white", linewidth=0.8,
        )
        ax.text(xi, float(value) * 100 + 1.5, format_pct(value), ha="center", va="bottom",
                fontsize=12 if compact else 11, fontweight="bold", color=INK, bbox=_LABEL_BOX,
                zorder=5)
    ax.axhline(threshold * 100, color=INK, linestyle="--", linewidth=1.2, zorder=4)
    labels = [f"{en}\n{ar}" + (f"\n{note}" if note else "") for en, ar, _, note in metrics]
    ax.set_xticks(x, labels)
    ax.tick_params(axis="x", length=0, labelsize=10 if compact else 9.5, labelcolor=INK)
    ax.set_xlim(-0.6, len(metrics) - 0.4)
    ax.set_ylim(0, 126 if compact else 120)
    ax.set_yticks(range(0, 101, 20), [f"{v}%" for v in range(0, 101, 20)])
    ax.yaxis.grid(True)
    ax.set_ylabel("Score (%)")
    ax.legend(
        handles=[
            Line2D([], [], color=INK, linestyle="--",
                   label=f"{'Threshold' if compact else 'Pass threshold'} {format_pct(threshold)}"),
            Patch(facecolor=PASS_COLOR, label="At or above" if compact else "At or above threshold"),
            Patch(facecolor=FAIL_COLOR, hatch=FAIL_HATCH, edgecolor="white",
                  label="Below" if compact else "Below threshold"),
        ],
        loc="upper center", ncol=3, fontsize=9.5 if compact else 8.5, handlelength=1.6,
        columnspacing=1.0,
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


def _draw_pass_fail(ax, overall: pd.Series, *, legend_fontsize: float = 9.5) -> None:
    total = int(overall["total"])
    if total <= 0:
        _no_data(ax, "No cases — لا توجد حالات")
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
    ax.annotate(_count(total), (0, 0), xytext=(0, 1), textcoords="offset points", ha="center",
                va="bottom", fontsize=17, fontweight="bold", color=INK)
    ax.annotate("cases\nحالة", (0, 0), xytext=(0, -1), textcoords="offset points", ha="center",
                va="top", fontsize=10, color=MUTED, linespacing=1.3)
    ax.set_aspect("equal")
    ax.legend(
        wedges,
        [f"{en} — {ar}\n{_count(n)} cases · {pct}" for en, ar, n, pct, _, _ in slices],
        loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=legend_fontsize,
        labelspacing=1.1, handlelength=1.6, handleheight=1.4,
    )


def _fmt_s(v: float, _pos=None) -> str:
    return f"{v:g} s"


class _SpacedLogLocator(Locator):
    """Ticks for a log latency axis: round values, as many as fit without their labels touching.

    Chosen when the axis is drawn, from the axes' real length, so the same code serves a wide
    chart and a narrow dashboard panel. 1 s and 10 s come first, then the tier boundaries 2 s
    and 5 s, the other decades, then the other 2s, 5s and whole minutes; a value is kept only if
    its label clears every label already kept by ``gap_em`` (label sizes estimated from the font
    size, a little generously). No tick above ``upper`` seconds (the headroom kept for a legend
    gets none); with ``fill=False`` no 2s and 5s other than the tier boundaries once the axis
    spans more than 2.5 decades (on a short one they are needed for any tick below 1 s).
    """

    _PRIORITY = (1.0, 10.0, 2.0, 5.0, 0.1, 0.01, 0.001, 100.0, 1000.0, 0.5, 0.2, 0.05, 0.02,
                 0.005, 0.002, 30.0, 20.0, 60.0, 300.0, 600.0, 3600.0)
    _FILL = frozenset((0.5, 0.2, 0.05, 0.02, 0.005, 0.002, 20.0))

    def __init__(self, fontsize: float, *, gap_em: float = 0.8, upper: float = math.inf,
                 fill: bool = True) -> None:
        self.fontsize = fontsize
        self.gap_em = gap_em
        self.upper = upper
        self.fill = fill

    def __call__(self) -> list[float]:
        vmin, vmax = self.axis.get_view_interval()
        return self.tick_values(vmin, vmax)

    def tick_values(self, vmin: float, vmax: float) -> list[float]:
        vmin, vmax = sorted((float(vmin), float(vmax)))
        vmin = max(vmin, _LAT_FLOOR / 10)
        sparse = not self.fill and vmax / vmin > 10**2.5
        candidates = [c for c in self._PRIORITY if vmin <= c <= min(vmax, self.upper)
                      and not (sparse and c in self._FILL)]
        axes = getattr(self.axis, "axes", None)
        if axes is None or vmax <= vmin:
            return sorted(candidates)
        horizontal = self.axis.axis_name == "x"
        length = axes.bbox.width if horizontal else axes.bbox.height
        if length <= 0:
            return sorted(candidates)
        em = self.fontsize * axes.figure.dpi / 72
        px_per_decade = length / math.log10(vmax / vmin)

        def extent(v: float) -> float:  # label size along the axis, px
            return 0.62 * em * len(_fmt_s(v)) if horizontal else 1.2 * em

        kept: list[tuple[float, float, float]] = []
        for c in candidates:
            pos, size = math.log10(c) * px_per_decade, extent(c)
            if all(abs(pos - p) >= (size + s) / 2 + self.gap_em * em for _, p, s in kept):
                kept.append((c, pos, size))
        return sorted(c for c, _, _ in kept)


_LAT_FLOOR = 0.001  # cached answers can take ~0 s; a log axis needs a floor


def _latency_range(lat: np.ndarray) -> tuple[float, float]:
    lo = min(float(lat.min()), 0.5) / 1.4
    hi = max(float(lat.max()), 14.0) * 1.35
    return max(lo, _LAT_FLOOR / 1.4), hi


def _draw_latency_hist(ax, scores: pd.DataFrame, *, compact: bool = False) -> None:
    df = _latencies(scores)
    if df.empty:
        _no_data(ax, "No latency data — لا توجد بيانات زمن")
        return
    lat = np.clip(df["latency_s"].to_numpy(), _LAT_FLOOR, None)
    ok = df["passed"].to_numpy()
    lo, hi = _latency_range(lat)
    dmin, dmax = float(lat.min()), float(lat.max())
    if dmax / dmin < 1.05:
        dmin, dmax = dmin / 1.1, dmax * 1.1
    n_bins = int(np.clip(np.sqrt(lat.size) * 2, 10, 60))
    bins = np.geomspace(dmin, dmax, n_bins + 1)
    counts, _, containers = ax.hist(
        [lat[ok], lat[~ok]], bins=bins, stacked=True, color=[PASS_COLOR, FAIL_COLOR],
        edgecolor="white", linewidth=0.4, label=["Passed — ناجح", "Failed — راسب"],
    )
    for patch in containers[1]:
        patch.set_hatch(FAIL_HATCH)
    counts = np.asarray(counts[-1])  # stacked: the last row is the total per bin
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    tier_counts = _tier_counts(scores)
    total = max(sum(tier_counts.values()), 1)
    ymax = float(counts.max()) if counts.size else 1.0
    ax.set_ylim(0, ymax * 2.1)  # the upper half is kept free for the legend
    # The tier bands are shaded but not labelled in place: between 2, 5 and 10 s they are too
    # narrow on a log axis that also shows millisecond answers. The legend names each band with
    # its range and share instead.
    tier_handles = []
    for (name, ar, a, b), colour in zip(LATENCY_TIERS, _TIER_COLORS):
        a_vis, b_vis = max(a, lo), min(b, hi)
        if a_vis < b_vis:
            ax.axvspan(a_vis, b_vis, color=colour, alpha=_TIER_ALPHA, linewidth=0, zorder=0)
        share = tier_counts[name] / total
        label = (f"{name} {_tier_range(a, b)}: {format_pct(share)}" if compact
                 else f"{name} ({_tier_range(a, b)}): {tier_counts[name]:,} · {format_pct(share)}"
                      f" — {ar}")
        tier_handles.append(Patch(facecolor=to_rgba(colour, 2 * _TIER_ALPHA), edgecolor=MUTED,
                                  linewidth=0.5, label=label))
    for boundary in (2.0, 5.0, 10.0):
        ax.axvline(boundary, color=INK, linestyle="--", linewidth=1.0)
    ax.xaxis.set_major_locator(_SpacedLogLocator(_tick_fontsize()))
    ax.xaxis.set_major_formatter(FuncFormatter(_fmt_s))
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


def _tier_range(a: float, b: float) -> str:
    if a <= 0:
        return f"< {b:g} s"
    if math.isinf(b):
        return f"> {a:g} s"
    return f"{a:g}–{b:g} s"


def _tick_fontsize() -> float:
    return font_manager.FontProperties(size=matplotlib.rcParams["xtick.labelsize"]).get_size_in_points()


def _draw_latency_per_case(ax, scores: pd.DataFrame, *, compact: bool = False) -> None:
    df = _latencies(scores)
    if df.empty:
        _no_data(ax, "No latency data — لا توجد بيانات زمن")
        return
    q = df["query_num"].to_numpy(dtype=float)
    lat = np.clip(df["latency_s"].to_numpy(), _LAT_FLOOR, None)
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
    for boundary in (2.0, 5.0, 10.0):
        ax.axhline(boundary, color=INK, linestyle="--", linewidth=0.9, zorder=0)
    ax.yaxis.set_major_locator(
        _SpacedLogLocator(_tick_fontsize(), gap_em=0.15, upper=max(float(lat.max()) * 1.1, 10.0),
                          fill=False))
    ax.yaxis.set_major_formatter(FuncFormatter(_fmt_s))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_xlim(q.min() - 0.5, q.max() + 0.5) if len(q) < 50 else ax.margins(x=0.01)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{int(v):,}"))
    ax.set_xlabel("Query # (file order) — رقم السؤال")
    ax.set_ylabel("Latency (s, log)")
    ax.legend(loc="upper left", ncol=3, fontsize=9.5 if compact else 9, markerscale=2.5 if many else 1,
              handletextpad=0.4, columnspacing=1.2, frameon=True, facecolor="white",
              edgecolor="none", framealpha=0.9)


def _draw_categories(ax, summary: pd.DataFrame, threshold: float, *, compact: bool = False) -> None:
    cats = _categories(summary)
    if cats.empty:
        _no_data(ax, "No categories — لا توجد فئات")
        return
    y = np.arange(len(cats))[::-1]
    fontsize = 10 if compact else 9.5
    for yi, (_, row) in zip(y, cats.iterrows()):
        rate = row["pass_rate"]
        counts = f"({int(row['passed']):,}/{int(row['total']):,})"
        if pd.isna(rate):
            ax.text(1, yi, f"n/a {counts}", va="center", fontsize=fontsize, color=MUTED)
            continue
        ok = float(rate) >= threshold
        ax.barh(yi, float(rate) * 100, height=0.62, color=PASS_COLOR if ok else FAIL_COLOR,
                hatch=None if ok else FAIL_HATCH, edgecolor="white", linewidth=0.8)
        ax.text(float(rate) * 100 + 1.2, yi, f"{format_pct(rate)}  {counts}", va="center",
                fontsize=fontsize, color=INK, bbox=_LABEL_BOX, zorder=5)
    # Only across the bars, so that it does not run through the legend above them.
    ax.vlines(threshold * 100, -0.6, len(cats) - 0.4, color=INK, linestyle="--", linewidth=1.1,
              zorder=4)
    ax.set_yticks(y, [_category_label(c) for c in cats["scope"]])
    ax.tick_params(axis="y", length=0, labelsize=fontsize, labelcolor=INK)
    ax.set_ylim(-0.7, len(cats) - 0.3 + (0.9 if not compact else 1.1))
    ax.set_xlim(0, 136)
    ax.set_xticks(range(0, 101, 20), [f"{v}%" for v in range(0, 101, 20)])
    ax.xaxis.grid(True)
    ax.set_xlabel("Pass rate (%) — نسبة النجاح")
    ax.legend(
        handles=[
            Line2D([], [], color=INK, linestyle="--", label=f"Threshold {format_pct(threshold)}"),
            Patch(facecolor=PASS_COLOR, label="At or above"),
            Patch(facecolor=FAIL_COLOR, hatch=FAIL_HATCH, edgecolor="white", label="Below"),
        ],
        loc="upper right", ncol=3, fontsize=9.5 if compact else 8.5, handlelength=1.6,
    )


# Detailed table: (key, header, width fraction, horizontal alignment)
_TABLE_COLUMNS = (
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


def _table_cells(row: pd.Series, multi_repeat: bool) -> dict[str, str]:
    num = f"{int(row['query_num'])}"
    if multi_repeat and "repeat" in row.index and pd.notna(row["repeat"]):
        num += f"·{int(row['repeat']) + 1}"
    ret_ok = bool(row["retrieval_accuracy"] == 1)
    fid_ok = bool(row["generation_fidelity"] == 1)
    lat = row["latency_s"]
    tier = row["latency_tier"] if "latency_tier" in row.index and pd.notna(row.get("latency_tier")) else (
        str(_tier_of(np.array([float(lat)]))[0]) if pd.notna(lat) else ""
    )
    passed = bool(row["overall_passed"]) if pd.notna(row["overall_passed"]) else False
    correct = bool(row["correct"]) if "correct" in row.index and pd.notna(row["correct"]) else passed
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


def _draw_table(ax, sel: TableSelection, *, fontsize: float = 9.0) -> None:
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    n = len(sel.rows)
    slots = n + 1 + 1.5  # header, rows, footnote
    h = 1.0 / slots
    edges = np.concatenate([[0.0], np.cumsum([c[2] for c in _TABLE_COLUMNS])])
    edges = edges / edges[-1]
    pad = 0.006

    def x_for(i: int, align: str) -> float:
        if align == "left":
            return edges[i] + pad
        if align == "right":
            return edges[i + 1] - pad
        return (edges[i] + edges[i + 1]) / 2

    # Cells are measured with the Agg renderer and shortened (on a word boundary) to fit their
    # column, so that a long unbroken question cannot run into the next column. The table axes
    # spans the figure width, less the layout pads.
    renderer = ax.figure.canvas.get_renderer()
    table_px = ax.figure.bbox.width - 0.3 * ax.figure.dpi
    regular = font_manager.FontProperties(family=FONT_FAMILY, size=fontsize)
    bold = font_manager.FontProperties(family=FONT_FAMILY, size=fontsize, weight="bold")

    def width(text: str, prop) -> float:
        return renderer.get_text_width_height_descent(text, prop, ismath=False)[0]

    def fit(text: str, i: int, prop) -> str:
        room = (edges[i + 1] - edges[i] - 2 * pad) * table_px
        full = width(text, prop)
        if full <= room:
            return text
        # Start from the proportional estimate, then shorten two characters at a time.
        limit = max(min(len(text) - 1, int(len(text) * room / full) + 2), 5)
        short = truncate_text(text, limit)
        while limit > 5 and width(short, prop) > room:
            limit -= 2
            short = truncate_text(text, limit)
        return short

    y_header = 1 - h / 2
    ax.add_patch(Rectangle((0, 1 - h), 1, h, facecolor="#E8E8E8", edgecolor="none"))
    for i, (_, header, _, align) in enumerate(_TABLE_COLUMNS):
        ax.text(x_for(i, align), y_header, header, ha=align, va="center", fontsize=fontsize,
                fontweight="bold", color=INK)
    multi_repeat = "repeat" in sel.rows.columns and sel.rows["repeat"].fillna(0).max() > 0
    for r, (_, row) in enumerate(sel.rows.iterrows()):
        cells = _table_cells(row, multi_repeat)
        y_top = 1 - (r + 1) * h
        ax.add_patch(Rectangle((0, y_top - h), 1, h,
                               facecolor=PASS_TINT if cells["_passed"] else FAIL_TINT,
                               edgecolor="white", linewidth=1.0))
        for i, (key, _, _, align) in enumerate(_TABLE_COLUMNS):
            style = {}
            if key in ("result", "correct"):
                ok = cells["result"].startswith("✓") if key == "result" else cells["_passed"]
                style = {"fontweight": "bold", "color": PASS_COLOR if ok else FAIL_COLOR}
            text = fit(cells[key], i, bold if style else regular)
            ax.text(x_for(i, align), y_top - h / 2, text, ha=align, va="center",
                    fontsize=fontsize, color=style.pop("color", INK), **style)
    en, ar = omitted_note(sel)
    y_note = (1.5 * h) / 2
    ax.text(0.0, y_note, en, ha="left", va="center", fontsize=fontsize + 0.5, color=INK,
            fontweight="bold")
    ax.text(1.0, y_note, ar, ha="right", va="center", fontsize=fontsize + 0.5, color=INK,
            fontweight="bold")


def _draw_trend(ax, history: pd.DataFrame | None, threshold: float, *, compact: bool = False) -> None:
    if history is not None:
        _require(history, _HISTORY_COLUMNS, "history")
    n = 0 if history is None else len(history)
    if n < 2:
        ax.set_axis_off()
        title_pt, arabic_pt, lines_pt = (14, 13, 11) if compact else (16, 15, 10.5)
        if n == 1:
            row = history.iloc[0]
            figures = [f"pass rate {format_pct(row['pass_rate'])}",
                       f"execution accuracy {format_pct(row['execution_accuracy'])}",
                       f"P95 latency {format_seconds(row['p95_latency'])}"]
            # A dashboard panel is too narrow for the three figures on one line.
            lines = [f"This run ({_run_label(row['run_label'])}):",
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
    ax.set_yticks(range(0, 101, 20), [f"{v}%" for v in range(0, 101, 20)])
    ax.set_ylabel("Rate (%)")
    ax.yaxis.grid(True)

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
                    fontweight="bold", color=PASS_COLOR, bbox=_LABEL_BOX, zorder=6)

    labels = [_run_label(v) for v in history["run_label"]]
    ax.set_xlim(-0.5, n - 0.5)
    # As many run labels as fit side by side; rotated when even a few would not.
    width_in = 4.6 if compact else 8.3
    longest = max((len(s) for s in labels), default=1)
    fit_flat = int(width_in * 12 / (longest + 3))
    if fit_flat >= min(n, 4):
        nbins = max(1, min(fit_flat, 12) - 1)
    else:
        nbins = max(1, min(int(width_in / 0.32), 12) - 1)
        ax.tick_params(axis="x", labelrotation=30, labelrotation_mode="xtick")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=nbins, integer=True))
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _p: labels[int(v)] if 0 <= int(v) < n and v == int(v) else "")
    )
    ax.set_xlabel("Run (oldest → newest) — التشغيل")
    ax.legend(handles=handles, loc="upper center", ncol=2, fontsize=9,
              handlelength=2.0 if compact else 2.2, columnspacing=1.0 if compact else 1.5)


# The dashboard is a 16:9 slide: 1920 x 1080 pixels at DPI, text sized to be read when projected.
DASHBOARD_PX = (1920, 1080)
TILE_VALUE_PT = 30.0  # the big number; shrunk to fit its tile, never below TILE_VALUE_MIN_PT
TILE_VALUE_MIN_PT = 28.0
TILE_LABEL_PT = 13.0  # English name (bold); the Arabic name and the notes are TILE_TEXT_PT
TILE_TEXT_PT = 12.0
# Panel text a little larger than on the single charts, for a projector.
_DASHBOARD_RC = {
    "axes.titlesize": 14,
    "axes.labelsize": 11,
    "xtick.labelsize": 10.5,
    "ytick.labelsize": 10.5,
}


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


def _headline_tiles(overall: pd.Series, threshold: float) -> list[_Tile]:
    """The dashboard's big numbers, in order: the Correct rate (the gate's figure, judged against
    the threshold) and the seed's pass rate first, then execution accuracy, P95 latency and
    errors. Summaries from before the Correct verdict show the pass rate first, judged.

    Five at most, so that each is wide enough for its number at TILE_VALUE_PT and its notes at
    TILE_TEXT_PT. The number of cases is in the title and the donut; average retrieval and
    fidelity are in the metrics panel right below."""
    exec_cases = int(overall["execution_cases"]) if pd.notna(overall["execution_cases"]) else 0
    has_correct = "correct_rate" in overall.index and pd.notna(overall.get("correct_rate"))
    gated = "correct_rate" if has_correct else "pass_rate"
    rate_ok = pd.notna(overall[gated]) and float(overall[gated]) >= threshold
    judged = f"{'at or above' if rate_ok else 'below'} threshold {format_pct(threshold)}"
    judged_colour = PASS_COLOR if rate_ok else FAIL_COLOR
    total = _count(overall["total"])
    passed_failed = f"{_count(overall['passed'])} passed · {_count(overall['failed'])} failed"
    tiles = []
    if has_correct:
        tiles.append(_Tile("correct_rate", "Correct rate", "نسبة الإجابات الصحيحة",
                           format_pct(overall["correct_rate"]),
                           (f"{_count(overall['correct'])} of {total} correct", judged), judged_colour))
        tiles.append(_Tile("pass_rate", "Pass rate (seed)", "نسبة النجاح", format_pct(overall["pass_rate"]),
                           (passed_failed, "form checks only")))
    else:
        tiles.append(_Tile("pass_rate", "Pass rate", "نسبة النجاح", format_pct(overall["pass_rate"]),
                           (passed_failed, judged), judged_colour))
    suite = overall.get("test_suite_accuracy") if "test_suite_accuracy" in overall.index else None
    exec_notes = (f"{exec_cases:,} cases with gold SQL",) if exec_cases else ("no gold SQL",)
    if exec_cases and suite is not None and pd.notna(suite):
        exec_notes += (f"test suite {format_pct(suite)}",)
    unsafe = int(overall["unsafe_sql"]) if "unsafe_sql" in overall.index and pd.notna(overall["unsafe_sql"]) else 0
    errors = int(overall["errors"]) if pd.notna(overall["errors"]) else 0
    tiles += [
        _Tile("execution_accuracy", "Exec accuracy", "دقة التنفيذ",
              format_pct(overall["execution_accuracy"]), exec_notes),
        _Tile("p95_latency", "P95 latency", "المئين 95 لزمن الاستجابة",
              format_seconds(overall["p95_latency"]),
              (f"median (P50) {format_seconds(overall['p50_latency'])}",)),
        _Tile("errors", "Errors", "الأخطاء", _count(errors),
              (f"unsafe SQL {unsafe:,}", f"false answers {_count(overall['false_answers'])}",
               f"false refusals {_count(overall['false_refusals'])}"),
              ERROR_COLOR if errors else INK),
    ]
    return tiles


def _draw_tile(ax, tile: _Tile) -> None:
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
    renderer = fig.canvas.get_renderer()
    # The grid cell's width, less a margin for the layout's padding and the box's edges.
    room_pt = ax.get_position().width * fig.get_figwidth() * 72 * 0.88

    def width_pt(text: str, size: float, weight: str) -> float:
        prop = font_manager.FontProperties(family=FONT_FAMILY, size=size, weight=weight)
        return renderer.get_text_width_height_descent(text, prop, ismath=False)[0] * 72 / fig.dpi

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


# --------------------------------------------------------------------------------------------
# One figure per chart


def plot_metrics_overview(summary: pd.DataFrame, *, pass_threshold: float = 0.8) -> Figure:
    """Bars: retrieval accuracy, generation fidelity, execution accuracy, pass rate (overall, %)."""
    threshold = _check_threshold(pass_threshold)
    overall = _overall(summary)
    with _style():
        fig = _new_figure(9.5, 6.0)
        ax = fig.add_subplot()
        _draw_metrics_overview(ax, overall, threshold)
        ax.set_title(f"Evaluation metrics — مقاييس التقييم\n{_count(overall['total'])} cases",
                     linespacing=1.4)
    return fig


def plot_pass_fail_distribution(summary: pd.DataFrame) -> Figure:
    """Donut of passed / failed (answered but wrong) / errors, with counts and percentages."""
    overall = _overall(summary)
    with _style():
        fig = _new_figure(8.5, 5.5)
        ax = fig.add_subplot()
        _draw_pass_fail(ax, overall)
        ax.set_title("Pass / fail distribution — توزيع النجاح والرسوب")
    return fig


def plot_latency_analysis(scores: pd.DataFrame) -> Figure:
    """Latency histogram with the tier bands, and latency per case in query order."""
    _require(scores, _SCORES_COLUMNS, "case_scores")
    with _style():
        fig = _new_figure(11.0, 8.5)
        ax_hist, ax_case = fig.subplots(2, 1, height_ratios=[1.1, 1])
        _draw_latency_hist(ax_hist, scores)
        ax_hist.set_title("Latency distribution — توزيع زمن الاستجابة")
        _draw_latency_per_case(ax_case, scores)
        ax_case.set_title("Latency per case — زمن الاستجابة لكل حالة")
    return fig


def plot_category_breakdown(summary: pd.DataFrame, *, pass_threshold: float = 0.8) -> Figure:
    """Horizontal bars, one per category row of the summary: pass rate with case counts."""
    threshold = _check_threshold(pass_threshold)
    n = max(len(_categories(summary)), 1)
    with _style():
        fig = _new_figure(10.0, 2.0 + 0.5 * n)
        ax = fig.add_subplot()
        _draw_categories(ax, summary, threshold)
        ax.set_title("Pass rate by category — نسبة النجاح حسب الفئة")
    return fig


def plot_detailed_results(scores: pd.DataFrame, *, max_rows: int = MAX_TABLE_ROWS) -> Figure:
    """Table of cases, failures first, at most ``max_rows`` rows, with how many were left out."""
    _require(scores, _SCORES_COLUMNS, "case_scores")
    sel = select_table_rows(scores, max_rows)
    row_in = 0.27
    with _style():
        fig = _new_figure(13.0, 0.85 + row_in * (len(sel.rows) + 2.5))
        ax = fig.add_subplot()
        _draw_table(ax, sel)
        ax.set_title(
            f"Detailed results — النتائج التفصيلية\n"
            f"{len(sel.rows):,} of {sel.total:,} cases shown, {table_heading(sel)[0]}",
            linespacing=1.4,
        )
    return fig


def plot_pass_rate_trend(history: pd.DataFrame | None, *, pass_threshold: float = 0.8) -> Figure:
    """Pass rate and execution accuracy (%) over runs, P95 latency on the right axis."""
    threshold = _check_threshold(pass_threshold)
    with _style():
        fig = _new_figure(10.0, 5.5)
        ax = fig.add_subplot()
        _draw_trend(ax, history, threshold)
        ax.set_title("Pass rate trend — اتجاه نسبة النجاح")
    return fig


def plot_dashboard(
    scores: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    history: pd.DataFrame | None = None,
    pass_threshold: float = 0.8,
) -> Figure:
    """One 16:9 slide, exactly 1920 x 1080 pixels: the headline numbers as tiles (the Correct rate
    and the seed's pass rate first), then the metrics, pass/fail and category panels, then latency
    and the trend over runs. The per-case table is in :func:`plot_detailed_results` only."""
    threshold = _check_threshold(pass_threshold)
    _require(scores, _SCORES_COLUMNS, "case_scores")
    overall = _overall(summary)
    width_px, height_px = DASHBOARD_PX
    with _style(), matplotlib.rc_context(_DASHBOARD_RC):
        fig = _new_figure(width_px / DPI, height_px / DPI)
        fig.suptitle(
            f"Nabahan evaluation dashboard · {_count(overall['total'])} cases · pass threshold "
            f"{format_pct(threshold)} — لوحة تقييم نبهان",
            fontsize=17, fontweight="bold",
        )
        gs = fig.add_gridspec(3, 1, height_ratios=[2.2, 3.6, 3.6])
        headline = _headline_tiles(overall, threshold)
        tiles = gs[0].subgridspec(1, len(headline), wspace=0.03)
        for i, tile in enumerate(headline):
            _draw_tile(fig.add_subplot(tiles[0, i]), tile)

        # Each chart row is a grid of its own, so that the constrained layout sizes the margins
        # of its columns (the category names, the donut's legend) for that row alone, instead of
        # aligning both rows and leaving every panel as narrow as the most crowded one.
        top = gs[1].subgridspec(1, 3, width_ratios=[1.0, 0.95, 1.15])
        ax = fig.add_subplot(top[0, 0])
        _draw_metrics_overview(ax, overall, threshold, compact=True)
        ax.set_title("Metrics — المقاييس")
        ax = fig.add_subplot(top[0, 1])
        _draw_pass_fail(ax, overall, legend_fontsize=10.5)
        ax.set_title("Pass / fail — النجاح والرسوب")
        ax = fig.add_subplot(top[0, 2])
        _draw_categories(ax, summary, threshold, compact=True)
        ax.set_title("By category — حسب الفئة")

        middle = gs[2].subgridspec(1, 3, width_ratios=[1.3, 1.0, 1.0])
        ax = fig.add_subplot(middle[0, 0])
        _draw_latency_hist(ax, scores, compact=True)
        ax.set_title("Latency distribution — توزيع زمن الاستجابة")
        ax = fig.add_subplot(middle[0, 1])
        _draw_latency_per_case(ax, scores, compact=True)
        ax.set_title("Latency per case — زمن الاستجابة لكل حالة")
        ax = fig.add_subplot(middle[0, 2])
        _draw_trend(ax, history, threshold, compact=True)
        ax.set_title("Trend — الاتجاه")
    return fig


# --------------------------------------------------------------------------------------------
# Files


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as PNG to ``path`` atomically: a temporary file in the same folder, then
    ``os.replace``. Readers never see a half-written file."""
    path = Path(path)
    with atomic_open(path, "wb") as handle, _style():
        fig.savefig(handle, format="png", dpi=DPI)
    return path


def _history_from_summary(summary: pd.DataFrame) -> pd.DataFrame:
    overall = _overall(summary)
    return pd.DataFrame(
        [{
            "run_label": "this run",
            "timestamp": "",
            "pass_rate": overall["pass_rate"],
            "execution_accuracy": overall["execution_accuracy"],
            "p95_latency": overall["p95_latency"],
            **({"correct_rate": overall["correct_rate"]} if "correct_rate" in overall else {}),
        }]
    )


def render_charts(
    scores: pd.DataFrame,
    summary: pd.DataFrame,
    out_dir: str | Path,
    *,
    history: pd.DataFrame | None = None,
    pass_threshold: float = 0.8,
) -> dict[str, Path]:
    """Write the seven PNG charts as one set: drawn into a folder of their own, then ``out_dir``
    (a symbolic link, see ``files.atomic_folder``) is switched to it whole, so a reader never sees
    charts of two runs mixed, and a run killed while drawing leaves the last set in place.

    ``history``: one row per run, oldest first, the current run last (run_label, timestamp,
    pass_rate, execution_accuracy, p95_latency). ``None`` means this is the first run.
    Returns ``{file name: path}`` in :data:`CHART_FILES` order, the paths in this run's own
    folder (``out_dir`` may point at a later run's by the time they are read).
    """
    threshold = _check_threshold(pass_threshold)
    _require(scores, _SCORES_COLUMNS, "case_scores")
    _overall(summary)
    if history is None or len(history) == 0:
        history = _history_from_summary(summary)
    else:
        _require(history, _HISTORY_COLUMNS, "history")
    out = Path(out_dir)
    builders = {
        "metrics_overview.png": lambda: plot_metrics_overview(summary, pass_threshold=threshold),
        "pass_fail_distribution.png": lambda: plot_pass_fail_distribution(summary),
        "latency_analysis.png": lambda: plot_latency_analysis(scores),
        "category_breakdown.png": lambda: plot_category_breakdown(summary, pass_threshold=threshold),
        "detailed_results.png": lambda: plot_detailed_results(scores),
        "evaluation_dashboard.png": lambda: plot_dashboard(
            scores, summary, history=history, pass_threshold=threshold
        ),
        "pass_rate_trend.png": lambda: plot_pass_rate_trend(history, pass_threshold=threshold),
    }
    remove_stale_temporaries(out.with_name(f".{out.name}_runs"))
    with atomic_folder(out) as folder:
        for name in CHART_FILES:
            save_figure(builders[name](), folder.path / name)
    return {name: folder.final / name for name in CHART_FILES}


def _png_bytes(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def dashboard_markdown(path: str | Path, *, max_width_px: int = 800, max_bytes: int = 150_000) -> str:
    """Markdown with a small copy of the dashboard PNG inline (base64 data URI), for the Dagster UI.

    The image is scaled down to at most ``max_width_px`` wide; if the encoded image is still over
    ``max_bytes`` it is reduced to a 256-colour palette, then narrowed step by step.
    """
    from PIL import Image  # matplotlib depends on Pillow

    if max_width_px < 16:
        raise ValueError(f"max_width_px too small: {max_width_px}")
    with Image.open(path) as src:
        image = src.convert("RGB")
    width = min(max_width_px, image.width)
    while True:
        height = max(1, round(image.height * width / image.width))
        small = image.resize((width, height), Image.Resampling.LANCZOS)
        encoded = base64.b64encode(_png_bytes(small))
        if len(encoded) > max_bytes:
            encoded = base64.b64encode(_png_bytes(small.quantize(colors=256)))
        if len(encoded) <= max_bytes or width <= 200:
            break
        width = int(width * 0.85)
    return f"![Evaluation dashboard](data:image/png;base64,{encoded.decode('ascii')})"
