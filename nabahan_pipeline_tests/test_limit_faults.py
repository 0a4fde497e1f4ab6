"""Limits faults (issue 31), each a real `nabahan eval` process: bad outputs and case files refused
in one line (exit 2) before any agent call; a closed stdout; gold SQL under the run's own limits;
answers deep or wide enough to sink a run, which become error rows instead.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from nabahan_pipeline.settings import ENVIRONMENT_VARIABLES

from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, Request

pytestmark = pytest.mark.faults

AGENTS = "python:nabahan_pipeline_tests.limit_agents:"
MARKING = AGENTS + "marking_agent"


def run_eval(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`nabahan eval` on a 3-case file (unless one is given), no test-suite databases, the calls
    marked in ``called``."""
    given = ("--test-file" in args)
    test_file = () if given else ("--test-file", str(cases_file(tmp_path / "cases.json")))
    return nabahan("eval", *test_file, "--test-suite", "0", *args, cwd=tmp_path,
                   LIMITS_CALLED=str(tmp_path / "called"), **env)


def assert_refused_first(result: subprocess.CompletedProcess, tmp_path: Path, *words: str) -> None:
    """Exit 2, one line naming ``words`` on stderr, no traceback, no agent call, no report."""
    assert result.returncode == 2, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nabahan: error:"), result.stderr[-2000:]
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "called").exists()


# --- outputs ----------------------------------------------------------------------------------------


def test_output_dir_naming_a_file_is_refused_before_the_calls(tmp_path: Path) -> None:
    (tmp_path / "report.csv").write_text("mine", encoding="utf-8")
    started = time.monotonic()
    result = run_eval(tmp_path, "--agent", MARKING, "--output-dir", "report.csv")
    assert_refused_first(result, tmp_path, "report.csv", "is not a folder")
    assert time.monotonic() - started < 120
    assert (tmp_path / "report.csv").read_text(encoding="utf-8") == "mine"


def test_output_dir_below_a_file_is_refused_before_the_calls(tmp_path: Path) -> None:
    (tmp_path / "report.csv").write_text("mine", encoding="utf-8")
    result = run_eval(tmp_path, "--agent", MARKING, "--output-dir", "report.csv/results")
    assert_refused_first(result, tmp_path, "report.csv is not a folder")


def test_a_users_own_charts_folder_is_refused_before_the_calls(tmp_path: Path) -> None:
    charts = tmp_path / "out" / "charts"
    (charts / "drafts").mkdir(parents=True)
    (charts / "notes.txt").write_text("mine", encoding="utf-8")
    result = run_eval(tmp_path, "--agent", MARKING, "--output-dir", "out")
    assert_refused_first(result, tmp_path, "charts", "folder of other files")
    assert (charts / "notes.txt").read_text(encoding="utf-8") == "mine" and (charts / "drafts").is_dir()


def test_a_file_where_the_charts_go_is_refused_before_the_calls(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "charts").write_text("mine", encoding="utf-8")
    result = run_eval(tmp_path, "--agent", MARKING, "--output-dir", "out")
    assert_refused_first(result, tmp_path, "charts", "is a file")


def test_an_arabic_label_too_long_for_a_folder_is_refused_at_the_check(tmp_path: Path) -> None:
    label = "ن" * 128  # 128 characters, 256 bytes: one more than a folder name holds
    result = run_eval(tmp_path, "--agent", f"{label}={MARKING}", "--agent", f"other={MARKING}")
    assert_refused_first(result, tmp_path, "255 bytes")


def test_a_closed_stdout_lets_the_run_finish_its_reports_silently(tmp_path: Path) -> None:
    inherited = {key: value for key, value in os.environ.items()
                 if key not in ENVIRONMENT_VARIABLES or key == "NABAHAN_CACHE_DIR"}
    env = {**inherited, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    args = [sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", MARKING, "--test-suite", "0",
            "--test-file", str(cases_file(tmp_path / "cases.json")), "--output-dir", "out", "--fail-under", "0.5"]
    process = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    first = [process.stdout.readline() for _ in range(5)]  # what `| head -n 5` reads, then it leaves
    process.stdout.close()
    _out, err = process.communicate(timeout=300)
    stderr = err.decode("utf-8", errors="replace")
    assert b"EVALUATION PIPELINE" in b"".join(first)
    assert process.returncode == 0, stderr[-2000:]
    assert "BrokenPipe" not in stderr and "Traceback" not in stderr, stderr[-2000:]
    reports = sorted((tmp_path / "out").glob("evaluation_*.csv"))
    assert len(reports) == 3 and (tmp_path / "out" / "charts" / "evaluation_dashboard.png").is_file()


# --- the case file ------------------------------------------------------------------------------


def test_a_case_file_from_a_pipe_is_read_once(tmp_path: Path) -> None:
    cases = cases_file(tmp_path / "cases.json")
    inherited = {key: value for key, value in os.environ.items()
                 if key not in ENVIRONMENT_VARIABLES or key == "NABAHAN_CACHE_DIR"}
    env = {**inherited, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
           "LIMITS_CALLED": str(tmp_path / "called")}
    command = (f"'{sys.executable}' -m nabahan_pipeline eval --agent {MARKING} --test-suite 0 "
               f"--output-dir out --test-file <(cat '{cases}')")
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert len((tmp_path / "called").read_text(encoding="utf-8").splitlines()) == 3
    assert "checks not passed" not in result.stdout


CASE = {"question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details"}


@pytest.mark.parametrize(
    ("second_case", "words"),
    [
        ('{"question": "أ", "question": "ب", "category": "count", "expected_table": "tenders_full_details"}',
         ["case 2", "'question'", "given twice"]),
        ('{"question": "أ", "category": "count", "expected_table": "tenders_full_details", '
         '"filters": {"region": "x", "region": "y"}}', ["case 2", "'filters'", "'region' given twice"]),
        ('{"question": "أ", "category": "count", "expected_table": "tenders_full_details", "filters": {"x": '
         + "[" * 100_000 + "]" * 100_000 + "}}", ["case 2", "'filters'", "nested deeper than"]),
        ('{"question": "أ", "category": "count", "expected_table": "tenders_full_details", "filters": {"x": '
         + "9" * 5_000 + "}}", ["case 2", "'filters'", "5,000 characters"]),
    ],
    ids=["duplicate-key", "duplicate-key-in-filters", "100000-deep", "5000-digits"],
)
def test_a_bad_case_file_is_one_line_naming_the_case_and_field(tmp_path: Path, second_case: str,
                                                              words: list[str]) -> None:
    path = tmp_path / "cases.json"
    path.write_text(f"[{json.dumps(CASE, ensure_ascii=False)}, {second_case}]", encoding="utf-8")
    result = run_eval(tmp_path, "--agent", MARKING, "--test-file", str(path))
    assert_refused_first(result, tmp_path, str(path), *words)


# --- gold SQL under the run's limits ---------------------------------------------------------------


def gold_cases(path: Path, gold: str) -> Path:
    path.write_text(json.dumps([{**CASE, "expected_sql": gold}], ensure_ascii=False), encoding="utf-8")
    return path


def test_a_gold_within_the_default_row_cap_but_over_the_runs_is_refused_before_the_calls(tmp_path: Path) -> None:
    path = gold_cases(tmp_path / "cases.json", "SELECT tender_id FROM tenders_full_details LIMIT 50")
    assert run_eval(tmp_path, "--agent", MARKING, "--test-file", str(path)).returncode == 0  # the default cap
    (tmp_path / "called").unlink()
    result = run_eval(tmp_path, "--agent", MARKING, "--test-file", str(path), NABAHAN_SQL_MAX_ROWS="10")
    assert_refused_first(result, tmp_path, "case 1", "expected_sql", "at most 10 rows")


def counting_gold(seconds: float) -> str:
    """A gold that runs about ``seconds`` on this machine (a recursive count, timed here first)."""
    probe = 2_000_000
    connection = sqlite3.connect(":memory:")
    started = time.perf_counter()
    sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) SELECT COUNT(*) AS n FROM c"
    connection.execute(sql.format(n=probe)).fetchall()
    per_row = (time.perf_counter() - started) / probe
    return sql.format(n=int(seconds / per_row))


def test_a_gold_longer_than_5_s_is_accepted_with_a_longer_sql_timeout(tmp_path: Path) -> None:
    path = gold_cases(tmp_path / "cases.json", counting_gold(20.0))
    refused = run_eval(tmp_path, "--agent", MARKING, "--test-file", str(path))
    assert_refused_first(refused, tmp_path, "expected_sql", "time limit of 5 s")  # it does take over 5 s
    result = run_eval(tmp_path, "--agent", MARKING, "--test-file", str(path), "--sql-timeout", "120",
                      "--output-dir", "out")
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "called").read_text(encoding="utf-8").count("\n") == 1
    assert len(list((tmp_path / "out").glob("evaluation_results_*.csv"))) == 1


# --- answers that would sink a run ------------------------------------------------------------------


def results_of(tmp_path: Path) -> list[dict]:
    import pandas as pd

    (report,) = (tmp_path / "out").glob("evaluation_results_*.csv")
    return pd.read_csv(report, encoding="utf-8-sig").to_dict("records")


def test_a_5000_deep_value_from_a_python_agent_is_an_error_row(tmp_path: Path) -> None:
    result = run_eval(tmp_path, "--agent", AGENTS + "deep_value_agent", "--output-dir", "out")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "RecursionError" not in result.stdout + result.stderr
    rows = results_of(tmp_path)
    assert [row["Status"] for row in rows] == ["error", "success", "success"]
    # In its child process the answer cannot be encoded (Python 3.11, 3.12), or it is and its depth
    # is refused before it is parsed (3.13's encoder goes deeper); in ours, its cell is refused.
    assert any(words in rows[0]["Error"] for words in ("it nests too deep to be encoded",
                                                        "nested deeper than the pipeline reads")), rows[0]["Error"]
    (tmp_path / "ours").mkdir()
    ours = run_eval(tmp_path / "ours", "--agent", AGENTS + "deep_value_agent", "--output-dir", "out", "--in-process")
    assert ours.returncode == 0 and "RecursionError" not in ours.stdout + ours.stderr, ours.stderr[-2000:]
    assert "a cell holds one value" in results_of(tmp_path / "ours")[0]["Error"]


def first_case_gets(body: bytes) -> Callable[[Request], Reply]:
    """A loopback handler: ``body`` for the first case of ``cases_file``, a small answer else."""
    small = {"status": "success", "sql": "SELECT 1 AS n", "columns": ["n"], "rows": [[1]], "insights": "عدد 1"}

    def reply(request: Request) -> Reply:
        if request.method != "POST":
            return Reply(200)
        return Reply(200, body=body if request.json()["question"].endswith("0؟") else small)

    return reply


def test_a_5000_deep_http_answer_is_refused_by_its_depth(tmp_path: Path) -> None:
    deep = (b'{"status":"success","sql":"SELECT 1","insights":"x","columns":["a"],"rows":[['
            + b"[" * 5000 + b"]" * 5000 + b"]]}")
    with LoopbackServer(first_case_gets(deep)) as server:
        result = run_eval(tmp_path, "--agent", server.url("/ask"), "--concurrency", "1", "--output-dir", "out")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "RecursionError" not in result.stdout + result.stderr
    rows = results_of(tmp_path)
    assert [row["Status"] for row in rows] == ["error", "success", "success"]
    assert "nested deeper than 32 levels" in rows[0]["Error"]


def test_an_http_answer_of_too_many_values_is_refused_unparsed(tmp_path: Path) -> None:
    many = json.dumps({"status": "success", "sql": "SELECT 1", "insights": "x", "columns": [f"c{i}" for i in range(12)],
                       "rows": [[0] * 12] * 200_000}).encode()  # 5.6 MB, 2.4 million values: under the byte cap
    with LoopbackServer(first_case_gets(many)) as server:
        result = run_eval(tmp_path, "--agent", server.url("/ask"), "--concurrency", "1", "--output-dir", "out")
    assert result.returncode == 0, result.stderr[-2000:]
    rows = results_of(tmp_path)
    assert rows[0]["Status"] == "error" and "values" in rows[0]["Error"] and "cap" in rows[0]["Error"]


def test_agent_sql_of_500_large_blobs_is_refused_before_the_row_is_built(tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result = run_eval(tmp_path, "--agent", AGENTS + "wide_blobs_agent", "--output-dir", "out")
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert result.returncode == 0, result.stderr[-2000:]
    rows = results_of(tmp_path)
    assert not any(row["Correct"] for row in rows)
    assert all("too many columns" in str(row["SQL Problem"]) for row in rows), rows[0]["SQL Problem"]
    # 500 blobs of 1 MB built in SQLite and again as Python bytes would be a gigabyte.
    assert peak_mib < 800 or before / 1024 >= peak_mib
