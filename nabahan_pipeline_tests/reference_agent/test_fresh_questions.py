"""The fresh question set (data/fresh_questions.json, issue 15) is well formed: enough questions of
every category and phrasing kind, gold SQL that is one read-only SELECT and answers something on
the default database, no question copied from the agent's own suite. So is the held-out set
(data/holdout_questions.json: written after the agent was widened on the fresh set, by someone who
did not widen it, to measure how far that work carries to unseen phrasings). The agent's figures
on both are measured by bench/bench_agent.py --suite, not asserted here."""

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
from nabahan_pipeline_tests.etimad_db.queries import scalar

DATA = Path(__file__).parents[1] / "data"
FRESH = DATA / "fresh_questions.json"
HOLDOUT = DATA / "holdout_questions.json"
SETS = (FRESH, HOLDOUT)
AGENT_SUITE = DATA / "agent_questions.json"

# The phrasing kinds the set is written in; each names what a question exercises.
KINDS = frozenset(
    {
        "plain",
        "negation",
        "date_range",
        "relative_date",
        "several_years",
        "hijri",
        "deadline_date",
        "award_date",
        "value_wording",
        "booklet_price",
        "awarded_vs_estimated",
        "share",
        "difference",
        "comparison",
        "agency_short_name",
        "agency_group",
        "reference_lookup",
        "future_projects",
        "out_of_scope",
    }
)
# The relative dates' gold SQL ("this month", "last quarter") is written against this as-of date:
# the latest publish_date of the default database.
AS_OF = "2026-10-31"
TAGS = frozenset({"hard"})


def _cases(path: Path = FRESH) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


def _in_scope(path: Path = FRESH) -> list[dict]:
    return [case for case in _cases(path) if case["category"] != OUT_OF_SCOPE]


def test_the_set_is_large_with_every_category_and_kind() -> None:
    cases = _cases()
    assert len(cases) >= 150
    assert len({case["id"] for case in cases}) == len(cases)
    assert {case["category"] for case in cases} == set(CATEGORIES)
    assert {case["kind"] for case in cases} == KINDS
    assert sum(case["category"] == OUT_OF_SCOPE for case in cases) >= 30
    assert len(_in_scope()) >= 150


@pytest.mark.parametrize("path", SETS, ids=lambda path: path.stem)
def test_out_of_scope_is_a_kind_and_a_category_at_once(path: Path) -> None:
    for case in _cases(path):
        assert case["kind"] in KINDS and case["category"] in CATEGORIES, case["id"]
        out = case["category"] == OUT_OF_SCOPE
        assert (case["kind"] == "out_of_scope") == out, case["id"]
        if out:
            assert case["expected_table"] is None and case["expected_sql"] is None, case["id"]
        else:
            assert case["expected_table"] and case["expected_sql"], case["id"]


def test_about_a_third_is_tagged_hard() -> None:
    cases = _cases()
    assert all(set(case.get("tags", [])) <= TAGS for case in cases)
    hard = sum("hard" in case.get("tags", []) for case in cases)
    assert 0.25 <= hard / len(cases) <= 0.45, hard


@pytest.mark.parametrize("path", SETS, ids=lambda path: path.stem)
def test_it_loads_as_an_eval_test_file_and_its_gold_runs_on_every_database(default_db: Path, path: Path) -> None:
    cases = load_test_cases(path)
    assert list(cases["case_id"]) == [case["id"] for case in _cases(path)]
    # As `nabahan eval --test-file` checks it: raises on a table or gold SQL that fails on the
    # default database or on a test-suite database.
    check_against_database(cases, path, default_db, suite_databases(SETTINGS["test_suite_databases"].default))


@pytest.mark.parametrize("case", _in_scope(FRESH) + _in_scope(HOLDOUT), ids=lambda case: case["id"])
def test_gold_sql_is_one_read_only_select_with_an_answer(default_db: Path, case: dict) -> None:
    check_read_only_select(case["expected_sql"])
    result = expected_result(default_db, case["expected_sql"])
    assert result.rows and not result.truncated, "the gold returns nothing or more than can be compared"
    assert all(any(value is not None for value in row) for row in result.rows), "a row of NULLs"
    if len(result.rows) == 1 and len(result.rows[0]) == 1:
        (value,) = result.rows[0]
        assert value is not None
        assert value != 0 or "note" in case, "a zero answer must be intended and say so in a note"


def test_relative_dates_are_written_against_the_as_of_date(default_db: Path) -> None:
    assert scalar(default_db, "SELECT MAX(publish_date) FROM tenders_full_details") == AS_OF
    relative = [case for path in SETS for case in _cases(path) if case["kind"] == "relative_date"]
    assert relative and all(re.search(r"'20\d\d-\d\d-\d\d'", case["expected_sql"]) for case in relative)


def _comparable(question: str) -> str:
    """A question with spelling variants, punctuation and the tenders' synonyms folded."""
    text = normalize_arabic(question)
    text = re.sub(r"[^\w\s]", " ", text).replace("مناقص", "منافس")
    return " ".join(text.split())


def test_no_question_repeats_one_of_the_agent_suite_or_of_the_sets() -> None:
    seen = {_comparable(case["question"]) for case in json.loads(AGENT_SUITE.read_text(encoding="utf-8"))}
    for case in _cases(FRESH) + _cases(HOLDOUT):
        key = _comparable(case["question"])
        assert key not in seen, case["id"]
        seen.add(key)
