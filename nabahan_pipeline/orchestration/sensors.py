"""Re-run the evaluation when the test-case file changes (content hash as the cursor)."""

import time

import dagster as dg

from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration.history import latest_materializations
from nabahan_pipeline.orchestration.jobs import evaluation_job, settings_run_config
from nabahan_pipeline.orchestration.resources import run_tags
from nabahan_pipeline.settings import RunSettings


@dg.sensor(
    job=evaluation_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Launches evaluation_job when the case file's content changes (also back to old content).",
)
def test_cases_changed(context: dg.SensorEvaluationContext, evaluation: dg.ResourceParam[RunSettings]):
    """Compare the case file's sha256 with the cursor; launch a cached run when it differs."""
    path = evaluation.case_file()
    if not path.is_file():
        return dg.SkipReason(f"case file {path} does not exist")
    digest = file_sha256(path)
    last_seen = context.cursor or _last_evaluated_hash(context.instance)
    if digest == last_seen:
        context.update_cursor(digest)
        return dg.SkipReason(f"case file {path} unchanged (sha256 {digest[:12]})")
    context.update_cursor(digest)
    return dg.RunRequest(
        # The time makes a change back to earlier content a new run, not a duplicate run key.
        run_key=f"{digest[:16]}-{time.time_ns()}",
        # The file hashed here is the file the run evaluates; the other options, resolved now, carried along.
        run_config=settings_run_config(**{**evaluation.as_config(), "test_file": str(path), "use_cache": True}),
        tags={**run_tags(evaluation), "nabahan/trigger": "test_cases_changed", "nabahan/test_file_sha256": digest},
    )


def _last_evaluated_hash(instance: dg.DagsterInstance) -> str | None:
    # First tick: the file counts as changed unless the latest evaluation already used it.
    for _, _, materialization in latest_materializations(instance, "test_cases", limit=1):
        value = materialization.metadata.get("file_sha256")
        return str(value.value) if value is not None else None
    return None
