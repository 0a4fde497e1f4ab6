"""The console of `nabahan eval`: the seed's layout line for line, ours after it, and each case
printed the moment its answer arrives."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nabahan_pipeline.console import case_block, files_text, footer, header, summary_text
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_scores

from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan

RULE = "=" * 70


def test_the_seed_layout_line_for_line(tmp_path: Path):
    cases = cases_file(tmp_path / "cases.json", n=3)
    result = nabahan("eval", "--test-file", str(cases), "--test-suite", "0", "--output-dir", "evaluation/results",
                     "--agent", "python:nabahan_pipeline_tests.sample_agents:counting_agent", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [RULE, "NABAHAN AGENT - EVALUATION PIPELINE", RULE]
    assert re.fullmatch(r"Timestamp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", lines[3])
    assert lines[4:6] == ["Test Cases: 3", "Output Dir: evaluation/results"]
    blocks = [i for i, line in enumerate(lines) if re.fullmatch(r"\[\d/3\] COUNT", line)]
    assert len(blocks) == 3
    for i in blocks:
        assert lines[i + 1].startswith("    Q: كم عدد المناقصات") and lines[i + 1].endswith("...")
        assert re.fullmatch(r"    Retrieval: 100% \| Fidelity: 100% \| Latency: \d+\.\d\ds \| \[PASS\]", lines[i + 2])
    start = lines.index("EVALUATION SUMMARY")
    assert lines[start - 1] == lines[start + 1] == RULE
    assert lines[start + 2:start + 14] == [
        "Total Queries: 3", "Passed: 3", "Failed: 0", "Pass Rate: 100.0% (43.9-100.0)", "-" * 70,
        "Avg Retrieval Accuracy: 100.0%", "Avg Generation Fidelity: 100.0%", "-" * 70,
        lines[start + 10], lines[start + 11], lines[start + 12], "-" * 70,
    ]
    assert [line.split(":")[0] for line in lines[start + 10:start + 13]] == ["Avg Latency", "P50 Latency", "P95 Latency"]
    assert lines[start + 14].startswith("Correct Rate: 100.0% (43.9-100.0) (3 of 3")
    saving = lines.index("Saving reports...")
    assert lines[saving + 1].startswith("Detailed results saved to: evaluation/results/evaluation_results_")
    assert lines[saving + 2].startswith("Summary saved to: evaluation/results/evaluation_summary_")
    assert lines[saving + 3].startswith("Report to click through: evaluation/results/evaluation_report_")
    charts = lines.index("Generating visualization charts...")
    assert lines[charts + 1:charts + 9] == [f"  Created: charts/{name}" for name in (
        "metrics_overview.png", "pass_fail_distribution.png", "latency_analysis.png", "category_breakdown.png",
        "detailed_results.png", "evaluation_dashboard.png", "pass_rate_trend.png", "error_locations.png")]
    assert lines[-5:] == [RULE, "EVALUATION COMPLETE", RULE, "FINAL PASS RATE: 100.0%", "FINAL CORRECT RATE: 100.0%"]


def test_each_case_is_printed_as_its_answer_arrives(tmp_path: Path):
    """A paced agent (0.8 s an answer, one at a time): the first case is on the terminal long
    before the run ends."""
    cases = cases_file(tmp_path / "cases.json", n=6)
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
                   "PYTHONUNBUFFERED": "1"}
    environment.pop("DAGSTER_HOME", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--test-suite", "0",
         "--concurrency", "1", "--agent", "python:nabahan_pipeline_tests.sample_agents:paced_agent",
         "--output-dir", "out"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    seen: dict[str, float] = {}
    for line in process.stdout:
        if re.match(r"\[\d/6\] COUNT", line):
            seen.setdefault(line.strip(), time.monotonic())
    ended = time.monotonic()
    assert process.wait(timeout=60) == 0, process.stderr.read()
    assert len(seen) == 6
    first = min(seen.values())
    assert ended - first > 3.0, "the first case was printed only when the run ended"
    assert sorted(seen.values()) == list(seen.values()), "printed one by one, in completion order"


def test_repeats_are_told_apart_from_cases():
    scores = make_scores(2, repeats=2, fail_share=0.0, error_share=0.0).assign(
        case_id=["a", "a", "b", "b"], cached=[True, False, False, False])
    scores.loc[1, ["overall_passed", "correct", "not_correct_because"]] = [False, False, "wrong result"]
    text = summary_text(scores, summarize(scores))
    lines = text.splitlines()
    start = lines.index("Total Queries: 2")
    assert lines[start:start + 4] == ["Total Queries: 2", "Answers: 4 (2 cases x 2)", "Passed: 3 of 4 answers",
                                      "Failed: 1 of 4 answers"]
    (consistency,) = [line for line in lines if line.startswith("Consistency: ")]
    assert consistency.startswith("Consistency: 1 of 2 cases the same verdict on all 2 repeats | "
                                  "Pass^2 (every repeat passed): 50.0% (")
    assert lines[lines.index(consistency) + 1].startswith("  a: 1 of 2 passed, ")
    (execution,) = [line for line in lines if line.startswith("Execution Accuracy: ")]
    assert re.search(r" \(\d+ of \d+ with gold SQL\)$", execution), "its denominator beside it"
    (suite,) = [line for line in lines if line.startswith("Test Suite Accuracy: ")]
    assert re.search(r" \((\d+ of \d+ also run on the test-suite databases|none counted)\)$", suite), suite
    assert "Cached answers: 1 of 4 reused from the cache" in text
    assert "  [1 r2] a: wrong result" in text
    block = case_block({"number": 2, "category": "count", "question": "كم؟"},
                       {"repeat": 1, "latency_s": 1.234, "status": "error", "error": "boom", "sql": None,
                        "columns": "[]", "rows": "[]", "insights": "", "data_rows": 0}, total=2, repeat=2)
    assert block.splitlines() == ["[2/2] COUNT (repeat 2/2)", "    Q: كم؟...",
                                  "    Retrieval: 0% | Fidelity: 0% | Latency: 1.23s | [FAIL]", "    Error: boom"]
    assert header(timestamp="t", cases=2, output_dir="o", agent="a", label="l", repeat=2).splitlines()[8] == \
        "Repeats: 2 answers per case (4 in all)"
    assert "FINAL PASS RATE: 75.0%" in footer(summarize(scores))
    assert files_text({}, "out").strip() == "Saving reports..."
    assert "Report to click through: " in files_text({"report_html": "out/evaluation_report_1.html"}, "out")


def test_the_live_line_shows_the_cases_own_scores_when_given():
    """The answer's score from scoring on arrival, the case's, not the seed's verdict of the row
    alone (an answer whose reported rows are not what its SQL returns passes the one, not the other)."""
    case = {"number": 1, "category": "count", "question": "كم؟"}
    row = {"repeat": 0, "latency_s": 0.5, "status": "success", "error": None, "sql": "SELECT 1", "columns": "[]",
           "rows": "[]", "insights": "", "data_rows": 0}
    scores = {"retrieval_accuracy": 1, "generation_fidelity": 1, "latency_tier": "Excellent", "overall_passed": True}
    assert case_block(case, row, total=1, scores=scores).splitlines()[2] == \
        "    Retrieval: 100% | Fidelity: 100% | Latency: 0.50s | [PASS]"
    assert case_block(case, row, total=1).splitlines()[2].endswith("[FAIL]"), "without scores: the seed's verdict"


def test_on_a_terminal_a_progress_line_sits_under_the_cases(tmp_path: Path):
    """Run under a pseudo-terminal: the progress line (done/total, rate, ETA) is drawn; the case
    blocks are printed above it all the same."""
    import pty
    import select

    cases = cases_file(tmp_path / "cases.json", n=4)
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO),
                   "TERM": "xterm", "COLUMNS": "120"}
    environment.pop("DAGSTER_HOME", None)
    main, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline", "eval", "--test-file", str(cases), "--test-suite", "0",
         "--concurrency", "1", "--agent", "python:nabahan_pipeline_tests.sample_agents:paced_agent",
         "--output-dir", "out"],
        cwd=tmp_path, env=environment, stdout=secondary, stderr=subprocess.PIPE,
    )
    os.close(secondary)
    output = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(main)
    assert process.wait(timeout=60) == 0, process.stderr.read()
    text = output.decode("utf-8", errors="replace")
    assert "asking the agent" in text and re.search(r"\d/4", text) and "ETA" in text
    stages = [text.find(stage) for stage in ("asking the agent", "scoring", "writing reports", "drawing charts")]
    assert -1 not in stages and stages == sorted(stages), "the progress line names each stage in turn"
    assert all(f"[{n}/4] COUNT" in text for n in range(1, 5))
    assert "FINAL PASS RATE: 100.0%" in text


def test_a_wrong_result_shows_the_expected_rows_and_far_apart_rates_are_explained(tmp_path: Path):
    """A real `nabahan eval`: the agent passes the seed's checks on both cases, one of them with
    the wrong result; the gold's rows are printed beside the agent's, and the 50 points between the
    two final rates are explained in one line after them."""
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([
        {"id": "total", "question": "كم عدد المناقصات في المنصة؟", "category": "count",
         "expected_table": "tenders_full_details", "expected_sql": "SELECT COUNT(*) AS tenders FROM tenders_full_details"},
        {"id": "plain", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details"},
    ], ensure_ascii=False), encoding="utf-8")
    result = nabahan("eval", "--test-file", str(cases), "--test-suite", "0", "--output-dir", "out",
                     "--agent", "python:nabahan_pipeline_tests.sample_agents:markup_agent", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    wrong = lines.index("  [1] total: wrong result")
    assert re.fullmatch(r"      expected:       tenders: \(\d+\)", lines[wrong + 1]), lines[wrong + 1]
    assert lines[wrong + 2] == "      agent reported: label, n: (<b>x</b> | [link](http://evil.example) …, 7)"
    assert lines[wrong + 3].startswith("By category:"), "no rows for an answer whose result is right"
    assert lines[-4:] == ["FINAL PASS RATE: 100.0%", "FINAL CORRECT RATE: 50.0%",
                          "The seed's pass rate checks an answer's form (SQL on the right table, rows, Arabic text, "
                          "numbers), not whether it is right; the correct rate does (see Not correct above).",
                          "checks not passed: pass_rate_threshold"]


@pytest.mark.slow
def test_after_ctrl_c_the_console_says_which_reports_were_written(tmp_path: Path):
    """Interrupted as it draws its first chart: the CSV reports are written, and the console lists them."""
    cases = cases_file(tmp_path / "cases.json", n=2)
    marker = tmp_path / "stopped"
    environment = {**os.environ, "NABAHAN_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    environment.pop("DAGSTER_HOME", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "nabahan_pipeline_tests.killable_run", "charts", str(marker), "--", "eval",
         "--test-file", str(cases), "--test-suite", "0", "--output-dir", "out",
         "--agent", "python:nabahan_pipeline_tests.sample_agents:counting_agent"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    reports = sorted(path.relative_to(tmp_path).as_posix() for path in (tmp_path / "out").glob("*.csv"))
    assert any("evaluation_results_" in path for path in reports) and any("evaluation_summary_" in path for path in reports)
    written = stdout.splitlines()[stdout.splitlines().index("Interrupted; written before it:") + 1:]
    assert sorted(line.strip() for line in written) == reports


def test_robustness_text_gives_each_perturbation_and_the_files():
    import pandas as pd

    from nabahan_pipeline.console import robustness_text
    from nabahan_pipeline.evaluation.robustness.variants import SUMMARY_COLUMNS

    summary = pd.DataFrame([["typo", "typo", 4, 4, 3, 1.0, 0.75, 0.25, 1, "a: x"],
                            ["overall", "", 4, 4, 3, 1.0, 0.75, 0.25, 1, "a: x"]], columns=SUMMARY_COLUMNS)
    text = robustness_text(summary, {"robustness_summary_csv": str(Path.cwd() / "out" / "s.csv")})
    assert "typo                       4    100.0%     75.0%   25.0%      1" in text.splitlines()
    assert text.splitlines()[-1] == f"Robustness summary: {Path('out') / 's.csv'}"


def test_the_run_console_prints_what_each_event_of_a_run_says():
    import io

    from nabahan_pipeline.agents.labels import LabelledAgent
    from nabahan_pipeline.console import RunConsole
    from nabahan_pipeline.settings import RunSettings

    stream = io.StringIO()
    console = RunConsole(stream)
    console("registered", {"agents": [LabelledAgent("mine", "embedded")]})
    console("run", {"settings": RunSettings(), "cases": 2})
    console("written", {"files": {"results_csv": "/r/results.csv"}})
    console("interrupted", {})
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("registered for the nightly schedule and the sensor: mine (embedded)")
    assert lines[1:4] == [RULE, "NABAHAN AGENT - EVALUATION PIPELINE", RULE] and "Test Cases: 2" in lines
    assert lines[-2:] == ["Interrupted; written before it:", "  /r/results.csv"]
