"""The charts render_charts writes, pinned pixel for pixel.

For fixed synthetic inputs (nabahan_fixtures.synthetic: 0, 20, 60 x 2 repeats, 400 and 10,000 cases,
first runs and trend histories) the set of files written and a SHA-256 of each PNG's decoded
pixels (mode, size, raw bytes, via Pillow) must equal the reference in ``chart_pixels.json``.
Pixels, not file bytes, so that a change of PNG encoding alone does not count as a change of chart.

Checked-in digests, rather than two renderings compared in one run, because a changed drawing path
must match the charts as they were, not merely itself: rendering is deterministic on this machine
(matplotlib, FreeType and the DejaVu fonts are pinned by the virtualenv; the same digests come out
of separate processes and any PYTHONHASHSEED). The reference also holds a digest of each case's
inputs, so that a change of the synthetic tables fails with its own message, not as a chart change.

A chart changed on purpose: look at the new PNGs, then write the reference again with

    PYTHONPATH=. .venv/bin/python -m nabahan_pipeline_tests.evaluation.charts.test_render --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from nabahan_pipeline.evaluation.charts.render import CHART_FILES, render_charts
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import all_passed_scores, make_history, make_scores

REFERENCE = Path(__file__).with_name("chart_pixels.json")

Inputs = tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None, float]


def _case(scores: Callable[[], pd.DataFrame], runs: int | None, threshold: float = 0.8,
          **history: object) -> Callable[[], Inputs]:
    def make() -> Inputs:
        s = scores()
        return s, summarize(s), None if runs is None else make_history(runs, **history), threshold
    return make


# name -> (inputs, slow)
CASES: dict[str, tuple[Callable[[], Inputs], bool]] = {
    "0 cases, first run": (_case(lambda: make_scores(0), None), False),
    "20 cases, 14 runs": (_case(lambda: make_scores(20, seed=20), 14), False),
    "20 all passed, first run": (_case(lambda: all_passed_scores(20), None), False),
    "20 all passed, two runs": (_case(lambda: all_passed_scores(20), 2), False),
    "60 cases x 2 repeats, 30 runs, threshold 90%": (
        _case(lambda: make_scores(60, seed=7, repeats=2), 30, 0.9), False),
    "400 cases, 5% errors, 80 runs before Correct, no execution accuracy": (
        _case(lambda: make_scores(400, seed=400, error_share=0.05), 80, correct=False, exec_nan=True),
        False),
    "10,000 cases, 14 runs": (_case(lambda: make_scores(10_000, seed=10_000), 14), True),
}


def frame_digest(df: pd.DataFrame | None) -> str:
    """A digest of a table's columns and values, to tell a change of inputs from one of charts."""
    if df is None:
        return "none"
    h = hashlib.sha256(json.dumps([str(c) for c in df.columns]).encode())
    h.update(pd.util.hash_pandas_object(df, index=True).to_numpy().tobytes())
    return h.hexdigest()


def inputs_digest(inputs: Inputs) -> str:
    scores, summary, history, threshold = inputs
    parts = [frame_digest(scores), frame_digest(summary), frame_digest(history), repr(threshold)]
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()


def pixel_digest(path: Path) -> str:
    """SHA-256 of a picture's decoded pixels, its mode and size."""
    with Image.open(path) as image:
        image.load()
        h = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode())
        h.update(image.tobytes())
    return h.hexdigest()


def render_digests(inputs: Inputs, out: Path) -> dict[str, str]:
    """render_charts into ``out`` (warnings as errors); every file it leaves -> its pixel digest."""
    scores, summary, history, threshold = inputs
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render_charts(scores, summary, out, history=history, pass_threshold=threshold)
    return {p.name: pixel_digest(p) for p in sorted(out.iterdir())}


def _reference() -> dict[str, dict]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def test_the_reference_covers_every_case_and_chart():
    reference = _reference()
    assert sorted(reference) == sorted(CASES)
    for name, entry in reference.items():
        assert sorted(entry["charts"]) == sorted(CHART_FILES), name


@pytest.mark.parametrize(
    "case", [pytest.param(name, marks=[pytest.mark.slow] if slow else [], id=name) for name, (_, slow) in CASES.items()],
)
def test_render_charts_draws_the_reference_pixels(case, tmp_path):
    expected = _reference()[case]
    inputs = CASES[case][0]()
    assert inputs_digest(inputs) == expected["inputs"], (
        "the synthetic inputs changed, not (necessarily) the charts: write the reference again "
        "(see this module's docstring) once the charts are checked")
    got = render_digests(inputs, tmp_path / "charts")
    assert sorted(got) == sorted(CHART_FILES)
    changed = [name for name in CHART_FILES if got[name] != expected["charts"][name]]
    assert not changed, f"{case}: pixels differ from the reference in {changed}"


def test_the_digest_sees_a_one_unit_colour_change(tmp_path, monkeypatch):
    """The comparison fails on the smallest change of a chart: the blue of "passed" one unit off."""
    from nabahan_pipeline.evaluation.charts import pass_fail
    from nabahan_pipeline.evaluation.charts.render import save_figure

    scores = make_scores(20, seed=20)
    summary = summarize(scores)
    before = pixel_digest(save_figure(pass_fail.plot_pass_fail_distribution(summary), tmp_path / "a.png"))
    again = pixel_digest(save_figure(pass_fail.plot_pass_fail_distribution(summary), tmp_path / "b.png"))
    monkeypatch.setattr(pass_fail, "PASS_COLOR", "#0072B3")  # was #0072B2
    after = pixel_digest(save_figure(pass_fail.plot_pass_fail_distribution(summary), tmp_path / "c.png"))
    assert before == again != after


def write_reference() -> None:
    """Render every case and write chart_pixels.json."""
    reference = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, (make, _)) in enumerate(CASES.items()):
            inputs = make()
            reference[name] = {"inputs": inputs_digest(inputs),
                               "charts": render_digests(inputs, Path(tmp) / str(i) / "charts")}
    REFERENCE.write_text(json.dumps(reference, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {REFERENCE}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write chart_pixels.json")
    if parser.parse_args().write:
        write_reference()
