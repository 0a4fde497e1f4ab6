"""All seven charts of a run, drawn and switched into the run folder as one set."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from nabahan_pipeline.evaluation.charts import markdown
from nabahan_pipeline.evaluation.charts.inputs import check_threshold, overall_row, require_history, require_scores
from nabahan_pipeline.evaluation.charts.worker import default_processes, draw_on_worker
from nabahan_pipeline.files import atomic_folder, remove_stale_temporaries

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from nabahan_pipeline.evaluation.charts.drawing import Chart

# matplotlib is imported where a chart is drawn (drawing and the chart modules), not here: the
# run's process hands its charts to the chart worker (``worker``) and need not load it at all.

CHART_FILES: tuple[str, ...] = (
    "metrics_overview.png",
    "pass_fail_distribution.png",
    "latency_analysis.png",
    "category_breakdown.png",
    "detailed_results.png",
    "evaluation_dashboard.png",
    "pass_rate_trend.png",
)


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as PNG to ``path`` atomically: a temporary file in the same folder, then
    ``os.replace``. Readers never see a half-written file."""
    from nabahan_pipeline.evaluation.charts.drawing import draw_figure, write_png

    return write_png(draw_figure(fig), path, dpi=fig.dpi)


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
    processes: int | None = None,
) -> dict[str, Path]:
    """Write the seven PNG charts as one set: drawn into a folder of their own, then ``out_dir``
    (a symbolic link, see ``files.atomic_folder``) is switched to it whole, so a reader never sees
    charts of two runs mixed, and a run killed while drawing leaves the last set in place.

    ``history``: one row per run, oldest first, the current run last (run_label, timestamp,
    pass_rate, execution_accuracy, p95_latency). ``None`` means this is the first run.
    ``processes``: 1 draws here alone, 2 with a forked helper (``drawing``); ``None`` chooses:
    the chart worker if one was started (``worker``), else ``worker.default_processes``. The
    pixels are the same either way.
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
    with atomic_folder(out) as folder:
        if processes is not None or not draw_on_worker(scores, summary, history, threshold, folder.path):
            draw_into(scores, summary, history, threshold, folder.path, processes=processes)
    return {name: folder.final / name for name in CHART_FILES}


def draw_into(scores: pd.DataFrame, summary: pd.DataFrame, history: pd.DataFrame, threshold: float,
              folder: Path, *, processes: int | None = None) -> str | None:
    """Draw the seven charts into ``folder`` in this process (and a forked helper, see
    ``render_charts``); the dashboard's Markdown, made as its PNG is written."""
    from nabahan_pipeline.evaluation.charts.drawing import draw_charts

    prepared: list[str] = []
    draw_charts(chart_builders(scores, summary, history, threshold), folder,
                processes=default_processes() if processes is None else processes,
                written=lambda name, path, pixels: prepared.append(prepare_markdown(name, path, pixels)),
                inputs=(scores, summary, history, threshold))
    return next(filter(None, prepared), None)


def chart_builders(scores: pd.DataFrame, summary: pd.DataFrame, history: pd.DataFrame,
                   threshold: float) -> dict[str, Chart]:
    """The seven charts, each a function that builds its figure, costliest first (so that two
    processes finish together); the dashboard first of all, so that its Markdown is made while
    the others are drawn."""
    from nabahan_pipeline.evaluation.charts.categories import plot_category_breakdown
    from nabahan_pipeline.evaluation.charts.dashboard import plot_dashboard
    from nabahan_pipeline.evaluation.charts.detailed_results import plot_detailed_results
    from nabahan_pipeline.evaluation.charts.latency import plot_latency_analysis
    from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
    from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
    from nabahan_pipeline.evaluation.charts.trend import plot_pass_rate_trend

    return {
        "evaluation_dashboard.png": lambda: plot_dashboard(scores, summary, history=history, pass_threshold=threshold),
        "detailed_results.png": lambda: plot_detailed_results(scores),
        "latency_analysis.png": lambda: plot_latency_analysis(scores),
        "category_breakdown.png": lambda: plot_category_breakdown(summary, pass_threshold=threshold),
        "pass_rate_trend.png": lambda: plot_pass_rate_trend(history, pass_threshold=threshold),
        "metrics_overview.png": lambda: plot_metrics_overview(summary, pass_threshold=threshold),
        "pass_fail_distribution.png": lambda: plot_pass_fail_distribution(summary),
    }


def prepare_markdown(name: str, path: Path, pixels: memoryview) -> str | None:
    """The dashboard's Markdown, made from its pixels as its PNG is written (``written`` of
    ``drawing.draw_charts``); None for the other charts."""
    if name == "evaluation_dashboard.png":
        return markdown.prepare_dashboard_markdown(path, pixels)
    return None


def warm_up() -> None:
    """Make this process (the chart worker) ready to draw ahead of time: load what drawing the
    charts needs and shape a few labels (:func:`load_and_shape`); then, where it may fork
    (``worker.default_processes``), fork the helper that draws half of each set, which makes
    its own fonts and shapes its own labels while the run goes on (``drawing.start_helper``)."""
    load_and_shape()
    if default_processes() > 1:
        from nabahan_pipeline.evaluation.charts.drawing import start_helper

        start_helper(chart_builders, load_and_shape)


def load_and_shape() -> None:
    """Load what drawing the charts needs (matplotlib, the chart modules, the fonts) and shape a
    few labels."""
    for module in ("dashboard", "detailed_results"):  # the dashboard imports the other charts
        importlib.import_module(f"nabahan_pipeline.evaluation.charts.{module}")
    from nabahan_pipeline.evaluation.charts.drawing import draw_figure
    from nabahan_pipeline.evaluation.charts.style import chart_style, new_figure

    with chart_style():
        fig = new_figure(2, 1, constrained=False)
        for weight in ("normal", "bold"):
            fig.text(0, 0.5, "Pass rate — نسبة النجاح 100.0%", fontweight=weight)
    draw_figure(fig)
