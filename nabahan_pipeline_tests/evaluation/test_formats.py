"""One way to write each kind of number, in every view."""

from __future__ import annotations

import math

from nabahan_pipeline.evaluation.formats import format_interval, format_rate, format_seconds, format_value, interval_text
from nabahan_pipeline.evaluation.summary import report_rows, summarize
from nabahan_fixtures.synthetic import fixed_summary, make_scores


def test_a_rate_with_its_interval_is_written_one_way() -> None:
    assert format_rate(0.85, 0.621, 0.948) == "85.0% (62.1-94.8)"
    assert format_rate(0.85, math.nan, math.nan) == format_rate(0.85) == "85.0%"
    assert interval_text(0.621, 0.948) == "62.1-94.8" and interval_text(None, 0.9) == ""
    assert format_interval({"r_low": 0.621, "r_high": 0.948}, "r") == "(62.1-94.8)"
    assert format_rate(None) == "n/a"


def test_seconds_are_written_by_one_function() -> None:
    assert format_seconds(1.854, unit="s", decimals=2) == "1.85s"  # the console
    assert format_seconds(1.854, unit="", decimals=2) == "1.85"  # the CSV and the HTML report
    assert format_seconds(4.5678) == "4.57 s" and format_seconds(0.0076) == "0.0076 s"  # the charts
    assert format_seconds(math.nan) == "n/a" and format_seconds(0.0) == "0 s"


def test_the_report_rows_carry_each_figure_once_with_its_interval() -> None:
    rows = {row.key: row for row in report_rows(fixed_summary().iloc[0])}
    correct = rows["correct_rate"]
    assert (correct.label, correct.value, correct.kind) == ("Correct Rate", 0.79, "rate")
    assert correct.rate_text().startswith("79.0% (") and correct.low < 0.79 < correct.high
    assert rows["p95_latency"].text() == "4.57" and rows["avg_latency_score"].text() == "0.900"
    assert rows["cases"].low is None and format_value("count", 3.0) == 3
    summary = summarize(make_scores(12, seed=5))
    assert [row.key for row in report_rows(summary.iloc[0])][:3] == ["cases", "total", "passed"]
