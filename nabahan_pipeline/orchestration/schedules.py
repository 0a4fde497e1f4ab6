"""The nightly full evaluation."""

from __future__ import annotations

import dagster as dg

from nabahan_pipeline.orchestration.jobs import evaluation_job, settings_run_config

nightly_evaluation = dg.ScheduleDefinition(
    name="nightly_evaluation",
    job=evaluation_job,
    cron_schedule="0 2 * * *",
    execution_timezone="Asia/Riyadh",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    # A full refresh: every case asked again, so a changed agent is never hidden by the cache.
    run_config=settings_run_config(use_cache=False),
    tags={"nabahan/trigger": "nightly_evaluation"},
    description="Every night at 02:00 Asia/Riyadh, a full evaluation without the response cache.",
)
