"""compare_agents over hand-made case_scores and their real summaries: repeats, a case one agent
lacks, the order of the matrix, the CSV forms."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.comparison import (
    NOT_EVALUATED,
    agents_report,
    agents_table,
    compare_agents,
    matrix_report,
    paired_lines,
    pairs_report,
    write_comparison,
)
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.tables import AGENT_COMPARISON
from nabahan_fixtures.synthetic import make_scores


def scores(verdicts: dict[str, list[tuple[bool, str]]], latency: float = 1.0) -> pd.DataFrame:
    """case_scores rows from make_scores, reshaped: per case id, one row per repeat with its
    verdict (correct, why not)."""
    template = make_scores(1, seed=3).iloc[0]
    rows = []
    for number, (case_id, answers) in enumerate(verdicts.items(), start=1):
        for repeat, (correct, why) in enumerate(answers):
            rows.append({**template.to_dict(), "query_num": number, "case_id": case_id, "repeat": repeat,
                         "question": f"سؤال {case_id}", "category": "count" if number % 2 else "lookup",
                         "correct": correct, "overall_passed": correct, "not_correct_because": why,
                         "latency_s": latency * number})
    return pd.DataFrame(rows)


@pytest.fixture
def frames() -> tuple[dict[str, pd.DataFrame], dict[str, pd.DataFrame]]:
    by_agent = {
        "first": scores({"c1": [(True, "")], "c2": [(True, "")], "c3": [(False, "wrong result")]}),
        "second": scores({"c1": [(True, ""), (False, "ungrounded 7")], "c2": [(True, ""), (True, "")],
                          "c3": [(False, "error: boom"), (False, "wrong result")]}, latency=2.0),
        "third": scores({"c1": [(True, "")], "c2": [(False, "wrong result")]}),  # lacks c3
    }
    return by_agent, {label: summarize(frame) for label, frame in by_agent.items()}


def test_the_matrix_puts_disagreements_first_and_says_why_not(frames):
    comparison = compare_agents(*frames)
    assert comparison.matrix.columns.tolist() == ["case_id", "question", "category", "disagree", "agents_correct",
                                                  "first", "second", "third"]
    assert comparison.matrix.drop(columns=["question", "category"]).values.tolist() == [
        # c1: first 1/1, second 1/2, third 1/1: shares differ.
        ["c1", True, 2, "correct", "1/2 correct: ungrounded 7", "correct"],
        # c2: 1, 1, 0.
        ["c2", True, 2, "correct", "correct", "wrong result"],
        # c3: 0 and 0 (third never saw it): they agree.
        ["c3", False, 0, "wrong result", "0/2 correct: error: boom", NOT_EVALUATED],
    ]
    assert comparison.disagreements == 2 and comparison.agents["agent"].tolist() == ["first", "second", "third"]


def test_the_agents_table_is_each_summarys_overall_row(frames):
    by_agent, summaries = frames
    comparison = compare_agents(by_agent, summaries)
    AGENT_COMPARISON.validate(comparison.agents)
    AGENT_COMPARISON.validate(agents_table({}, []))  # nothing to compare: typed, empty
    second = comparison.agents.set_index("agent").loc["second"]
    assert (second["cases"], second["answers"], second["correct"]) == (3, 6, 3)
    assert second["correct_rate"] == pytest.approx(0.5)
    # latencies 2, 2, 4, 4, 6, 6: median 4, p95 at rank 4.75 -> 6
    assert (second["p50_latency"], second["p95_latency"]) == (pytest.approx(4.0), pytest.approx(6.0))
    tokens = summaries["second"].iloc[0]["total_tokens"]
    assert (math.isnan(second["total_tokens"]) and math.isnan(tokens)) or second["total_tokens"] == tokens
    report = agents_report(comparison.agents)
    assert report.loc[1, "Correct Rate"] == "50.0%" and report.loc[1, "P50 Latency (s)"] == "4.000000"
    assert comparison.categories[["agent", "category"]].values.tolist() == [
        ["first", "count"], ["second", "count"], ["third", "count"],
        ["first", "lookup"], ["second", "lookup"], ["third", "lookup"],
    ]
    assert comparison.categories.set_index(["agent", "category"]).loc[("third", "lookup"), "correct_rate"] == 0.0


def test_the_files_are_csv_safe_and_never_overwrite(frames, tmp_path: Path):
    by_agent, summaries = frames
    hostile = {"=cmd|' /C calc'!A0": by_agent["first"], "second": by_agent["second"]}
    comparison = compare_agents(hostile, {"=cmd|' /C calc'!A0": summaries["first"], "second": summaries["second"]})
    first = write_comparison(comparison, tmp_path, "20250101_000000")
    again = write_comparison(comparison, tmp_path, "20250101_000000")
    assert first["comparison_csv"].name == "agent_comparison_20250101_000000.csv"
    assert again["comparison_csv"].name == "agent_comparison_20250101_000000_2.csv"
    assert again["matrix_csv"].name == "agent_matrix_20250101_000000_2.csv"
    agents = pd.read_csv(first["comparison_csv"], encoding="utf-8-sig")
    assert agents["Agent"].tolist() == ["'=cmd|' /C calc'!A0", "second"]
    matrix = pd.read_csv(first["matrix_csv"], encoding="utf-8-sig")
    assert "'=cmd|' /C calc'!A0" in matrix.columns
    assert matrix_report(comparison.matrix)["Agents Disagree"].tolist() == ["yes", "no", "no"]


def test_nothing_to_compare_is_refused():
    with pytest.raises(ValueError, match="no agent"):
        compare_agents({}, {})
    frame = scores({"c1": [(True, "")]})
    with pytest.raises(ValueError, match="no evaluation_summary for x"):
        compare_agents({"x": frame}, {})


def test_an_instant_agents_latency_is_written_in_plain_decimals(frames):
    by_agent, summaries = frames
    agents = compare_agents(by_agent, summaries).agents.copy()
    agents["p50_latency"] = 2e-06
    assert agents_report(agents)["P50 Latency (s)"].tolist() == ["0.000002"] * len(agents)


def test_each_agent_carries_its_summarys_intervals(frames):
    by_agent, summaries = frames
    comparison = compare_agents(by_agent, summaries)
    for label, summary in summaries.items():
        row = comparison.agents.set_index("agent").loc[label]
        for rate in ("correct_rate", "pass_rate", "execution_accuracy", "test_suite_accuracy"):
            for bound in (f"{rate}_low", f"{rate}_high"):
                expected = summary.iloc[0][bound]
                assert (math.isnan(row[bound]) and math.isnan(expected)) or row[bound] == expected, (label, bound)
    columns = comparison.agents.columns.tolist()
    assert columns[columns.index("correct_rate"):columns.index("correct_rate") + 3] == [
        "correct_rate", "correct_rate_low", "correct_rate_high"]
    report = agents_report(comparison.agents)
    assert report.loc[0, "Correct Rate Low"].endswith("%") and "Test Suite Accuracy High" in report.columns
    # A summary from before the intervals: its bounds are NaN, the rest compares.
    old = {label: summary.drop(columns=[c for c in summary.columns if c.endswith(("_low", "_high"))])
           for label, summary in summaries.items()}
    agents = compare_agents(by_agent, old).agents
    AGENT_COMPARISON.validate(agents)
    assert agents["correct_rate_low"].isna().all() and agents["correct_rate"].tolist() == comparison.agents["correct_rate"].tolist()


def test_each_pair_lists_the_cases_flipped_each_way_with_mcnemar(frames):
    comparison = compare_agents(*frames)
    pairs = comparison.pairs.set_index(["agent", "against"])
    assert list(pairs.index) == [("second", "first"), ("third", "first"), ("third", "second")]
    # second has c1 right on one repeat of two: not right; the rest as first.
    assert pairs.loc[("second", "first"), ["cases", "better", "worse", "better_cases", "worse_cases"]].tolist() == [
        3, 0, 1, [], ["c1"]]
    assert pairs.loc[("third", "second"), ["cases", "better_cases", "worse_cases"]].tolist() == [2, ["c1"], ["c2"]]
    assert pairs["p_value"].tolist() == [1.0, 1.0, 1.0] and not pairs["significant"].any()


def test_a_pair_far_apart_is_significant_and_written(tmp_path: Path):
    # 8 cases the new agent gets right and the old one wrong: p = 2 / 2^8 = 0.0078125.
    old = scores({f"c{i}": [(False, "wrong result")] for i in range(8)})
    new = scores({f"c{i}": [(True, "")] for i in range(8)})
    comparison = compare_agents({"old": old, "new": new}, {"old": summarize(old), "new": summarize(new)})
    pair = comparison.pairs.iloc[0]
    assert (pair["agent"], pair["against"], pair["better"], pair["worse"]) == ("new", "old", 8, 0)
    assert pair["p_value"] == pytest.approx(0.0078125) and pair["significant"]
    lines = paired_lines(comparison.pairs, shown=3)
    assert lines[0] == "new vs old: 8 better, 0 worse of 8 cases; McNemar p = 0.00781, significant"
    assert lines[1] == "    better: c0, c1, c2 and 5 more"
    written = pd.read_csv(write_comparison(comparison, tmp_path, "20250101_000000")["pairs_csv"], encoding="utf-8-sig",
                          keep_default_na=False)
    assert written.columns.tolist() == list(pairs_report(comparison.pairs).columns)
    assert written.loc[0, ["Agent", "Against", "McNemar p", "Significant (p < 0.05)", "Cases Worse"]].tolist() == [
        "new", "old", 0.007812, "yes", ""]
    assert written.loc[0, "Cases Better"] == " ".join(f"c{i}" for i in range(8))
