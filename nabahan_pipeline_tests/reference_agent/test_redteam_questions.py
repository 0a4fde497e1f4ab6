"""The red-team question set (data/redteam_questions.json, issue 15) is well formed: the fresh
set's kinds and categories, gold SQL that is one read-only SELECT with an answer on the default
database and runs on the test-suite databases, no question repeated from the agent's suite or
the fresh set. Written to find confident wrong answers; the agent's figures on it are measured by
bench/bench_agent.py --suite, and every-set accounting (parser/test_intent.py) asserts that
its out-of-scope questions are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
from nabahan_pipeline.etimad_db.store import suite_databases
from nabahan_pipeline.evaluation.cases import check_against_database, load_test_cases
from nabahan_pipeline.evaluation.execution_match import expected_result
from nabahan_pipeline.evaluation.tables import CATEGORIES, OUT_OF_SCOPE
from nabahan_pipeline.settings import SETTINGS

DATA = Path(__file__).parents[1] / "data"
REDTEAM = DATA / "redteam_questions.json"
FRESH = DATA / "fresh_questions.json"
AGENT_SUITE = DATA / "agent_questions.json"


def _cases(path: Path = REDTEAM) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


def _in_scope() -> list[dict]:
    return [case for case in _cases() if case["category"] != OUT_OF_SCOPE]


def test_the_set_is_large_and_uses_the_fresh_sets_kinds_and_categories() -> None:
    cases = _cases()
    kinds = {case["kind"] for case in _cases(FRESH)}
    assert len(cases) >= 200
    assert len({case["id"] for case in cases}) == len(cases)
    for case in cases:
        assert case["kind"] in kinds and case["category"] in CATEGORIES, case["id"]
        out = case["category"] == OUT_OF_SCOPE
        assert (case["kind"] == "out_of_scope") == out, case["id"]
        assert (case["expected_sql"] is None) == out and (case["expected_table"] is None) == out, case["id"]


def test_it_loads_as_an_eval_test_file_and_its_gold_runs_on_every_database(default_db: Path) -> None:
    cases = load_test_cases(REDTEAM)
    assert list(cases["case_id"]) == [case["id"] for case in _cases()]
    check_against_database(cases, REDTEAM, default_db, suite_databases(SETTINGS["test_suite_databases"].default))


@pytest.mark.parametrize("case", _in_scope(), ids=lambda case: case["id"])
def test_gold_sql_is_one_read_only_select_with_an_answer(default_db: Path, case: dict) -> None:
    check_read_only_select(case["expected_sql"])
    result = expected_result(default_db, case["expected_sql"])
    assert result.rows and not result.truncated
    assert all(any(value is not None for value in row) for row in result.rows)
    if len(result.rows) == 1 and len(result.rows[0]) == 1:
        assert result.rows[0][0] not in (None, 0)


def _comparable(question: str) -> str:
    text = normalize_arabic(question)
    text = re.sub(r"[^\w\s]", " ", text).replace("مناقص", "منافس")
    return " ".join(text.split())


def test_no_question_repeats_one_of_the_agent_suite_or_the_fresh_set() -> None:
    seen = {_comparable(case["question"]) for path in (AGENT_SUITE, FRESH) for case in _cases(path)}
    mine = [_comparable(case["question"]) for case in _cases()]
    assert len(set(mine)) == len(mine)
    assert not [q for q in mine if q in seen]
