"""Two scripted agents evaluated for real, then compared: every figure of the comparison checked
against what their scripts make them answer (sample_agents.agent_a / agent_b)."""

from __future__ import annotations

import io
import json
import math
import warnings
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline import NabahanEvaluationPipeline
from nabahan_pipeline.evaluation.charts.comparison import plot_agent_comparison
from nabahan_pipeline.evaluation.charts.style import chart_style
from nabahan_pipeline.evaluation.comparison import (
    AGENT_FIGURES,
    ComparisonError,
    compare_agents,
    write_comparison,
)
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline_tests import sample_agents

AGENTS = {
    "A": "python:nabahan_pipeline_tests.sample_agents:agent_a",
    "B": "python:nabahan_pipeline_tests.sample_agents:agent_b",
}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pd.DataFrame]:
    """Each agent's case_scores from a real run of the pipeline on sample_agents.COMPARED_CASES."""
    root = tmp_path_factory.mktemp("compare")
    cases = root / "cases.json"
    cases.write_text(json.dumps(sample_agents.COMPARED_CASES, ensure_ascii=False), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NABAHAN_HOME", str(root / "home"))
        patch.delenv("DAGSTER_HOME", raising=False)
        scores = {}
        for label, spec in AGENTS.items():
            result = NabahanEvaluationPipeline(
                output_dir=root / "out", test_file=cases, agent=spec, use_cache=False
            ).run_complete_pipeline()
            scores[label] = pd.DataFrame(result["results"])
    return scores


@pytest.fixture(scope="module")
def comparison(evaluated: dict[str, pd.DataFrame]):
    return compare_agents({label: summarize(s) for label, s in evaluated.items()}, evaluated)


def test_one_row_per_agent_with_the_figures_their_answers_make(comparison):
    agents = comparison.agents.set_index("agent")
    assert list(agents.index) == ["A", "B"]
    assert list(comparison.agents.columns) == ["agent", *AGENT_FIGURES]
    a, b = agents.loc["A"], agents.loc["B"]
    # A: both counts by their gold SQL, the weather refused.
    assert (a["cases"], a["total"], a["correct"], a["passed"]) == (3, 3, 3, 3)
    assert a["correct_rate"] == 1.0 and a["pass_rate"] == 1.0
    assert a["execution_accuracy"] == 1.0 and a["test_suite_accuracy"] == 1.0
    assert (a["errors"], a["unsafe_sql"]) == (0, 0)
    assert a["total_tokens"] == 3 * (100 + 20)
    # B: tenders right, projects counted on the wrong table (its seed checks still pass: 2 of 3
    # retrieval points), the weather an error.
    assert (b["cases"], b["total"], b["correct"], b["passed"]) == (3, 3, 1, 2)
    assert b["correct_rate"] == pytest.approx(1 / 3) and b["pass_rate"] == pytest.approx(2 / 3)
    assert b["execution_accuracy"] == 0.5 and b["test_suite_accuracy"] == 0.5
    assert (b["errors"], b["unsafe_sql"]) == (1, 0)
    assert math.isnan(b["total_tokens"])
    # A sleeps 0.1 s, B 0.3 s per answer: both percentiles near that, B's above A's.
    for label, sleep in (("A", 0.1), ("B", 0.3)):
        for figure in ("p50_latency", "p95_latency"):
            assert sleep <= agents.loc[label, figure] < sleep + 0.15, (label, figure)
    assert agents.loc["B", "p50_latency"] > agents.loc["A", "p95_latency"]


def test_the_case_matrix_puts_disagreements_first_with_the_reason(comparison):
    matrix = comparison.cases
    assert list(matrix.columns) == ["case_id", "category", "question", "agents_disagree", "A", "B"]
    assert matrix["case_id"].tolist() == ["projects", "weather", "tenders"]
    assert matrix["agents_disagree"].tolist() == [True, True, False]
    assert matrix["A"].tolist() == ["correct", "correct", "correct"]
    assert matrix["B"].tolist() == ["wrong result", "error: upstream down", "correct"]
    assert matrix["question"].iloc[2] == sample_agents.COMPARED_CASES[0]["question"]


def test_each_category_has_each_agents_correct_rate(comparison):
    categories = comparison.categories
    assert categories["category"].tolist() == ["count", "out_of_scope"]
    assert categories["A"].tolist() == [1.0, 1.0]
    assert categories["B"].tolist() == [0.5, 0.0]


def test_repeats_and_cases_one_agent_was_not_asked(evaluated):
    a = evaluated["A"]
    twice = pd.concat([a, a.assign(repeat=1)], ignore_index=True)
    twice.loc[(twice["case_id"] == "projects") & (twice["repeat"] == 1), ["correct", "not_correct_because"]] = (
        False, "wrong result")
    only_two = evaluated["B"][evaluated["B"]["case_id"] != "weather"]
    result = compare_agents({"twice": summarize(twice), "B": summarize(only_two)}, {"twice": twice, "B": only_two})
    cells = result.cases.set_index("case_id")
    assert cells.loc["projects", "twice"] == "1/2 correct; wrong result"
    assert cells.loc["weather", "B"] == "not asked"
    # Only the agents asked count (the weather was asked of one), and only the verdict, not the
    # reason: both are wrong on the projects.
    assert not cells.loc["weather", "agents_disagree"] and not cells.loc["projects", "agents_disagree"]


def test_labels_that_cannot_be_compared_are_refused(evaluated):
    s = evaluated["A"]
    with pytest.raises(ComparisonError, match="no agent"):
        compare_agents({}, {})
    with pytest.raises(ComparisonError, match="'question'"):
        compare_agents({"question": summarize(s)}, {"question": s})
    with pytest.raises(ComparisonError, match="different agents"):
        compare_agents({"A": summarize(s)}, {"B": s})


def test_the_csv_files_are_formula_safe_and_never_overwritten(comparison, evaluated, tmp_path: Path):
    hostile = evaluated["A"].assign(question="=HYPERLINK(\"http://x\")")
    unsafe = compare_agents({"=cmd": summarize(hostile)}, {"=cmd": hostile})
    first = write_comparison(unsafe, tmp_path, "20260101_000000")
    second = write_comparison(comparison, tmp_path, "20260101_000000")
    assert first["agents_csv"] != second["agents_csv"] and second["agents_csv"].name.endswith("_2.csv")
    agents = pd.read_csv(first["agents_csv"], encoding="utf-8-sig")
    cases = pd.read_csv(first["cases_csv"], encoding="utf-8-sig")
    assert agents["agent"].tolist() == ["'=cmd"]
    assert "'=cmd" in cases.columns and set(cases["question"]) == {"'=HYPERLINK(\"http://x\")"}
    assert first["agents_csv"].read_bytes().startswith(b"\xef\xbb\xbf")
    again = pd.read_csv(second["cases_csv"], encoding="utf-8-sig")
    assert again["B"].tolist() == comparison.cases["B"].tolist()


def test_the_chart_draws_each_agents_bars_and_point_without_a_missing_glyph(comparison):
    fig = plot_agent_comparison(comparison.agents, comparison.categories)
    bars, scatter = fig.axes
    # Two categories x two agents, each bar as long as the rate.
    widths = sorted(round(p.get_width(), 6) for p in bars.patches)
    assert widths == [0.0, 50.0, 100.0, 100.0]
    assert [t.get_text() for t in bars.get_legend().get_texts()] == ["A", "B"]
    points = [tuple(c.get_offsets()[0]) for c in scatter.collections]
    agents = comparison.agents.set_index("agent")
    assert points[0] == pytest.approx((agents.loc["A", "p50_latency"], 100.0))
    assert points[1] == pytest.approx((agents.loc["B", "p50_latency"], 100 / 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a "Glyph missing" warning fails
        with chart_style():
            fig.savefig(io.BytesIO(), format="png")
