"""The Dagster code location (`dagster dev`, `dagster asset materialize`, `nabahan ui`). Dagster's
tools load ``code_location``, which first gives the location's own agent ($NABAHAN_AGENT) its
partition, so a fresh home can launch it; our entry points use ``defs``."""

from __future__ import annotations

import sys

import dagster as dg

from nabahan_pipeline.errors import NabahanError
from nabahan_pipeline.orchestration.assets import agent, evaluation_assets, test_cases_file
from nabahan_pipeline.orchestration.comparison import agent_comparison
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.jobs import comparison_job, evaluation_job
from nabahan_pipeline.orchestration.partitions import location_agent, register_agents
from nabahan_pipeline.orchestration.resources import run_resources
from nabahan_pipeline.orchestration.robustness import robustness
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline.orchestration.sensors import comparison_after_evaluations, test_cases_changed
from nabahan_pipeline.settings import SETTINGS, environment_value, resolve_run_settings


def build_definitions() -> dg.Definitions:
    """The code location."""
    return dg.Definitions(
        assets=[test_cases_file, agent, *evaluation_assets, robustness, agent_comparison],
        jobs=[evaluation_job, comparison_job],
        sensors=[test_cases_changed, comparison_after_evaluations],
        schedules=[nightly_evaluation],
        resources={**run_resources(), "io_manager": ParquetIOManager()},
        # Steps run in this process: the multiprocess default re-imports the code per step.
        executor=dg.in_process_executor,
    )


defs = build_definitions()


@dg.definitions
def code_location() -> dg.Definitions:
    """The code location as Dagster's tools load it (`dagster dev`'s code server, `dagster asset
    materialize -m`, each run's process): ``defs``, the location's agent's partition added first."""
    add_location_partition()
    return defs


def add_location_partition() -> None:
    """Add the location's own agent's partition to the instance at $DAGSTER_HOME when it has none; a
    problem is one warning line, never a failure to load the location."""
    if environment_value(SETTINGS["dagster_home"].env) is None:
        print("nabahan: warning: DAGSTER_HOME is not set, so the instance keeps no agent's partition: "
              "`nabahan materialize embedded` runs it on the home's instance (or export DAGSTER_HOME=~/.nabahan/dagster)", file=sys.stderr)
        return
    try:
        agent = location_agent(resolve_run_settings())
        with dg.DagsterInstance.get() as instance:
            register_agents(instance, [agent], scheduled=False)
    except NabahanError as exc:
        print(f"nabahan: warning: the location's agent has no partition: {exc}", file=sys.stderr)
    except Exception as exc:  # the instance unreachable (a missing folder, a database down): the location still loads
        print(f"nabahan: warning: the location's agent's partition could not be added to the instance at "
              f"$DAGSTER_HOME ({type(exc).__name__}: {' '.join(str(exc).split())[:300]})", file=sys.stderr)
