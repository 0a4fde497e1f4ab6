"""Tests for evaluation.charts.markdown: the Markdown render_charts prepares while it draws is the
one dashboard_markdown makes from the file, and is only used for that very file."""

from __future__ import annotations

import os

from PIL import Image

from nabahan_pipeline.evaluation.charts import markdown
from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
from nabahan_pipeline.evaluation.charts.render import render_charts
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.synthetic import make_history, make_scores


def _made_from_the_file(path) -> str:
    saved = dict(markdown._prepared)
    markdown._prepared.clear()
    try:
        return dashboard_markdown(path)
    finally:
        markdown._prepared.update(saved)


def test_the_prepared_markdown_is_the_one_made_from_the_file_and_serves_only_that_file(tmp_path):
    scores = make_scores(20, seed=20)
    dashboard = render_charts(scores, summarize(scores), tmp_path / "charts", history=make_history(3),
                              processes=1)["evaluation_dashboard.png"]
    assert list(markdown._prepared) == [markdown._identity(dashboard, 800, 150_000)]  # prepared
    prepared = dashboard_markdown(dashboard)
    assert prepared.startswith("![Evaluation dashboard](data:image/png;base64,")
    assert prepared == _made_from_the_file(dashboard)

    # The same file by another path (the charts link, a later move) is still that file...
    other_path = tmp_path / "linked.png"
    os.link(dashboard, other_path)
    assert dashboard_markdown(other_path) is prepared
    # ...but other contents at that very path are not.
    Image.new("RGB", (1920, 1080), "#0072B2").save(tmp_path / "blue.png")
    os.replace(tmp_path / "blue.png", other_path)
    blue = dashboard_markdown(other_path)
    assert blue != prepared and blue == _made_from_the_file(other_path)
    # Nor other limits.
    assert len(dashboard_markdown(dashboard, max_width_px=400)) < len(prepared)
