"""The nightly full evaluation."""

import dagster as dg

from nabahan_pipeline.orchestration.jobs import evaluation_job, settings_run_config
from nabahan_pipeline.orchestration.resources import EvaluationSettings, settings_values


@dg.schedule(
    name="nightly_evaluation",
    job=evaluation_job,
    cron_schedule="0 2 * * *",
    execution_timezone="Asia/Riyadh",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every night at 02:00 Asia/Riyadh, a full evaluation without the response cache.",
)
def nightly_evaluation(context: dg.ScheduleEvaluationContext, evaluation: EvaluationSettings) -> dg.RunRequest:
    """The location's options with the cache off."""
    # A full refresh: every case asked again, so a changed agent is never hidden by the cache.
    # All options are given: run config that set use_cache alone would drop the location's.
    return dg.RunRequest(
        run_config=settings_run_config(**{**settings_values(evaluation), "use_cache": False}),
        tags={**evaluation.run_tags(), "nabahan/trigger": "nightly_evaluation"},
    )
