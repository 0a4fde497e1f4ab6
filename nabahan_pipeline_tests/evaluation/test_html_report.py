"""The HTML report: what it shows, that agent text in it stays text, and, in a real headless
Chromium (Debian's chromium and chromedriver, driven by selenium), that it loads with no console
error and no request outside the file, that a filter works and that a case opens.

CI (CI=true) installs the browser (.ci/run) and the browser test fails there when it is missing;
elsewhere it is skipped, saying why, only when the binaries are absent.

The screenshot in docs/images is this module's report of a real run, taken with

    PYTHONPATH=. .venv/bin/python -m nabahan_pipeline_tests.evaluation.test_html_report --screenshot
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import tempfile
import tracemalloc
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from jinja2 import Environment, TemplateRuntimeError, UndefinedError

from nabahan_pipeline.evaluation.html_report import (
    CONTENT_SECURITY_POLICY,
    SCRIPT,
    STYLE,
    TEMPLATES,
    Result,
    RunReport,
    comparison_report_html,
    gathered_run_report,
    run_report_html,
    run_report_path,
    stored_result,
    write_html,
)
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_scores

HOSTILE = "<script>window.pwned=1</script></script><img src=x onerror=\"window.pwned=2\"> ' \" javascript:alert(1)"
HOSTILE_MARKERS = ("<script>window.pwned", "<img src=x", "onerror=\"window")
GOLD_SQL = "SELECT COUNT(*) FROM tenders_full_details WHERE status_id = 1"


def report(*, intervals: bool = False) -> RunReport:
    """Twelve synthetic answers, the first with hostile text in every field an agent (or a case
    file) fills, the second wrong in its WHERE, the third right."""
    scores = make_scores(12, seed=5)
    summary = summarize(scores)
    if intervals:
        summary = summary.assign(correct_rate_low=0.512, correct_rate_high=0.934)
    claims = json.dumps([{"claim": HOSTILE, "verdict": "contradicted", "why": HOSTILE},
                         {"claim": "120", "verdict": "supported", "why": ""}], ensure_ascii=False)
    hostile = {"question": HOSTILE, "sql": HOSTILE, "insights": f"بلغ {HOSTILE} 120 مناقصة", "error": HOSTILE,
               "not_correct_because": HOSTILE, "error_location": f"where: {HOSTILE}", "claim_details": claims,
               "sql_problem": HOSTILE, "judge_verdict": "unsupported", "judge_reason": HOSTILE, "correct": False}
    for column, value in hostile.items():
        scores[column] = scores[column].astype(object)
        scores.at[0, column] = value
    wrong = {"sql": "SELECT COUNT(*) FROM tenders_full_details WHERE status_id = 2", "correct": False,
             "error_location": "literal: status_id = 2 where the gold has status_id = 1", "category": "count",
             "question": "كم عدد المناقصات النشطة؟", "insights": "بلغ عدد المناقصات النشطة 120 مناقصة."}
    for column, value in wrong.items():
        scores.at[1, column] = value
    scores.at[2, "correct"] = True
    scores.at[2, "error_location"] = ""
    ids = scores["case_id"].tolist()
    return RunReport(
        title=f"Nabahan evaluation: {HOSTILE}",
        scores=scores,
        summary=summary,
        charts={"tiny.png": _PNG},
        gold_sql={ids[0]: HOSTILE, ids[1]: GOLD_SQL},
        agent_rows={(ids[0], 0): Result([HOSTILE], [[HOSTILE]], 1), (ids[1], 0): Result(["n"], [[7]], 1)},
        gold_rows={ids[1]: Result(["COUNT(*)"], [[i] for i in range(9)], 9)},
    )


# A 1x1 white PNG.
_PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC")


class _Markup(HTMLParser):
    """Every element's tag and attributes, and the text of each script."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False if tag == "script" else self._in_script

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def parsed(html: str) -> _Markup:
    markup = _Markup()
    markup.feed(html)
    return markup


def test_agent_text_in_every_field_stays_text() -> None:
    html = run_report_html(report())
    markup = parsed(html)
    assert markup.scripts == [SCRIPT], "one script, ours"
    assert [tag for tag, _ in markup.elements if tag in ("script", "style", "iframe", "object", "embed", "a", "form",
                                                         "link", "base")] == ["style", "script"]
    for tag, attributes in markup.elements:
        assert not [name for name in attributes if name.startswith("on")], (tag, attributes)
        for name in ("src", "href", "action"):
            value = attributes.get(name) or ""
            assert not value or value.startswith("data:image/png;base64,"), (tag, name, value[:40])
    for marker in HOSTILE_MARKERS:
        assert marker not in html
    assert html.count("&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;/script&gt;") >= 10, "each field shown, escaped"
    assert "&#39; &#34; javascript:alert(1)" in html  # markupsafe's escapes of ' and "


def test_agent_text_in_every_field_a_template_is_given_stays_text() -> None:
    """Every value reaches the page through autoescape: the same hostile text as the agent's label,
    a category, a chart's name and every cell of the comparison."""
    hostile = report()
    scores = hostile.scores.assign(category=HOSTILE, case_id=[f"{HOSTILE}{i}" for i in range(12)])
    page = run_report_html(RunReport(HOSTILE, scores, summarize(scores).assign(scope=HOSTILE),
                                     {HOSTILE: _PNG}, {case_id: HOSTILE for case_id in scores["case_id"]},
                                     {(case_id, 0): Result([HOSTILE], [[HOSTILE, None]], 1) for case_id in scores["case_id"]},
                                     {case_id: Result([HOSTILE], [[HOSTILE]], 9) for case_id in scores["case_id"]}))
    agents = pd.DataFrame({"agent": [HOSTILE], "cases": [12], "correct_rate": [0.5], "pass_rate": [0.5],
                           "execution_accuracy": [0.5], "test_suite_accuracy": [0.5]})
    compared = comparison_report_html(HOSTILE, {HOSTILE: scores}, agents, _PNG)
    for html in (page, compared):
        markup = parsed(html)
        assert markup.scripts == [SCRIPT] and not [marker for marker in HOSTILE_MARKERS if marker in html]
        assert not [name for _, attributes in markup.elements for name in attributes if name.startswith("on")]
        assert html.count("&lt;script&gt;window.pwned=1") >= 12 and ">None<" not in html


def test_the_templates_escape_everything_and_refuse_to_render_with_autoescape_off() -> None:
    for name in TEMPLATES.list_templates(extensions=["html"]):
        source = TEMPLATES.loader.get_source(TEMPLATES, name)[0]
        assert not re.search(r"\|\s*safe|Markup|autoescape\s+false|\{%\s*raw", source), name
    off = TEMPLATES.overlay(autoescape=False)
    with pytest.raises(TemplateRuntimeError, match="autoescape on"):
        off.get_template("run_report.html").render(policy="", title=HOSTILE)
    elsewhere = Environment(loader=TEMPLATES.loader, autoescape=False)
    with pytest.raises(UndefinedError):  # a bare environment has not the check the page calls first
        elsewhere.get_template("page.html").render(policy="", title=HOSTILE)


def test_the_page_inlines_its_style_and_script_files_whole() -> None:
    html = run_report_html(report())
    assert f"<style>{STYLE}</style>" in html and f"<script>{SCRIPT}</script>" in html
    assert "addEventListener" in SCRIPT and "details.case" in STYLE


def test_the_policy_allows_only_the_pages_own_style_script_and_images() -> None:
    html = run_report_html(report())
    (meta,) = [attrs for tag, attrs in parsed(html).elements if tag == "meta" and attrs.get("http-equiv")]
    assert meta["content"] == CONTENT_SECURITY_POLICY
    for text in (STYLE, SCRIPT):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in CONTENT_SECURITY_POLICY
    assert CONTENT_SECURITY_POLICY.startswith("default-src 'none'; img-src data:;")
    assert html.index("Content-Security-Policy") < html.index("<title>"), "the policy comes before anything it governs"


def test_the_kpis_show_their_intervals_when_the_summary_has_them() -> None:
    without = run_report_html(report())
    assert "(51.2-93.4)" not in without
    assert "(51.2-93.4)" in run_report_html(report(intervals=True))


def test_the_head_leads_with_correct_and_each_rate_names_its_denominator() -> None:
    shown = report()
    overall = shown.summary.iloc[0]
    page = run_report_html(shown)
    head = page[page.index("<h1>"):page.index("<h2>By category")]
    verdict = unescape(re.search(r'<p class="verdict">(.*?)</p>', head).group(1))
    assert verdict.startswith(f"Correct {overall['correct_rate'] * 100:.1f}% ({int(overall['correct'])} of 12 cases)"
                              f" · the seed's pass rate "), verdict
    assert head.index("Correct Rate") < head.index("Pass Rate") < head.index("Execution Accuracy")
    execution = f"({round(overall['execution_accuracy'] * overall['execution_cases'])} of {int(overall['execution_cases'])})"
    assert f"<small>{execution}</small>" in head, "execution accuracy's own denominator beside it"


def test_a_case_shows_its_sql_beside_the_gold_differences_marked_rows_claims_and_reasons() -> None:
    html = run_report_html(report())
    body = html[html.index('data-location="literal"'):]
    body = body[: body.index("</details>")]
    assert '<mark class="diff">2</mark>' in body and '<mark class="diff">1</mark>' in body
    assert body.count("<tr>") == 1 + 1 + 1 + 5, "the agent's row and the first five of the gold's nine, with heads"
    assert "4 more rows" in body
    assert 'dir="rtl" lang="ar">كم عدد المناقصات النشطة؟' in body
    assert "Error location:" in body and "status_id = 2 where the gold has status_id = 1" in body
    hostile = html[html.index('id="case-case-00001-0"'):]
    hostile = hostile[: hostile.index("</details>")]
    assert '<mark class="contradicted" title="' in hostile and '<mark class="supported" title="">120</mark>' in hostile
    assert "<h4>Claims checked: 2 read, 1 verified, 1 contradicted, 0 unverified</h4>" in hostile


def test_the_filters_offer_each_category_verdict_and_location() -> None:
    markup = parsed(run_report_html(report()))
    selects = [attrs["data-filter"] for tag, attrs in markup.elements if tag == "select"]
    assert selects == ["category", "verdict", "location"]
    options = [attrs["value"] for tag, attrs in markup.elements if tag == "option"]
    assert {"correct", "wrong", "literal", "where", "count"} <= set(options)
    cases = [attrs for tag, attrs in markup.elements if tag == "details"]
    assert len(cases) == 12 and all(re.fullmatch(r"[\w -]*", attrs["data-location"] or "") for attrs in cases)


def test_the_report_is_written_atomically_beside_the_csvs(tmp_path: Path) -> None:
    path = run_report_path(tmp_path / "evaluation_results_20261123_020000_2.csv")
    assert path.name == "evaluation_report_20261123_020000_2.html"
    written = write_html(run_report_html(report()), path)
    assert written.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
    with pytest.raises(FileExistsError):
        write_html("<p>another run</p>", path)
    assert written.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"), "never over another report"


def test_a_run_report_gathers_gold_sql_and_both_rows_from_the_tables() -> None:
    from nabahan_pipeline.evaluation.execution_match import ExpectedResult

    scores = make_scores(2, seed=1)
    ids = scores["case_id"].tolist()
    cases = pd.DataFrame({"case_id": ids, "expected_sql": [GOLD_SQL, None]})
    responses = pd.DataFrame({"case_id": ids, "repeat": [0, 0], "columns": ['["n"]', "not json"],
                              "rows": ["[[1], [2]]", "[]"]})
    gathered = gathered_run_report("t", scores, summarize(scores), cases=cases, responses=responses,
                                   golds={GOLD_SQL: [ExpectedResult(["c"], [(5,)] * 8)]}, charts={})
    assert gathered.gold_sql == {ids[0]: GOLD_SQL}
    assert gathered.gold_rows[ids[0]] == Result(["c"], [(5,)] * 5, 8)
    assert gathered.agent_rows[(ids[0], 0)] == Result(["n"], [[1], [2]], 2)
    assert gathered.agent_rows[(ids[1], 0)] == Result([], [], 0)


def test_several_agents_compared_case_by_case() -> None:
    first = report().scores
    second = first.assign(correct=~first["correct"].astype(bool), error_location="")
    agents = pd.DataFrame({"agent": ["a", HOSTILE], "cases": [12, 12], "correct_rate": [0.5, 0.5],
                           "correct_rate_low": [0.2, 0.2], "correct_rate_high": [0.8, 0.8], "pass_rate": [0.5, 0.5],
                           "execution_accuracy": [float("nan")] * 2, "test_suite_accuracy": [float("nan")] * 2})
    html = comparison_report_html("Agents compared", {"a": first, HOSTILE: second}, agents, _PNG)
    markup = parsed(html)
    assert markup.scripts == [SCRIPT] and not [marker for marker in HOSTILE_MARKERS if marker in html]
    cases = [attrs for tag, attrs in markup.elements if tag == "details"]
    assert len(cases) == 12 and {attrs["data-verdict"] for attrs in cases} == {"disagree"}
    assert "(20.0-80.0)" in html



def test_with_repeats_a_case_is_right_only_when_every_repeat_is_and_a_wrong_one_is_shown() -> None:
    scores = make_scores(3, seed=5, repeats=2).assign(correct=True, insights="fine")
    wrong = (scores["query_num"] == 1) & (scores["repeat"] == 1)
    flaky = scores.assign(correct=~wrong, insights=scores["insights"].where(~wrong, "the wrong one"))
    agents = pd.DataFrame({"agent": ["steady", "flaky"], "cases": [3, 3], "correct_rate": [1.0, 0.83],
                           "pass_rate": [1.0, 1.0], "execution_accuracy": [float("nan")] * 2,
                           "test_suite_accuracy": [float("nan")] * 2})
    html = comparison_report_html("Repeats", {"steady": scores, "flaky": flaky}, agents)
    verdicts = [attrs["data-verdict"] for tag, attrs in parsed(html).elements if tag == "details"]
    assert verdicts == ["disagree", "all-correct", "all-correct"], "one wrong repeat of three makes a case not right"
    assert "flaky: Correct on 1 of 2 repeats" in html and "the wrong one" in html, "the wrong repeat is shown"

# ---- in a real browser ----------------------------------------------------------------------

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900")


def _binaries() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    if os.environ.get("CI"):
        pytest.fail("Chromium is not installed (.ci/run installs it: apt-get install -y chromium chromium-driver)")
    pytest.skip("no chromium and chromedriver on PATH (apt-get install chromium chromium-driver); CI runs this test")


def open_browser(profile: Path):
    """Headless Chromium with a fresh profile, its console kept for the test to read."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = _binaries()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(driver))


def test_in_a_browser_it_loads_clean_filters_and_opens_a_case(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = write_html(run_report_html(report()), tmp_path / "evaluation_report_20261123_020000.html")
    browser = open_browser(tmp_path / "profile")
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return document.readyState") == "complete"
        errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors
        assert browser.execute_script("return window.pwned") is None, "no agent text ran"
        requests = browser.execute_script(
            "return performance.getEntries().map((entry) => [entry.entryType, entry.name])")
        outside = [name for kind, name in requests if kind in ("resource", "navigation")
                   and not name.startswith(("data:", page.as_uri()))]
        assert not outside, outside
        cases = browser.find_elements(By.CSS_SELECTOR, "details.case")
        assert len(cases) == 12 and all(case.is_displayed() for case in cases)

        Select(browser.find_element(By.ID, "filter-location")).select_by_value("literal")
        shown = [case for case in cases if case.is_displayed()]
        assert [case.get_attribute("data-location") for case in shown] == ["literal"]
        assert browser.find_element(By.ID, "shown").text == "1"
        Select(browser.find_element(By.ID, "filter-location")).select_by_value("")
        Select(browser.find_element(By.ID, "filter-verdict")).select_by_value("correct")
        shown = [case for case in cases if case.is_displayed()]
        assert shown and all(case.get_attribute("data-verdict") == "correct" for case in shown)
        assert browser.find_element(By.ID, "shown").text == str(len(shown))
        Select(browser.find_element(By.ID, "filter-verdict")).select_by_value("")

        case = next(case for case in cases if case.get_attribute("data-location") == "literal")
        body = case.find_element(By.CSS_SELECTOR, ".body")
        assert not body.is_displayed()
        case.find_element(By.TAG_NAME, "summary").click()
        assert case.get_attribute("open") is not None and body.is_displayed()
        assert "status_id = 2 where the gold has status_id = 1" in body.text
        hostile = cases[0]
        hostile.find_element(By.TAG_NAME, "summary").click()
        assert "<script>window.pwned=1</script>" in hostile.text, "shown as text"
        assert browser.execute_script("return window.pwned") is None
        assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        browser.quit()


def screenshot(path: Path) -> None:
    """A real run's report (the shipped cases, the embedded agent, three answers made wrong) in
    the browser, a wrong case opened, saved as ``path``."""
    from selenium.webdriver.common.by import By

    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.etimad_db.store import ensure_database
    from nabahan_pipeline.evaluation.agent_sql import QueryRunner
    from nabahan_pipeline.evaluation.cases import load_test_cases
    from nabahan_pipeline.evaluation.charts.render import render_charts
    from nabahan_pipeline.evaluation.html_report import REPORT_CHARTS
    from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
    from nabahan_pipeline.settings import RunSettings

    cases = load_test_cases(RunSettings().test_file)
    agent = resolve_agent("embedded")
    rows = []
    for case in cases.to_dict("records"):
        answer = agent.ask(case["question"], None)
        data = answer.get("data") or []
        columns = list(data[0]) if data else []
        rows.append({"case_id": case["case_id"], "repeat": 0, "status": answer["status"], "sql": answer.get("sql"),
                     "dialect": None, "columns": json.dumps(columns, ensure_ascii=False),
                     "rows": json.dumps([list(row.values()) for row in data], ensure_ascii=False),
                     "data_rows": len(data), "insights": answer.get("insights") or "", "error": None,
                     "latency_s": 0.01, "cached": False})
    responses = pd.DataFrame(rows)
    wrong = {1: ("status_id = 1", "status_id = 2"), 4: ("SUM(", "AVG("), 14: ("'2024'", "'2023'")}
    for index, (old, new) in wrong.items():
        responses.at[index, "sql"] = str(responses.at[index, "sql"]).replace(old, new)
    database = ensure_database(None)
    scores = score_responses(cases, responses, database, timestamp="2026-11-26T09:00:00+03:00")
    summary = summarize(scores)
    with QueryRunner(database) as runner:
        golds = {sql: runner.expected(sql)[:1] for sql in cases["expected_sql"].dropna().unique()}
    with tempfile.TemporaryDirectory() as folder:
        drawn = render_charts(scores, summary, Path(folder) / "charts")
        html = run_report_html(gathered_run_report("Nabahan evaluation: embedded", scores, summary, cases=cases,
                                                   responses=responses, golds=golds,
                                                   charts={name: drawn[name].read_bytes() for name in REPORT_CHARTS}))
        page = write_html(html, Path(folder) / "evaluation_report.html")
        browser = open_browser(Path(folder) / "profile")
        try:
            browser.set_window_size(1280, 1000)
            browser.get(page.as_uri())
            case = browser.find_element(By.CSS_SELECTOR, 'details.case[data-verdict="wrong"]')
            case.find_element(By.TAG_NAME, "summary").click()
            browser.execute_script("arguments[0].scrollIntoView()",
                                   browser.find_element(By.XPATH, "//h2[text()='Cases']"))
            browser.save_screenshot(str(path))
            if os.environ.get("REPORT_TOP_SCREENSHOT"):  # the top of the page too, to look at
                browser.execute_script("window.scrollTo(0, 0)")
                browser.save_screenshot(os.environ["REPORT_TOP_SCREENSHOT"])
        finally:
            browser.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", action="store_true", help="write docs/images/evaluation_report.png")
    if parser.parse_args().screenshot:
        target = Path(__file__).resolve().parents[2] / "docs" / "images" / "evaluation_report.png"
        screenshot(target)
        print(f"wrote {target}")


def test_a_stored_result_shows_its_first_rows_and_counts_the_rest_without_holding_them() -> None:
    rows = [[f"صف {number}", number] for number in range(40_000)]
    text = json.dumps(rows, ensure_ascii=False)
    tracemalloc.start()
    try:
        result = stored_result('["a", "b"]', text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result == Result(["a", "b"], rows[:5], 40_000)
    assert peak < 100_000, peak  # json.loads of it: several MB
    assert stored_result('["a"]', "[[1], [2]") == Result([], [], 0)
    assert stored_result('["a"]', '{"rows": []}') == Result([], [], 0)
    assert stored_result(["a"], [[1], [2]]) == Result(["a"], [[1], [2]], 2)
