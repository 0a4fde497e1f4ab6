"""The job that runs the whole evaluation group, with its checks."""

from __future__ import annotations

import dagster as dg

from nabahan_pipeline.orchestration.assets import GROUP

evaluation_job = dg.define_asset_job(
    "evaluation_job",
    selection=dg.AssetSelection.groups(GROUP),
    description="Run the test cases through the agent, score, summarize, write reports and charts.",
)


def settings_run_config(**settings: object) -> dict:
    """Run config that sets options of the ``evaluation`` resource (None values left out)."""
    config = {key: value for key, value in settings.items() if value is not None}
    return {"resources": {"evaluation": {"config": config}}}
