"""The tables, the CSV headers, the KPIs and the synthetic scores follow what the scorers declare
(scoring.declare): each column and figure declared once, every derived list made from them."""

from __future__ import annotations

import pytest

from nabahan_pipeline.evaluation.reports import RESULT_COLUMNS, SEED_COLUMNS, summary_table
from nabahan_pipeline.evaluation.scoring import consistency
from nabahan_pipeline.evaluation.scoring.case_scores import SCORERS
from nabahan_pipeline.evaluation.scoring.case_scores import ANSWER_COLUMNS, CASE_SCORE_COLUMNS, DECLARED
from nabahan_pipeline.evaluation.summary import FIGURES, KPI_FIGURES, summarize
from nabahan_fixtures.synthetic import drawn_table, make_scores
from nabahan_pipeline.evaluation.tables import CASE_SCORES, EVALUATION_SUMMARY, TREND_FIGURES


def test_every_case_scores_column_is_declared_once_with_its_schema() -> None:
    declared = [column.name for column in (*ANSWER_COLUMNS, *(c for one in SCORERS for c in one.columns),
                                           *consistency.DECLARED)]
    assert len(declared) == len(set(declared))
    assert sorted(CASE_SCORES.columns) == sorted(declared)
    for name, schema in CASE_SCORES.columns.items():
        assert schema is DECLARED[name].schema or schema.description == DECLARED[name].schema.description


def test_the_results_csv_headers_are_the_declared_ones_the_seed_s_first() -> None:
    with_header = {name for name, column in DECLARED.items() if column.header}
    assert set(RESULT_COLUMNS) == with_header
    assert all(RESULT_COLUMNS[name] == DECLARED[name].header for name in RESULT_COLUMNS)
    assert len(set(RESULT_COLUMNS.values())) == len(RESULT_COLUMNS)
    assert SEED_COLUMNS == tuple(RESULT_COLUMNS.values())[:13]
    assert SEED_COLUMNS[-1] == "Overall Passed"


def test_the_summary_table_is_the_figures_each_rate_with_its_interval() -> None:
    expected = ["scope"]
    for figure in FIGURES:
        expected += [figure.key, *((f"{figure.key}_low", f"{figure.key}_high") if figure.has_interval else ())]
    assert list(EVALUATION_SUMMARY.columns) == expected
    assert set(TREND_FIGURES) == {figure.key for figure in FIGURES if figure.trend}
    assert KPI_FIGURES[0].key == "correct_rate"


def test_the_summary_csv_labels_every_reported_figure() -> None:
    summary = summarize(make_scores(40, seed=2, repeats=2))
    metrics = summary_table(summary)["Metric"].tolist()
    for figure in FIGURES:
        shown = figure.report and not figure.left_out(summary.iloc[0][figure.key])
        assert ((figure.long_label or figure.label) in metrics) == shown, figure.key


def test_synthetic_scores_have_every_declared_column_and_a_column_neither_drawn_nor_named_fails() -> None:
    scores = make_scores(30, seed=1)
    CASE_SCORES.validate(scores)
    world = scores.drop(columns=["claims_checked", "claim_details"])
    assert drawn_table(world)["claims_checked"].eq(0).all()  # drawn by the claims scorer's declaration
    with pytest.raises(ValueError, match="no draw for error_location"):
        drawn_table(scores.drop(columns=["error_location"]))
