"""The jobs: one agent's evaluation (a partition of the evaluation group, with its checks), and the
comparison of the agents."""

from __future__ import annotations

import dagster as dg

from nabahan_pipeline.orchestration.assets import GROUP

COMPARISON = dg.AssetKey("agent_comparison")
# The code location as workspace.yaml names it: a job's Runs tab lists the runs tagged with its
# repository, a tag Dagster sets on its own launches alone; our entry points set it too.
LOCATION_TAGS = {".dagster/repository": "__repository__@nabahan_pipeline.definitions"}

evaluation_job = dg.define_asset_job(
    "evaluation_job",
    selection=dg.AssetSelection.groups(GROUP) - dg.AssetSelection.assets(COMPARISON),
    description="Run the test cases through one agent (the run's partition), score, summarize, write "
    "reports and charts.",
)

comparison_job = dg.define_asset_job(
    "comparison_job",
    selection=dg.AssetSelection.assets(COMPARISON),
    description="Compare the agents' latest evaluations on the same cases: CSV files and a chart.",
)


def settings_run_config(**settings: object) -> dict:
    """Run config that sets options of the ``evaluation`` resource (None values left out)."""
    config = {key: value for key, value in settings.items() if value is not None}
    return {"resources": {"evaluation": {"config": config}}}
