"""The nightly full evaluation of every agent registered for it (none: the location's agent): one
run per agent's partition."""

from dataclasses import replace

import dagster as dg

from nabahan_pipeline.orchestration.jobs import evaluation_job
from nabahan_pipeline.orchestration.partitions import agent_run_requests, agents_to_run
from nabahan_pipeline.settings import RunSettings


@dg.schedule(
    name="nightly_evaluation", job=evaluation_job, cron_schedule="0 2 * * *", execution_timezone="Asia/Riyadh",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every night at 02:00 Asia/Riyadh, a full evaluation of every agent registered for it "
    "(`nabahan agents add`, `nabahan eval --register`; none: the location's agent), one run each, without the "
    "response cache.",
)
def nightly_evaluation(context: dg.ScheduleEvaluationContext,
                       evaluation: dg.ResourceParam[RunSettings]) -> list[dg.RunRequest]:
    """The location's options, resolved now, with the cache off (a changed agent is never hidden by
    it); one run per agent, so that the runs can spread over machines."""
    settings = replace(evaluation, use_cache=False)
    return agent_run_requests(settings, agents_to_run(context.instance, settings), lambda label: label,
                              **{"nabahan/trigger": "nightly_evaluation"})
