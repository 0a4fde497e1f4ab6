"""The PNG charts of an evaluation run, drawn from the ``case_scores`` and ``evaluation_summary``
tables (docs/internals.md) with matplotlib: no Dagster, no pyplot.

One module per idea: ``style`` (colours, rcParams, font, DPI, new figures), ``text`` (Arabic
labels, text from the data made safe to draw), ``formats`` (numbers), ``inputs`` (the columns
the charts need and the views they take of the tables), ``tiers`` (the latency tiers),
``ticks`` (the log latency axis), one module per chart (``overview``, ``pass_fail``,
``latency``, ``categories``, ``detailed_results``, ``trend``, ``dashboard``), ``render`` (all
seven saved as one set) and ``markdown`` (the dashboard for the Dagster UI).

The names below load their module on first use, so that importing this package does not import
matplotlib.
"""

from __future__ import annotations

import importlib
from typing import Any

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
    "format_pct": "formats",
    "format_seconds": "formats",
    "safe_text": "text",
    "truncate_text": "text",
}

__all__ = [
    "CHART_FILES",
    "TableSelection",
    "dashboard_markdown",
    "format_pct",
    "format_seconds",
    "omitted_note",
    "plot_category_breakdown",
    "plot_dashboard",
    "plot_detailed_results",
    "plot_latency_analysis",
    "plot_metrics_overview",
    "plot_pass_fail_distribution",
    "plot_pass_rate_trend",
    "render_charts",
    "safe_text",
    "save_figure",
    "select_table_rows",
    "table_heading",
    "truncate_text",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
