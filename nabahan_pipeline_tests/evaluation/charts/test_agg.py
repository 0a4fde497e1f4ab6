"""Tests for evaluation.charts.agg: our canvas draws text with fewer FreeType calls, and paints
exactly the pixels matplotlib's own Agg canvas paints."""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

from nabahan_pipeline.evaluation.charts import agg
from nabahan_pipeline.evaluation.charts.agg import ChartCanvas, ChartRenderer
from nabahan_pipeline.evaluation.charts.style import DPI, chart_style

TEXTS = [
    # (text, x, y, size, weight, rotation, antialiased)
    ("Pass rate by category — نسبة النجاح حسب الفئة", 0.02, 0.9, 12, "bold", 0, True),
    ("كم عدد المناقصات في منطقة الرياض؟", 0.97, 0.78, 9, "normal", 0, True),
    ("2026-11-23 18:15", 0.3, 0.45, 10.5, "normal", 30, True),
    ("✓ 3/3 · ✗ FAIL", 0.05, 0.62, 9, "bold", 0, True),
    ("0.001 s", 0.6, 0.3, 9, "normal", 90, True),
    ("Latency (s, log) — زمن", 0.1, 0.15, 9.5, "normal", -12.5, False),
    ("\ufffd U+FFFD", 0.7, 0.6, 9, "normal", 0, True),
    ("Evaluation metrics — مقاييس التقييم\n20 cases", 0.45, 0.95, 12, "bold", 0, True),
]


def _draw(canvas_class) -> tuple[np.ndarray, list]:
    fig = Figure(figsize=(5, 3), dpi=DPI)
    canvas_class(fig)
    with chart_style():
        for text, x, y, size, weight, rotation, antialiased in TEXTS:
            # Twice over, a little apart: the second is drawn from the shaped glyphs kept.
            for dy in (0.0, 0.03):
                fig.text(x, y - dy, text, fontsize=size, fontweight=weight, rotation=rotation,
                         antialiased=antialiased, ha="right" if x > 0.9 else "left")
        fig.canvas.draw()
    extents = [t.get_window_extent().extents.tolist() for t in fig.texts]
    return np.asarray(fig.canvas.buffer_rgba()).copy(), extents


def test_the_chart_canvas_paints_what_matplotlib_paints():
    ours, our_extents = _draw(ChartCanvas)
    theirs, their_extents = _draw(FigureCanvasAgg)
    assert our_extents == their_extents  # the same line heights (ChartRenderer._get_font_height_metrics)
    assert np.array_equal(ours, theirs)
    assert (ours[..., :3] < 128).any()  # there is text
    assert isinstance(ChartCanvas(Figure()).get_renderer(), ChartRenderer)


def test_the_size_is_set_once_per_font_not_per_glyph(monkeypatch):
    calls = []
    original = FT2Font.set_size
    monkeypatch.setattr(FT2Font, "set_size", lambda self, *a: calls.append(a) or original(self, *a))
    fig = Figure(figsize=(3, 1), dpi=DPI)
    ChartCanvas(fig)
    with chart_style():
        fig.text(0.05, 0.5, "a long label of many glyphs", fontsize=9)
        fig.canvas.draw()
    assert 0 < len(calls) <= 3  # the font prepared (measure, draw) and its one run of glyphs


def test_a_text_drawn_again_is_not_shaped_again(monkeypatch):
    agg._shaped.cache_clear()
    shaped = []
    original = FT2Font._layout
    monkeypatch.setattr(FT2Font, "_layout", lambda self, s, **kw: shaped.append(s) or original(self, s, **kw))
    for _ in range(2):
        fig = Figure(figsize=(3, 1), dpi=DPI)
        ChartCanvas(fig)
        with chart_style():
            fig.text(0.05, 0.5, "نسبة النجاح 81.2%", fontsize=9)
            fig.canvas.draw()
    assert shaped == ["نسبة النجاح 81.2%"]


def test_only_a_checked_matplotlib_gets_the_chart_renderer():
    assert agg.USE_CHART_RENDERER  # the matplotlib of this virtualenv: 3.11
    assert agg._fits("3.11.2") and not agg._fits("3.12.0") and not agg._fits("4.0.0")


def test_on_another_matplotlib_the_seven_charts_are_drawn_by_matplotlibs_renderer(tmp_path, monkeypatch):
    from nabahan_pipeline_tests.evaluation.charts.test_render import CASES, _reference, render_digests

    monkeypatch.setattr(agg, "USE_CHART_RENDERER", False)  # as _fits decides for another version
    fig = Figure()
    ChartCanvas(fig)
    assert type(fig.canvas.get_renderer()) is not ChartRenderer
    case = "20 cases, 14 runs"
    assert render_digests(CASES[case][0](), tmp_path / "charts") == _reference()[case]["charts"]
