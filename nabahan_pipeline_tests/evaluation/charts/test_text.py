"""Tests for evaluation.charts.text.text_width_px: the renderer's own measure, left in the cache
that the layout reads, so that a label measured to fit is not measured again when drawn."""

from __future__ import annotations

from matplotlib.font_manager import FontProperties

from nabahan_pipeline.evaluation.charts.style import FONT_FAMILY, chart_style, new_figure
from nabahan_pipeline.evaluation.charts.text import text_width_px

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


def test_text_width_px_is_the_renderers_measure_and_is_not_taken_again_when_drawn(monkeypatch):
    fig = new_figure(4, 1)
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(family=FONT_FAMILY, size=9, weight="bold")
    width = text_width_px(fig, QUESTION, prop)
    assert width == renderer.get_text_width_height_descent(QUESTION, prop, ismath=False)[0] > 0

    measured = []
    original = renderer.get_text_width_height_descent
    monkeypatch.setattr(renderer, "get_text_width_height_descent",
                        lambda s, p, ismath: measured.append(s) or original(s, p, ismath))
    with chart_style():
        drawn = fig.text(0.0, 0.5, QUESTION, fontsize=9, fontweight="bold")
        other = fig.text(0.0, 0.2, QUESTION + " 2025", fontsize=9, fontweight="bold")
        assert drawn.get_window_extent(renderer).width == width
        other.get_window_extent(renderer)
    assert QUESTION not in measured and QUESTION + " 2025" in measured  # the spy does see a miss


def test_without_matplotlibs_private_cache_the_width_is_the_renderers_measure(monkeypatch):
    from nabahan_pipeline.evaluation.charts import text

    assert text._CACHED_METRICS is not None  # matplotlib 3.11 has it
    fig = new_figure(4, 1)
    prop = FontProperties(family=FONT_FAMILY, size=9)
    cached = text_width_px(fig, QUESTION, prop)
    monkeypatch.setattr(text, "_CACHED_METRICS", None)
    assert text_width_px(fig, QUESTION, prop) == cached > 0
