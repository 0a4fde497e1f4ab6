"""Re-run every agent's evaluation when the test-case file changes (content hash as the cursor),
and compare the agents once their evaluations are done (the automation sensor)."""

import time
from dataclasses import replace

import dagster as dg

from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration.comparison import agent_comparison
from nabahan_pipeline.orchestration.history import latest_materializations
from nabahan_pipeline.orchestration.jobs import evaluation_job
from nabahan_pipeline.orchestration.partitions import agent_run_requests, agents_to_run
from nabahan_pipeline.settings import RunSettings


@dg.sensor(
    job=evaluation_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
    description="Launches evaluation_job for every agent registered for it (`nabahan agents add`, `nabahan eval "
    "--register`; none: the location's agent), one run per partition, cached answers reused, when the case "
    "file's content changes (also back to old content).",
)
def test_cases_changed(context: dg.SensorEvaluationContext, evaluation: dg.ResourceParam[RunSettings]):
    """Compare the case file's sha256 with the cursor; when it differs, one cached run per agent."""
    path = evaluation.test_file
    if not path.is_file():
        return dg.SkipReason(f"case file {path} does not exist")
    digest = file_sha256(path)
    last_seen = context.cursor or _last_evaluated_hash(context.instance)
    if digest == last_seen:
        context.update_cursor(digest)
        return dg.SkipReason(f"case file {path} unchanged (sha256 {digest[:12]})")
    context.update_cursor(digest)
    # The file hashed here is the file the runs evaluate; the other options, resolved now, carried along.
    settings = replace(evaluation, test_file=path, use_cache=True)
    now = time.time_ns()  # a change back to earlier content is a new run, not a duplicate run key
    return agent_run_requests(settings, agents_to_run(context.instance, settings),
                              lambda label: f"{digest[:16]}-{now}-{label}",
                              **{"nabahan/trigger": "test_cases_changed", "nabahan/test_file_sha256": digest})


def _last_evaluated_hash(instance: dg.DagsterInstance) -> str | None:
    # First tick: the file counts as changed unless the latest evaluation already used it.
    for _, _, materialization in latest_materializations(instance, "test_cases", limit=1):
        value = materialization.metadata.get("file_sha256")
        return str(value.value) if value is not None else None
    return None


comparison_after_evaluations = dg.AutomationConditionSensorDefinition(
    "agent_comparison_after_evaluations",
    target=dg.AssetSelection.assets(agent_comparison),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Materializes agent_comparison once the agents' evaluations are new and none is in progress.",
)
