"""The agent_comparison asset (unpartitioned): each agent's newest evaluation on one suite, side by
side (``evaluation.comparison``); the automation sensor brings it up to date once no agent's run
is in progress."""

import warnings
from datetime import datetime
from typing import Optional

import dagster as dg
import pandas as pd
from dagster_pandera import pandera_schema_to_dagster_type
from pydantic import Field

from nabahan_pipeline.escaping import markdown_table
from nabahan_pipeline.evaluation.comparison import agents_report, agents_table, compare_agents, write_comparison
from nabahan_pipeline.evaluation.html_report import comparison_report_html, write_html
from nabahan_pipeline.evaluation.tables import AGENT_COMPARISON
from nabahan_pipeline.orchestration.assets import GROUP, case_scores, evaluation_summary
from nabahan_pipeline.orchestration.history import latest_evaluations
from nabahan_pipeline.orchestration.partitions import registered_agents
from nabahan_pipeline.settings import RunSettings

# Once an agent's evaluation is new, and none is still running or queued.
AFTER_EVALUATIONS = (
    dg.AutomationCondition.any_deps_updated().since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("after the agents' evaluations")


class ComparisonConfig(dg.Config):
    """Which agents to compare."""

    agents: Optional[list[str]] = Field(
        default=None, description="the agent labels to compare, in order (default: every registered agent)"
    )


with warnings.catch_warnings():  # dagster-pandera is marked beta (see assets.py)
    warnings.simplefilter("ignore", dg.BetaWarning)
    AGENT_COMPARISON_TYPE = pandera_schema_to_dagster_type(AGENT_COMPARISON)


@dg.asset(
    group_name=GROUP,
    deps=[case_scores, evaluation_summary],
    kinds={"pandas", "parquet", "csv", "png", "html"},
    dagster_type=AGENT_COMPARISON_TYPE,
    automation_condition=AFTER_EVALUATIONS,
)
def agent_comparison(
    context: dg.AssetExecutionContext, config: ComparisonConfig, evaluation: dg.ResourceParam[RunSettings]
) -> pd.DataFrame:
    """Each agent's newest evaluation on one suite side by side: a row per agent (stored), the case x
    agent matrix, each pair by McNemar, a chart and a report to click through, as files."""
    labels = config.agents or [agent.label for agent in registered_agents(context.instance)]
    suite, evaluations = latest_evaluations(context.instance, labels)
    metadata: dict[str, dg.RawMetadataValue] = {
        "suite": suite or "none",
        "runs": dg.MetadataValue.json({label: paths["run_id"] for label, paths in evaluations.items()}),
        "not_evaluated": dg.MetadataValue.json([label for label in labels if label not in evaluations]),
    }
    if len(evaluations) < 2:
        context.add_output_metadata({**metadata, "compared": "fewer than two agents evaluated on one suite"})
        return agents_table({}, [])
    # Imported here: matplotlib is for the step that draws, not for every load of the code location.
    from nabahan_pipeline.evaluation.charts.comparison import plot_agent_comparison
    from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
    from nabahan_pipeline.evaluation.charts.render import save_figure

    scores = {label: pd.read_parquet(paths["case_scores"]) for label, paths in evaluations.items()}
    comparison = compare_agents(
        scores, {label: pd.read_parquet(paths["evaluation_summary"]) for label, paths in evaluations.items()}
    )
    paths = write_comparison(comparison, evaluation.output_dir, datetime.now().strftime("%Y%m%d_%H%M%S"))
    chart = save_figure(plot_agent_comparison(comparison.agents, comparison.categories),
                        paths["comparison_csv"].with_suffix(".png"))
    report = write_html(comparison_report_html("Nabahan agents compared", scores, comparison.agents, chart.read_bytes()),
                        paths["comparison_csv"].with_suffix(".html"))
    context.add_output_metadata(
        {
            **metadata,
            **{name: dg.MetadataValue.path(str(path.resolve())) for name, path in paths.items()},
            "agent_comparison.png": dg.MetadataValue.path(str(chart.resolve())),
            "report_html": dg.MetadataValue.path(str(report.resolve())),
            "agents": dg.MetadataValue.md(markdown_table(agents_report(comparison.agents))),
            "cases": len(comparison.matrix),
            "disagreements": comparison.disagreements,
            "pairs": dg.MetadataValue.json(comparison.pairs.to_dict("records")),
            "significant_pairs": int(comparison.pairs["significant"].sum()),
            "chart": dg.MetadataValue.md(dashboard_markdown(chart)),
        }
    )
    return comparison.agents
