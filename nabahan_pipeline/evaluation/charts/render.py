"""All eight charts of a run, drawn and switched into the run folder as one set."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib.image
import pandas as pd
from matplotlib.figure import Figure

from nabahan_pipeline.evaluation.charts.categories import plot_category_breakdown
from nabahan_pipeline.evaluation.charts.dashboard import plot_dashboard
from nabahan_pipeline.evaluation.charts.detailed_results import plot_detailed_results
from nabahan_pipeline.evaluation.charts.error_locations import plot_error_locations
from nabahan_pipeline.evaluation.charts.inputs import check_threshold, overall_row, require_history, require_scores
from nabahan_pipeline.evaluation.charts.latency import plot_latency_analysis
from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
from nabahan_pipeline.evaluation.charts.style import chart_style
from nabahan_pipeline.evaluation.charts.trend import plot_pass_rate_trend
from nabahan_pipeline.files import atomic_folder, atomic_open, remove_stale_temporaries

CHART_FILES: tuple[str, ...] = (
    "metrics_overview.png",
    "pass_fail_distribution.png",
    "latency_analysis.png",
    "category_breakdown.png",
    "detailed_results.png",
    "evaluation_dashboard.png",
    "pass_rate_trend.png",
    "error_locations.png",
)


# zlib's level for the PNGs: 3, zlib's fastest that keeps them as small as its default 6 does
# (the eight charts a third less CPU to encode, within 1 % of the bytes: bench/README.md). The
# pixels are the same at every level; the chart reference tests compare pixels.
PNG_COMPRESS_LEVEL = 3


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` (on its Agg canvas, ``style.new_figure``) as PNG to ``path``, atomically: a
    temporary file in the same folder, then ``os.replace``. Readers never see a half-written file.

    Drawn once: the canvas draws (its layout engine runs inside that draw) and ``imsave`` writes
    its pixels, which is what ``savefig`` writes after a layout pass of its own that walks every
    artist a second time: the same bytes (at :data:`PNG_COMPRESS_LEVEL`) for a sixth less CPU
    (bench/README.md, issue 40).
    """
    path = Path(path)
    with chart_style(), atomic_open(path, "wb") as handle:
        fig.canvas.draw()
        matplotlib.image.imsave(handle, fig.canvas.buffer_rgba(), format="png", origin="upper", dpi=fig.dpi,
                                pil_kwargs={"compress_level": PNG_COMPRESS_LEVEL})
    return path


def _history_from_summary(summary: pd.DataFrame) -> pd.DataFrame:
    overall = overall_row(summary)
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
    gated: str | None = None,
) -> dict[str, Path]:
    """Write the eight PNG charts as one set: drawn into a folder of their own, then ``out_dir``
    (a symbolic link, see ``files.atomic_folder``) is switched to it whole, so a reader never sees
    charts of two runs mixed, and a run killed while drawing leaves the last set in place.

    ``history``: one row per run, oldest first, the current run last (run_label, timestamp,
    pass_rate, execution_accuracy, p95_latency). ``None`` means this is the first run. ``gated``:
    the summary column the threshold judges on the dashboard (default: the Correct rate).
    Returns ``{file name: path}`` in :data:`CHART_FILES` order, the paths in this run's own
    folder (``out_dir`` may point at a later run's by the time they are read).
    """
    threshold = check_threshold(pass_threshold)
    require_scores(scores)
    overall_row(summary)
    if history is None or len(history) == 0:
        history = _history_from_summary(summary)
    else:
        require_history(history)
    out = Path(out_dir)
    remove_stale_temporaries(out.with_name(f".{out.name}_runs"))
    charts = chart_builders(scores, summary, history, threshold, gated)
    with atomic_folder(out) as folder:
        for name in CHART_FILES:
            save_figure(charts[name](), folder.path / name)
    return {name: folder.final / name for name in CHART_FILES}


def chart_builders(scores: pd.DataFrame, summary: pd.DataFrame, history: pd.DataFrame,
                   threshold: float, gated: str | None = None) -> dict[str, Callable[[], Figure]]:
    """The eight charts by file name, each a function that builds its figure (one figure in
    memory at a time)."""
    return {
        "metrics_overview.png": lambda: plot_metrics_overview(summary, pass_threshold=threshold),
        "pass_fail_distribution.png": lambda: plot_pass_fail_distribution(summary),
        "latency_analysis.png": lambda: plot_latency_analysis(scores),
        "category_breakdown.png": lambda: plot_category_breakdown(summary, pass_threshold=threshold),
        "detailed_results.png": lambda: plot_detailed_results(scores),
        "evaluation_dashboard.png":
            lambda: plot_dashboard(scores, summary, history=history, pass_threshold=threshold, gated=gated),
        "pass_rate_trend.png": lambda: plot_pass_rate_trend(history, pass_threshold=threshold),
        "error_locations.png": lambda: plot_error_locations(scores),
    }
