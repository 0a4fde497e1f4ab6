"""The Dagster code location: `dagster dev` and `dagster asset materialize -m nabahan_pipeline.definitions`.

Options come from run config (`resources.evaluation.config`, see run_config.yaml); those it leaves
out come from their environment variables when a run starts, else from their defaults (settings.py).
"""

from __future__ import annotations

import dagster as dg

from nabahan_pipeline.orchestration.assets import evaluation_assets, test_cases_file
from nabahan_pipeline.orchestration.checks import evaluation_checks
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.jobs import evaluation_job
from nabahan_pipeline.orchestration.resources import EvaluationSettings
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline.orchestration.sensors import test_cases_changed


def build_definitions() -> dg.Definitions:
    """The code location."""
    return dg.Definitions(
        assets=[test_cases_file, *evaluation_assets],
        asset_checks=evaluation_checks,
        jobs=[evaluation_job],
        sensors=[test_cases_changed],
        schedules=[nightly_evaluation],
        resources={
            "evaluation": EvaluationSettings(),
            "io_manager": ParquetIOManager(),
        },
        # Steps run in this process: the multiprocess default re-imports the code per step.
        executor=dg.in_process_executor,
    )


defs = build_definitions()
