"""The labelled claims set judged as a user would judge it: each item's SQL run on the database,
the answer it makes (those rows, the item's insight) scored by ``score_responses`` against a case
whose gold SQL is the same SQL, so that only the insight decides Correct. For the test and
bench/study_claims.py alike (as ``synthetic``): a right item should be Correct, a wrong one not.

An item (``nabahan_pipeline_tests/data/claims_labelled.json``) has id, question, category, status,
sql (None for a refusal), insight, label ("right" or "wrong") and kind (the fault of a wrong item,
the style of a right one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.etimad_db.sql_safety import QueryResult, referenced_tables, run_read_only
from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses

__all__ = ["LABELS", "ITEM_COLUMNS", "load_items", "run_item_sql", "score_items"]

LABELS = ("right", "wrong")
ITEM_COLUMNS = ("id", "question", "category", "status", "sql", "insight", "label", "kind")
SCORE_COLUMNS = ("item", "label", "kind", "correct", "not_correct_because")
_TENDERS = "tenders_full_details"


def load_items(path: str | Path) -> list[dict[str, Any]]:
    """The items of a labelled set, each checked for its keys and label (ValueError names the first bad one)."""
    items = json.loads(Path(path).read_text(encoding="utf-8"))
    for item in items:
        missing = [key for key in ITEM_COLUMNS if key not in item]
        if missing or item["label"] not in LABELS:
            raise ValueError(f"claims item {item.get('id')!r}: missing {missing} or label {item.get('label')!r}")
    return items


def run_item_sql(item: Mapping[str, Any], database: str | Path) -> QueryResult | None:
    """The rows the item's SQL returns on ``database`` (read-only), or None for a refusal."""
    return None if item["sql"] is None else run_read_only(database, item["sql"])


def score_items(items: Sequence[Mapping[str, Any]], database: str | Path | None = None) -> pd.DataFrame:
    """Every item scored by ``score_responses`` on ``database`` (the default one unless told): a
    frame of item, label, kind, correct and not_correct_because, in the items' order."""
    database = ensure_database(database)
    cases = pd.DataFrame([_case(item) for item in items])
    results: dict[str | None, QueryResult | None] = {}  # each distinct SQL run once: many items share one
    for item in items:
        if item["sql"] not in results:
            results[item["sql"]] = run_item_sql(item, database)
    answers = {item["id"]: _answer(item, results[item["sql"]]) for item in items}
    by_id = {item["id"]: item for item in items}
    responses = pd.concat(
        [run_agent(cases[cases["case_id"].isin(ids)],
                   _ScriptedAgent({by_id[i]["question"]: answers[i] for i in ids}), concurrency=1)
         for ids in _rounds(items)],
        ignore_index=True,
    )
    scores = score_responses(cases, responses, database).set_index("case_id")
    return pd.DataFrame(
        [{"item": item["id"], "label": item["label"], "kind": item["kind"],
          "correct": bool(scores.at[item["id"], "correct"]),
          "not_correct_because": scores.at[item["id"], "not_correct_because"]} for item in items],
        columns=list(SCORE_COLUMNS),
    )


def _case(item: Mapping[str, Any]) -> dict[str, Any]:
    """The test case of an item: its SQL as the gold, the table it reads as the expected table."""
    sql = item["sql"]
    table = None
    if sql is not None:
        tables = referenced_tables(sql)
        table = _TENDERS if _TENDERS in tables or not tables else sorted(tables)[0]
    return {"case_id": item["id"], "question": item["question"], "category": item["category"],
            "expected_table": table, "expected_response": None, "description": item.get("note"), "filters": None,
            "expected_sql": sql, "tags": "[]"}


def _answer(item: Mapping[str, Any], result: QueryResult | None) -> dict[str, Any]:
    """The agent's answer of an item: its status and SQL, the rows that SQL returns, its insight."""
    columns, rows = ([], []) if result is None else (list(result.columns), [list(row) for row in result.rows])
    return {"status": item["status"], "sql": item["sql"], "columns": columns, "rows": rows, "insights": item["insight"]}


def _rounds(items: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The item ids in rounds within which no question repeats: an agent answers by the question."""
    rounds: list[dict[str, str]] = []  # each round: question -> item id
    for item in items:
        free = next((r for r in rounds if item["question"] not in r), None)
        if free is None:
            rounds.append(free := {})
        free[item["question"]] = item["id"]
    return [list(ids.values()) for ids in rounds]


class _ScriptedAgent:
    """An agent that gives the scripted answer of each question it is asked."""

    spec = "claims-set:scripted"

    def __init__(self, answers: Mapping[str, dict[str, Any]]):
        self._answers = dict(answers)

    def ask(self, question: str, filters: dict | None = None) -> dict[str, Any]:
        return self._answers[question]

    def fingerprint(self) -> str:
        return self.spec
