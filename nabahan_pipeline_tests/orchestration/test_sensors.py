"""A ``python:`` agent registered from the user's folder, evaluated by a run the sensor requests and
another process executes in another working directory, as the daemon does."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from nabahan_pipeline_tests.commands import cases_file, nabahan, run

AGENT = textwrap.dedent('''
    def answer(question, filters=None):
        return {"status": "success", "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
                "data": [{"n": 7}], "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
                "error": None}
''')
# What the daemon does with the sensor's tick: evaluate it, then execute each run it requests, in
# a process of its own (here: the code location's job in process, in another working directory).
DAEMON = textwrap.dedent('''
    import json, sys
    import dagster as dg
    from nabahan_pipeline.definitions import code_location
    from nabahan_pipeline.orchestration import sensors
    from nabahan_pipeline.orchestration.resources import EvaluationSettings

    defs = code_location()
    settings = EvaluationSettings(test_file=sys.argv[1], output_dir=sys.argv[2], test_suite_databases=0)
    outcome = []
    with dg.DagsterInstance.get() as instance:
        with dg.build_sensor_context(instance=instance, resources={"evaluation": settings}) as context:
            requests = sensors.test_cases_changed(context)
        for request in requests:
            result = defs.resolve_job_def("evaluation_job").execute_in_process(
                run_config=request.run_config, tags=request.tags, partition_key=request.partition_key,
                instance=instance, raise_on_error=False)
            events = [record.dagster_event for record in instance.all_logs(result.run_id) if record.is_dagster_event]
            failures = [event.event_specific_data.error.cause.message for event in events
                        if event.event_type == dg.DagsterEventType.RUN_FAILURE]
            outcome.append({"partition": request.partition_key, "success": result.success,
                            "steps": sum(event.is_step_start for event in events), "failures": failures})
    print(json.dumps(outcome))
''')


def test_a_python_agent_registered_from_its_folder_is_evaluated_by_a_sensor_run_elsewhere(tmp_path: Path):
    mine, elsewhere = tmp_path / "mine", tmp_path / "elsewhere"
    mine.mkdir()
    elsewhere.mkdir()
    (mine / "my_nabahan_agent.py").write_text(AGENT, encoding="utf-8")
    home = {"DAGSTER_HOME": str(tmp_path / "dagster")}
    (tmp_path / "dagster").mkdir()
    added = nabahan("agents", "add", "mine=python:my_nabahan_agent:answer", cwd=mine, **home)
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines() == [f"registered mine: python:my_nabahan_agent:answer (imported from {mine})"]

    (tmp_path / "daemon.py").write_text(DAEMON, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=2)

    def tick(out: str) -> list[dict]:
        result = run([_python(), str(tmp_path / "daemon.py"), str(cases), str(tmp_path / out)], elsewhere, **home)
        assert result.returncode == 0, result.stderr[-3000:]
        return json.loads(result.stdout.splitlines()[-1])

    (first,) = tick("out")
    assert (first["partition"], first["success"]) == ("mine", True), first
    (results,) = (tmp_path / "out").glob("evaluation_results_*.csv")
    assert results.read_text(encoding="utf-8-sig").count("بلغ عدد المناقصات المطابقة 7") == 2, "the agent answered"

    # The module gone from its folder: the run fails before any step, naming the folders looked in.
    (mine / "my_nabahan_agent.py").rename(mine / "moved.py")
    cases_file(cases, n=3)  # a change, so that the sensor requests a run again
    (second,) = tick("out2")
    assert (second["success"], second["steps"]) == (False, 0)
    (error,) = second["failures"]
    assert error.strip().endswith(
        f"cannot import module 'my_nabahan_agent' (No module named 'my_nabahan_agent'); looked in {elsewhere}, "
        f"{mine} and the installed packages"), error


def _python() -> str:
    import sys

    return sys.executable
