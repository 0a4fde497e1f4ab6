"""agent_comparison.png: the bars and points are the comparison's figures, Arabic goes in unshaped
and whole, text from the data cannot miss a glyph, and nothing is cut off."""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pandas as pd
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer
from matplotlib.text import Text

from nabahan_pipeline.evaluation.charts.comparison import agent_style, plot_agent_comparison
from nabahan_pipeline.evaluation.charts.style import chart_style
from nabahan_pipeline.evaluation.comparison import compare_agents
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_scores

LABELS = ["embedded", "نموذج ٢", "http://127.0.0.1:8000/ask 🙂"]


def comparison():
    frames = {label: make_scores(40, seed=seed, fail_share=0.1 * seed) for seed, label in enumerate(LABELS, 1)}
    return compare_agents(frames, {label: summarize(frame) for label, frame in frames.items()})


def drawn(fig) -> bytes:
    """The PNG, every warning an error (a missing glyph fails)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        buffer = io.BytesIO()
        with chart_style():
            fig.savefig(buffer, format="png")
    return buffer.getvalue()


def test_one_bar_per_agent_and_group_at_its_correct_rate():
    result = comparison()
    fig = plot_agent_comparison(result.agents, result.categories)
    bars_ax, scatter_ax = fig.axes[:2]
    groups = ["overall", *dict.fromkeys(result.categories["category"])]
    heights = np.array([patch.get_height() for patch in bars_ax.patches]).reshape(len(LABELS), len(groups))
    for position, label in enumerate(LABELS):
        expected = [result.agents.loc[position, "correct_rate"]] + [
            result.categories.set_index(["agent", "category"]).loc[(label, group), "correct_rate"] for group in groups[1:]
        ]
        assert np.allclose(heights[position], np.array(expected) * 100), label
        assert to_hex(bars_ax.patches[position * len(groups)].get_facecolor()) == agent_style(position)["color"].lower()
    points = np.vstack([collection.get_offsets() for collection in scatter_ax.collections])
    assert np.allclose(points, result.agents[["p50_latency", "correct_rate"]].to_numpy(dtype=float) * [1, 100])
    assert drawn(fig).startswith(b"\x89PNG")


def test_arabic_is_given_whole_and_unshaped_and_a_missing_glyph_is_replaced():
    result = comparison()
    fig = plot_agent_comparison(result.agents, result.categories)
    texts = [text.get_text() for text in fig.findobj(Text)]
    assert "نموذج ٢" in texts, "the legend holds the label as typed"
    assert not any(re.search("[\ufb50-\ufdff\ufe70-\ufeff]", text) for text in texts), "no presentation forms"
    assert not any("🙂" in text for text in texts) and any("\ufffd" in text for text in texts)
    drawn(fig)


def test_an_agent_with_no_latency_has_no_point():
    result = comparison()
    agents = result.agents.copy()
    agents.loc[1, ["p50_latency", "p95_latency"]] = np.nan
    fig = plot_agent_comparison(agents, result.categories)
    points = np.vstack([collection.get_offsets() for collection in fig.axes[1].collections])
    assert len(points) == 2
    empty = pd.DataFrame(agents.assign(p50_latency=np.nan))
    drawn(plot_agent_comparison(empty, result.categories))


def test_each_bar_has_an_error_bar_over_its_interval():
    result = comparison()
    bars_ax = plot_agent_comparison(result.agents, result.categories).axes[0]
    groups = ["overall", *dict.fromkeys(result.categories["category"])]
    by_category = result.categories.set_index(["agent", "category"])
    containers = [container for container in bars_ax.containers if isinstance(container, BarContainer)]
    assert len(containers) == len(LABELS)
    for position, (label, container) in enumerate(zip(LABELS, containers)):
        (segments,) = [collection.get_segments() for collection in container.errorbar.lines[2]]
        ends = [(segment[0][1], segment[1][1]) for segment in segments]
        expected = [(result.agents.loc[position, "correct_rate_low"] * 100, result.agents.loc[position, "correct_rate_high"] * 100)]
        expected += [(by_category.loc[(label, group), "correct_rate_low"] * 100,
                      by_category.loc[(label, group), "correct_rate_high"] * 100) for group in groups[1:]]
        assert np.allclose(ends, expected), label
