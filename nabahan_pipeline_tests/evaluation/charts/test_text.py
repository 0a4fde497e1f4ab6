"""Tests for evaluation.charts.text.text_width_px: the width a label takes when drawn."""

from __future__ import annotations

from matplotlib.font_manager import FontProperties

from nabahan_pipeline.evaluation.charts.style import FONT_FAMILY, chart_style, new_figure
from nabahan_pipeline.evaluation.charts.text import text_width_px

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


def test_text_width_px_is_the_width_of_the_text_drawn():
    fig = new_figure(4, 1)
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(family=FONT_FAMILY, size=9, weight="bold")
    width = text_width_px(fig, QUESTION, prop)
    with chart_style():
        drawn = fig.text(0.0, 0.5, QUESTION, fontsize=9, fontweight="bold")
        assert drawn.get_window_extent(renderer).width == width > 0
    assert text_width_px(fig, QUESTION + " 2025", prop) > width
    assert text_width_px(fig, QUESTION, FontProperties(family=FONT_FAMILY, size=18, weight="bold")) > 1.8 * width
