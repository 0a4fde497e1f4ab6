"""The run's resources: the options' config made from settings.py, the agent built by the resource
of its kind (secrets through dg.EnvVar), checked and closed on the resource's lifecycle, and the
agent a partition's run gets from its tags or, launched from the UI, from the registry."""

from __future__ import annotations

import dagster as dg
import pytest

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.agents.embedded import EmbeddedAgent
from nabahan_pipeline.agents.labels import LabelledAgent
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.orchestration.partitions import (
    AGENT_LABEL_TAG,
    PARTITION_TAG,
    agent_of_run,
    partition_run_tags,
    register_agents,
    settings_for_agent,
)
from nabahan_pipeline.orchestration.resources import (
    AgentResource,
    EmbeddedAgentResource,
    HttpAgentResource,
    OpenAIAgentResource,
    PythonAgentResource,
    agent_resource,
    built_agent,
)
from nabahan_pipeline.settings import resolve_run_settings

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"


@pytest.fixture
def no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NABAHAN_AGENT_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL", "NABAHAN_AGENT"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(("spec", "kind"), [
    ("embedded", EmbeddedAgentResource),
    (COUNTING, PythonAgentResource),
    ("http://127.0.0.1:9/ask", HttpAgentResource),
    ("openai:some-model", OpenAIAgentResource),
])
def test_each_kind_of_spec_has_its_resource(spec: str, kind: type, no_secrets: None):
    assert type(agent_resource(resolve_run_settings({"agent": spec}))) is kind


def test_a_spec_of_no_kind_is_refused_before_anything_is_built(no_secrets: None):
    with pytest.raises(AgentSpecError, match="unknown agent spec 'bogus'"):
        agent_resource(resolve_run_settings({"agent": "bogus"}))


class _Recorded(Agent):
    def __init__(self, events: list[str], fail_check: bool = False) -> None:
        self.spec, self._events, self._fail_check = "recorded", events, fail_check

    def ask(self, question: str, filters: dict | None = None) -> dict:
        self._events.append("ask")
        return {}

    def fingerprint(self) -> str:
        return "recorded"

    def check(self) -> None:
        self._events.append("check")
        if self._fail_check:
            raise AgentSpecError("unreachable")

    def close(self) -> None:
        self._events.append("close")


EVENTS: list[str] = []


class _RecordedResource(AgentResource):
    fail_check: bool = False

    def build(self) -> Agent:
        EVENTS.append("build")
        return _Recorded(EVENTS, self.fail_check)


def test_a_secret_reaches_the_agent_through_envvar_and_is_no_config_value(
    no_secrets: None, monkeypatch: pytest.MonkeyPatch
):
    settings = resolve_run_settings({"agent": "http://127.0.0.1:9/ask"})
    assert agent_resource(settings).model_dump()["token"] is None, "unset: left out (an EnvVar would fail the run)"
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", "s3cret-token")
    resource = agent_resource(settings)
    assert isinstance(resource.model_dump()["token"], dg.EnvVar) and "s3cret" not in repr(resource.model_dump())
    seen = []

    class Seeing(HttpAgentResource):
        def build(self) -> Agent:
            seen.append(self.token)
            return _Recorded([])

    with dg.build_resources({"agent": Seeing(**{**resource.model_dump(), "evaluation": settings})}):
        assert seen == ["s3cret-token"], "read by Dagster as the resource is built"


def test_the_agent_is_built_and_checked_once_as_the_resource_starts_and_closed_as_it_ends():
    EVENTS.clear()
    settings = resolve_run_settings({"agent": "embedded"})
    with dg.build_resources({"agent": _RecordedResource(evaluation=settings)}) as resources:
        assert EVENTS == ["build", "check"]
        resources.agent.ask("q")
    assert EVENTS == ["build", "check", "ask", "close"]
    EVENTS.clear()
    with pytest.raises(dg.DagsterResourceFunctionError) as raised:
        with dg.build_resources({"agent": _RecordedResource(evaluation=settings, fail_check=True)}):
            pass
    assert isinstance(raised.value.__cause__, AgentSpecError)
    assert EVENTS == ["build", "check", "close"], "an agent that fails its check is closed all the same"


def test_check_and_close_are_capabilities_of_every_agent(no_secrets: None):
    with built_agent(resolve_run_settings({"agent": COUNTING})) as agent:
        assert agent.check() is None and agent.fingerprint().startswith(COUNTING)
    agent.close()  # a no-op, again
    assert Agent in EmbeddedAgent.__mro__, "the no-ops inherited, not looked for with hasattr"


def test_a_runs_agent_comes_from_its_tags_else_from_the_registry():
    tagged = dg.DagsterRun(job_name="evaluation_job", tags={
        PARTITION_TAG: "v2", **partition_run_tags(LabelledAgent("v2", COUNTING, "2"))})
    assert agent_of_run(None, tagged) == LabelledAgent("v2", COUNTING, "2"), "passed on, no instance read"
    from_ui = dg.DagsterRun(job_name="evaluation_job", tags={PARTITION_TAG: "v2"})
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("v2", "embedded", "3")])
        assert agent_of_run(instance, from_ui) == LabelledAgent("v2", "embedded", "3")
        other = dg.DagsterRun(job_name="evaluation_job", tags={PARTITION_TAG: "v2", AGENT_LABEL_TAG: "v1",
                                                               "nabahan/agent": COUNTING})
        assert agent_of_run(instance, other) == LabelledAgent("v2", "embedded", "3"), "another label's tags"
    assert agent_of_run(None, dg.DagsterRun(job_name="comparison_job")) is None


def test_a_registered_agents_run_reads_the_token_its_entry_names_and_no_other(
    no_secrets: None, monkeypatch: pytest.MonkeyPatch
):
    """A run launched from the UI, the sensor or the schedule (its partition tag alone) finds its
    agent's token variable in the registry; an entry that names none sends no token."""
    from nabahan_pipeline_tests.loopback import LoopbackServer

    monkeypatch.setenv("V2_TOKEN", "tk-v2-Hs7Jd2Kf9Lg4")
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", "tk-default-Qp3Wm8Zr5")
    with LoopbackServer() as v2, LoopbackServer() as v3, LoopbackServer() as unregistered, \
            dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("v2", v2.url(), token_env="V2_TOKEN"),
                                   LabelledAgent("v3", v3.url(), token_env="none")])
        instance.add_dynamic_partitions("agents", [unregistered.url()])  # the UI's "Add partition"
        for label in ("v2", "v3", unregistered.url()):
            from_ui = dg.DagsterRun(job_name="evaluation_job", tags={PARTITION_TAG: label})
            settings = settings_for_agent(resolve_run_settings(), agent_of_run(instance, from_ui))
            with built_agent(settings) as agent:
                agent.ask("كم؟")
        sent = {name: [request.headers.get("authorization") for request in server.requests if request.method == "POST"]
                for name, server in (("v2", v2), ("v3", v3), ("unregistered", unregistered))}
    assert sent == {"v2": ["Bearer tk-v2-Hs7Jd2Kf9Lg4"], "v3": [None], "unregistered": [None]}
