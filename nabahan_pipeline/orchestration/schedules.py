"""The nightly full evaluation of every agent registered for it (none: the location's agent): one
run per agent's partition."""

from dataclasses import replace

import dagster as dg

from nabahan_pipeline.orchestration.jobs import evaluation_job
from nabahan_pipeline.orchestration.partitions import (
    agents_to_run, partition_run_config, partition_run_tags, settings_for_agent
)
from nabahan_pipeline.orchestration.resources import run_tags
from nabahan_pipeline.settings import RunSettings


@dg.schedule(
    name="nightly_evaluation",
    job=evaluation_job,
    cron_schedule="0 2 * * *",
    execution_timezone="Asia/Riyadh",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every night at 02:00 Asia/Riyadh, a full evaluation of every agent registered for it "
    "(`nabahan agents add`, `nabahan eval --register`; none: the location's agent), one run each, without the "
    "response cache.",
)
def nightly_evaluation(
    context: dg.ScheduleEvaluationContext, evaluation: dg.ResourceParam[RunSettings]
) -> list[dg.RunRequest]:
    """The location's options, resolved now, with the cache off; one run per agent, so that the
    runs can spread over machines."""
    # A full refresh: every case asked again, so a changed agent is never hidden by the cache.
    # All options are given: the run's config shows what it evaluates with.
    settings = replace(evaluation, use_cache=False)
    agents = agents_to_run(context.instance, settings)
    return [
        dg.RunRequest(
            run_key=agent.label,  # a schedule's runs of one tick need keys of their own
            partition_key=agent.label,
            run_config=partition_run_config(settings, agent, several=len(agents) > 1),
            tags={**run_tags(settings_for_agent(settings, agent)), **partition_run_tags(agent),
                  "nabahan/trigger": "nightly_evaluation"},
        )
        for agent in agents
    ]
