"""What the Dagster UI shows, asked of a real `dagster-webserver` through Dagster's GraphQL API (the
API the UI's pages read): a fresh DAGSTER_HOME where `nabahan eval` evaluated an agent that is
wrong on three of five cases, and the embedded agent's partition. The UI finds the partition, the
table of the answers not Correct (the summary's and the threshold check's), the columns'
descriptions and the run log's line per such answer.

One webserver for the module, started after the evaluation; it is stopped, with its code server,
whatever the tests do. Slow: three processes that each load Dagster, then the run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from nabahan_pipeline_tests.commands import nabahan
from nabahan_pipeline_tests.sample_agents import SCRIPT_CASES
from nabahan_pipeline_tests.webserver import LOCATION, REPOSITORY, Webserver, markdown_rows, webserver

WRONG = "wrong"
WRONG_SPEC = "python:nabahan_pipeline_tests.sample_agents:scripted_agent_b"
# scripted_agent_b on SCRIPT_CASES: weather fails the seed's checks (it answers an out-of-scope
# question); riyadh and big pass them and are not Correct; total and active are Correct.
NOT_CORRECT = [("weather", "answered an out-of-scope question"), ("riyadh", "wrong result"),
               ("big", "unverified: … عدد المناقصات المطابقة 31415 مناقصة وفق البيانات …")]

MATERIALIZATION = """
query ($asset: AssetKeyInput!, $partition: String!) { assetOrError(assetKey: $asset) {
    __typename
    ... on Asset { assetMaterializations(partitions: [$partition], limit: 1) { runId partition metadataEntries {
        label __typename
        ... on IntMetadataEntry { intValue }
        ... on MarkdownMetadataEntry { mdStr }
        ... on TableSchemaMetadataEntry { schema { columns { name description } } } } } }
} }"""


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Webserver]:
    work = tmp_path_factory.mktemp("ui")
    dagster_home = work / "dagster"
    dagster_home.mkdir()
    cases = work / "cases.json"
    cases.write_text(json.dumps(SCRIPT_CASES, ensure_ascii=False), encoding="utf-8")
    # Nothing registered: the embedded agent's partition is the code location's own, added as the
    # webserver's code server loads it; the wrong agent's, by the run that evaluates it.
    run = nabahan("eval", "--agent", f"{WRONG}={WRONG_SPEC}", "--test-file", str(cases), "--output-dir",
                  str(work / "out"), cwd=work, DAGSTER_HOME=str(dagster_home))
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    with webserver(dagster_home, work) as server:
        yield server
    assert server.process.returncode is not None, "the webserver is stopped"


def _newest(ui: Webserver, asset: str, partition: str) -> dict:
    """``asset``'s newest materialization of ``partition``."""
    result = ui.graphql(MATERIALIZATION, {"asset": {"path": [asset]}, "partition": partition})["assetOrError"]
    assert result["__typename"] == "Asset", result
    (materialization,) = result["assetMaterializations"]
    assert materialization["partition"] == partition
    return materialization


def _latest(ui: Webserver, asset: str, partition: str) -> dict[str, dict]:
    """The metadata of ``asset``'s newest materialization of ``partition``, by label."""
    return {entry["label"]: entry for entry in _newest(ui, asset, partition)["metadataEntries"]}


def test_the_agents_partitions_hold_the_embedded_agent(ui: Webserver) -> None:
    node = ui.graphql("""{ assetNodeOrError(assetKey: {path: ["evaluation_summary"]}) { __typename ... on AssetNode {
        partitionDefinition { dimensionTypes { dynamicPartitionsDefinitionName } }
        partitionKeysByDimension { partitionKeys } } } }""")["assetNodeOrError"]
    assert node["__typename"] == "AssetNode", node
    (dimension,) = node["partitionDefinition"]["dimensionTypes"]
    assert dimension["dynamicPartitionsDefinitionName"] == "agents"
    (keys,) = node["partitionKeysByDimension"]
    assert {"embedded", WRONG} <= set(keys["partitionKeys"])

    # What the launch dialog of evaluation_job offers.
    sets = ui.graphql("""query ($repository: RepositorySelector!) {
        partitionSetsOrError(repositorySelector: $repository, pipelineName: "evaluation_job") {
            __typename ... on PartitionSets { results { name partitionsOrError {
                __typename ... on Partitions { results { name } } } } } } }""",
                      {"repository": {"repositoryLocationName": LOCATION, "repositoryName": REPOSITORY}})
    (partition_set,) = sets["partitionSetsOrError"]["results"]
    assert {"embedded", WRONG} <= {partition["name"] for partition in partition_set["partitionsOrError"]["results"]}


def test_evaluation_summary_tells_the_answers_not_correct_failures_first(ui: Webserver) -> None:
    metadata = _latest(ui, "evaluation_summary", WRONG)
    assert metadata["total"]["intValue"] == len(SCRIPT_CASES)
    assert metadata["not_correct_count"]["intValue"] == len(NOT_CORRECT)
    rows = markdown_rows(metadata["not_correct"]["mdStr"])
    assert [(row["case_id"], row["why"]) for row in rows] == NOT_CORRECT
    riyadh = rows[1]
    assert riyadh["sql"] == "SELECT COUNT(*) AS n FROM tenders_full_details", "the agent's SQL, unescaped"
    assert riyadh["result"].startswith("n: (") and riyadh["expected"].startswith("COUNT(*): (")
    assert riyadh["result"].removeprefix("n: ") != riyadh["expected"].removeprefix("COUNT(*): ")
    assert "&gt;" not in rows[2]["sql"] and "> 1000000" in rows[2]["sql"], "shown as the agent wrote it"

    # The threshold check of the same run carries the same table.
    (execution,) = ui.graphql("""{ assetCheckExecutions(assetKey: {path: ["evaluation_summary"]},
        checkName: "pass_rate_threshold", limit: 1) { runId evaluation { partition success metadataEntries {
            label ... on MarkdownMetadataEntry { mdStr } } } } }""")["assetCheckExecutions"]
    assert execution["evaluation"]["partition"] == WRONG and execution["evaluation"]["success"] is False
    (table,) = [entry["mdStr"] for entry in execution["evaluation"]["metadataEntries"]
                if entry["label"] == "not_correct"]
    assert [row["case_id"] for row in markdown_rows(table)] == [case for case, _ in NOT_CORRECT]


def test_case_scores_columns_carry_their_descriptions(ui: Webserver) -> None:
    columns = _latest(ui, "case_scores", WRONG)["dagster/column_schema"]["schema"]["columns"]
    described = {column["name"]: column["description"] for column in columns}
    assert described["case_id"] == "The case's id (test_cases.case_id)."
    assert all(described.values()), [name for name, text in described.items() if not text]


def test_the_run_log_has_one_line_per_answer_not_correct(ui: Webserver) -> None:
    run_id = _newest(ui, "evaluation_summary", WRONG)["runId"]
    run = ui.graphql("""query ($runId: ID!) { runOrError(runId: $runId) { __typename ... on Run {
        eventConnection(afterCursor: null, limit: 1000) { events {
            __typename ... on MessageEvent { message stepKey level } } } } } }""", {"runId": run_id})["runOrError"]
    assert run["__typename"] == "Run", run
    lines = [event for event in run["eventConnection"]["events"]
             if event["__typename"] == "LogMessageEvent" and event["message"].startswith("case ")]
    assert {(event["stepKey"], event["level"]) for event in lines} == {("evaluation_summary", "INFO")}
    assert [event["message"] for event in lines] == [
        "case 3 weather (out_of_scope): failed: answered an out-of-scope question",
        "case 2 riyadh (region_filter): passed the seed's checks, not correct: wrong result",
        "case 5 big (value_filter): passed the seed's checks, not correct: unverified: … عدد المناقصات المطابقة 31415 مناقصة وفق البيانات …",
    ]


def test_the_jobs_runs_tab_lists_the_run_of_nabahan_eval(ui: Webserver) -> None:
    # The filter of the UI's job page (PipelineRunsFeedRoot): the job's name and the repository's tag.
    runs = ui.graphql("""query ($filter: RunsFilter!) { runsOrError(filter: $filter) {
        __typename ... on Runs { results { runId tags { key value } } } } }""",
                      {"filter": {"pipelineName": "evaluation_job",
                                  "tags": [{"key": ".dagster/repository", "value": f"{REPOSITORY}@{LOCATION}"}]}})
    results = runs["runsOrError"]["results"]
    assert [{tag["key"]: tag["value"] for tag in run["tags"]}.get("nabahan/agent_label") for run in results] == [WRONG]
