"""The PNG charts of an evaluation run, drawn from the ``case_scores`` and ``evaluation_summary``
tables with matplotlib (no Dagster, no pyplot), one module per idea (docs/internals.md lists them).
The names below load their module on first use, so that importing this package does not import
matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

# Public name -> the module of this package that defines it.
_EXPORTS = {
    "CHART_FILES": "render",
    "render_charts": "render",
    "save_figure": "render",
    "dashboard_markdown": "markdown",
    "plot_metrics_overview": "overview",
    "plot_pass_fail_distribution": "pass_fail",
    "plot_latency_analysis": "latency",
    "plot_category_breakdown": "categories",
    "plot_detailed_results": "detailed_results",
    "plot_pass_rate_trend": "trend",
    "plot_dashboard": "dashboard",
    "TableSelection": "detailed_results",
    "select_table_rows": "detailed_results",
    "table_heading": "detailed_results",
    "omitted_note": "detailed_results",
    "safe_text": "text",
    "truncate_text": "text",
    "plot_agent_comparison": "comparison",
    "plot_error_locations": "error_locations",
    "plot_robustness": "robustness",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.charts.render import CHART_FILES, render_charts, save_figure
    from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
    from nabahan_pipeline.evaluation.charts.overview import plot_metrics_overview
    from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
    from nabahan_pipeline.evaluation.charts.latency import plot_latency_analysis
    from nabahan_pipeline.evaluation.charts.categories import plot_category_breakdown
    from nabahan_pipeline.evaluation.charts.detailed_results import (
        TableSelection, omitted_note, plot_detailed_results, select_table_rows, table_heading,
    )
    from nabahan_pipeline.evaluation.charts.trend import plot_pass_rate_trend
    from nabahan_pipeline.evaluation.charts.dashboard import plot_dashboard
    from nabahan_pipeline.evaluation.charts.text import safe_text, truncate_text
    from nabahan_pipeline.evaluation.charts.comparison import plot_agent_comparison
    from nabahan_pipeline.evaluation.charts.error_locations import plot_error_locations
    from nabahan_pipeline.evaluation.charts.robustness import plot_robustness
