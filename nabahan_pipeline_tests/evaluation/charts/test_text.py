"""Tests for evaluation.charts.text.text_width_px: the width a label takes when drawn, measured
once for the figure."""

from __future__ import annotations

from matplotlib.font_manager import FontProperties

from nabahan_pipeline.evaluation.charts.style import FONT_FAMILY, chart_style, new_figure
from nabahan_pipeline.evaluation.charts.text import text_width_px

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


def test_text_width_px_is_the_width_drawn_and_is_not_measured_again_when_drawn(monkeypatch):
    fig = new_figure(4, 1)
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(family=FONT_FAMILY, size=9, weight="bold")
    width = text_width_px(fig, QUESTION, prop)
    assert width == renderer.get_text_width_height_descent(QUESTION, prop, ismath=False)[0] > 0
    assert text_width_px(fig, QUESTION, FontProperties(family=FONT_FAMILY, size=18, weight="bold")) > 1.8 * width

    measured = []
    original = renderer.get_text_width_height_descent
    monkeypatch.setattr(renderer, "get_text_width_height_descent",
                        lambda s, p, ismath: measured.append(s) or original(s, p, ismath))
    with chart_style():
        drawn = fig.text(0.0, 0.5, QUESTION, fontsize=9, fontweight="bold")
        other = fig.text(0.0, 0.2, QUESTION + " 2025", fontsize=9, fontweight="bold")
        assert drawn.get_window_extent(renderer).width == width
        assert other.get_window_extent(renderer).width > width
    assert QUESTION not in measured and QUESTION + " 2025" in measured  # the spy does see a miss


def test_a_dollar_sign_is_text_not_mathtext():
    fig = new_figure(4, 1)
    prop = FontProperties(family=FONT_FAMILY, size=9)
    assert text_width_px(fig, "$x$", prop) == fig.canvas.get_renderer().get_text_width_height_descent(
        "$x$", prop, ismath=False)[0]
