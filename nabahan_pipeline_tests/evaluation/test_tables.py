"""The table schemas: the same columns, types and nullability as docs/internals.md says; the
tables the core makes hold to them, before and after a Parquet round trip; a wrong table fails."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pandera.pandas as pa
import pytest

from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.evaluation.cases import load_test_cases
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.tables import (
    AGENT_COMPARISON,
    AGENT_RESPONSES,
    CASE_SCORES,
    EVALUATION_SUMMARY,
    TEST_CASES,
)
from nabahan_pipeline.settings import SHIPPED_TEST_CASES
from nabahan_pipeline_tests.sample_agents import counting_agent

INTERNALS = Path(__file__).resolve().parents[2] / "docs" / "internals.md"
SCHEMAS = {schema.name: schema for schema in (TEST_CASES, AGENT_RESPONSES, CASE_SCORES, EVALUATION_SUMMARY,
                                                AGENT_COMPARISON)}
TYPE_WORDS = {"nullable bool": "boolean", "str or None": "str", "str": "str", "int": "int64", "float": "float64",
              "bool": "bool", "as above": None}
_TYPE = re.compile(r"^(" + "|".join(TYPE_WORDS) + r")\b")


def documented_tables(text: str) -> dict[str, dict[str, tuple[str | None, bool]]]:
    """Each table of the Markdown: column -> (pandas dtype, may be missing); the dtype is None for a
    column documented "as above" that no table above has."""
    tables: dict[str, dict[str, tuple[str | None, bool]]] = {}
    current = None
    for line in text.splitlines():
        heading = re.match(r"^`(\w+)`: ", line)
        if heading:
            current = tables.setdefault(heading.group(1), {})
        elif current is not None and line.startswith("|") and not re.match(r"^\|[-| ]+\|$|^\| column \|", line):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            names = [name.strip() for name in cells[0].split(",")]
            pieces = [piece.strip() for piece in cells[1].split(",")]
            typed = len(names) > 1 and len(pieces) >= len(names) and all(_TYPE.match(p) for p in pieces[: len(names)])
            for index, name in enumerate(names):
                piece = pieces[index] if typed else cells[1]
                current[name] = _column_type(piece, name, tables)
    return tables


def _column_type(text: str, name: str, tables: dict) -> tuple[str | None, bool]:
    word = _TYPE.match(text).group(1)
    if word == "as above":
        above = [table[name] for table in list(tables.values())[:-1] if name in table]
        return above[-1] if above else (None, False)
    return TYPE_WORDS[word], word in ("nullable bool", "str or None") or "NaN" in text


def test_the_schemas_are_the_documented_tables():
    documented = documented_tables(INTERNALS.read_text(encoding="utf-8"))
    assert set(documented) == set(SCHEMAS)
    for table, columns in documented.items():
        schema = SCHEMAS[table]
        assert set(schema.columns) == set(columns), table
        for name, (dtype, nullable) in columns.items():
            column = schema.columns[name]
            assert column.description, f"{table}.{name} has no description"
            if dtype is not None:
                assert (str(column.dtype), column.nullable) == (dtype, nullable), f"{table}.{name}"


def test_the_document_parser_reads_types_nullability_and_as_above():
    text = (
        "`a`: one.\n\n| column | type | notes |\n|---|---|---|\n| x | str or None | |\n| y, z | int, float 0..1 | |\n"
        "\n`b`: two.\n\n| column | type |\n|---|---|\n| x, w | as above |\n| v, u | float, NaN when unknown |\n"
    )
    assert documented_tables(text) == {
        "a": {"x": ("str", True), "y": ("int64", False), "z": ("float64", False)},
        "b": {"x": ("str", True), "w": (None, False), "v": ("float64", True), "u": ("float64", True)},
    }


class MixedAgent:
    """Answers in turn: a count, a refusal, an exception (an error row)."""

    spec = "test:mixed"

    def __init__(self) -> None:
        self.calls = 0

    def ask(self, question: str, filters: dict | None = None) -> dict:
        self.calls += 1
        if self.calls % 3 == 2:
            return {"status": "out_of_scope", "sql": None, "data": [], "error": None,
                    "insights": "عذراً، هذا السؤال خارج نطاق بيانات المنافسات الحكومية."}
        if self.calls % 3 == 0:
            raise RuntimeError("database is locked")
        return counting_agent(question, filters)


@pytest.mark.parametrize("with_database", [True, False], ids=["database", "no-database"])
def test_the_core_tables_round_trip_through_parquet_within_their_schemas(
    tmp_path: Path, default_db: Path, with_database: bool
):
    cases = load_test_cases(SHIPPED_TEST_CASES)
    if not with_database:  # no gold SQL: execution and test-suite match NaN, rows never verified (NA)
        cases = cases.assign(expected_sql=None)
    responses = run_agent(cases, MixedAgent(), concurrency=1)
    scores = score_responses(cases, responses, default_db if with_database else None)
    summary = summarize(scores)
    assert set(responses["status"]) == {"success", "out_of_scope", "error"}
    assert scores["rows_verified"].isna().all() != with_database
    for schema, table in ((TEST_CASES, cases), (AGENT_RESPONSES, responses), (CASE_SCORES, scores),
                          (EVALUATION_SUMMARY, summary)):
        schema.validate(table, lazy=True)
        path = tmp_path / f"{schema.name}.parquet"
        table.to_parquet(path, engine="pyarrow", index=False)  # as the IO manager stores it
        stored = pd.read_parquet(path, engine="pyarrow")
        schema.validate(stored, lazy=True)
        pd.testing.assert_frame_equal(stored, table)


def test_a_wrong_table_is_refused_naming_the_column(default_db: Path):
    cases = load_test_cases(SHIPPED_TEST_CASES)
    scores = score_responses(cases, run_agent(cases, MixedAgent(), concurrency=1), default_db)
    wrong = {
        "retrieval_points": scores.assign(retrieval_points=4),
        "latency_tier": scores.assign(latency_tier="Slow"),
        "latency_s": scores.assign(latency_s=scores["latency_s"].astype(str)),
        "hallucination_markers": scores.assign(hallucination_markers="not JSON"),
        "distinct_results": scores.drop(columns="distinct_results"),
    }
    for column, table in wrong.items():
        with pytest.raises(pa.errors.SchemaErrors, match=column):
            CASE_SCORES.validate(table, lazy=True)
    with pytest.raises(pa.errors.SchemaErrors, match="known_category"):
        TEST_CASES.validate(cases.assign(category="weather"), lazy=True)
    with pytest.raises(pa.errors.SchemaErrors, match="overall_first"):
        EVALUATION_SUMMARY.validate(summarize(scores).iloc[::-1], lazy=True)


def test_the_columns_the_charts_read_are_the_tables_columns() -> None:
    # The charts check for the few columns they draw; those names must be the schemas' own.
    from nabahan_pipeline.evaluation.charts import inputs

    assert set(inputs._SUMMARY_COLUMNS) <= set(EVALUATION_SUMMARY.columns)
    assert set(inputs._SCORES_COLUMNS) <= set(CASE_SCORES.columns)
