"""The case file's table, ``test_cases``, as a pandera schema, and the words a case's category may
be: what the cases, the scorers and the summary read of a case."""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import json_text

# The words a case's category may be; out_of_scope cases name no table.
CATEGORIES: tuple[str, ...] = (
    "count", "region_filter", "aggregation", "distribution", "lookup", "time_filter", "value_filter",
    "out_of_scope",
)
OUT_OF_SCOPE = "out_of_scope"


def _known_category(category: pd.Series) -> pd.Series:
    return category.isin(CATEGORIES)


def _has_expected_table(cases: pd.DataFrame) -> pd.Series:
    return (cases["category"] == OUT_OF_SCOPE) | cases["expected_table"].notna()


TEST_CASES = pa.DataFrameSchema(
    {
        "case_id": pa.Column(str, unique=True, description="`id` from the file, else derived from the content (stable)."),
        "question": pa.Column(str, description="The question asked of the agent."),
        "category": pa.Column(
            str,
            pa.Check(_known_category, name="known_category", description="one of evaluation.tables.CATEGORIES"),
            description="What the case asks for (count, lookup ...); out_of_scope: the agent should refuse.",
        ),
        "expected_table": pa.Column(str, nullable=True, description="The table the SQL should read; required for in-scope cases."),
        "expected_response": pa.Column(str, nullable=True, description="What a good answer says (for people)."),
        "description": pa.Column(str, nullable=True, description="What the case tests."),
        "filters": pa.Column(str, json_text(dict), nullable=True, description="JSON object text, passed to the agent."),
        "expected_sql": pa.Column(str, nullable=True, description="Gold SQL on the evaluation database."),
        "tags": pa.Column(str, json_text(list), description="JSON list text, [] when absent."),
        "must_pass": pa.Column(bool, description="no_regression fails when this case is not right (false when absent)."),
    },
    checks=[
        pa.Check(_has_expected_table, name="in_scope_cases_name_a_table",
                 description="every in-scope case has an expected_table"),
    ],
    name="test_cases",
    description="The validated test cases, one row per case, in file order.",
    strict=True,
    ordered=True,
)

TEST_CASE_COLUMNS: tuple[str, ...] = tuple(TEST_CASES.columns)
