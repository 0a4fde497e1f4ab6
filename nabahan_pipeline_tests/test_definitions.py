"""The code location as Dagster's tools load it: the first command a Dagster user types works on a
fresh DAGSTER_HOME, a partition that names no agent fails before any step, and loading never
fails for want of an instance."""

from __future__ import annotations

import sys
from pathlib import Path

import dagster as dg
import pytest

from nabahan_pipeline import definitions
from nabahan_pipeline.orchestration.partitions import registered_agent, scheduled_agents
from nabahan_pipeline_tests.commands import cases_file, run

MATERIALIZE = [str(Path(sys.executable).parent / "dagster"), "asset", "materialize", "-m",
               "nabahan_pipeline.definitions", "--select", "*"]


def small_run_config(folder: Path) -> Path:
    """Run config of two cases, no test-suite databases: what the command allows, to keep it short."""
    config = folder / "run_config.yaml"
    config.write_text("resources:\n  evaluation:\n    config:\n"
                      f"      test_file: {cases_file(folder / 'cases.json', n=2)}\n"
                      f"      output_dir: {folder / 'out'}\n      test_suite_databases: 0\n", encoding="utf-8")
    return config


def test_the_first_dagster_command_evaluates_the_embedded_agent_on_a_fresh_home(tmp_path: Path):
    home = tmp_path / "dagster_home"
    home.mkdir()  # fresh: no dagster.yaml, no storage, no partition
    config = small_run_config(tmp_path)
    result = run([*MATERIALIZE, "--partition", "embedded", "-c", str(config)], tmp_path, DAGSTER_HOME=str(home))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "RUN_SUCCESS" in result.stderr and "nabahan: warning" not in result.stderr
    (summary,) = (tmp_path / "out").glob("evaluation_summary_*.csv")
    assert summary.stat().st_size > 0
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert instance.get_dynamic_partitions("agents") == ["embedded"]
        assert registered_agent(instance, "embedded").spec == "embedded"
        assert scheduled_agents(instance) == [], "the location's agent has its partition, not a registration"

    # A partition the UI's "Add partition" made that names no agent: the run fails before any step.
    with dg.DagsterInstance.from_config(str(home)) as instance:
        instance.add_dynamic_partitions("agents", ["nobody"])
    unknown = run([*MATERIALIZE, "--partition", "nobody", "-c", str(config)], tmp_path, DAGSTER_HOME=str(home))
    assert unknown.returncode != 0
    assert "STEP_START" not in unknown.stderr and "RUN_FAILURE" in unknown.stderr
    assert "partition 'nobody' names no registered agent: register it with `nabahan agents add nobody=SPEC`" in (
        unknown.stderr)


def test_loading_the_location_adds_its_agents_partition_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    monkeypatch.setenv("NABAHAN_AGENT", "python:nabahan_pipeline_tests.sample_agents:counting_agent")
    assert definitions.code_location() is definitions.defs
    assert definitions.code_location() is definitions.defs
    with dg.DagsterInstance.get() as instance:
        assert instance.get_dynamic_partitions("agents") == ["python:nabahan_pipeline_tests.sample_agents:counting_agent"]
        records = instance.fetch_observations(dg.AssetKey("agent"), limit=10).records
        assert len(records) == 1, "a second load records nothing"
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("problem, warning", [
    ({"DAGSTER_HOME": ""}, "nabahan: warning: DAGSTER_HOME is not set, so the instance keeps no agent's partition"),
    ({"DAGSTER_HOME": "{tmp}/missing"}, "nabahan: warning: the location's agent's partition could not be added"),
    ({"NABAHAN_AGENT": "smtp://nope"}, "nabahan: warning: the location's agent has no partition: unknown agent spec"),
    ({"NABAHAN_CONCURRENCY": "abc"}, "nabahan: warning: the location's agent has no partition: NABAHAN_CONCURRENCY=abc"),
])
def test_an_instance_out_of_reach_is_one_warning_line_and_the_location_loads(
    problem: dict[str, str], warning: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    for name, value in problem.items():
        monkeypatch.setenv(name, value.format(tmp=tmp_path))
    assert definitions.code_location() is definitions.defs
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(warning), line
