"""The Dagster code location: `dagster dev` and `dagster asset materialize -m nabahan_pipeline.definitions`.

The evaluation assets are partitioned by agent (``orchestration.partitions``): materialize one with
`--partition LABEL`, a label `nabahan eval` or `nabahan agents add` registered.

Options come from run config (`resources.evaluation.config`, see run_config.yaml); those it leaves
out come from their environment variables when a run starts, else from their defaults (settings.py).
The run's agent is built once by the ``agent`` resource (``orchestration.resources``).
"""

from __future__ import annotations

import dagster as dg

from nabahan_pipeline.orchestration.assets import agent, evaluation_assets, test_cases_file
from nabahan_pipeline.orchestration.checks import evaluation_checks
from nabahan_pipeline.orchestration.comparison import agent_comparison
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.jobs import comparison_job, evaluation_job
from nabahan_pipeline.orchestration.resources import run_resources
from nabahan_pipeline.orchestration.robustness import robustness
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline.orchestration.sensors import comparison_after_evaluations, test_cases_changed


def build_definitions() -> dg.Definitions:
    """The code location."""
    return dg.Definitions(
        assets=[test_cases_file, agent, *evaluation_assets, robustness, agent_comparison],
        asset_checks=evaluation_checks,
        jobs=[evaluation_job, comparison_job],
        sensors=[test_cases_changed, comparison_after_evaluations],
        schedules=[nightly_evaluation],
        resources={**run_resources(), "io_manager": ParquetIOManager()},
        # Steps run in this process: the multiprocess default re-imports the code per step.
        executor=dg.in_process_executor,
    )


defs = build_definitions()
