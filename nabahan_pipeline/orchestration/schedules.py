"""The nightly full evaluation."""

import dagster as dg

from nabahan_pipeline.orchestration.jobs import evaluation_job, settings_run_config
from nabahan_pipeline.orchestration.resources import run_tags
from nabahan_pipeline.settings import RunSettings


@dg.schedule(
    name="nightly_evaluation",
    job=evaluation_job,
    cron_schedule="0 2 * * *",
    execution_timezone="Asia/Riyadh",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every night at 02:00 Asia/Riyadh, a full evaluation without the response cache.",
)
def nightly_evaluation(
    context: dg.ScheduleEvaluationContext, evaluation: dg.ResourceParam[RunSettings]
) -> dg.RunRequest:
    """The location's options, resolved now, with the cache off."""
    # A full refresh: every case asked again, so a changed agent is never hidden by the cache.
    # All options are given: the run's config shows what it evaluates with.
    return dg.RunRequest(
        run_config=settings_run_config(**{**evaluation.as_config(), "use_cache": False}),
        tags={**run_tags(evaluation), "nabahan/trigger": "nightly_evaluation"},
    )
