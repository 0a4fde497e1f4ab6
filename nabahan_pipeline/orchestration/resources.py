"""The run's resources: its options (``evaluation``, from run config) and its agent (``agent``,
built by ``agents.registry``, its secret through ``dg.EnvVar``), each made once per run."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Optional

import dagster as dg
from pydantic import Field, create_model

from nabahan_pipeline.agents.contract import Agent, AgentOptions, AnswerLimits
from nabahan_pipeline.agents.registry import agent_kind, build_agent
from nabahan_pipeline.agents.labels import LabelledAgent, default_token_env
from nabahan_pipeline.orchestration.partitions import (
    AGENT_LABEL_TAG, agent_of_run, partition_run_tags, run_tags, settings_for_agent,
)
from nabahan_pipeline.progress import silent
from nabahan_pipeline.settings import NO_TOKEN, RUN_OPTIONS, SETTINGS, RunSettings, environment_value, resolve_run_settings


class _Options(dg.ConfigurableResource):
    """What to evaluate and how: the case file, the agent, concurrency, outputs, thresholds. An
    option left unset resolves as the run starts: its variable (NABAHAN_<OPTION>), else its default."""

    def resolved(self) -> RunSettings:
        """The options as a run started now gets them; raises SettingsError for a bad value."""
        return resolve_run_settings({name: getattr(self, name) for name in type(self).model_fields})

    def create_resource(self, context: dg.InitResourceContext) -> RunSettings:
        """The resolved options; in a run of an agent's partition, however launched, with that
        agent's spec and version, and our tags added to a run that lacks them (``tag_run``)."""
        settings = self.resolved()
        agent = agent_of_run(context.instance, context.run)
        if agent is None:
            return settings
        settings = settings_for_agent(settings, agent)
        tag_run(context.instance, context.run, settings, agent)
        return settings


# The ``evaluation`` resource's config: a field per run option, unset by default, described for the UI.
EvaluationSettings = create_model(
    "EvaluationSettings", __base__=_Options, __module__=__name__, __doc__=_Options.__doc__,
    **{setting.name: (Optional[setting.config_type], Field(default=None, description=setting.describe()))
       for setting in RUN_OPTIONS},
)


class AgentResource(dg.ConfigurableResource):
    """The run's agent, built once by its adapter, checked before any case, closed at the run's end;
    ``secret`` as ``dg.EnvVar``; ``folders``: where a ``python:`` agent's module is looked for too."""

    evaluation: dg.ResourceDependency[RunSettings]
    secret: Optional[str] = Field(default=None, description="The agent's token or API key (an environment variable).")
    folders: list[str] = Field(default_factory=list, description="folders a python: agent's module is looked for in")

    @property
    def kind(self) -> str:
        return agent_kind(self.evaluation.agent)

    def build(self) -> Agent:
        """The adapter (its constructor's AgentSpecError for a bad spec)."""
        settings = self.evaluation
        return build_agent(AgentOptions(
            settings.agent, settings.agent_version, settings.database, settings.timeout_s,
            settings.max_answer_bytes, settings.sql_timeout_s, settings.in_process, tuple(self.folders),
            self.secret, secret_from_env=False, start_timeout_s=settings.agent_start_timeout_s,
            token_env=token_variable(settings)))

    @contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext) -> Iterator[Agent]:
        agent = self.build()
        try:
            agent.check()
            yield agent
        finally:
            agent.close()


def agent_resource(settings: RunSettings, folder: Optional[str] = None) -> AgentResource:
    """The resource of the agent ``settings.agent`` names (AgentSpecError for none); its token as
    ``dg.EnvVar`` when its variable is set (an unset one would fail the run); a ``python:`` agent's
    module looked for in ``folder`` too."""
    agent_kind(settings.agent)
    variable = token_variable(settings)
    given: dict[str, Any] = {}
    if variable is not None and environment_value(variable) is not None:
        given["secret"] = dg.EnvVar(variable)
    if folder:
        given["folders"] = [folder]
    return AgentResource(evaluation=settings, **given)


def token_variable(settings: RunSettings) -> Optional[str]:
    """The variable the run's agent's token is read from: the one its options name (none for
    ``NO_TOKEN``), else its kind's default ($NABAHAN_AGENT_TOKEN, $OPENAI_API_KEY); no other is read."""
    if settings.agent_token_env == NO_TOKEN:
        return None
    if settings.agent_token_env:
        return settings.agent_token_env
    if agent_kind(settings.agent) == "openai":
        return SETTINGS["openai_api_key"].env
    return default_token_env(settings.agent, several=False)


@contextmanager
def built_agent(settings: RunSettings, instance: Optional[dg.DagsterInstance] = None) -> Iterator[Agent]:
    """The agent of ``settings`` built, checked and (on leaving) closed by its resource outside a
    run: our entry points check every agent before the first run and hand each run its own."""
    with dg.build_resources({"agent": agent_resource(settings)}, instance=instance) as resources:
        yield resources.agent


class RunAgent(dg.ConfigurableResource):
    """The code location's ``agent`` (runs of the sensor, the schedule, the UI): the one the run's
    ``evaluation`` options name, built by AgentResource."""

    evaluation: dg.ResourceDependency[RunSettings]

    @contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext) -> Iterator[Agent]:
        agent = agent_of_run(context.instance, context.run)  # a python: agent's folder, from its registration
        resource = agent_resource(self.evaluation, agent.folder if agent is not None else None)
        with dg.build_resources({"agent": resource}, instance=context.instance) as resources:
            yield resources.agent


# Our entry points give each run the ``assets.CheckedCases`` they checked; the location, none.
NO_CHECKED_CASES = dg.ResourceDefinition.none_resource(
    description="The case file as an entry point checked it before the run (none: test_cases loads it)."
)


SILENT_PROGRESS = dg.ResourceDefinition.hardcoded_resource(silent, "Who is told of a run's progress: nobody here.")


# Each answer's scores as it arrived, by case id and repeat: a new store for each run, filled by
# agent_responses and read by case_scores (which scores what it lacks).
ANSWER_SCORES = dg.ResourceDefinition(
    resource_fn=lambda _: {}, description="The answers' scores as they arrived, for case_scores to assemble."
)


def run_resources(evaluation: Any = None) -> dict[str, Any]:
    """The resources of an evaluation run: the options (default: configured at launch), the agent,
    no checked cases, silent progress, a new store of the answers' scores."""
    evaluation = evaluation if evaluation is not None else EvaluationSettings.configure_at_launch()
    return {"evaluation": evaluation, "agent": RunAgent(evaluation=evaluation), "checked_cases": NO_CHECKED_CASES,
            "progress": SILENT_PROGRESS, "answer_scores": ANSWER_SCORES}


def tag_run(instance: Optional[dg.DagsterInstance], run: Optional[dg.DagsterRun], settings: RunSettings,
            agent: LabelledAgent) -> None:
    """Give a run of ``agent``'s partition launched without our tags (the UI, `dagster asset
    materialize`, a backfill) the label and agent tags, as it starts."""
    if instance is None or run is None or run.tags.get(AGENT_LABEL_TAG) == agent.label:
        return
    instance.add_run_tags(run.run_id, {**run_tags(settings), **partition_run_tags(agent)})


def answer_limits(settings: RunSettings) -> AnswerLimits:
    """The caps on an agent's answer (rows, insight and SQL characters, HTTP body bytes)."""
    return AnswerLimits(max_rows=settings.max_answer_rows, max_insight_chars=settings.max_insight_chars,
                        max_sql_chars=settings.max_sql_chars, max_answer_bytes=settings.max_answer_bytes)
