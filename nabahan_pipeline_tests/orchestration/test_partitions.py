"""Agents as partitions: the registry the instance keeps, the agent a partition's run gets however
it is launched, a partition's own history in a partial run, and the options of each agent's run."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pytest
import sqlalchemy.exc

from nabahan_pipeline.agents.labels import LabelledAgent
from nabahan_pipeline.orchestration import assets
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.partitions import (
    AGENT_ASSET,
    agents_to_run,
    partition_run_config,
    register_agents,
    registered_agent,
    registered_agents,
    remove_agents,
    scheduled_agents,
    settings_for_agent,
)
from nabahan_pipeline.orchestration.resources import EvaluationSettings, run_resources
from nabahan_pipeline.settings import resolve_run_settings

REPO = Path(__file__).resolve().parents[2]
COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
RAISING = "python:nabahan_pipeline_tests.sample_agents:raising_agent"
TABLES = [assets.test_cases, assets.agent_responses, assets.case_scores]


def observations(instance: dg.DagsterInstance) -> int:
    return len(instance.fetch_observations(AGENT_ASSET, limit=100).records)


def test_the_registry_keeps_each_labels_latest_spec_in_the_instance():
    with dg.instance_for_test() as instance:
        assert registered_agents(instance) == [] and registered_agent(instance, "a") is None
        register_agents(instance, [LabelledAgent("a", COUNTING, "1"), LabelledAgent("embedded", "embedded")])
        register_agents(instance, [LabelledAgent("a", COUNTING, "1")])
        assert observations(instance) == 2, "an unchanged agent is not recorded again"
        register_agents(instance, [LabelledAgent("a", RAISING)])
        # A python: agent is kept with the folder its module was found in (the tests' package: the repository).
        assert registered_agents(instance) == [LabelledAgent("a", RAISING, folder=str(REPO)),
                                               LabelledAgent("embedded", "embedded")]
        assert observations(instance) == 3
        # A partition added another way (the UI's "Add partition") stands for the spec it names.
        instance.add_dynamic_partitions("agents", [COUNTING])
        assert registered_agents(instance)[-1] == LabelledAgent(COUNTING, COUNTING)
        assert remove_agents(instance, ["ghost", "a"]) == ["ghost"] and len(registered_agents(instance)) == 3
        assert remove_agents(instance, ["a"]) == [] and [a.label for a in registered_agents(instance)] == [
            "embedded", COUNTING]


def test_a_run_adds_its_partition_and_only_registration_schedules_an_agent():
    with dg.instance_for_test() as instance:
        evaluated = register_agents(instance, [LabelledAgent("try", COUNTING)], scheduled=False)
        assert instance.get_dynamic_partitions("agents") == ["try"] and scheduled_agents(instance) == []
        assert registered_agent(instance, "try") == evaluated[0], "the UI's launch of it knows its spec"

        register_agents(instance, [LabelledAgent("v2", COUNTING, "2")])
        assert scheduled_agents(instance) == [LabelledAgent("v2", COUNTING, "2", folder=str(REPO))]
        # An experiment on the same label, not registered: its run has the partition; the schedule keeps v2 as it was.
        register_agents(instance, [LabelledAgent("v2", RAISING)], scheduled=False)
        assert [(agent.spec, agent.version) for agent in scheduled_agents(instance)] == [(COUNTING, "2")]
        register_agents(instance, [LabelledAgent("try", COUNTING)])
        assert [agent.label for agent in scheduled_agents(instance)] == ["try", "v2"]

        # Removed: off the schedule, and a later run of it (its partition again) does not put it back.
        assert remove_agents(instance, ["v2"]) == [] and "v2" not in instance.get_dynamic_partitions("agents")
        register_agents(instance, [LabelledAgent("v2", COUNTING, "2")], scheduled=False)
        assert [agent.label for agent in scheduled_agents(instance)] == ["try"]

        # An entry made before entries said whether they are scheduled was registered by `agents add`.
        instance.add_dynamic_partitions("agents", ["old"])
        instance.report_runless_asset_event(dg.AssetObservation(AGENT_ASSET, partition="old",
                                                                metadata={"spec": "embedded", "agent_version": ""}))
        assert [agent.label for agent in scheduled_agents(instance)] == ["try", "old"]


def test_with_none_registered_the_schedule_runs_the_locations_agent_without_registering_it():
    settings = resolve_run_settings({"agent": COUNTING})
    with dg.instance_for_test() as instance:
        assert agents_to_run(instance, settings) == [LabelledAgent(COUNTING, COUNTING, folder=str(REPO))]
        assert instance.get_dynamic_partitions("agents") == [COUNTING] and scheduled_agents(instance) == []
        register_agents(instance, [LabelledAgent("mine", "embedded")])
        assert [agent.label for agent in agents_to_run(instance, settings)] == ["mine"], "the user's agents alone"


def test_a_partition_that_names_no_agent_fails_before_any_step_saying_how_to_register_it(tmp_path: Path):
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("agents", ["nobody"])  # the UI's "Add partition" takes any name
        result = dg.materialize(
            TABLES,
            resources={**run_resources(EvaluationSettings(test_file=str(cases(tmp_path / "cases.json")))),
                       "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
            instance=instance, partition_key="nobody", raise_on_error=False,
        )
        assert not result.success
        events = instance.all_logs(result.run_id)
        assert not [event for event in events if event.is_dagster_event and event.dagster_event.is_step_start]
        (failure,) = [event.dagster_event for event in events
                      if event.is_dagster_event and event.dagster_event.event_type == dg.DagsterEventType.RUN_FAILURE]
        cause = failure.event_specific_data.error.cause
        assert cause.message.strip().endswith(
            "partition 'nobody' names no registered agent: register it with `nabahan agents add nobody=SPEC` "
            "(SPEC: embedded, python:module:function, http(s)://host/path or openai:MODEL), then launch it again")


def test_a_partition_added_by_another_process_meanwhile_is_no_error(monkeypatch: pytest.MonkeyPatch):
    with dg.instance_for_test() as instance:
        real = instance.add_dynamic_partitions
        calls = []

        def racing(name, keys):
            calls.append(keys)
            if len(calls) == 1:  # the other process inserts between Dagster's check and its insert
                real(name, keys)
                raise sqlalchemy.exc.IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))
            return real(name, keys)

        monkeypatch.setattr(instance, "add_dynamic_partitions", racing)
        register_agents(instance, [LabelledAgent("a", COUNTING)])
        assert len(calls) == 2 and instance.get_dynamic_partitions("agents") == ["a"]


def cases(path: Path) -> Path:
    rows = [{"id": f"c{i}", "question": f"كم عدد المناقصات رقم {i}؟", "category": "count",
             "expected_table": "tenders_full_details"} for i in range(2)]
    path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return path


def materialize(instance: dg.DagsterInstance, tmp_path: Path, partition: str, selection: list) -> dg.ExecuteInProcessResult:
    """Like a launch from the UI: no agent in the run's options, only the partition."""
    settings = EvaluationSettings(test_file=str(cases(tmp_path / "cases.json")), output_dir=str(tmp_path / "out"),
                                  test_suite_databases=0)
    return dg.materialize(
        selection,
        resources={**run_resources(settings), "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
        instance=instance,
        partition_key=partition,
    )


def agent_spec_of(result: dg.ExecuteInProcessResult) -> str:
    (event,) = result.asset_materializations_for_node("agent_responses")
    return event.metadata["agent_spec"].value


def test_a_partitions_run_asks_that_agent_and_a_partial_run_reads_that_agents_tables(tmp_path: Path):
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("good", COUNTING), LabelledAgent("bad", RAISING)])
        instance.add_dynamic_partitions("agents", ["embedded"])  # a spec as its own label
        assert agent_spec_of(materialize(instance, tmp_path, "good", TABLES)) == COUNTING
        assert agent_spec_of(materialize(instance, tmp_path, "embedded", TABLES[:2])) == "embedded"
        assert agent_spec_of(materialize(instance, tmp_path, "bad", TABLES)) == RAISING

        # case_scores alone, for "good", after "embedded" and "bad" ran: good's answers, not the latest.
        only_scores = dg.materialize(
            TABLES,
            selection=[assets.case_scores],
            resources={**run_resources(EvaluationSettings(test_file=str(tmp_path / "cases.json"), test_suite_databases=0)),
                       "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
            instance=instance,
            partition_key="good",
        )
        statuses = set(only_scores.asset_value("case_scores")["status"])
        assert statuses == {"success"}, "good's answers (bad's are errors)"

        with pytest.raises(FileNotFoundError, match="case_scores of agent 'embedded' has not been materialized"):
            dg.materialize(
                [*TABLES, assets.evaluation_summary],
                selection=[assets.evaluation_summary],
                resources={**run_resources(EvaluationSettings()), "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
                instance=instance,
                partition_key="embedded",
            )


def test_each_agents_run_options(tmp_path: Path):
    settings = resolve_run_settings({"output_dir": str(tmp_path / "out"), "agent_version": "9"})
    named = settings_for_agent(settings, LabelledAgent("v2", "http://host/ask", "2"))
    assert (named.agent, named.agent_version, named.run_label()) == ("http://host/ask", "2", "v2 · test_cases.json")
    bare = settings_for_agent(settings, LabelledAgent("embedded", "embedded"))
    assert (bare.agent, bare.agent_version, bare.run_label()) == ("embedded", "9", "embedded · test_cases.json")
    labelled = settings_for_agent(resolve_run_settings({"label": "nightly"}), LabelledAgent("v2", "embedded"))
    assert labelled.run_label() == "nightly", "a label given names every agent's run"

    alone = partition_run_config(settings, LabelledAgent("v2", "embedded"), several=False)
    together = partition_run_config(settings, LabelledAgent("http://h:1/ask", "http://h:1/ask"), several=True)
    assert alone["resources"]["evaluation"]["config"]["output_dir"] == str(tmp_path / "out")
    folder = Path(together["resources"]["evaluation"]["config"]["output_dir"])
    assert folder.parent == tmp_path / "out" and folder.name.startswith("http_h_1_ask-")
