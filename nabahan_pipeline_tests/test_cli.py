"""The entry points users type: `nabahan eval`, `nabahan ui`, `nabahan materialize`, `dagster asset
materialize`, definitions validate."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline_tests.commands import REPO, cases_file, environment, nabahan, nabahan_here, run
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, chat_completion

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
RAISING = "python:nabahan_pipeline_tests.sample_agents:raising_agent"


def test_nabahan_eval_quick_prints_the_summary_and_keeps_history(tmp_path: Path):
    first = nabahan("eval", "--quick", "--output-dir", "out", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "EVALUATION SUMMARY" in first.stdout and "Total Queries: 8" in first.stdout, "one case per category"
    assert first.stdout.rstrip().endswith("FINAL CORRECT RATE: 100.0%")
    assert "Traceback" not in first.stderr
    assert len(list((tmp_path / "out").glob("evaluation_results_*.csv"))) == 1
    (report,) = (tmp_path / "out").glob("evaluation_report_*.html")
    page = report.read_text(encoding="utf-8")
    assert page.count('<details class="case"') == 8 and "Content-Security-Policy" in page
    assert page.count("data:image/png;base64,") == 3, "its charts inside the file"
    (line,) = [line for line in first.stdout.splitlines() if line.startswith("Report to click through: ")]
    assert line.endswith(report.name), "its path, from the asset's metadata"
    runs = tmp_path / "home" / "dagster"
    assert (runs / "storage").is_dir() or any(runs.iterdir()), "run history is kept under NABAHAN_HOME"
    second = nabahan("eval", "--quick", "--output-dir", "out", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert "no_regression" not in second.stdout, "the same agent twice: no regression"


def test_fail_under_exits_1_and_bad_input_exits_2(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json")
    failing = nabahan("eval", "--test-file", str(cases), "--agent", RAISING, "--fail-under", "0.5", cwd=tmp_path)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "below --fail-under" in failing.stderr

    (tmp_path / "broken.json").write_text('[{"question": "x", "category": "count",', encoding="utf-8")
    broken = nabahan("eval", "--test-file", "broken.json", "--agent", COUNTING, cwd=tmp_path)
    assert broken.returncode == 2
    assert "broken.json" in broken.stderr and "Traceback" not in broken.stderr
    assert len(broken.stderr.strip().splitlines()) == 1

    for bad in (["--concurrency", "0"], ["--agent", "nope"], ["--test-file", "missing.json"]):
        result = nabahan("eval", *bad, cwd=tmp_path)
        assert result.returncode == 2, (bad, result.stderr)
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_dagster_asset_materialize_with_defaults_and_with_run_config(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """The plain dagster command on a kept instance: the location's agent's partition with no step
    before it, another agent's once it is registered."""
    dagster = str(Path(sys.executable).parent / "dagster")
    home = {"DAGSTER_HOME": str(tmp_path / "home" / "dagster")}
    registered = nabahan_here("agents", "add", f"counting={COUNTING}", cwd=tmp_path, monkeypatch=monkeypatch,
                              capsys=capsys, **home)
    assert registered.returncode == 0, registered.stderr
    assert registered.stdout.splitlines() == [f"registered counting: {COUNTING} (imported from {REPO})"]
    base = [dagster, "asset", "materialize", "-m", "nabahan_pipeline.definitions", "--select", "*"]
    result = run([*base, "--partition", "embedded"], tmp_path, NABAHAN_OUTPUT_DIR=str(tmp_path / "default_out"), **home)
    assert result.returncode == 0, result.stderr[-3000:]
    assert list((tmp_path / "default_out").glob("evaluation_summary_*.csv"))
    assert (tmp_path / "home" / "parquet" / "case_scores.parquet").exists()

    config = tmp_path / "run_config.yaml"
    config.write_text(
        "resources:\n  evaluation:\n    config:\n"
        f"      test_file: {cases_file(tmp_path / 'cases.json')}\n"
        f"      output_dir: {tmp_path / 'configured_out'}\n",
        encoding="utf-8",
    )
    result = run([*base, "--partition", "counting", "-c", str(config)], tmp_path, **home)
    assert result.returncode == 0, result.stderr[-3000:]
    (csv,) = (tmp_path / "configured_out").glob("evaluation_results_*.csv")
    rows = pd.read_csv(csv, encoding="utf-8-sig")
    assert len(rows) == 3 and set(rows["Insights"].str.contains("7")) == {True}, "the counting agent answered"

    unknown = run([*base, "--partition", "nobody"], tmp_path, **home)
    assert unknown.returncode != 0 and "partition key `nobody`" in unknown.stderr


def test_nabahan_materialize_runs_a_known_partition_and_refuses_a_typo_in_one_line(tmp_path: Path):
    """`nabahan materialize AGENT`: Dagster's own materialization on the home's instance (its
    dagster.yaml there: no warning that there is none), the rates in its log; an unknown label is
    one line that names the labels, before Dagster loads the location."""
    typo = nabahan("materialize", "embeded", cwd=tmp_path)
    assert typo.returncode == 2 and "Traceback" not in typo.stderr, typo.stderr
    assert typo.stderr.strip().splitlines() == [
        "nabahan: error: no agent labelled 'embeded' (did you mean 'embedded'?); the agents are: embedded "
        "(`nabahan agents list`); register one with `nabahan agents add embeded=SPEC`"]
    missing = nabahan("materialize", "embedded", "-c", "nowhere.yaml", cwd=tmp_path)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1, missing.stderr
    assert "--config nowhere.yaml: no such file" in missing.stderr

    config = tmp_path / "run_config.yaml"
    config.write_text("resources:\n  evaluation:\n    config:\n"
                      f"      test_file: {cases_file(tmp_path / 'cases.json', n=2)}\n"
                      f"      output_dir: {tmp_path / 'out'}\n      test_suite_databases: 0\n", encoding="utf-8")
    done = nabahan("materialize", "embedded", "-c", str(config), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "home" / "dagster" / "dagster.yaml").is_file()
    assert "No dagster instance configuration file" not in done.stderr
    rates = [line for line in done.stderr.splitlines() if "the seed's pass rate" in line]
    assert len(rates) == 2 and "the report: " in rates[-1], "the summary's line, and the run's last"
    # The cases have no gold SQL and the test-suite databases are off: no accuracy counts anything.
    assert re.search(r"Correct \d+\.\d% \(\d of 2 cases\) · the seed's pass rate \d+\.\d% \(\d of 2\) · "
                     r"execution accuracy n/a \(none counted\) · test-suite accuracy n/a \(none counted\); the report: ",
                     rates[-1]), rates[-1]
    assert list((tmp_path / "out").glob("evaluation_summary_*.csv"))
    assert done.stdout.splitlines()[-1] == "embedded: " + rates[0].split(" - evaluation_summary - ")[1], \
        "the verdict, last, on stdout"


def test_a_folders_own_history_is_named_when_the_home_is_elsewhere(tmp_path: Path):
    """A folder that kept its own `.nabahan` (every run's home before ~/.nabahan): one note says
    where runs go now and how to keep using it; NABAHAN_HOME=.nabahan keeps using it, silently."""
    (tmp_path / ".nabahan" / "dagster").mkdir(parents=True)
    env = {key: value for key, value in environment(tmp_path, HOME=str(tmp_path / "user")).items()
           if key != "NABAHAN_HOME"}
    typo = subprocess.run([sys.executable, "-m", "nabahan_pipeline", "materialize", "nobody"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    note, error = typo.stderr.strip().splitlines()
    assert note == (f"nabahan: note: runs are recorded in {tmp_path / 'user' / '.nabahan'}; this folder's own "
                    f"history, {tmp_path / '.nabahan'}, is used with NABAHAN_HOME=$PWD/.nabahan")
    assert error.startswith("nabahan: error: no agent labelled 'nobody'")
    kept = nabahan("materialize", "nobody", cwd=tmp_path, NABAHAN_HOME=".nabahan")
    assert kept.stderr.strip().splitlines()[0].startswith("nabahan: error: no agent labelled 'nobody'")
    assert (tmp_path / ".nabahan" / "dagster" / "dagster.yaml").is_file(), "the folder's own history opened"


AGENT_MODULE = """
def answer(question, filters=None):
    return {"status": "out_of_scope", "sql": None, "data": [], "insights": "عذراً، لا أستطيع الإجابة.",
            "error": None}
"""

RUNS = """{ runsOrError { __typename ... on Runs { results { runId status tags { key value } } } } }"""


@pytest.mark.slow
def test_runs_from_any_folder_are_in_the_ui_that_nabahan_ui_opens(tmp_path: Path):
    """Two `python:` agents evaluated from their own folders with no NABAHAN_HOME, then `nabahan ui`
    started from a third folder: its webserver (GraphQL, as the UI reads it) has both runs, in the
    default home (~/.nabahan, HOME a folder of this test: nothing written to the real one)."""
    from nabahan_pipeline_tests.webserver import nabahan_ui

    user = tmp_path / "user"
    env = {key: value for key, value in environment(tmp_path, HOME=str(user)).items() if key != "NABAHAN_HOME"}
    labels = []
    for name in ("alpha", "beta"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}_agent.py").write_text(AGENT_MODULE, encoding="utf-8")
        cases = cases_file(folder / "cases.json", n=2)
        spec = f"python:{name}_agent:answer"
        result = subprocess.run([sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", spec, "--test-file",
                                 str(cases), "--output-dir", "out", "--test-suite", "0"],
                                cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]
        assert not (folder / ".nabahan").exists(), "nothing kept in the agent's folder"
        labels.append(spec)
    assert (user / ".nabahan" / "dagster" / "dagster.yaml").is_file()

    third = tmp_path / "third"
    third.mkdir()
    with nabahan_ui(third, env) as ui:
        runs = ui.graphql(RUNS)["runsOrError"]["results"]
        printed = ui.log_tail()
    agents = {tag["value"]: run["status"] for run in runs for tag in run["tags"] if tag["key"] == "nabahan/agent_label"}
    assert {label: agents.get(label) for label in labels} == {label: "SUCCESS" for label in labels}, agents
    assert f"the Dagster UI of {user / '.nabahan'}" in printed and f"on http://127.0.0.1:{ui.port}" in printed
    assert "No dagster instance configuration file" not in printed


def test_agents_are_registered_listed_and_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]):
    def agents(*args: str) -> subprocess.CompletedProcess:  # in this process: eight commands, no run
        return nabahan_here("agents", *args, cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)

    added = agents("add", "ref=embedded", f"{COUNTING}", "--agent-version", "2")
    assert added.returncode == 0, added.stderr
    listed = agents("list")
    assert listed.stdout.splitlines() == ["ref\tembedded\t2", f"{COUNTING}\t{COUNTING}\t2\tfrom {REPO}"]
    for mistake, message in ((["add", "x=smtp://nope"], "unknown agent spec"),
                             (["add", "x=embedded", "x=embedded"], "agent 'x=embedded' and agent 'x=embedded'"),
                             (["remove", "ghost"], "no agent labelled 'ghost'")):
        result = agents(*mistake)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr
    assert agents("remove", "ref").returncode == 0
    assert agents("list").stdout.splitlines() == [f"{COUNTING}\t{COUNTING}\t2\tfrom {REPO}"]


def test_nabahan_eval_registers_its_agent_for_the_schedule_only_when_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    import dagster as dg

    def agents_list() -> subprocess.CompletedProcess:  # in this process: no run to start
        return nabahan_here("agents", "list", cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)

    cases = cases_file(tmp_path / "cases.json", n=2)
    common = ["eval", "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0"]
    tried = nabahan(*common, "--agent", f"try={COUNTING}", cwd=tmp_path)
    assert tried.returncode == 0, tried.stderr[-3000:]
    assert "registered" not in tried.stdout
    unlisted = agents_list()
    assert unlisted.returncode == 0 and unlisted.stdout == ""
    assert unlisted.stderr.strip() == ("nabahan: no agent registered: the nightly schedule and the sensor evaluate "
                                       "the location's agent, embedded ($NABAHAN_AGENT); register agents with "
                                       "`nabahan agents add NAME=SPEC`")

    kept = nabahan(*common, "--agent", f"kept={COUNTING}", "--register", cwd=tmp_path)
    assert kept.returncode == 0, kept.stderr[-3000:]
    (line,) = [line for line in kept.stdout.splitlines() if "registered" in line]
    assert line == f"registered for the nightly schedule and the sensor: kept ({COUNTING}) (`nabahan agents list`)"
    listed = agents_list()
    assert listed.stdout.splitlines() == [f"kept\t{COUNTING}\tfrom {REPO}"]
    with dg.DagsterInstance.from_config(str(tmp_path / "home" / "dagster")) as instance:
        assert instance.get_dynamic_partitions("agents") == ["try", "kept"], "each run has its agent's partition"


def test_nabahan_eval_with_two_agents_writes_the_comparison(tmp_path: Path):
    # Questions the embedded agent answers whole (a stray word or number is refused, not answered).
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([
        {"question": question, "category": "count", "expected_table": "tenders_full_details"}
        for question in ("كم عدد المناقصات الكلي؟", "كم عدد المناقصات في منطقة الرياض؟",
                         "كم عدد المناقصات في منطقة مكة المكرمة؟")
    ], ensure_ascii=False), encoding="utf-8")
    result = nabahan("eval", "--test-file", str(cases), "--agent", "embedded", "--agent", COUNTING,
                     "--output-dir", "out", "--test-suite", "0", "--fail-under", "0.5", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.count("EVALUATION SUMMARY") == 2 and "AGENT COMPARISON (2 agents, 3 cases)" in result.stdout
    out = tmp_path / "out"
    (comparison,) = out.glob("agent_comparison_*.csv")
    (matrix,) = out.glob("agent_matrix_*.csv")
    assert comparison.with_suffix(".png").read_bytes().startswith(b"\x89PNG")
    page = comparison.with_suffix(".html").read_text(encoding="utf-8")
    assert page.count('<details class="case"') == 3 and "<th>Agent</th>" in page and "counting_agent" in page
    assert f"Report to click through: out/{comparison.with_suffix('.html').name}" in result.stdout
    agents = pd.read_csv(comparison, encoding="utf-8-sig")
    assert agents["Agent"].tolist() == ["embedded", COUNTING]
    assert len(pd.read_csv(matrix, encoding="utf-8-sig")) == 3
    assert len(list((out / "embedded").glob("evaluation_results_*.csv"))) == 1, "each agent's reports apart"
    (folder,) = [path for path in out.iterdir() if path.is_dir() and path.name.startswith("python_")]
    assert len(list(folder.glob("evaluation_results_*.csv"))) == 1
    assert not list(out.glob("evaluation_results_*.csv"))

    failing = nabahan("eval", "--test-file", str(cases), "--agent", "ok=embedded", "--agent", f"bad={RAISING}",
                      "--output-dir", "out2", "--test-suite", "0", "--fail-under", "0.5", cwd=tmp_path)
    assert failing.returncode == 1
    assert failing.stderr.strip().splitlines() == ["bad: correct rate 0.0% is below --fail-under 50.0%"]


# What `nabahan --help` and a mistyped flag must not wait for (see the probe below).
HEAVY_LIBRARIES = ("pandas", "matplotlib", "dagster", "pandera", "sqlglot")
_PROBE = """
import json, sys
from nabahan_pipeline.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "loaded": sorted(set(sys.argv[1].split(",")) & set(sys.modules))}), file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("args", "env", "code"),
    [
        (["--help"], {}, 0),
        (["eval", "--help"], {}, 0),
        (["db", "build", "--help"], {}, 0),
        (["eval", "--concurrency", "abc"], {}, 2),
        (["eval", "--gate", "nope"], {}, 2),
        (["nonsense"], {}, 2),
        (["eval"], {"NABAHAN_CONCURRENCY": "abc"}, 2),  # a bad variable stops before Dagster loads
    ],
)
def test_help_and_argument_errors_load_no_heavy_library(tmp_path: Path, args: list[str], env: dict, code: int):
    # The probe runs `nabahan ARGS` in a fresh interpreter and reports which of the libraries it loaded.
    result = run([sys.executable, "-c", _PROBE, ",".join(HEAVY_LIBRARIES), *args], tmp_path, **env)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] == code, result.stderr
    assert report["loaded"] == [], f"nabahan {' '.join(args)} imported {report['loaded']}"


@pytest.mark.parametrize(
    "command", [["-m", "nabahan_pipeline"], ["-c", "from nabahan_pipeline.cli import console_eval_main; console_eval_main()"]],
    ids=["nabahan", "nabahan-eval"],
)
def test_version_is_the_packages_and_loads_no_heavy_library(tmp_path: Path, command: list[str]):
    from nabahan_pipeline import __version__

    result = run([sys.executable, "-X", "importtime", *command, "--version"], tmp_path)
    assert result.returncode == 0, result.stderr
    name = "nabahan" if command[0] == "-m" else "nabahan-eval"
    assert result.stdout == f"{name} {__version__}\n"
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["dynamic"]
    assert declared["version"] == {"attr": "nabahan_pipeline.version.__version__"}, "the package's version"
    imported = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert not {"pandas", "dagster", "numpy"} & imported


def test_definitions_validate(tmp_path: Path):
    dagster = str(Path(sys.executable).parent / "dagster")
    result = run([dagster, "definitions", "validate", "-m", "nabahan_pipeline.definitions"], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("question", ["كم مناقصة بالرياض؟"])
def test_agent_ask_prints_readable_json(tmp_path: Path, question: str):
    result = nabahan("agent", "ask", question, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["status"] == "success" and answer["data"]
    assert "الرياض" in result.stdout, "Arabic printed as text, not \\u escapes"


@pytest.mark.parametrize(
    "args",
    [
        ["agent", "ask", "سؤال", "--agent", "bogus"],
        ["agent", "ask", "سؤال", "--filters", "[1]"],
        ["agent", "serve", "--agent", "bogus"],
        ["db", "build", "--out", "a.db", "--tenders", "-5"],
        ["db", "build", "--out", "/proc/nabahan/a.db"],
        ["ui", "--port", "99999"],
        ["materialize", "nobody"],
    ],
)
def test_user_mistakes_are_one_line_with_exit_2(tmp_path: Path, args: list[str]):
    result = nabahan(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_http_agent_gives_the_same_scores_as_the_embedded_agent(tmp_path: Path):
    """`nabahan agent serve` in one process, `nabahan eval --agent http://...` in another."""
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "agent", "serve", "--port", "0"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = server.stdout.readline()
        assert "serving embedded on http://127.0.0.1:" in line, line + server.stderr.read()
        url = line.split(" on ", 1)[1].strip()
        scores = {}
        for agent in ("embedded", url):
            out = tmp_path / ("http" if agent.startswith("http") else "embedded")
            result = nabahan("eval", "--agent", agent, "--output-dir", str(out), cwd=tmp_path)
            assert result.returncode == 0, result.stderr
            (csv,) = out.glob("evaluation_results_*.csv")
            table = pd.read_csv(csv, encoding="utf-8-sig")
            columns = ["Case ID", "Status", "SQL Generated", "Data Rows", "Retrieval Accuracy",
                       "Generation Fidelity", "Execution Match", "Overall Passed", "Insights"]
            scores[agent] = table[columns]
        pd.testing.assert_frame_equal(scores["embedded"], scores[url])
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_gate_is_correct_rate_and_the_console_says_why(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json", n=2)
    made_up = "python:nabahan_pipeline_tests.sample_agents:made_up_number_agent"
    gated = nabahan("eval", "--test-file", str(cases), "--agent", made_up, "--fail-under", "0.8",
                    "--output-dir", "out", cwd=tmp_path)
    assert gated.returncode == 1, gated.stdout + gated.stderr
    assert "correct rate 0.0% is below --fail-under 80.0%" in gated.stderr
    assert "Pass Rate: 100.0%" in gated.stdout and "Correct Rate: 0.0%" in gated.stdout
    assert "[PASS]" in gated.stdout and "Not correct:" in gated.stdout
    assert "] c-" in gated.stdout and ": unverified: … عدد المناقصات المطابقة 31,415 مناقصة وفق البيانات …" in gated.stdout
    results = pd.read_csv(next((tmp_path / "out").glob("evaluation_results_*.csv")), encoding="utf-8-sig")
    assert list(results["Overall Passed"]) == [True, True] and list(results["Correct"]) == [False, False]
    assert list(results["Why Not Correct"]) == ["unverified: … عدد المناقصات المطابقة 31,415 مناقصة وفق البيانات …"] * 2
    summary = pd.read_csv(next((tmp_path / "out").glob("evaluation_summary_*.csv")), encoding="utf-8-sig")
    metrics = dict(zip(summary["Metric"], summary["Value"]))
    assert metrics["Correct Rate"] == "0.0%"
    # 0 of 2: Wilson (0, 0.658); 2 of 2 passed: (0.342, 1).
    assert (metrics["Correct Rate Low"], metrics["Correct Rate High"]) == ("0.0%", "65.8%")
    assert (metrics["Pass Rate Low"], metrics["Pass Rate High"]) == ("34.2%", "100.0%")
    assert "Correct Rate: 0.0% (0.0-65.8) (0 of 2" in gated.stdout

    seed_gate = nabahan("eval", "--test-file", str(cases), "--agent", made_up, "--fail-under", "0.8",
                        "--gate", "pass_rate", "--output-dir", "out2", cwd=tmp_path)
    assert seed_gate.returncode == 0, seed_gate.stdout + seed_gate.stderr
    # On the lower bound: 2 of 2 passed is 100 %, but its interval starts at 34.2 %.
    lower = nabahan("eval", "--test-file", str(cases), "--agent", made_up, "--fail-under", "0.8",
                    "--gate", "pass_rate", "--gate-on", "lower", "--output-dir", "out3", cwd=tmp_path)
    assert lower.returncode == 1, lower.stdout + lower.stderr
    assert lower.stderr.strip() == "pass rate lower bound 34.2% is below --fail-under 80.0%"


def test_the_judge_is_recorded_beside_correct_and_its_key_is_never_shown(tmp_path: Path):
    """`--judge openai:MODEL` against a loopback server: one answer judged, one call failing; the
    key, echoed by the judge, appears in no output."""
    key = "sk-Pw4Tn8Yc2Jd6Hs9Fq1"
    cases = cases_file(tmp_path / "cases.json", n=2)
    with LoopbackServer(lambda request: Reply(400, f"bad request for key {key}")) as llm:
        llm.script(chat_completion(json.dumps({"verdict": "supported", "reason": f"the row says 7 ({key})"})))
        result = nabahan("eval", "--test-file", str(cases), "--agent", COUNTING, "--judge", "openai:judge-model",
                         "--output-dir", "out", cwd=tmp_path, OPENAI_BASE_URL=llm.url("/v1"), OPENAI_API_KEY=key)
        asked = [json.loads(request.json()["messages"][1]["content"]) for request in llm.requests]
    assert result.returncode == 0, result.stderr
    assert sorted(one["question"] for one in asked) == ["كم عدد المناقصات 0؟", "كم عدد المناقصات 1؟"]
    insight = "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة."  # counting_agent's
    assert [(one["rows"], one["insight"]) for one in asked] == [([[7]], insight)] * 2
    assert "Correct Rate: 100.0%" in result.stdout, "a failing judge changes no verdict"
    assert "Judge agreement: 100.0% (1 of 2 judged;" in result.stdout
    results = pd.read_csv(next((tmp_path / "out").glob("evaluation_results_*.csv")), encoding="utf-8-sig",
                          keep_default_na=False)
    assert list(results["Correct"]) == [True, True]
    assert sorted(results["Judge Verdict"]) == ["", "supported"]
    assert any(reason.startswith("judge failed: LLM request failed: HTTP 400") for reason in results["Judge Reason"])
    outputs = [result.stdout, result.stderr, *(path.read_bytes().decode("utf-8", "replace")
                                                for path in (tmp_path / "out").glob("*.csv"))]
    outputs += [pd.read_parquet(path).to_json(force_ascii=False)
                for path in (tmp_path / "home" / "parquet").rglob("*.parquet")]
    assert not [text for text in outputs if key[3:12] in text]


def test_errors_and_writing_sql_never_pass(tmp_path: Path):
    for agent, reason in (("always_error_agent", "error: upstream timeout"),
                          ("dropping_agent", "unsafe SQL: not a read-only query: DROP statement")):
        result = nabahan("eval", "--agent", f"python:nabahan_pipeline_tests.sample_agents:{agent}",
                         "--output-dir", agent, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "Passed: 0" in result.stdout and "Correct Rate: 0.0%" in result.stdout, result.stdout
        assert f": {reason}" in result.stdout


@pytest.mark.faults
def test_a_broken_gold_sql_exits_2_before_any_agent_call(tmp_path: Path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([
        {"id": "ok", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details"},
        {"id": "typo", "question": "كم قيمة المناقصات؟", "category": "aggregation",
         "expected_table": "tenders_full_details", "expected_sql": "SELECT SUM(estimated_valu) FROM tenders_full_details"},
    ], ensure_ascii=False), encoding="utf-8")
    result = nabahan("eval", "--test-file", str(cases), "--agent", RAISING, "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    from nabahan_pipeline.etimad_db.store import default_database_path

    assert result.stderr.strip().splitlines() == [
        f"nabahan: error: {cases}: case 2 (id 'typo'): field 'expected_sql': fails on "
        f"{default_database_path().name}: query failed: no such column: estimated_valu"
    ]
    assert not (tmp_path / "out").exists(), "nothing written, no agent asked"
    assert not (tmp_path / "home").exists(), "no run started, no state written"


@pytest.mark.parametrize("args", [["--help"], ["eval", "--help"], ["eval", "--concurrency", "0"], ["agent", "--help"]],
                         ids=["help", "eval-help", "argument-error", "agent-help"])
def test_help_and_argument_errors_import_no_heavy_library(tmp_path: Path, args: list[str]):
    """`nabahan --help` and an argparse error answer at once: pandas, matplotlib, dagster and
    their kin are imported only by the commands that use them."""
    done = run([sys.executable, "-X", "importtime", "-m", "nabahan_pipeline", *args], tmp_path)
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "nabahan_pipeline.cli" in imported, "importtime saw the command's own imports"
    heavy = {"pandas", "matplotlib", "dagster", "pandera", "sqlglot", "numpy", "pyarrow"}
    assert not heavy & imported, f"{sorted(heavy & imported)} imported by nabahan {' '.join(args)}"


# The `nabahan` console script in a process with an atexit function and an object whose finalizer
# speaks when the interpreter frees it (as a `python:` agent's may).
_EXIT = """
import atexit, sys
from nabahan_pipeline.cli import console_main

class Noisy:
    def __del__(self, write=sys.__stderr__.write):  # bound now: the module's names are gone by then
        write("finalized|")

kept = Noisy()
atexit.register(lambda: print("atexit ran", end="|"))
print("buffered", end="|")
sys.argv = ["nabahan", "eval"]
console_main()
"""


def test_the_console_script_returns_its_exit_code_and_the_process_ends_normally(tmp_path: Path):
    done = run([sys.executable, "-c", _EXIT], tmp_path, NABAHAN_REPEAT="zero")  # a user error: exit 2
    assert done.returncode == 2, done.stderr
    assert done.stdout == "buffered|atexit ran|"
    assert done.stderr.startswith("nabahan: error: ") and "Traceback" not in done.stderr
    assert done.stderr.endswith("finalized|"), "the interpreter ended as usual, finalizers included"


def test_the_console_scripts_are_the_clis_entry_points():
    entry_points = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert entry_points == {"nabahan": "nabahan_pipeline.cli:console_main",
                            "nabahan-eval": "nabahan_pipeline.cli:console_eval_main"}
    assert "console_main()" in (REPO / "nabahan_pipeline" / "__main__.py").read_text(encoding="utf-8")


def test_an_in_process_eval_leaves_the_callers_collector_alone(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]):
    """``main`` called in a process freezes nothing and leaves the collector as it was, even on an error."""
    import gc

    from nabahan_pipeline import api, cli
    from nabahan_pipeline.errors import EvaluationInputError

    # Some interpreters start with objects already frozen (CPython 3.12.1 reports 375): what is
    # asserted is that the run adds none.
    frozen = gc.get_freeze_count()

    def fail(self, progress=None):
        assert gc.get_freeze_count() == frozen and gc.isenabled(), "no gc.freeze, no collector turned off"
        raise EvaluationInputError("no run here")

    monkeypatch.setattr(api.NabahanEvaluationPipeline, "run", fail)
    assert cli.main(["eval", "--agent", COUNTING]) == 2
    assert gc.get_freeze_count() == frozen and gc.isenabled()
    assert capsys.readouterr().err == "nabahan: error: no run here\n"


def test_cases_schema_prints_the_models_json_schema(tmp_path: Path):
    from nabahan_pipeline.evaluation.case_file import case_file_schema

    result = nabahan("cases", "schema", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == case_file_schema()
    assert "out_of_scope" in result.stdout and '"minItems": 1' in result.stdout


@pytest.mark.faults
@pytest.mark.parametrize(("code", "reason"), [(28, "No space left on device"), (30, "Read-only file system")])
def test_a_disk_that_fills_during_the_run_is_one_line_naming_the_file(monkeypatch, capsys, code: int, reason: str):
    # The pre-flight check finds a full or read-only disk before any agent call; one that fills
    # later (a report written after the answers) was a traceback.
    from nabahan_pipeline import api, cli

    def fill(self, progress=None):
        raise OSError(code, reason, "/reports/evaluation_results_1.csv")

    monkeypatch.setattr(api.NabahanEvaluationPipeline, "run", fill)
    assert cli.main(["eval", "--agent", COUNTING]) == 2
    assert capsys.readouterr().err == (f"nabahan: error: cannot write /reports/evaluation_results_1.csv: {reason} "
                                       "(the files written before are kept)\n")
