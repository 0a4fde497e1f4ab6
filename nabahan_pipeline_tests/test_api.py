"""The whole evaluation through Dagster: Python API, reports, checks, bad input, the response cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from nabahan_pipeline import NabahanEvaluationPipeline
from nabahan_pipeline.api import EvaluationInputError
from nabahan_pipeline.evaluation.reports import SEED_COLUMNS
from nabahan_pipeline.settings import SHIPPED_TEST_CASES
from nabahan_pipeline_tests import sample_agents
from nabahan_pipeline_tests.loopback import LoopbackServer, chat_completion

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
RAISING = "python:nabahan_pipeline_tests.sample_agents:raising_agent"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private NABAHAN_HOME (Dagster home, Parquet, cache) for one test."""
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("NABAHAN_AGENT", raising=False)
    sample_agents.CALLS.clear()
    return tmp_path


def asked(result: dict) -> int:
    """How many answers of a run came from the agent, not the cache (the agent runs in a child process)."""
    return sum(not row["cached"] for row in result["results"])


def write_cases(path: Path, cases: list[dict]) -> Path:
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def count_cases(n: int) -> list[dict]:
    return [
        {
            "id": f"case-{i}",
            "question": f"كم عدد المناقصات رقم {i}؟",
            "category": "count",
            "expected_table": "tenders_full_details",
            "description": "synthetic",
        }
        for i in range(n)
    ]


def test_embedded_agent_on_the_shipped_suite(workspace: Path, capsys: pytest.CaptureFixture[str]):
    events: list[str] = []
    result = NabahanEvaluationPipeline(output_dir=workspace / "out").run_complete_pipeline(
        progress=lambda event, data: events.append(event))
    assert capsys.readouterr().out == "", "the API prints nothing; its caller is told the events"
    assert events[0] == "run" and events[-1] == "evaluated" and events.count("answer") == 20
    summary = result["summary"]
    assert summary["total"] == 20 and len(result["results"]) == 20
    assert 0 <= summary["pass_rate"] <= 1 and summary["pass_rate"] >= 0.8
    assert summary["avg_latency"] > 0
    assert summary["execution_accuracy"] >= 0.8
    results_csv = Path(result["files"]["results_csv"])
    summary_csv = Path(result["files"]["summary_csv"])
    assert results_csv.read_bytes().startswith(b"\xef\xbb\xbf"), "UTF-8 with BOM for Excel"
    table = pd.read_csv(results_csv, encoding="utf-8-sig")
    assert tuple(table.columns[: len(SEED_COLUMNS)]) == SEED_COLUMNS
    assert len(table) == 20 and table["Question"].iloc[0] == json.loads(SHIPPED_TEST_CASES.read_text())[0]["question"]
    metrics = pd.read_csv(summary_csv, encoding="utf-8-sig")
    assert list(metrics.columns) == ["Metric", "Value"]
    assert metrics["Metric"].tolist()[:4] == ["Total Queries", "Passed", "Failed", "Pass Rate"]
    assert int(metrics.set_index("Metric").loc["Passed", "Value"]) == summary["passed"]
    assert all(result["checks"].get(name) for name in ("scores_in_range", "test_case_file_valid"))


def test_python_agent_runs_and_the_regression_check_fails_on_a_must_pass_case_not_noise(workspace: Path):
    cases = write_cases(workspace / "cases.json", count_cases(4))
    first = NabahanEvaluationPipeline(
        output_dir=workspace / "out", test_file=cases, agent=COUNTING
    ).run_complete_pipeline()
    assert first["summary"]["total"] == 4 and first["checks"]["no_regression"] is True
    assert asked(first) == 4
    passed_first = [r["case_id"] for r in first["results"] if r["overall_passed"]]
    assert passed_first, "the counting agent's answers pass retrieval and fidelity"

    # Another agent is another series: not compared with the first run unless named as baseline.
    second = NabahanEvaluationPipeline(
        output_dir=workspace / "out", test_file=cases, agent=RAISING
    ).run_complete_pipeline()
    assert second["summary"]["errors"] == 4 and second["summary"]["pass_rate"] == 0
    assert second["checks"]["no_regression"] is True
    assert {r["status"] for r in second["results"]} == {"error"}
    # Four cases lost against the first run: p = 2 / 2^4 = 0.125, noise; a must_pass case lost fails.
    against_first = NabahanEvaluationPipeline(
        output_dir=workspace / "out", test_file=cases, agent=RAISING, baseline=first["run_id"][:8]
    ).run_complete_pipeline()
    assert against_first["checks"]["no_regression"] is True
    must = write_cases(workspace / "must.json", [{**case, "must_pass": case["id"] == "case-0"} for case in count_cases(4)])
    must_pass = NabahanEvaluationPipeline(
        output_dir=workspace / "out", test_file=must, agent=RAISING, baseline=first["run_id"][:8]
    ).run_complete_pipeline()
    assert must_pass["checks"]["no_regression"] is False


def test_the_judge_is_off_by_default_and_an_api_argument_turns_it_on(workspace: Path, monkeypatch: pytest.MonkeyPatch):
    cases = write_cases(workspace / "cases.json", count_cases(2))
    verdict = json.dumps({"verdict": "unsupported", "reason": "the judge disagrees"})
    with LoopbackServer(lambda request: chat_completion(verdict)) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url("/v1"))
        off = NabahanEvaluationPipeline(output_dir=workspace / "off", test_file=cases, agent=COUNTING).run_complete_pipeline()
        assert llm.requests == [], "no judge, no call"
        on = NabahanEvaluationPipeline(output_dir=workspace / "on", test_file=cases, agent=COUNTING,
                                       judge="openai:judge-model").run_complete_pipeline()
        assert len(llm.requests) == 2
    assert [r["judge_verdict"] for r in off["results"]] == [None, None]
    assert "Judge Verdict" not in pd.read_csv(off["files"]["results_csv"], encoding="utf-8-sig")
    assert [(r["judge_verdict"], r["judge_reason"]) for r in on["results"]] == [("unsupported", "the judge disagrees")] * 2
    assert [r["correct"] for r in on["results"]] == [r["correct"] for r in off["results"]] == [True, True]
    assert (on["summary"]["judged"], on["summary"]["judge_agreement"]) == (2, 0.0)
    assert on["settings"]["judge"] == "openai:judge-model"


def test_history_is_kept_apart_per_suite_and_agent(workspace: Path):
    from nabahan_pipeline.api import open_instance
    from nabahan_pipeline.orchestration.history import summary_history

    cases = write_cases(workspace / "cases.json", count_cases(3))
    other_cases = write_cases(workspace / "other.json", count_cases(2))
    runs = [
        NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=file, agent=agent, label=label)
        .run_complete_pipeline()
        for file, agent, label in ((cases, COUNTING, "counting-a"), (cases, RAISING, "raising"),
                                   (other_cases, COUNTING, "other-suite"), (cases, COUNTING, "counting-b"))
    ]
    assert [run["checks"]["no_regression"] for run in runs] == [True, True, True, True]
    instance = open_instance()
    try:
        run = instance.get_run_by_id(runs[3]["run_id"])
        assert run.tags["nabahan/label"] == "counting-b" and run.tags["nabahan/agent"] == COUNTING
        assert len(run.tags["nabahan/suite"]) == 16 and run.tags["nabahan/agent_fingerprint"]
        latest = instance.fetch_materializations(dg.AssetKey("evaluation_summary"), limit=1).records[0]
        series = {key: latest.asset_materialization.metadata[key].value for key in ("suite", "agent", "label")}
        history = summary_history(instance, series=series)
    finally:
        instance.dispose()
    assert [label.split(" ", 2)[2] for label in history["run_label"]] == ["counting-a", "counting-b"]
    assert history["run_label"].str.match(r"\d\d-\d\d \d\d:\d\d ").all(), "the axis shows date and label"


def test_bad_case_file_stops_before_any_agent_call_and_keeps_old_reports(workspace: Path):
    out = workspace / "out"
    good = write_cases(workspace / "good.json", count_cases(2))
    NabahanEvaluationPipeline(output_dir=out, test_file=good, agent=COUNTING).run_complete_pipeline()
    before = {p: p.read_bytes() for p in out.glob("*.csv")}
    sample_agents.CALLS.clear()

    bad = write_cases(workspace / "bad.json", [*count_cases(2), {"question": "x", "category": "poetry"}])
    with pytest.raises(EvaluationInputError) as info:  # in this process, where its calls would be counted
        NabahanEvaluationPipeline(output_dir=out, test_file=bad, agent=COUNTING, in_process=True).run_complete_pipeline()
    message = str(info.value)
    assert "bad.json" in message and "case 3" in message and "category" in message
    assert sample_agents.CALLS == []
    assert {p: p.read_bytes() for p in out.glob("*.csv")} == before


def test_bad_agent_spec_is_an_input_error(workspace: Path):
    cases = write_cases(workspace / "cases.json", count_cases(1))
    with pytest.raises(EvaluationInputError, match="unknown agent spec"):
        NabahanEvaluationPipeline(output_dir=workspace / "o", test_file=cases, agent="smtp://x").run_complete_pipeline()


def test_cache_asks_only_the_edited_case_and_a_new_version_asks_all(workspace: Path):
    # Twice as many cases as calls in flight: the lookups and the calls overlap as they would at scale.
    cases = count_cases(32)
    path = write_cases(workspace / "cases.json", cases)
    options = dict(output_dir=workspace / "out", test_file=path, agent=COUNTING, use_cache=True, concurrency=16)
    first = NabahanEvaluationPipeline(**options).run_complete_pipeline()
    assert asked(first) == 32

    cases[16]["question"] = "كم عدد المناقصات النشطة؟"
    write_cases(path, cases)
    second = NabahanEvaluationPipeline(**options).run_complete_pipeline()
    assert [r["question"] for r in second["results"] if not r["cached"]] == ["كم عدد المناقصات النشطة؟"]
    cached = [r for r in second["results"] if r["cached"]]
    assert len(cached) == 31
    # A cached row keeps the latency measured when it was fetched.
    first_latency = {r["case_id"]: r["latency_s"] for r in first["results"]}
    assert all(r["latency_s"] == pytest.approx(first_latency[r["case_id"]]) for r in cached)

    assert asked(NabahanEvaluationPipeline(**options, agent_version="2").run_complete_pipeline()) == 32
    uncached = NabahanEvaluationPipeline(**{**options, "use_cache": False}).run_complete_pipeline()
    assert asked(uncached) == 32, "without --cache every case is asked"


def test_repeat_reports_pass_hat_n(workspace: Path):
    path = write_cases(workspace / "cases.json", count_cases(3))
    run = NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=path, agent=COUNTING, repeat=3).run()
    assert list(zip(run.scores["case_id"], run.scores["repeat"])) == [(f"case-{i}", r) for i in range(3) for r in range(3)]
    assert run.summary.iloc[0]["scope"] == "overall" and run.summary.iloc[0]["repeats"] == 3
    result = run.as_dict()  # what run_complete_pipeline returns
    assert len(result["results"]) == 9 and result["results"][4]["case_id"] == "case-1"
    assert result["results"][4]["repeat"] == 1
    assert "pass_hat_n" in result["summary"] and result["run_id"] == run.run_id


def test_changing_the_agent_module_invalidates_the_cache(workspace: Path, monkeypatch: pytest.MonkeyPatch):
    module = workspace / "my_agent_module.py"
    source = (
        "from nabahan_pipeline_tests.sample_agents import counting_agent\n"
        "def answer(question, filters=None):\n"
        "    return counting_agent(question, filters)\n"
    )
    module.write_text(source, encoding="utf-8")
    helper = workspace / "my_agent_helpers.py"  # beside it, as a top-level module's helpers are
    helper.write_text("SCALE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(workspace))
    path = write_cases(workspace / "cases.json", count_cases(5))
    options = dict(output_dir=workspace / "out", test_file=path, agent="python:my_agent_module:answer", use_cache=True)
    assert asked(NabahanEvaluationPipeline(**options).run_complete_pipeline()) == 5
    assert asked(NabahanEvaluationPipeline(**options).run_complete_pipeline()) == 0, "unchanged: every answer cached"
    module.write_text(source + "# a new prompt\n", encoding="utf-8")
    assert asked(NabahanEvaluationPipeline(**options).run_complete_pipeline()) == 5, "a changed module: asked again"
    helper.write_text("SCALE = 2\n", encoding="utf-8")
    assert asked(NabahanEvaluationPipeline(**options).run_complete_pipeline()) == 5, "a changed helper: asked again"
    assert asked(NabahanEvaluationPipeline(**options).run_complete_pipeline()) == 0


# A run on the instance our entry points open, whose asset writes to stdout from Python, from C
# (os.write) and from a child process, and to stderr; it prints the classes of the instance's
# storage and compute log manager, and the run id, at the end.
_NOISY_RUN = """
import os, subprocess, sys
import dagster as dg
from nabahan_pipeline.api import open_instance

@dg.asset
def noisy() -> int:
    print("printed by Python", flush=True)
    os.write(1, b"written to the descriptor\\n")
    subprocess.run(["echo", "echoed by a child process"], check=True)
    print("to stderr", file=sys.stderr, flush=True)
    return 1

with open_instance(sys.argv[1]) as instance:
    parts = (instance.run_storage, instance.event_log_storage, instance.compute_log_manager)
    result = dg.materialize([noisy], instance=instance)
print(*(type(part).__module__ for part in parts), result.run_id)
"""


def test_the_instance_is_dagsters_own_and_a_runs_output_reaches_the_terminal_and_the_ui(tmp_path: Path):
    from nabahan_pipeline_tests.commands import run

    home = tmp_path / "dagster"
    done = run([sys.executable, "-c", _NOISY_RUN, str(home)], tmp_path)
    assert done.returncode == 0, done.stderr
    *modules, run_id = done.stdout.splitlines()[-1].split()
    assert all(module.startswith("dagster.") for module in modules), modules  # no storage of ours
    written = ["printed by Python", "written to the descriptor", "echoed by a child process"]
    assert [line for line in done.stdout.splitlines() if line in written] == written  # on the terminal, in order
    assert "to stderr" in done.stderr.splitlines()
    with dg.DagsterInstance.from_config(str(home)) as ui:  # as `dagster dev` with this DAGSTER_HOME reads it
        assert [record.dagster_run.run_id for record in ui.get_run_records()] == [run_id]
        captures = [entry.dagster_event.logs_captured_data for entry in ui.all_logs(run_id)
                    if entry.is_dagster_event and entry.dagster_event.event_type_value == "LOGS_CAPTURED"]
        assert len(captures) == 1
        key = ui.compute_log_manager.build_log_key_for_run(run_id, captures[0].file_key)
        data = ui.compute_log_manager.get_log_data(key)
    assert data.stdout.decode().splitlines() == written
    assert "to stderr" in data.stderr.decode().splitlines()  # beside Dagster's own log lines


def test_a_run_loads_its_case_file_once_and_builds_each_agent_once(workspace: Path, monkeypatch: pytest.MonkeyPatch):
    """Checked before the runs and handed to them: the case file read once for two agents' runs and
    their comparison, each agent built (and checked) once, by the resource of its kind."""
    from nabahan_pipeline.agents.child_process import ChildProcessAgent
    from nabahan_pipeline.orchestration import assets, checks

    loads, builds = [], []
    read, load = assets.read_case_file, checks.load_test_cases
    build = ChildProcessAgent.__init__
    monkeypatch.setattr(assets, "read_case_file", lambda path: loads.append(path) or read(path))
    monkeypatch.setattr(checks, "load_test_cases", lambda path: loads.append(path) or load(path))
    monkeypatch.setattr(ChildProcessAgent, "__init__",
                        lambda self, spec, **kwargs: builds.append(spec) or build(self, spec, **kwargs))
    cases = write_cases(workspace / "cases.json", count_cases(2))
    result = NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=cases, test_suite_databases=0,
                                       agent=[f"a={COUNTING}", f"b={COUNTING}"]).run_complete_pipeline()
    assert set(result["agents"]) == {"a", "b"} and all(run["checks"]["test_case_file_valid"]
                                                       for run in result["agents"].values())
    assert loads == [cases], "loaded once, before the runs"
    assert builds == [COUNTING, COUNTING], "one build per agent"
    assert sum(asked(run) for run in result["agents"].values()) == 4


def test_each_gold_query_runs_once_per_run(workspace: Path, monkeypatch: pytest.MonkeyPatch):
    """The case file's check runs every gold SQL on every database under the run's limits and hands
    the results to case_scores, which does not run them again."""
    from nabahan_pipeline.evaluation.agent_sql import QueryRunner

    ran: list[str] = []
    expected = QueryRunner.expected
    monkeypatch.setattr(QueryRunner, "expected", lambda self, sql: ran.append(sql) or expected(self, sql))
    golds = [f"SELECT COUNT(*) FROM tenders_full_details WHERE region_id = {i + 1}" for i in range(3)]
    cases = write_cases(workspace / "cases.json",
                        [{**case, "expected_sql": golds[i % 3]} for i, case in enumerate(count_cases(5))])
    result = NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=cases, test_suite_databases=1,
                                       agent=COUNTING).run_complete_pipeline()
    assert len(result["results"]) == 5 and all(row["execution_match"] in (0.0, 1.0) for row in result["results"])
    assert sorted(ran) == sorted(golds), "each distinct gold once, by the check; scoring reuses its results"


# What only a later step, or an option the run does not have, uses: imported there (issue 40).
LATER_LIBRARIES = ("matplotlib", "PIL", "jinja2", "urllib3", "sqlalchemy")


def test_importing_the_api_loads_nothing_that_only_a_later_step_or_an_option_uses(tmp_path: Path):
    """Before the first question: no charts library (the charts step), no Jinja2 (the HTML page),
    no HTTP client (an HTTP agent or --judge), no SQLAlchemy (Dagster's storage loads it when the
    instance opens, not the API's import)."""
    import subprocess

    probe = "import json, sys; import nabahan_pipeline.api; print(json.dumps(sorted(set(sys.argv[1:]) & set(sys.modules))))"
    done = subprocess.run([sys.executable, "-c", probe, *LATER_LIBRARIES], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [], f"import nabahan_pipeline.api loaded {done.stdout.strip()}"
