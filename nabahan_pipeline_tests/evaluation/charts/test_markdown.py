"""Tests for evaluation.charts.markdown: the Markdown is made from the file at the path each time
it is asked for, so a later file at the same path (the next run's charts) is never shown stale."""

from __future__ import annotations

import base64
import io
import os
import re

from PIL import Image

from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
from nabahan_pipeline.evaluation.charts.render import render_charts
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_history, make_scores


def _image(markdown: str) -> Image.Image:
    encoded = re.fullmatch(r"!\[Evaluation dashboard\]\(data:image/png;base64,([A-Za-z0-9+/=]+)\)", markdown)
    assert encoded is not None, markdown[:80]
    return Image.open(io.BytesIO(base64.b64decode(encoded.group(1)))).convert("RGB")


def test_the_markdown_shows_the_file_now_at_the_path(tmp_path):
    scores = make_scores(20, seed=20)
    dashboard = render_charts(scores, summarize(scores), tmp_path / "charts",
                              history=make_history(3))["evaluation_dashboard.png"]
    drawn = dashboard_markdown(dashboard)
    assert _image(drawn).size == (800, 450)

    Image.new("RGB", (1920, 1080), "#0072B2").save(tmp_path / "blue.png")
    os.replace(tmp_path / "blue.png", dashboard)
    blue = dashboard_markdown(dashboard)
    assert blue != drawn
    assert _image(blue).getcolors() == [(800 * 450, (0x00, 0x72, 0xB2))]


def test_a_copy_over_the_byte_limit_is_made_smaller(tmp_path):
    noise = Image.frombytes("RGB", (400, 300), os.urandom(400 * 300 * 3))
    noise.save(tmp_path / "noise.png")
    markdown = dashboard_markdown(tmp_path / "noise.png", max_bytes=100_000)
    small = _image(markdown)
    assert small.width < 400 and len(markdown) < 100_000 + 100
