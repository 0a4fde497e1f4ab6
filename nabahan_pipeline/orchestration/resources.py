"""The run's resources: its options (``evaluation``, settable from run config, `-c run_config.yaml`)
and its agent (``agent``), each made once per run.

The ``evaluation`` resource's config is made from settings.py's declaration of the options (one
field each, unset by default), so an option added there is in the launchpad too. The agent is
built by the resource of its kind (embedded, python, http, openai), its secrets read through
``dg.EnvVar`` (never a plain config value), checked as the run starts and closed as it ends.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar, Optional

import dagster as dg
from pydantic import Field

from nabahan_pipeline.agents.contract import Agent, AnswerLimits
from nabahan_pipeline.agents.registry import agent_kind
from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.agents.labels import LabelledAgent, default_token_env
from nabahan_pipeline.orchestration.partitions import (
    AGENT_LABEL_TAG,
    agent_of_run,
    partition_run_tags,
    settings_for_agent,
)
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


# One config field per run option, unset by default; the launchpad shows its help, default and variable.
EvaluationSettings: type[_Options] = type(
    "EvaluationSettings",
    (_Options,),
    {
        "__module__": __name__,
        "__doc__": _Options.__doc__,
        "__annotations__": {setting.name: Optional[setting.config_type] for setting in RUN_OPTIONS},
        **{setting.name: Field(default=None, description=setting.describe()) for setting in RUN_OPTIONS},
    },
)


def evaluation_resource() -> Any:
    """The ``evaluation`` resource of the code location: configured when a run is launched, and one
    object that the ``agent`` resource depends on (so both see the run's config)."""
    return EvaluationSettings.configure_at_launch()


# --- the agent -----------------------------------------------------------------------------------


class AgentResource(dg.ConfigurableResource):
    """One kind of agent adapter, built once per run for the run's agent (``evaluation``: its spec,
    version, database and time limits); checked before any case is asked, closed at the run's end."""

    kind: ClassVar[str]
    evaluation: dg.ResourceDependency[RunSettings]

    def build(self) -> Agent:
        """The adapter (its constructor's AgentSpecError for a bad spec)."""
        raise NotImplementedError

    @contextmanager
    def yield_for_execution(self, context: dg.InitResourceContext) -> Iterator[Agent]:
        agent = self.build()
        try:
            agent.check()
            yield agent
        finally:
            agent.close()


class EmbeddedAgentResource(AgentResource):
    """The reference agent over the evaluation database (spec ``embedded``)."""

    kind: ClassVar[str] = "embedded"

    def build(self) -> Agent:
        from nabahan_pipeline.agents.embedded import EmbeddedAgent

        settings = self.evaluation
        return EmbeddedAgent(database=ensure_database(settings.database_path()), agent_version=settings.agent_version)


class PythonAgentResource(AgentResource):
    """A Python callable with the contract (spec ``python:package.module:function``), called in a
    child process of its own (``child_process``), or in this one with ``in_process``; its module
    looked for in ``folders`` too (where it was registered from)."""

    kind: ClassVar[str] = "python"
    folders: list[str] = Field(default_factory=list, description="folders the agent's module is looked for in")

    def build(self) -> Agent:
        settings = self.evaluation
        if settings.in_process:
            from nabahan_pipeline.agents.python_callable import PythonCallableAgent

            print(f"nabahan: {settings.agent} runs in this process (--in-process): the verdicts are then the "
                  "agent's to spoil", file=sys.stderr)
            return PythonCallableAgent(settings.agent, agent_version=settings.agent_version, folders=self.folders)
        from nabahan_pipeline.agents.child_process import ChildProcessAgent

        return ChildProcessAgent(settings.agent, agent_version=settings.agent_version, timeout_s=settings.timeout_s,
                                 max_answer_bytes=settings.max_answer_bytes, folders=self.folders,
                                 start_timeout_s=settings.agent_start_timeout_s, token_env=token_variable(settings))


class HttpAgentResource(AgentResource):
    """A service speaking the contract over HTTP (spec ``http(s)://...``)."""

    kind: ClassVar[str] = "http"
    token: Optional[str] = Field(default=None, description=SETTINGS["agent_token"].describe())

    def build(self) -> Agent:
        from nabahan_pipeline.agents.http import HttpAgent

        settings = self.evaluation
        return HttpAgent(settings.agent, agent_version=settings.agent_version, timeout_s=settings.timeout_s,
                         token=self.token, token_env=None, max_answer_bytes=settings.max_answer_bytes)


class OpenAIAgentResource(AgentResource):
    """An OpenAI-compatible chat model as a text-to-SQL agent (spec ``openai:MODEL``)."""

    kind: ClassVar[str] = "openai"
    api_key: Optional[str] = Field(default=None, description=SETTINGS["openai_api_key"].describe())

    def build(self) -> Agent:
        from nabahan_pipeline.agents.openai_compat import OpenAICompatibleAgent

        settings = self.evaluation
        return OpenAICompatibleAgent(
            settings.agent, agent_version=settings.agent_version, database=ensure_database(settings.database_path()),
            timeout_s=settings.timeout_s, api_key=self.api_key, api_key_env=None, sql_timeout_s=settings.sql_timeout_s,
            max_answer_bytes=settings.max_answer_bytes,
        )


AGENT_RESOURCES: dict[str, type[AgentResource]] = {
    kind.kind: kind for kind in (EmbeddedAgentResource, PythonAgentResource, HttpAgentResource, OpenAIAgentResource)
}


def agent_resource(settings: RunSettings, folder: Optional[str] = None) -> AgentResource:
    """The resource of the kind ``settings.agent`` names; its token, from the variable the agent
    names (``token_variable``) when it is set, is passed as ``dg.EnvVar`` (Dagster reads it when the
    resource is built; an unset one would fail the run, so it is left out); a ``python:`` agent's
    module is looked for in ``folder`` too. Raises AgentSpecError for a spec of no kind."""
    kind = AGENT_RESOURCES[agent_kind(settings.agent)]
    variable = token_variable(settings)
    given: dict[str, Any] = {field: dg.EnvVar(variable) for field in ("token", "api_key")
                             if field in kind.model_fields and variable is not None
                             and environment_value(variable) is not None}
    if folder and "folders" in kind.model_fields:
        given["folders"] = [folder]
    return kind(evaluation=settings, **given)


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


def run_resources(evaluation: Any = None) -> dict[str, Any]:
    """The resources of an evaluation run: the options (``evaluation``, default: configured at
    launch), the agent they name, and no case file checked before it."""
    evaluation = evaluation if evaluation is not None else evaluation_resource()
    return {"evaluation": evaluation, "agent": RunAgent(evaluation=evaluation), "checked_cases": NO_CHECKED_CASES}


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
