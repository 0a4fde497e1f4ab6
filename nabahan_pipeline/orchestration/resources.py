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
    AGENT_LABEL_TAG,
    agent_of_run,
    partition_run_tags,
    settings_for_agent,
)
from nabahan_pipeline.progress import silent
from nabahan_pipeline.settings import NO_TOKEN, RUN_OPTIONS, SETTINGS, RunSettings, environment_value, resolve_run_settings


class _Options(dg.ConfigurableResource):
    """What to evaluate and how: the case file, the agent, concurrency, outputs, thresholds.

    Every option left unset resolves when the run starts, through ``settings``: its environment
    variable (NABAHAN_<OPTION>), else its default; so run config that sets a few options keeps the
    environment's others. Assets, checks, the agent, the sensor and the schedule receive the
    resolved ``RunSettings``.
    """

    def resolved(self) -> RunSettings:
        """The options as a run started now gets them; raises SettingsError for a bad value."""
        return resolve_run_settings({name: getattr(self, name) for name in type(self).model_fields})

    def create_resource(self, context: dg.InitResourceContext) -> RunSettings:
        """The resolved options; in a run of an agent's partition, with that agent's spec and
        version (``partitions.agent_of_run``), however the run was launched (our entry points, the
        UI, a backfill); a run launched without our tags gets them now (``tag_run``)."""
        settings = self.resolved()
        agent = agent_of_run(context.instance, context.run)
        if agent is None:
            return settings
        settings = settings_for_agent(settings, agent)
        tag_run(context.instance, context.run, settings, agent)
        return settings


# The ``evaluation`` resource's config: one field per run option (settings.RUN_OPTIONS), unset by
# default, with its help, default and variable for the launchpad; pydantic's create_model builds it.
EvaluationSettings = create_model(
    "EvaluationSettings", __base__=_Options, __module__=__name__, __doc__=_Options.__doc__,
    **{setting.name: (Optional[setting.config_type], Field(default=None, description=setting.describe()))
       for setting in RUN_OPTIONS},
)


def evaluation_resource() -> Any:
    """The ``evaluation`` resource of the code location: configured when a run is launched, and one
    object that the ``agent`` resource depends on (so both see the run's config)."""
    return EvaluationSettings.configure_at_launch()


# --- the agent -----------------------------------------------------------------------------------


class AgentResource(dg.ConfigurableResource):
    """The run's agent built once for the run by the adapter its spec names (``agents.registry``:
    the CLI, the API and this resource build it alike), from the run's options (``evaluation``: its
    spec, version, database and limits); checked before any case is asked, closed at the run's end.
    ``secret``: its token or key, given as ``dg.EnvVar`` (never a plain config value); ``folders``:
    where a ``python:`` agent's module is looked for too (where it was registered from)."""

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
            settings.agent, settings.agent_version, settings.database_path(), settings.timeout_s,
            settings.max_answer_bytes, settings.sql_timeout_s, settings.in_process, tuple(self.folders),
            self.secret, secret_from_env=False, start_timeout_s=settings.agent_start_timeout_s,
            token_env=token_variable(settings),
        ))

    @contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext) -> Iterator[Agent]:
        agent = self.build()
        try:
            agent.check()
            yield agent
        finally:
            agent.close()


def agent_resource(settings: RunSettings, folder: Optional[str] = None) -> AgentResource:
    """The resource of the agent ``settings.agent`` names; its token, from the variable the agent
    names (``token_variable``) when it is set, is passed as ``dg.EnvVar`` (Dagster reads it when the
    resource is built; an unset one would fail the run, so it is left out); a ``python:`` agent's
    module is looked for in ``folder`` too. Raises AgentSpecError for a spec of no kind."""
    agent_kind(settings.agent)  # AgentSpecError for a spec of no kind
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
    """The agent of ``settings`` built, checked and (on leaving) closed by the resource of its kind,
    outside a run: our entry points check every agent before the first run and hand each run its
    own. Without ``instance`` Dagster makes an ephemeral one (in memory) for the building."""
    with dg.build_resources({"agent": agent_resource(settings)}, instance=instance) as resources:
        yield resources.agent


class RunAgent(dg.ConfigurableResource):
    """The run's agent, as its ``evaluation`` options name it (in an agent's partition, that
    agent's), built by the resource of its kind; the code location's ``agent`` for every run
    launched outside our entry points (the sensor, the schedule, the UI)."""

    evaluation: dg.ResourceDependency[RunSettings]

    @contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext) -> Iterator[Agent]:
        agent = agent_of_run(context.instance, context.run)  # a python: agent's folder, from its registration
        resource = agent_resource(self.evaluation, agent.folder if agent is not None else None)
        with dg.build_resources({"agent": resource}, instance=context.instance) as resources:
            yield resources.agent


# The code location's ``checked_cases``: none, the test_cases asset loads the file itself (our entry
# points give each run the ``assets.CheckedCases`` they checked before it).
NO_CHECKED_CASES = dg.ResourceDefinition.none_resource(
    description="The case file as an entry point checked it before the run (none: test_cases loads it)."
)


# The code location's ``progress``: nobody in its process watches a run (our entry points give each
# run their console instead).
SILENT_PROGRESS = dg.ResourceDefinition.hardcoded_resource(silent, "Who is told of a run's progress: nobody here.")


# A run's ``answer_scores``: each answer's scores as it arrived (``scoring.on_arrival``), keyed by case
# id and repeat; a new, empty store for each run, filled by agent_responses and read by case_scores
# (which scores what it lacks: a run that re-executes case_scores alone).
ANSWER_SCORES = dg.ResourceDefinition(
    resource_fn=lambda _: {}, description="The answers' scores as they arrived, for case_scores to assemble."
)


def run_resources(evaluation: Any = None) -> dict[str, Any]:
    """The resources of an evaluation run: the options (``evaluation``, default: configured at
    launch), the agent they name, no case file checked before it, nobody told its progress and an
    empty store of the answers' scores."""
    evaluation = evaluation if evaluation is not None else evaluation_resource()
    return {"evaluation": evaluation, "agent": RunAgent(evaluation=evaluation), "checked_cases": NO_CHECKED_CASES,
            "progress": SILENT_PROGRESS, "answer_scores": ANSWER_SCORES}


def run_tags(settings: RunSettings) -> dict[str, str]:
    """Tags that tell a run apart in the Dagster UI's runs list: its label and agent."""
    return {"nabahan/label": settings.run_label(), "nabahan/agent": settings.agent}


def tag_run(instance: Optional[dg.DagsterInstance], run: Optional[dg.DagsterRun], settings: RunSettings,
            agent: LabelledAgent) -> None:
    """Give a run of ``agent``'s partition launched without our tags (from the UI, `dagster asset
    materialize`, a backfill) the label and agent tags our entry points, the sensor and the schedule
    give theirs, as it starts."""
    if instance is None or run is None or run.tags.get(AGENT_LABEL_TAG) == agent.label:
        return
    instance.add_run_tags(run.run_id, {**run_tags(settings), **partition_run_tags(agent)})


def answer_limits(settings: RunSettings) -> AnswerLimits:
    """The caps on an agent's answer (rows, insight and SQL characters, HTTP body bytes)."""
    return AnswerLimits(
        max_rows=settings.max_answer_rows,
        max_insight_chars=settings.max_insight_chars,
        max_sql_chars=settings.max_sql_chars,
        max_answer_bytes=settings.max_answer_bytes,
    )
