"""Against a real `dagster dev` (webserver + daemon + code server) on loopback, through GraphQL.

One slow test, because the phases share one server and build on each other (and pytest-xdist would
split separate tests over workers, each starting its own server):

1. the code location as the UI sees it: nine assets in group ``evaluation`` forming one lineage
   graph from the case file and the agent, partitioned by agent, four checks, evaluation_job and
   comparison_job, the sensors and the schedule RUNNING by default;
2. the sensor's first tick under the daemon registers the location's agent and launches
   evaluation_job for its partition on the configured case file;
3. the UI's "Materialize" of that partition launches a second run; evaluation_summary then has
   two materializations with numeric ``pass_rate`` (what the UI plots);
4. an edit of the case file makes the sensor's next tick (30 s later) launch a run that reuses
   the cached answers; by then the automation sensor has materialized agent_comparison.

A fast test beside it pins what phase 2 found: sensor and schedule runs keep the code location's
settings (case file, output dir, agent) when they set one option in run config.
"""

from __future__ import annotations

import contextlib
import csv
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import pytest

from nabahan_pipeline.definitions import defs
from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration import sensors
from nabahan_pipeline.orchestration.resources import EvaluationSettings
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline_tests.webserver import LOCATION, REPOSITORY, Webserver, webserver

REPO = Path(__file__).resolve().parents[2]
COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
JOB = "evaluation_job"
SENSOR = "test_cases_changed"
SENSOR_INTERVAL_S = 30  # minimum_interval_seconds of the sensor
LINEAGE = {
    "test_cases_file": set(),
    "agent": set(),
    "test_cases": {"test_cases_file"},
    "agent_responses": {"test_cases", "agent"},
    "case_scores": {"test_cases", "agent_responses"},
    "evaluation_summary": {"test_cases", "agent_responses", "case_scores"},
    "evaluation_reports": {"case_scores", "evaluation_summary"},
    "evaluation_charts": {"case_scores", "evaluation_summary", "evaluation_reports"},
    "evaluation_report_page": {"test_cases", "agent_responses", "case_scores", "evaluation_summary",
                               "evaluation_reports", "evaluation_charts"},
    "robustness": {"test_cases", "case_scores", "agent"},
    "agent_comparison": {"case_scores", "evaluation_summary"},
}
EXTERNAL = {"test_cases_file", "agent"}
EVALUATED = set(LINEAGE) - EXTERNAL - {"agent_comparison"}
CHECKS = {
    ("test_cases", "test_case_file_valid"),
    ("case_scores", "scores_in_range"),
    ("case_scores", "no_regression"),
    ("evaluation_summary", "pass_rate_threshold"),
}
# The daemon dequeues queued runs every second instead of every five.
DAGSTER_YAML = "telemetry:\n  enabled: false\nrun_queue:\n  dequeue_interval_seconds: 1\n"


@dataclass
class DagsterDev(Webserver):
    """A running `dagster dev` and the paths it was given."""

    cases: Path
    out: Path
    workdir: Path


def _write_cases(path: Path, count: int) -> None:
    cases = [
        {
            "id": f"count-{i}",
            "question": f"كم عدد المناقصات في المجموعة {i}؟",
            "category": "count",
            "expected_table": "tenders_full_details",
        }
        for i in range(count)
    ]
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")


@contextlib.contextmanager
def dagster_dev(tmp: Path) -> Iterator[DagsterDev]:
    home = tmp / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text(DAGSTER_YAML, encoding="utf-8")
    workdir = tmp / "work"
    workdir.mkdir()
    cases, out = tmp / "cases.json", tmp / "out"
    _write_cases(cases, 2)
    settings = {"NABAHAN_HOME": str(tmp / "home"), "NABAHAN_TEST_FILE": str(cases), "NABAHAN_OUTPUT_DIR": str(out),
                "NABAHAN_AGENT": COUNTING}
    with webserver(home, workdir, dev=True, start_timeout_s=60, **settings) as server:
        yield DagsterDev(server.process, server.port, server.log, cases, out, workdir)


RUNS = """
{ runsOrError(filter: {pipelineName: "evaluation_job"}) {
    __typename
    ... on Runs { results { runId status creationTime runConfigYaml tags { key value } } }
    ... on PythonError { message }
} }"""


def _runs(server: DagsterDev) -> list[dict]:
    result = server.graphql(RUNS)["runsOrError"]
    assert result["__typename"] == "Runs", result
    runs = result["results"]
    for run in runs:
        run["tags"] = {tag["key"]: tag["value"] for tag in run["tags"]}
    return runs


def _wait_for_run(server: DagsterDev, deadline: float, what: str, matches) -> dict:
    """Poll until a run matching ``matches`` succeeds; fail at once if it fails."""
    while True:
        found = [run for run in _runs(server) if matches(run)]
        for run in found:
            assert run["status"] not in {"FAILURE", "CANCELED", "CANCELING"}, (
                f"{what}: run {run['runId']} {run['status']}\n{server.log_tail()}"
            )
            if run["status"] == "SUCCESS":
                return run
        assert time.monotonic() < deadline, f"{what}: no successful run in time, saw {found}\n{server.log_tail()}"
        time.sleep(0.5)


def _csv_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def _materializations(server: DagsterDev, asset: str) -> list[dict]:
    query = """
    query ($key: AssetKeyInput!) { assetOrError(assetKey: $key) {
        __typename
        ... on Asset { assetMaterializations(limit: 20) { runId metadataEntries {
            label __typename
            ... on FloatMetadataEntry { floatValue }
            ... on IntMetadataEntry { intValue }
            ... on PathMetadataEntry { path }
            ... on TextMetadataEntry { text }
            ... on MarkdownMetadataEntry { mdStr } } } }
    } }"""
    result = server.graphql(query, {"key": {"path": [asset]}})["assetOrError"]
    assert result["__typename"] == "Asset", result
    return result["assetMaterializations"]


def _entry(materialization: dict, label: str) -> dict:
    (entry,) = [e for e in materialization["metadataEntries"] if e["label"] == label]
    return entry


def _check_code_location(server: DagsterDev) -> None:
    data = server.graphql(
        """{ repositoriesOrError { __typename ... on RepositoryConnection { nodes {
            name location { name }
            jobs { name }
            sensors { name minIntervalSeconds sensorState { status } }
            schedules { name cronSchedule executionTimezone scheduleState { status } }
            assetNodes {
                assetKey { path } groupName isMaterializable jobNames
                partitionDefinition { dimensionTypes { dynamicPartitionsDefinitionName } }
                dependencyKeys { path }
                assetChecksOrError { __typename ... on AssetChecks { checks { name } } }
            } } } } }"""
    )["repositoriesOrError"]
    assert data["__typename"] == "RepositoryConnection", data
    (repository,) = data["nodes"]
    assert (repository["name"], repository["location"]["name"]) == (REPOSITORY, LOCATION)
    assert JOB in {job["name"] for job in repository["jobs"]}

    nodes = {"/".join(node["assetKey"]["path"]): node for node in repository["assetNodes"]}
    assert set(nodes) == set(LINEAGE)
    assert {node["groupName"] for node in nodes.values()} == {"evaluation"}
    parents = {name: {"/".join(key["path"]) for key in node["dependencyKeys"]} for name, node in nodes.items()}
    assert parents == LINEAGE
    # One lineage graph: everything is downstream of the case file and the agent.
    reached, frontier = set(EXTERNAL), list(EXTERNAL)
    while frontier:
        current = frontier.pop()
        for child in (name for name, ups in parents.items() if current in ups and name not in reached):
            reached.add(child)
            frontier.append(child)
    assert reached == set(LINEAGE)
    for name in EXTERNAL:
        assert not nodes[name]["isMaterializable"], f"{name} lives outside Dagster"
    for name in EVALUATED:
        assert nodes[name]["isMaterializable"] and JOB in nodes[name]["jobNames"], name
        assert nodes[name]["partitionDefinition"]["dimensionTypes"][0]["dynamicPartitionsDefinitionName"] == "agents"
    assert "comparison_job" in nodes["agent_comparison"]["jobNames"] and nodes["agent_comparison"]["partitionDefinition"] is None

    checks = set()
    for name, node in nodes.items():
        result = node["assetChecksOrError"]
        assert result["__typename"] == "AssetChecks", result
        checks |= {(name, check["name"]) for check in result["checks"]}
    assert checks == CHECKS

    sensors = {sensor["name"]: sensor for sensor in repository["sensors"]}
    assert set(sensors) == {SENSOR, "agent_comparison_after_evaluations"}
    assert {sensor["sensorState"]["status"] for sensor in sensors.values()} == {"RUNNING"}
    assert sensors[SENSOR]["minIntervalSeconds"] == SENSOR_INTERVAL_S
    (schedule,) = repository["schedules"]
    assert (schedule["name"], schedule["scheduleState"]["status"]) == ("nightly_evaluation", "RUNNING")
    assert (schedule["cronSchedule"], schedule["executionTimezone"]) == ("0 2 * * *", "Asia/Riyadh")


LAUNCH = """
mutation LaunchPipelineExecution($executionParams: ExecutionParams!) {
  launchPipelineExecution(executionParams: $executionParams) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message stack }
    ... on RunConfigValidationInvalid { errors { message } }
    ... on InvalidSubsetError { message }
    ... on UnauthorizedError { message }
  }
}"""


def _materialize_all_like_the_ui(server: DagsterDev, partition: str) -> str:
    """The mutation behind "Materialize" of one partition: the job, its assets and checks, the
    partition as a tag, empty run config."""
    materializable = sorted(EVALUATED)
    params = {
        "mode": "default",
        "executionMetadata": {"tags": [{"key": "dagster/partition", "value": partition}]},
        "runConfigData": {},
        "selector": {
            "repositoryLocationName": LOCATION,
            "repositoryName": REPOSITORY,
            "pipelineName": JOB,
            "assetSelection": [{"path": [name]} for name in materializable],
            "assetCheckSelection": [{"assetKey": {"path": [asset]}, "name": name} for asset, name in sorted(CHECKS)],
        },
    }
    result = server.graphql(LAUNCH, {"executionParams": params})["launchPipelineExecution"]
    assert result["__typename"] == "LaunchRunSuccess", result
    return result["run"]["runId"]


def _check_executions(server: DagsterDev, run_id: str) -> dict[str, str]:
    """Status of each check's execution in the run, by check name."""
    data = server.graphql(
        """query ($runId: ID!) { runOrError(runId: $runId) { __typename ... on Run {
            assetCheckSelection { name }
            eventConnection(afterCursor: null, limit: 1000) { events {
                __typename ... on AssetCheckEvaluationEvent { evaluation { checkName success } } } } } } }""",
        {"runId": run_id},
    )["runOrError"]
    assert data["__typename"] == "Run", data
    return {
        event["evaluation"]["checkName"]: "passed" if event["evaluation"]["success"] else "failed"
        for event in data["eventConnection"]["events"]
        if event["__typename"] == "AssetCheckEvaluationEvent"
    }


def _resolved_settings(run_config: dict) -> dict:
    """The evaluation options a run with this run config gets (validated against the job)."""
    job = defs.resolve_job_def(JOB)
    assert dg.validate_run_config(job, run_config)
    return run_config["resources"]["evaluation"]["config"]


def test_sensor_and_schedule_runs_keep_the_locations_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Run config for the resource replaces the location's values as a whole: a sensor or schedule
    run that set use_cache alone evaluated the shipped suite into ./evaluation/results."""
    cases = tmp_path / "cases.json"
    _write_cases(cases, 1)
    settings = EvaluationSettings(test_file=str(cases), output_dir=str(tmp_path / "out"), agent=COUNTING)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, resources={"evaluation": settings})
        (request,) = sensors.test_cases_changed(context)
    assert isinstance(request, dg.RunRequest) and request.partition_key == COUNTING
    config = _resolved_settings(request.run_config)
    chosen = (config["test_file"], config["output_dir"], config["agent"])
    assert chosen == (str(cases), str(tmp_path / "out"), COUNTING)
    assert config["use_cache"] is True

    with dg.instance_for_test() as instance:
        context = dg.build_schedule_context(instance=instance, resources={"evaluation": settings},
                                            repository_def=defs.get_repository_def())
        (request,) = nightly_evaluation.evaluate_tick(context).run_requests
    config = _resolved_settings(request.run_config)
    chosen = (config["test_file"], config["output_dir"], config["agent"])
    assert chosen == (str(cases), str(tmp_path / "out"), COUNTING)
    assert config["use_cache"] is False

    # Options left unset come from the environment when the run starts, so partial run config
    # (the schedule's, or a user's `-c run_config.yaml`) keeps them.
    monkeypatch.setenv("NABAHAN_TEST_FILE", str(cases))
    monkeypatch.setenv("NABAHAN_OUTPUT_DIR", str(tmp_path / "nightly"))
    partial = EvaluationSettings(use_cache=False).resolved()
    assert (partial.test_file, partial.output_dir) == (cases, tmp_path / "nightly")
    assert request.tags["nabahan/trigger"] == "nightly_evaluation"


@pytest.mark.slow
def test_dagster_dev_sensor_ui_launch_and_lineage(tmp_path: Path):
    started = time.monotonic()
    with dagster_dev(tmp_path) as server:
        # 1. The code location as the UI shows it.
        _check_code_location(server)

        # 2. The daemon's first sensor tick: the file was never evaluated, so a run is launched.
        first = _wait_for_run(
            server, started + 80, "first sensor tick", lambda run: run["tags"].get("dagster/sensor_name") == SENSOR
        )
        first_seen = time.monotonic()
        assert first["tags"]["nabahan/trigger"] == "test_cases_changed"
        assert first["tags"]["nabahan/test_file_sha256"] == file_sha256(server.cases)
        assert str(server.cases) in first["runConfigYaml"], "the sensor's run evaluates the file the sensor watches"
        (results,) = server.out.glob("evaluation_results_*.csv")
        assert len(_csv_rows(results)) == 2, "the two cases of NABAHAN_TEST_FILE, not the shipped suite"
        (summary,) = server.out.glob("evaluation_summary_*.csv")
        assert any(row["Metric"] for row in _csv_rows(summary))
        assert list((server.out / "charts").glob("*.png"))
        assert not (server.workdir / "evaluation").exists(), "nothing written to the default output dir"
        assert {"test_case_file_valid", "scores_in_range", "no_regression", "pass_rate_threshold"} <= set(
            _check_executions(server, first["runId"])
        )

        assert first["tags"]["dagster/partition"] == COUNTING, "the location's agent, registered as a partition"
        # 3. "Materialize" of the partition from the UI: the same mutation, then two points on the UI's plots.
        launched = _materialize_all_like_the_ui(server, COUNTING)
        ui_run = _wait_for_run(server, time.monotonic() + 60, "UI launch", lambda run: run["runId"] == launched)
        assert "nabahan/trigger" not in ui_run["tags"]
        # Tagged as it starts with the label and agent tags the sensor gave its run.
        label_tags = ("nabahan/label", "nabahan/agent", "nabahan/agent_label", "nabahan/agent_token_env")
        assert {key: ui_run["tags"].get(key) for key in label_tags} == {key: first["tags"].get(key) for key in label_tags}
        assert ui_run["tags"]["nabahan/agent_label"] == COUNTING
        checks = _check_executions(server, launched)
        assert checks == dict.fromkeys(sorted(name for _, name in CHECKS), "passed"), checks
        assert len(list(server.out.glob("evaluation_results_*.csv"))) == 2
        summaries = _materializations(server, "evaluation_summary")
        assert [m["runId"] for m in summaries] == [launched, first["runId"]], "newest first, one per run"
        for materialization in summaries:
            pass_rate = _entry(materialization, "pass_rate")
            assert pass_rate["__typename"] == "FloatMetadataEntry", pass_rate
            assert pass_rate["floatValue"] == 1.0, "the counting agent passes every count case"
            total = _entry(materialization, "total")
            assert (total["__typename"], total["intValue"]) == ("IntMetadataEntry", 2)
            assert _entry(materialization, "not_correct_count")["intValue"] == 0
            assert _entry(materialization, "not_correct")["mdStr"] == "Every answer is Correct."

        # 4. Edit the file: the next tick (>= 30 s after the first) launches a run on the cache.
        _write_cases(server.cases, 3)
        second = _wait_for_run(
            server,
            first_seen + SENSOR_INTERVAL_S + 40,
            "sensor tick after the edit",
            lambda run: run["tags"].get("dagster/sensor_name") == SENSOR and run["runId"] != first["runId"],
        )
        assert second["tags"]["nabahan/test_file_sha256"] == file_sha256(server.cases)
        (responses,) = [m for m in _materializations(server, "agent_responses") if m["runId"] == second["runId"]]
        assert _entry(responses, "cached_answers")["intValue"] == 2, "the first sensor run's answers are reused"
        assert _entry(responses, "agent_calls")["intValue"] == 1, "only the new case is asked"
        assert len(_materializations(server, "evaluation_summary")) == 3
        newest = max(server.out.glob("evaluation_results_*.csv"))
        assert len(_csv_rows(newest)) == 3
        sensor_runs = [run["runId"] for run in _runs(server) if run["tags"].get("dagster/sensor_name") == SENSOR]
        assert sensor_runs == [second["runId"], first["runId"]], "one run per change, none while unchanged"
        # 5. The automation sensor compared the agents (one: nothing to compare, said so).
        deadline = time.monotonic() + 60
        while not (comparisons := _materializations(server, "agent_comparison")):
            assert time.monotonic() < deadline, f"agent_comparison never materialized\n{server.log_tail()}"
            time.sleep(1)
        assert _entry(comparisons[0], "compared")["text"] == "fewer than two agents evaluated on one suite"
    assert server.process.returncode is not None
