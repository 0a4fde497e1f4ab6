"""The run's resources: the options' config made from settings.py, the agent built by the adapter
its spec names (secrets through dg.EnvVar), checked and closed on the resource's lifecycle, and the
agent a partition's run gets from its tags or, launched from the UI, from the registry."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

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
    EvaluationSettings,
    agent_resource,
    built_agent,
    tag_run,
)
from nabahan_pipeline.settings import resolve_run_settings

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"


@pytest.fixture
def no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NABAHAN_AGENT_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL", "NABAHAN_AGENT"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(("spec", "kind", "built"), [
    ("embedded", "embedded", "EmbeddedAgent"),
    (COUNTING, "python", "ChildProcessAgent"),
    ("http://127.0.0.1:9/ask", "http", "HttpAgent"),
])
def test_each_kind_of_spec_is_built_by_its_adapter_through_the_one_resource(
    spec: str, kind: str, built: str, no_secrets: None
):
    resource = agent_resource(resolve_run_settings({"agent": spec}))
    assert type(resource) is AgentResource and resource.kind == kind
    agent = resource.build()
    try:
        assert type(agent).__name__ == built and agent.spec == spec
    finally:
        agent.close()


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
    assert agent_resource(settings).model_dump()["secret"] is None, "unset: left out (an EnvVar would fail the run)"
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", "s3cret-token")
    resource = agent_resource(settings)
    assert isinstance(resource.model_dump()["secret"], dg.EnvVar) and "s3cret" not in repr(resource.model_dump())
    seen = []

    class Seeing(AgentResource):
        def build(self) -> Agent:
            seen.append(self.secret)
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


# The tags that tell an agent's run apart (partitions.run_tags and partition_run_tags).
LABEL_TAGS = ("nabahan/label", "nabahan/agent", AGENT_LABEL_TAG, "nabahan/agent_version", "nabahan/agent_token_env")


def _label_tags(tags: Mapping[str, str]) -> dict[str, str]:
    return {key: value for key, value in tags.items() if key in LABEL_TAGS}


def test_a_run_launched_without_our_tags_gets_them_as_it_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The UI launches the code location's job with the partition's tag alone: at its start the run
    gets the label and agent tags of the agent the registry holds, as the sensor and the schedule
    give theirs (with the same options: the settings of that agent's run)."""
    from nabahan_pipeline.definitions import defs
    from nabahan_pipeline.orchestration.schedules import nightly_evaluation
    from nabahan_pipeline.orchestration.sensors import test_cases_changed
    from nabahan_pipeline_tests.commands import cases_file

    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NABAHAN_TEST_FILE", str(cases_file(tmp_path / "cases.json", n=1)))
    monkeypatch.delenv("NABAHAN_AGENT", raising=False)
    agent = LabelledAgent("v2", COUNTING, "2")
    with dg.instance_for_test() as instance:
        register_agents(instance, [agent])
        resources = {"evaluation": EvaluationSettings()}
        with dg.build_sensor_context(instance=instance, resources=resources) as context:
            sensor_requests = test_cases_changed(context)  # before any run: the case file is new
        with dg.build_schedule_context(instance=instance, resources=resources,
                                       repository_def=defs.get_repository_def()) as context:
            schedule_requests = list(nightly_evaluation.evaluate_tick(context).run_requests)
        result = defs.resolve_job_def("evaluation_job").execute_in_process(
            instance=instance, partition_key="v2", asset_selection=[dg.AssetKey("test_cases")])
        assert result.success
        tags = instance.get_run_by_id(result.run_id).tags
    expected = {"nabahan/label": "v2 · cases.json", "nabahan/agent": COUNTING, AGENT_LABEL_TAG: "v2",
                "nabahan/agent_version": "2"}
    assert _label_tags(tags) == expected
    for (request,) in (sensor_requests, schedule_requests):
        assert request.partition_key == "v2" and _label_tags(request.tags) == expected
    already = dg.DagsterRun(job_name="evaluation_job", tags={PARTITION_TAG: "v2", **partition_run_tags(agent)})
    with dg.instance_for_test() as instance:  # a run launched with its tags (ours) is left as it is
        tag_run(instance, already, settings_for_agent(resolve_run_settings(), agent), agent)  # else: no such run


@pytest.mark.slow
def test_dagster_asset_materialize_runs_carry_the_tags_of_nabahan_eval_runs(tmp_path: Path):
    """`dagster asset materialize --partition`, a real process, on the home `nabahan eval` uses."""
    from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan, run

    env = {"NABAHAN_HOME": str(tmp_path / "home"), "DAGSTER_HOME": str(tmp_path / "home" / "dagster"),
           "NABAHAN_TEST_FILE": str(cases_file(tmp_path / "cases.json", n=1)), "NABAHAN_TEST_SUITE_DATABASES": "0",
           "NABAHAN_OUTPUT_DIR": str(tmp_path / "out"), "PYTHONPATH": str(REPO)}
    added = nabahan("agents", "add", f"mine={COUNTING}", cwd=tmp_path, **env)
    assert added.returncode == 0, added.stderr[-2000:]
    dagster = Path(sys.executable).parent / "dagster"
    materialized = run([str(dagster), "asset", "materialize", "-m", "nabahan_pipeline.definitions",
                        "--select", "test_cases", "--partition", "mine"], tmp_path, **env)
    assert materialized.returncode == 0, materialized.stderr[-3000:]
    evaluated = nabahan("eval", "--agent", f"mine={COUNTING}", cwd=tmp_path, **env)
    assert evaluated.returncode == 0, evaluated.stderr[-2000:]
    with dg.DagsterInstance.from_config(env["DAGSTER_HOME"]) as instance:
        runs = instance.get_runs(filters=dg.RunsFilter(tags={PARTITION_TAG: "mine"}), ascending=True)
    assert len(runs) == 2 and runs[1].tags["nabahan/trigger"] == "nabahan eval"
    assert _label_tags(runs[0].tags) == _label_tags(runs[1].tags)
    assert set(_label_tags(runs[0].tags)) >= {"nabahan/label", "nabahan/agent", AGENT_LABEL_TAG}
