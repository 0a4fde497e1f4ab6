"""Tests for nabahan_pipeline.evaluation.charts.

The tables are synthetic case_scores (nabahan_fixtures.synthetic) and the summary the real summarize
makes of them. Every chart is rendered with warnings turned into errors: a "Glyph missing"
warning fails the test.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import io
import itertools
import re
import struct
import warnings
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import nabahan_pipeline.evaluation.charts as charts
from nabahan_pipeline.evaluation.cases import CATEGORIES
from nabahan_pipeline.evaluation.charts.categories import plot_category_breakdown
from nabahan_pipeline.evaluation.charts.dashboard import plot_dashboard
from nabahan_pipeline.evaluation.charts.detailed_results import (
    omitted_note, plot_detailed_results, select_table_rows, table_heading,
)
from nabahan_pipeline.evaluation.charts.error_locations import plot_error_locations
from nabahan_pipeline.evaluation.charts.latency import plot_latency_analysis
from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
from nabahan_pipeline.evaluation.charts import render
from nabahan_pipeline.evaluation.charts.render import CHART_FILES, render_charts, save_figure
from nabahan_pipeline.evaluation.charts.text import safe_text, truncate_text
from nabahan_pipeline.evaluation.charts.trend import plot_pass_rate_trend
from nabahan_pipeline.evaluation.charts.detailed_results import TABLE_COLUMNS
from nabahan_pipeline.evaluation.formats import format_pct, format_seconds
from nabahan_pipeline.evaluation.charts.style import DPI, FAIL_COLOR, FAIL_TINT, PASS_TINT, chart_style, new_figure
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import all_passed_scores, fixed_summary, make_history, make_scores

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text)]


def render_strict(fig):
    """Draw ``fig`` with every warning an error (a missing glyph fails)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        buf = io.BytesIO()
        with chart_style():
            fig.savefig(buf, format="png")
    return buf.getvalue()


@contextlib.contextmanager
def recording_drawn_text():
    """Collect the Text artists that are really drawn: visible, not empty, tick labels in view."""
    drawn: dict[int, Text] = {}
    original = Text.draw

    def draw(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn[id(self)] = self
        return original(self, renderer)

    Text.draw = draw
    try:
        yield drawn
    finally:
        Text.draw = original


def assert_text_fits_and_never_collides(fig, what: str) -> list[tuple[Text, object]]:
    """Draw ``fig`` strictly; every drawn text lies inside the figure, no two overlap, and the
    labels along an x axis keep a few pixels apart. Returns (text, window extent) pairs."""
    with recording_drawn_text() as drawn:
        render_strict(fig)
    renderer = fig.canvas.get_renderer()
    boxes = [(t, t.get_window_extent(renderer)) for t in drawn.values()]
    assert boxes, what
    fb = fig.bbox
    for t, b in boxes:
        assert b.x0 >= fb.x0 - 1 and b.y0 >= fb.y0 - 1 and b.x1 <= fb.x1 + 1 and b.y1 <= fb.y1 + 1, (
            what, "cut off at the figure edge", t.get_text(), b.extents, fb.extents)
    for (t1, b1), (t2, b2) in itertools.combinations(boxes, 2):
        dx = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
        dy = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
        assert dx <= 0.5 or dy <= 0.5, (what, "overlap", t1.get_text(), t2.get_text(), dx, dy)
    for ax in fig.axes:
        ticks = sorted((b for t, b in boxes if t in ax.xaxis.get_ticklabels()), key=lambda b: b.x0)
        for left, right in zip(ticks, ticks[1:]):
            assert right.x0 - left.x1 >= 4, (what, "x tick labels run together", left, right)
    # A dashboard tile's texts stay inside its box (the tile's axes, less a pixel or two).
    for ax in dashboard_tiles(fig):
        tb = ax.get_window_extent(renderer)
        for t in ax.texts:
            b = t.get_window_extent(renderer)
            assert tb.x0 + 2 <= b.x0 and b.x1 <= tb.x1 - 2 and tb.y0 + 2 <= b.y0 and b.y1 <= tb.y1 - 2, (
                what, "outside its tile", ax.get_gid(), t.get_text(), b.extents, tb.extents)
    return boxes


def dashboard_tiles(fig) -> list:
    """The dashboard's headline tiles, left to right."""
    tiles = [ax for ax in fig.axes if (ax.get_gid() or "").startswith("tile:")]
    return sorted(tiles, key=lambda ax: ax.get_position().x0)


def tile_texts(tile) -> list[str]:
    return [t.get_text() for t in tile.texts]


# --------------------------------------------------------------------------------------------
# Rendering all charts


@pytest.fixture(scope="module", params=[20, 10_000], ids=["20cases", "10000cases"])
def rendered(request, tmp_path_factory):
    n = request.param
    scores = make_scores(n, seed=n)
    summary = summarize(scores)
    history = make_history(12)
    history.loc[len(history) - 1, ["correct_rate", "pass_rate", "execution_accuracy"]] = (
        summary.iloc[0]["correct_rate"], summary.iloc[0]["pass_rate"], summary.iloc[0]["execution_accuracy"])
    out = tmp_path_factory.mktemp(f"charts{n}") / "charts"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = render_charts(scores, summary, out, history=history, pass_threshold=0.8)
    return n, scores, summary, history, out, paths


def _expected_px(name, scores, summary, history) -> tuple[int, int]:
    builders = {
        "metrics_overview.png": lambda: plot_metrics_overview(summary),
        "pass_fail_distribution.png": lambda: plot_pass_fail_distribution(summary),
        "latency_analysis.png": lambda: plot_latency_analysis(scores),
        "category_breakdown.png": lambda: plot_category_breakdown(summary),
        "detailed_results.png": lambda: plot_detailed_results(scores),
        "evaluation_dashboard.png": lambda: plot_dashboard(scores, summary, history=history),
        "pass_rate_trend.png": lambda: plot_pass_rate_trend(history),
        "error_locations.png": lambda: plot_error_locations(scores),
    }
    fig = builders[name]()
    w, h = fig.get_size_inches() * DPI
    return round(h), round(w)


def test_render_charts_writes_all_eight_valid_pngs(rendered):
    n, scores, summary, history, out, paths = rendered
    assert list(paths) == list(CHART_FILES)
    assert len(CHART_FILES) == 8
    assert sorted(p.name for p in out.iterdir()) == sorted(CHART_FILES)  # no temp file left over
    assert out.is_symlink() and sorted(p.name for p in out.parent.iterdir()) == [".charts_runs", "charts"]
    for name, path in paths.items():
        assert path == out.resolve() / name and (out / name).read_bytes() == path.read_bytes()
        data = path.read_bytes()
        assert data[:8] == PNG_MAGIC, name
        width, height = struct.unpack(">II", data[16:24])
        img = mpimg.imread(path)
        assert img.shape[:2] == (height, width) == _expected_px(name, scores, summary, history), name
        assert 300 <= width <= 2200 and 300 <= height <= 2200, (name, width, height)
        # Not blank: a chart has ink (a panel saying there is nothing to draw, only its words).
        no_data = name == "error_locations.png" and not scores["error_location"].astype(bool).any()
        assert img[..., :3].std() > (0.01 if no_data else 0.05), name


def test_fixed_sizes_and_dpi():
    scores = make_scores(20)
    summary = summarize(scores)
    fig = plot_metrics_overview(summary)
    assert fig.dpi == DPI and 100 <= DPI <= 120
    assert tuple(fig.get_size_inches()) == (9.5, 6.0)


def test_render_from_scratch_without_history_says_first_run(tmp_path):
    scores = make_scores(20, seed=3)
    summary = summarize(scores)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = render_charts(scores, summary, tmp_path / "a" / "b")
    assert all(p.exists() for p in paths.values())


def test_every_chart_renders_strictly_and_is_not_cut_off():
    """Each plot function on its own, warnings as errors; no text artist outside its figure."""
    scores = make_scores(60, seed=7, repeats=2)
    summary = summarize(scores)
    history = make_history(30)
    figs = [
        plot_metrics_overview(summary, pass_threshold=0.9),
        plot_pass_fail_distribution(summary),
        plot_latency_analysis(scores),
        plot_category_breakdown(summary),
        plot_detailed_results(scores),
        plot_dashboard(scores, summary, history=history),
        plot_pass_rate_trend(history),
    ]
    for fig in figs:
        render_strict(fig)
        renderer = fig.canvas.get_renderer()
        # Everything drawn (tick labels, titles, legends, texts) lies inside the figure.
        ink = fig.get_tightbbox(renderer)  # inches
        w, h = fig.get_size_inches()
        tol = 1.5 / fig.dpi
        assert ink.x0 >= -tol and ink.y0 >= -tol, (fig.axes[0].get_title(), ink)
        assert ink.x1 <= w + tol and ink.y1 <= h + tol, (fig.axes[0].get_title(), ink)


_LAYOUT_CASES = {
    "20 all passed, first run": (lambda: all_passed_scores(20), 1),
    "20 all passed, two runs": (lambda: all_passed_scores(20), 2),
    "60 x 2 repeats, 30 runs": (lambda: make_scores(60, seed=7, repeats=2), 30),
    "10,000 mixed, 14 runs": (lambda: make_scores(10_000, seed=10_000), 14),
}


@pytest.mark.parametrize("case", list(_LAYOUT_CASES))
def test_no_text_cut_off_or_colliding(case):
    """Every drawn text of every chart (titles, panel titles, tick labels, legends, notes) lies
    inside its figure, no two texts overlap, and x tick labels do not run together."""
    make, runs = _LAYOUT_CASES[case]
    scores = make()
    summary = summarize(scores)
    history = make_history(runs)
    figs = {
        "metrics_overview": plot_metrics_overview(summary),
        "pass_fail_distribution": plot_pass_fail_distribution(summary),
        "latency_analysis": plot_latency_analysis(scores),
        "category_breakdown": plot_category_breakdown(summary),
        "detailed_results": plot_detailed_results(scores),
        "evaluation_dashboard": plot_dashboard(scores, summary, history=history),
        "pass_rate_trend": plot_pass_rate_trend(history),
    }
    for name, fig in figs.items():
        boxes = assert_text_fits_and_never_collides(fig, f"{case}: {name}")
        if name == "evaluation_dashboard":
            drawn = {t.get_text() for t, _ in boxes}
            titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
            assert len(titles) == 6, titles  # the six panels; the table is not on the dashboard
            assert set(titles) <= drawn  # so all of them were checked above
            assert "Latency distribution — توزيع زمن الاستجابة" in titles
            tiles = dashboard_tiles(fig)
            assert len(tiles) == 5  # the summary has the Correct verdict: Correct rate, then pass rate
            assert all({t.get_text() for t in tile.texts} <= drawn for tile in tiles)


def test_dashboard_panels_use_the_width():
    """Each chart row is laid out on its own: the category names of the top row do not make the
    latency histogram below them narrow (it was a third of its column)."""
    scores = all_passed_scores(20)
    fig = plot_dashboard(scores, summarize(scores), history=make_history(2))
    render_strict(fig)
    by_title = {ax.get_title(): ax for ax in fig.axes if ax.get_title()}
    hist = by_title["Latency distribution — توزيع زمن الاستجابة"]
    width_in = hist.get_position().width * fig.get_figwidth()
    assert width_in > 0.26 * fig.get_figwidth(), width_in


def test_latency_tiers_are_named_in_the_legend_with_their_shares():
    scores = all_passed_scores(20)
    fig = plot_latency_analysis(scores)
    hist = fig.axes[0]
    assert not hist.texts  # no labels squeezed into the bands
    legend = [t.get_text() for t in hist.get_legend().get_texts()]
    assert legend == [
        "Excellent (< 2 s): 20 · 100.0% — ممتاز", "Good (2–5 s): 0 · 0.0% — جيد", "Passed — ناجح",
        "Acceptable (5–10 s): 0 · 0.0% — مقبول", "Poor (> 10 s): 0 · 0.0% — ضعيف", "Failed — راسب",
    ]
    dash = plot_dashboard(scores, summarize(scores))
    hist = next(ax for ax in dash.axes if ax.get_title().startswith("Latency distribution"))
    legend = [t.get_text() for t in hist.get_legend().get_texts()]
    assert "Good 2–5 s: 0.0%" in legend and "Excellent < 2 s: 100.0%" in legend


def test_latency_ticks_thin_out_on_a_narrow_axis():
    scores = all_passed_scores(20)
    wide = plot_latency_analysis(scores)
    dash = plot_dashboard(scores, summarize(scores), history=make_history(2))
    render_strict(wide)
    render_strict(dash)
    narrow = next(ax for ax in dash.axes if ax.get_title().startswith("Latency distribution"))
    wide_ticks = set(wide.axes[0].get_xticks())
    narrow_ticks = set(narrow.get_xticks())
    assert {0.001, 0.01, 0.1, 1, 2, 5, 10} <= wide_ticks
    assert {0.01, 0.1, 2, 10} <= narrow_ticks and narrow_ticks < wide_ticks
    # Per case: decades and tier boundaries only, nothing above the data but 10 s.
    per_case = wide.axes[1]
    assert set(per_case.get_yticks()) <= {0.001, 0.01, 0.1, 1, 2, 5, 10}


def test_missing_glyph_is_an_error_and_data_text_is_sanitized():
    # The strict rendering really does catch a missing glyph...
    fig = new_figure(3, 1)
    with chart_style():
        fig.text(0.1, 0.5, "漢字")
    with pytest.raises(UserWarning, match="Glyph"):
        render_strict(fig)
    # ...and text from the data cannot trigger it.
    assert safe_text("كم عدد 🙂 المناقصات 漢字\nفي الرياض\u200f؟") == "كم عدد \ufffd المناقصات \ufffd في الرياض\u200f؟"
    scores = make_scores(5)
    scores.loc[0, "question"] = "كم عدد 🙂 المناقصات 漢 $x$ في\tالرياض؟"
    scores.loc[0, ["overall_passed", "correct"]] = False
    scores.loc[1, "category"] = "新类别"
    render_strict(plot_detailed_results(scores))


@pytest.mark.parametrize("module", sorted(p.name for p in Path(charts.__file__).parent.glob("*.py")))
def test_no_arabic_preshaping(module):
    source = (Path(charts.__file__).parent / module).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"arabic_reshaper", "bidi"}, imported
    code_only = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    assert "get_display" not in code_only and "reshape(" not in code_only


def test_arabic_goes_to_matplotlib_in_logical_order():
    scores = make_scores(10)
    scores[["overall_passed", "correct"]] = False
    fig = plot_detailed_results(scores)
    all_text = texts(fig)
    presentation_forms = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]")
    assert not any(presentation_forms.search(t) for t in all_text)
    for q in scores["question"]:
        # Whole, or cut to the column width at a word boundary; in logical order either way.
        shown = [t for t in all_text if t == q or (t.endswith("…") and q.startswith(t[:-1]))]
        assert shown, q
    # A 56-character question fits the column whole (it used to be cut at 45 characters).
    scores.loc[0, "question"] = "ما إجمالي القيمة التقديرية للمناقصات في المنطقة الشرقية؟"
    assert scores.loc[0, "question"] in texts(plot_detailed_results(scores))


# --------------------------------------------------------------------------------------------
# Numbers on the charts are the summary's


def test_metrics_overview_prints_the_summary_values():
    fig = plot_metrics_overview(fixed_summary(), pass_threshold=0.8)
    t = texts(fig)
    assert "81.2%" in t  # pass_rate 0.812
    assert "90.0%" in t  # avg_retrieval_accuracy 0.9
    assert "85.7%" in t  # avg_generation_fidelity 0.8567
    assert "n/a" in t  # execution_accuracy NaN
    assert "Pass threshold 80.0%" in t
    render_strict(fig)


def test_metrics_overview_pass_rate_label_follows_summary():
    summary = fixed_summary()
    summary.loc[0, "pass_rate"] = 0.4567
    t = texts(plot_metrics_overview(summary))
    assert "45.7%" in t and "81.2%" not in t


def test_pass_fail_counts_and_percentages():
    fig = plot_pass_fail_distribution(fixed_summary())
    joined = "\n".join(texts(fig))
    assert "Correct — صحيح\n790 cases · 79.0%" in joined  # Correct leads: the gate's figure
    assert "22 cases · 2.2%" in joined  # passed the seed's checks, not correct: 812 - 790
    assert "181 cases · 18.1%" in joined  # failed 188 of which 7 errors
    assert "7 cases · 0.7%" in joined  # errors slice
    assert "812 of 1,000 · 81.2%" in joined  # the seed's pass rate beside it
    render_strict(fig)


def test_pass_fail_without_errors_has_no_error_slice():
    summary = fixed_summary()
    summary.loc[0, "errors"] = 0
    joined = "\n".join(texts(plot_pass_fail_distribution(summary)))
    assert "Errors" not in joined and "188 cases · 18.8%" in joined


def test_category_breakdown_one_bar_per_category_with_counts():
    fig = plot_category_breakdown(fixed_summary(), pass_threshold=0.8)
    t = texts(fig)
    assert "75.0%  (450/600)" in t and "90.5%  (362/400)" in t
    assert "count — عدّ" in t and "out_of_scope — خارج النطاق" in t
    ax = fig.axes[0]
    assert len(ax.patches) == 2  # one bar per category row
    render_strict(fig)


def test_category_breakdown_bar_count_at_scale():
    scores = make_scores(10_000, seed=5)
    summary = summarize(scores)
    fig = plot_category_breakdown(summary)
    ax = fig.axes[0]
    assert len(ax.patches) == len(summary) - 1 == len(CATEGORIES)


def test_format_seconds_keeps_two_significant_digits():
    assert format_seconds(4.5678) == "4.57 s"
    assert format_seconds(1.234) == "1.23 s"
    assert format_seconds(0.25) == "0.25 s"
    assert format_seconds(0.018) == "0.018 s"
    assert format_seconds(0.0076) == "0.0076 s"
    assert format_seconds(0.00004) == "< 0.0001 s"
    assert format_seconds(0) == "0 s"
    assert format_seconds(float("nan")) == "n/a" and format_seconds(None) == "n/a"


def test_dashboard_headline_numbers():
    scores = make_scores(40)
    # A summary without the Correct verdict: the pass rate is the first tile, judged.
    fig = plot_dashboard(scores, fixed_summary().drop(columns=["correct", "correct_rate"]), pass_threshold=0.8)
    t = texts(fig)
    # 1,000 cases in the donut; retrieval and fidelity on the metrics bars; the rest in tiles.
    for value in ("1,000", "81.2%", "90.0%", "85.7%", "n/a", "median (P50) 1.23 s", "4.57 s", "7",
                  "812 passed · 188 failed", "false answers 1", "false refusals 2"):
        assert value in t, value
    assert "Nabahan evaluation dashboard · 1,000 cases · pass threshold 80.0% — لوحة تقييم نبهان" in t
    first = dashboard_tiles(fig)[0]
    assert tile_texts(first)[:3] == ["Pass rate", "نسبة النجاح", "81.2%"]  # judged, without Correct
    render_strict(fig)


# --------------------------------------------------------------------------------------------
# Detailed table


def test_table_selection_10000_cases_all_failures_fit():
    scores = make_scores(10_000, seed=11, fail_share=0.0, error_share=0.0)
    fail_idx = scores.sample(25, random_state=0).index
    scores.loc[fail_idx, ["overall_passed", "correct"]] = False
    sel = select_table_rows(scores, 40)
    assert len(sel.rows) == 40 and sel.total == 10_000
    assert sel.omitted == 9_960 and sel.omitted_failed == 0 and sel.omitted_passed == 9_960
    shown_passed = sel.rows["overall_passed"].to_list()
    assert shown_passed == [False] * 25 + [True] * 15  # failures first
    assert sel.rows["query_num"].iloc[:25].is_monotonic_increasing
    en, ar = omitted_note(sel)
    assert en == "+ 9,960 more cases not shown (all passed)"
    assert ar == "لم تُعرض 9,960 حالة أخرى (كلها ناجحة)"
    t = texts(plot_detailed_results(scores))
    assert en in t and ar in t


def test_table_selection_10000_cases_mixed():
    scores = make_scores(10_000, seed=12)
    failed = int((~scores["overall_passed"]).sum())
    assert failed > 40
    sel = select_table_rows(scores)
    assert not sel.rows["overall_passed"].any()
    assert sel.omitted == 9_960
    assert sel.omitted_failed == failed - 40
    assert sel.omitted_passed == 10_000 - failed
    en, _ = omitted_note(sel)
    assert en == f"+ 9,960 more cases not shown ({failed - 40:,} failed, {10_000 - failed:,} passed)"


def test_table_selection_small_and_all_failed():
    scores = make_scores(20)
    sel = select_table_rows(scores)
    assert sel.omitted == 0 and len(sel.rows) == 20
    assert omitted_note(sel) == ("All 20 cases shown", "جميع الحالات معروضة")
    scores[["overall_passed", "correct"]] = False
    sel = select_table_rows(scores, 5)
    assert omitted_note(sel)[0] == "+ 15 more cases not shown (all failed)"


def test_table_heading_follows_the_outcome():
    passed = all_passed_scores(20)
    sel = select_table_rows(passed, 10)
    assert table_heading(sel) == ("all passed", "جميعها ناجحة")
    assert "20 of 20 cases shown, all passed" in "\n".join(texts(plot_detailed_results(passed)))
    mixed = make_scores(200, seed=4)
    assert table_heading(select_table_rows(mixed, 10)) == ("failures first", "الراسبة أولاً")
    assert "40 of 200 cases shown, failures first" in "\n".join(texts(plot_detailed_results(mixed)))
    failed = mixed.assign(overall_passed=False, correct=False)
    assert table_heading(select_table_rows(failed, 10))[0] == "all failed"
    assert table_heading(select_table_rows(make_scores(0)))[0] == "none"


def test_table_cells_stay_inside_their_columns():
    scores = make_scores(12, seed=2)
    scores[["overall_passed", "correct"]] = False
    scores.loc[0, "question"] = "W" * 60
    scores.loc[1, "question"] = "SELECT COUNT(*) FROM TENDERS_FULL_DETAILS WHERE REGION = 'RIYADH' AND 1=1"
    scores.loc[2, "question"] = "ما " * 40
    scores.loc[3, "category"] = "a_very_long_custom_category_name_from_elsewhere"
    for fig, rows in ((plot_detailed_results(scores), 12), (plot_detailed_results(scores, max_rows=5), 5)):
        render_strict(fig)
        ax = fig.axes[-1]  # the table
        renderer = fig.canvas.get_renderer()
        fractions = np.cumsum([0.0] + [c[2] for c in TABLE_COLUMNS])
        edges_px = ax.transAxes.transform(np.c_[fractions / fractions[-1], np.zeros(len(fractions))])[:, 0]
        cells = fig.texts[:-2]  # the table's, drawn unclipped; the last two are the footnote
        assert len(cells) == len(TABLE_COLUMNS) * (rows + 1)
        for t in cells:
            bb = t.get_window_extent(renderer)
            col = int(np.searchsorted(edges_px, (bb.x0 + bb.x1) / 2) - 1)
            assert edges_px[col] - 0.5 <= bb.x0 and bb.x1 <= edges_px[col + 1] + 0.5, t.get_text()
    assert truncate_text("W" * 60) not in texts(plot_detailed_results(scores))  # it was shortened


def test_detailed_table_has_at_most_40_rows():
    scores = make_scores(10_000, seed=13)
    fig = plot_detailed_results(scores)
    t = texts(fig)
    assert sum(1 for s in t if s in ("✓ PASS", "✗ FAIL")) == 40
    assert "40 of 10,000 cases shown, failures first" in "\n".join(t)


# --------------------------------------------------------------------------------------------
# Truncation


QUESTION = "ما المناقصات التي ينتهي موعد تقديم عروضها قبل نهاية شهر رمضان لعام 2025 في منطقة الرياض؟"


@pytest.mark.parametrize("limit", [20, 30, 45, 60])
def test_truncate_on_word_boundary(limit):
    out = truncate_text(QUESTION, limit)
    assert len(out) <= limit
    assert out.endswith("…")
    head = out[:-1]
    assert QUESTION.startswith(head)
    assert QUESTION[len(head)] == " "  # cut right before a space: a whole word
    assert len(head) >= limit // 2 - 1


def test_truncate_leaves_short_text_and_collapses_space():
    assert truncate_text("كم عدد المناقصات؟") == "كم عدد المناقصات؟"
    assert truncate_text("  كم   عدد\nالمناقصات؟ ") == "كم عدد المناقصات؟"
    exactly = "ا" * 45
    assert truncate_text(exactly, 45) == exactly


def test_truncate_long_word_and_punctuation():
    assert truncate_text("ب" * 100, 45) == "ب" * 44 + "…"
    assert truncate_text("كم عدد المناقصات، في منطقة الرياض والمنطقة الشرقية", 20) == "كم عدد المناقصات…"
    with pytest.raises(ValueError):
        truncate_text("abc", 1)


def test_format_pct():
    assert format_pct(0.8123) == "81.2%"
    assert format_pct(1) == "100.0%"
    assert format_pct(float("nan")) == "n/a"
    assert format_pct(None) == "n/a"


# --------------------------------------------------------------------------------------------
# Trend


def test_trend_first_run_one_row():
    fig = plot_pass_rate_trend(make_history(1))
    t = "\n".join(texts(fig))
    assert "First run, no trend yet" in t and "التشغيل الأول، لا يوجد اتجاه بعد" in t
    render_strict(fig)


def test_trend_first_run_in_the_dashboard_one_figure_per_line():
    scores = all_passed_scores(20)
    fig = plot_dashboard(scores, summarize(scores), history=make_history(1))
    note = next(t for t in texts(fig) if t.startswith("This run"))
    assert note.count("\n") == 3 and "\nP95 latency " in note
    assert_text_fits_and_never_collides(fig, "first-run dashboard")


def test_trend_none():
    fig = plot_pass_rate_trend(None)
    assert "First run, no trend yet" in texts(fig)
    render_strict(fig)


def test_trend_several_runs():
    history = make_history(8, correct=False)
    fig = plot_pass_rate_trend(history, pass_threshold=0.8)
    render_strict(fig)
    t = texts(fig)
    assert "First run, no trend yet" not in t
    assert format_pct(history["pass_rate"].iloc[-1]) in t
    ax, ax2 = fig.axes[0], fig.axes[1]
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 8]
    assert len(lines) == 2  # pass rate and execution accuracy
    assert len([ln for ln in ax2.get_lines() if len(ln.get_xdata()) == 8]) == 1  # p95
    np.testing.assert_allclose(lines[0].get_ydata(), history["pass_rate"] * 100)


def test_trend_many_runs_exec_nan():
    fig = plot_pass_rate_trend(make_history(365, exec_nan=True))
    render_strict(fig)
    assert "Execution accuracy: n/a" in texts(fig)


def test_trend_rejects_bad_history():
    with pytest.raises(ValueError, match="p95_latency"):
        plot_pass_rate_trend(make_history(3).drop(columns="p95_latency"))


# --------------------------------------------------------------------------------------------
# Dashboard markdown


@pytest.mark.parametrize("max_width", [800, 400])
def test_dashboard_markdown(rendered, max_width):
    path = rendered[5]["evaluation_dashboard.png"]
    md = dashboard_markdown(path, max_width_px=max_width)
    m = re.fullmatch(r"!\[[^\]]*\]\(data:image/png;base64,([A-Za-z0-9+/=]+)\)", md)
    assert m
    assert len(md) < 150_000
    png = base64.b64decode(m.group(1))
    assert png[:8] == PNG_MAGIC
    width, height = struct.unpack(">II", png[16:24])
    assert width <= max_width
    original = mpimg.imread(path)
    assert abs(height / width - original.shape[0] / original.shape[1]) < 0.01


# --------------------------------------------------------------------------------------------
# Files and inputs


def test_save_figure_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "metrics_overview.png"
    target.write_bytes(b"old")
    fig = plot_metrics_overview(fixed_summary())

    def boom(handle, *args, **kwargs):
        handle.write(PNG_MAGIC)  # half a file, then the disk is full
        raise RuntimeError("disk full")

    monkeypatch.setattr(mpimg, "imsave", boom)
    with pytest.raises(RuntimeError):
        save_figure(fig, target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["metrics_overview.png"]


@pytest.mark.parametrize("name", CHART_FILES)
def test_save_figure_draws_once_and_writes_what_savefig_writes(tmp_path, monkeypatch, name):
    """One draw (the layout inside it), not savefig's layout pass and then its draw; the same bytes."""
    scores = make_scores(40, seed=3)
    summary = summarize(scores)
    build = render.chart_builders(scores, summary, make_history(3), 0.8)[name]
    expected = io.BytesIO()
    with chart_style():
        build().savefig(expected, format="png", dpi="figure",
                        pil_kwargs={"compress_level": render.PNG_COMPRESS_LEVEL})
    draws = []
    original = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda fig, renderer: draws.append(fig) or original(fig, renderer))
    save_figure(build(), tmp_path / name)
    assert len(draws) == 1
    assert (tmp_path / name).read_bytes() == expected.getvalue()


def test_empty_run_renders(tmp_path):
    scores = make_scores(0)
    summary = summarize(scores)
    assert summary.iloc[0]["total"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = render_charts(scores, summary, tmp_path / "charts")
    assert len(paths) == 8


def test_bad_inputs():
    scores = make_scores(5)
    summary = summarize(scores)
    with pytest.raises(ValueError, match="latency_s"):
        plot_latency_analysis(scores.drop(columns="latency_s"))
    with pytest.raises(ValueError, match="overall"):
        plot_metrics_overview(summary[summary["scope"] != "overall"])
    with pytest.raises(ValueError, match="pass_threshold"):
        plot_metrics_overview(summary, pass_threshold=80)


def correct_scores_and_summary():
    """20 cases the seed passed, two of them not Correct (an ungrounded number; a wrong result
    and rows its SQL does not return), and their summary."""
    scores = make_scores(20, seed=3, fail_share=0.0, error_share=0.0)
    scores.loc[4, ["ungrounded_numbers", "hallucination_markers"]] = ['["31,415"]', '["ungrounded number: 31,415"]']
    scores.loc[4, ["no_hallucination", "fidelity_points"]] = [0, 3]
    scores.loc[9, ["execution_match", "test_suite_match", "rows_verified"]] = [0.0, 0.0, False]
    scores.loc[[4, 9], "correct"] = False
    scores.loc[4, "not_correct_because"] = "ungrounded 31,415"
    scores.loc[9, "not_correct_because"] = "wrong result; reported rows its SQL does not return"
    return scores, summarize(scores)


def test_dashboard_shows_the_correct_rate_beside_the_pass_rate():
    scores, summary = correct_scores_and_summary()
    fig = plot_dashboard(scores, summary, pass_threshold=0.95)
    tiles = dashboard_tiles(fig)
    assert [tile_texts(tile)[:3] for tile in tiles[:2]] == [
        ["Correct rate", "نسبة الإجابات الصحيحة", "90.0%"],
        ["Pass rate (seed)", "نسبة النجاح", "100.0%"],
    ]
    low, high = (format_pct(summary.iloc[0][f"correct_rate_{side}"]).rstrip("%") for side in ("low", "high"))
    # "18 of 20 correct · 95% CI ..." is too wide for the tile: broken at its separator.
    assert tile_texts(tiles[0])[3:] == ["18 of 20 correct", f"95% CI {low}-{high}", "below threshold 95.0%"]
    assert tiles[0].texts[2].get_color() == FAIL_COLOR  # judged: below the threshold
    assert "form checks only" in tile_texts(tiles[1])
    t = texts(fig)
    overall = summary.iloc[0]
    assert f"test suite {format_pct(overall['test_suite_accuracy'])}" in t and f"unsafe SQL {overall['unsafe_sql']}" in t
    assert_text_fits_and_never_collides(fig, "dashboard with Correct")


def test_detailed_results_say_why_not_correct():
    scores, _ = correct_scores_and_summary()
    fig = plot_detailed_results(scores, max_rows=5)
    t = texts(fig)
    assert "Correct — صحيحة" in t
    assert "✗ ungrounded 31,415" in t and any(text.startswith("✗ wrong result") for text in t)
    sel = select_table_rows(scores, 5)
    assert list(sel.rows["query_num"][:2]) == [5, 10], "not correct first, though the seed passed them"
    assert table_heading(sel) == ("failures first", "الراسبة أولاً")
    assert "5 of 20 cases shown, failures first" in "\n".join(t)
    assert_text_fits_and_never_collides(fig, "detailed results with Correct")


def test_dashboard_is_a_1920x1080_slide_with_tiles_first_and_no_table(tmp_path):
    """The dashboard fits a 16:9 slide: exactly 1920 x 1080 pixels, the Correct rate and the
    seed's pass rate as the first two tiles, numbers large enough to read when projected, and
    no per-case table (that is detailed_results.png)."""
    scores, summary = correct_scores_and_summary()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paths = render_charts(scores, summary, tmp_path / "charts", history=make_history(6))
    png = paths["evaluation_dashboard.png"].read_bytes()
    assert png[:8] == PNG_MAGIC and struct.unpack(">II", png[16:24]) == (1920, 1080)
    assert mpimg.imread(paths["evaluation_dashboard.png"]).shape[:2] == (1080, 1920)

    fig = plot_dashboard(scores, summary, history=make_history(6))
    assert fig.dpi == DPI
    assert tuple(np.round(fig.get_size_inches() * fig.dpi, 6)) == (1920, 1080)
    assert_text_fits_and_never_collides(fig, "slide dashboard")
    tiles = dashboard_tiles(fig)
    assert [ax.get_gid() for ax in tiles[:2]] == ["tile:correct_rate", "tile:pass_rate"]
    assert [tile_texts(ax)[0] for ax in tiles[:2]] == ["Correct rate", "Pass rate (seed)"]
    # Tiles first: a row across the top, above every chart panel.
    panels = [ax for ax in fig.axes if ax not in tiles]
    assert min(ax.get_position().y0 for ax in tiles) > max(ax.get_position().y1 for ax in panels)
    for ax in tiles:
        label, arabic, value, *notes = ax.texts
        assert value.get_fontsize() >= 28 and value.get_fontweight() == "bold", ax.get_gid()
        assert all(t.get_fontsize() >= 12 for t in (label, arabic, *notes)), ax.get_gid()
    # Panel titles are readable too.
    assert all(ax.title.get_fontsize() >= 13 for ax in panels if ax.get_title())
    # No table: none of its headers, rows or footnote, and no tinted row background.
    t = texts(fig)
    assert not {header for _, header, _, _ in TABLE_COLUMNS} & set(t)
    assert not {"✓ PASS", "✗ FAIL"} & set(t)
    assert not any(s.startswith(("Cases, ", "All 20 cases shown", "+ ")) for s in t)
    assert not any("✗ ungrounded" in s for s in t)
    tints = {to_rgba(PASS_TINT), to_rgba(FAIL_TINT)}
    assert not any(isinstance(p, Rectangle) and p.get_facecolor() in tints
                   for ax in fig.axes for p in ax.patches)


def test_dashboard_tiles_fit_with_very_large_numbers():
    """Notes too wide for a tile are broken at their separators and values are set smaller
    (not below 28 pt); nothing leaves its tile."""
    scores = make_scores(50, seed=3)
    summary = summarize(scores)
    summary.loc[0, ["total", "passed", "failed", "errors", "false_refusals", "false_answers",
                    "execution_cases"]] = [12_345_678, 11_000_000, 1_345_678, 1_234_567, 123_456,
                                           654_321, 9_876_543]
    summary.loc[0, ["p95_latency", "p50_latency"]] = [0.00004, 0.00002]
    summary = summary.assign(correct=11_111_111, correct_rate=0.9, test_suite_accuracy=0.755,
                             test_suite_cases=8, unsafe_sql=1_000_000, rows_not_verified=0)
    fig = plot_dashboard(scores, summary, history=make_history(300))
    assert_text_fits_and_never_collides(fig, "large numbers")
    by_key = {ax.get_gid(): tile_texts(ax) for ax in dashboard_tiles(fig)}
    assert "< 0.0001 s" in by_key["tile:p95_latency"] and "1,234,567" in by_key["tile:errors"]
    assert "11,000,000 passed" in by_key["tile:pass_rate"]  # broken at " · "
    for ax in dashboard_tiles(fig):
        assert ax.texts[2].get_fontsize() >= 28


def test_the_trend_draws_the_correct_rate_when_history_has_it():
    history = make_history(6, correct=False)
    plain = plot_pass_rate_trend(history)
    with_correct = plot_pass_rate_trend(history.assign(correct_rate=history["pass_rate"] - 0.1))

    def line_labels(fig) -> list[str]:
        return [line.get_label() for ax in fig.axes for line in ax.get_lines()]

    assert "Correct rate — الصحيحة" not in line_labels(plain)
    assert "Correct rate — الصحيحة" in line_labels(with_correct)
    (correct,) = [line for ax in with_correct.axes for line in ax.get_lines() if line.get_label().startswith("Correct")]
    assert np.allclose(correct.get_ydata(), (history["pass_rate"] - 0.1) * 100)
