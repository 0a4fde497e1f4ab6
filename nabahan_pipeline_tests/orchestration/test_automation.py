"""The sensor on the case file, the nightly schedule and the comparison's automation, with
Dagster's test contexts: each runs every registered agent, one run per partition."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg

from nabahan_pipeline.agents.labels import LabelledAgent
from nabahan_pipeline.definitions import defs
from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration.partitions import AGENTS, register_agents
from nabahan_pipeline.orchestration.resources import EvaluationSettings
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline.orchestration import sensors


COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"


def tick(instance: dg.DagsterInstance, settings: EvaluationSettings, cursor: str | None):
    """The sensor's result (one RunRequest unwrapped from its list) and its new cursor."""
    # Entered and left as a context, so that the resources and instance state it sets are reset.
    with dg.build_sensor_context(instance=instance, cursor=cursor, resources={"evaluation": settings}) as context:
        result = sensors.test_cases_changed(context)
        if isinstance(result, list):
            (result,) = result
        return result, context.cursor


def nightly_requests(instance: dg.DagsterInstance, settings: EvaluationSettings) -> list[dg.RunRequest]:
    with dg.build_schedule_context(instance=instance, resources={"evaluation": settings},
                                   repository_def=defs.get_repository_def()) as context:
        return list(nightly_evaluation.evaluate_tick(context).run_requests)


def write(path: Path, question: str) -> None:
    case = {"question": question, "category": "count", "expected_table": "tenders_full_details"}
    path.write_text(json.dumps([case], ensure_ascii=False), encoding="utf-8")


def test_sensor_launches_on_each_change_including_a_change_back(tmp_path: Path):
    path = tmp_path / "cases.json"
    write(path, "كم عدد المناقصات؟")
    settings = EvaluationSettings(test_file=str(path))
    with dg.instance_for_test() as instance:
        first, cursor = tick(instance, settings, None)
        assert isinstance(first, dg.RunRequest), "never evaluated: the first tick launches"
        assert first.run_config["resources"]["evaluation"]["config"]["use_cache"] is True
        assert first.partition_key == "embedded", "no agent registered: the location's own, registered"
        assert instance.get_dynamic_partitions("agents") == ["embedded"]
        assert cursor == file_sha256(path)

        unchanged, cursor = tick(instance, settings, cursor)
        assert isinstance(unchanged, dg.SkipReason)

        write(path, "كم عدد المناقصات النشطة؟")
        changed, cursor = tick(instance, settings, cursor)
        assert isinstance(changed, dg.RunRequest)

        write(path, "كم عدد المناقصات؟")
        back, cursor = tick(instance, settings, cursor)
        assert isinstance(back, dg.RunRequest), "a change back to earlier content is a change"
        assert back.run_key != first.run_key, "a repeated run key would be deduplicated by Dagster"


def test_sensor_first_tick_skips_when_the_file_was_already_evaluated(tmp_path: Path):
    path = tmp_path / "cases.json"
    write(path, "كم عدد المناقصات؟")
    settings = EvaluationSettings(test_file=str(path))
    with dg.instance_for_test() as instance:
        instance.report_runless_asset_event(
            dg.AssetMaterialization("test_cases", metadata={"file_sha256": file_sha256(path)})
        )
        result, _ = tick(instance, settings, None)
        assert isinstance(result, dg.SkipReason)


def test_sensor_skips_a_missing_file(tmp_path: Path):
    with dg.instance_for_test() as instance:
        result, _ = tick(instance, EvaluationSettings(test_file=str(tmp_path / "gone.json")), None)
        assert isinstance(result, dg.SkipReason) and "does not exist" in result.skip_message


def test_nightly_schedule_is_a_full_refresh_at_2am_riyadh():
    assert nightly_evaluation.cron_schedule == "0 2 * * *"
    assert nightly_evaluation.execution_timezone == "Asia/Riyadh"
    assert nightly_evaluation.default_status == dg.DefaultScheduleStatus.RUNNING
    with dg.instance_for_test() as instance:
        (request,) = nightly_requests(instance, EvaluationSettings())
        assert request.run_config["resources"]["evaluation"]["config"]["use_cache"] is False
        assert request.partition_key == "embedded"


def test_definitions_hold_the_graph_the_design_names():
    graph = defs.resolve_asset_graph()
    keys = {key.to_user_string() for key in graph.get_all_asset_keys()}
    assert keys == {
        "test_cases_file",
        "agent",
        "agent_comparison",
        "test_cases",
        "agent_responses",
        "case_scores",
        "evaluation_summary",
        "evaluation_reports",
        "evaluation_charts",
        "evaluation_report_page",
        "robustness",
    }
    parents = {k.to_user_string(): {p.to_user_string() for p in graph.get(k).parent_keys} for k in graph.get_all_asset_keys()}
    assert parents["test_cases"] == {"test_cases_file"}
    assert parents["agent_responses"] == {"test_cases", "agent"}
    assert parents["evaluation_charts"] >= {"evaluation_reports"}
    assert parents["evaluation_report_page"] >= {"evaluation_reports", "evaluation_charts"}
    assert parents["agent_comparison"] == {"case_scores", "evaluation_summary"}
    assert parents["robustness"] == {"test_cases", "case_scores", "agent"}
    partitioned = {k.to_user_string() for k in graph.get_all_asset_keys() if graph.get(k).partitions_def}
    assert partitioned == keys - {"test_cases_file", "agent_comparison"}
    assert {graph.get(k).partitions_def for k in graph.get_all_asset_keys() if graph.get(k).partitions_def} == {AGENTS}
    assert {g for g in (graph.get(k).group_name for k in graph.get_all_asset_keys())} == {"evaluation"}
    checks = {key.name for key in graph.asset_check_keys}
    assert checks == {"test_case_file_valid", "scores_in_range", "pass_rate_threshold", "no_regression"}
    assert defs.resolve_job_def("evaluation_job").executor_def.name == "in_process"
    assert defs.resolve_sensor_def("test_cases_changed").default_status == dg.DefaultSensorStatus.RUNNING
    automation = defs.resolve_sensor_def("agent_comparison_after_evaluations")
    assert automation.default_status == dg.DefaultSensorStatus.RUNNING
    jobs = {name: {k.to_user_string() for k in defs.resolve_job_def(name).asset_layer.executable_asset_keys}
            for name in ("evaluation_job", "comparison_job")}
    assert jobs == {"evaluation_job": keys - {"test_cases_file", "agent", "agent_comparison"},
                    "comparison_job": {"agent_comparison"}}


def test_the_sensor_and_the_schedule_run_every_registered_agent_in_a_run_of_its_own(tmp_path: Path):
    path = tmp_path / "cases.json"
    write(path, "كم عدد المناقصات؟")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(tmp_path / "out"))
    agents = [LabelledAgent("embedded", "embedded"), LabelledAgent("counting", COUNTING, "3")]
    with dg.instance_for_test() as instance:
        register_agents(instance, agents)
        with dg.build_sensor_context(instance=instance, resources={"evaluation": settings}) as context:
            sensed = sensors.test_cases_changed(context)
        nightly = nightly_requests(instance, settings)
    for requests, cached in ((sensed, True), (nightly, False)):
        assert [request.partition_key for request in requests] == ["embedded", "counting"]
        configs = [request.run_config["resources"]["evaluation"]["config"] for request in requests]
        assert [config["agent"] for config in configs] == ["embedded", COUNTING]
        assert [config.get("agent_version") for config in configs] == [None, "3"]
        assert [config["use_cache"] for config in configs] == [cached, cached]
        assert [config["output_dir"] for config in configs] == [str(tmp_path / "out" / "embedded"),
                                                                str(tmp_path / "out" / "counting")]
        assert [request.tags["nabahan/agent_label"] for request in requests] == ["embedded", "counting"]
        assert len({request.run_key for request in requests}) == 2
        for request in requests:
            assert dg.validate_run_config(defs.resolve_job_def("evaluation_job"), request.run_config)
