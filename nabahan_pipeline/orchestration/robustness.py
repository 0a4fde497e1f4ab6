"""The robustness asset: with ``robustness``, every case asked again in each perturbed wording
that applies, scored as any answer, beside the originals' Correct; without it, nothing at all."""

from collections.abc import Iterator
from typing import Optional

import dagster as dg
import pandas as pd

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.escaping import markdown_table
from nabahan_pipeline.etimad_db.store import ensure_database, suite_databases
from nabahan_pipeline.evaluation.robustness.variants import (
    robustness_results, robustness_summary, variant_cases, write_robustness
)
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.orchestration.assets import GROUP, CheckedCases, report_stamp
from nabahan_pipeline.orchestration.partitions import AGENT_ASSET, AGENTS
from nabahan_pipeline.orchestration.resources import answer_limits
from nabahan_pipeline.orchestration.run_owners import canceled_if_interrupted
from nabahan_pipeline.settings import RunSettings


@dg.asset(group_name=GROUP, partitions_def=AGENTS, deps=[AGENT_ASSET], kinds={"pandas", "parquet", "csv", "png"},
          output_required=False)
def robustness(
    context: dg.AssetExecutionContext,
    evaluation: dg.ResourceParam[RunSettings],
    agent: dg.ResourceParam[Agent],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    test_cases: pd.DataFrame,
    case_scores: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame]]:
    """Correct on each case's perturbed wordings beside Correct on the case (``--robustness``):
    one row per variant (stored), the per-variant and per-perturbation CSV files and a chart."""
    if not evaluation.robustness:
        return
    variants = variant_cases(test_cases)
    with canceled_if_interrupted(context.instance, context.run):
        responses = run_agent(variants, agent, concurrency=evaluation.concurrency, timeout_s=evaluation.timeout_s,
                              limits=answer_limits(evaluation))
    scores = score_responses(
        variants, responses, ensure_database(evaluation.database),
        suite=suite_databases(evaluation.test_suite_size()), timestamp=str(case_scores["timestamp"].iloc[0]),
        sql_timeout_s=evaluation.sql_timeout_s, max_rows=evaluation.sql_max_rows,
        golds=checked_cases.golds if checked_cases is not None else None,
    )
    results = robustness_results(test_cases, case_scores, variants, scores)
    summary = robustness_summary(results)
    # Imported here: matplotlib is for the step that draws, not for every load of the code location.
    from nabahan_pipeline.evaluation.charts.render import save_figure
    from nabahan_pipeline.evaluation.charts.robustness import plot_robustness

    paths = write_robustness(results, summary, evaluation.output_dir, report_stamp(case_scores))
    chart = save_figure(plot_robustness(summary), paths["robustness_summary_csv"].with_suffix(".png"))
    overall = summary.iloc[-1]
    yield dg.Output(results, metadata={
        **{name: dg.MetadataValue.path(str(path.resolve())) for name, path in paths.items()},
        chart.name: dg.MetadataValue.path(str(chart.resolve())),
        "variants": len(results),
        "original_rate": float(overall["original_rate"]),
        "variant_rate": float(overall["variant_rate"]),
        "broken": int(overall["broken"]),
        "summary": dg.MetadataValue.md(markdown_table(summary.drop(columns="broken_cases"))),
    })
