"""The phrasing set (data/phrasing_questions.json, issue 41) is well formed: at least 150 questions
written as people type them (dialects beyond the Gulf, English words, greetings and wrappers, two
questions in one, calendar periods, ordinals, neither/nor, thresholds on groups, the overall
average, yes/no comparisons, years in words, typos in names, tenders by name), every kind present,
gold SQL that is one read-only SELECT answering something on every database, no question copied
from another set. The agent's figures on it are measured by bench/bench_agent.py --suite; what it
must never do on it (answer wrongly, answer an out-of-scope question) is asserted here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
from nabahan_pipeline.etimad_db.store import suite_databases
from nabahan_pipeline.evaluation.cases import check_against_database, load_test_cases
from nabahan_pipeline.evaluation.execution_match import execution_match, expected_result
from nabahan_pipeline.evaluation.tables import OUT_OF_SCOPE
from nabahan_pipeline.settings import SETTINGS
from nabahan_pipeline_tests.reference_agent.test_fresh_questions import _comparable

DATA = Path(__file__).parents[1] / "data"
PHRASING = DATA / "phrasing_questions.json"
EARLIER = ("agent_questions.json", "fresh_questions.json", "holdout_questions.json", "redteam_questions.json",
           "wording_questions.json")
KINDS = frozenset(
    {
        "dialect", "english_word", "wrapper", "unused_word", "two_questions", "calendar", "ordinal",
        "neither_nor", "group_threshold", "above_average", "yes_no", "the_most", "year_in_words",
        "name_typo", "tender_name", "out_of_scope",
    }
)


def _cases() -> list[dict]:
    return json.loads(PHRASING.read_text(encoding="utf-8"))


def test_the_set_is_large_with_every_kind() -> None:
    cases = _cases()
    assert len(cases) >= 150
    assert len({case["id"] for case in cases}) == len(cases)
    assert {case["kind"] for case in cases} == KINDS
    assert sum(case["category"] == OUT_OF_SCOPE for case in cases) >= 20
    for case in cases:
        out = case["category"] == OUT_OF_SCOPE
        assert (case["kind"] == "out_of_scope") == out, case["id"]
        assert (case["expected_sql"] is None) == out, case["id"]


def test_it_loads_as_an_eval_test_file_and_its_gold_runs_on_every_database(default_db: Path) -> None:
    cases = load_test_cases(PHRASING)
    assert list(cases["case_id"]) == [case["id"] for case in _cases()]
    check_against_database(cases, PHRASING, default_db, suite_databases(SETTINGS["test_suite_databases"].default))


@pytest.mark.parametrize("case", [c for c in _cases() if c["expected_sql"]], ids=lambda case: case["id"])
def test_gold_sql_is_one_read_only_select_with_an_answer(default_db: Path, case: dict) -> None:
    check_read_only_select(case["expected_sql"])
    result = expected_result(default_db, case["expected_sql"])
    assert result.rows and not result.truncated
    assert all(any(value is not None for value in row) for row in result.rows)
    if len(result.rows) == 1 and len(result.rows[0]) == 1:
        assert result.rows[0][0] not in (None, 0)


def test_no_question_repeats_one_of_the_earlier_sets() -> None:
    seen = {_comparable(case["question"]) for name in EARLIER
            for case in json.loads((DATA / name).read_text(encoding="utf-8"))}
    for case in _cases():
        key = _comparable(case["question"])
        assert key not in seen, case["id"]
        seen.add(key)


def test_the_agent_answers_none_wrongly_and_refuses_every_out_of_scope_question(agent, default_db: Path) -> None:
    wrong, answered = [], []
    for case in _cases():
        answer = agent.ask(case["question"])
        if case["category"] == OUT_OF_SCOPE:
            if answer["status"] != "out_of_scope":
                answered.append(case["id"])
        elif answer["status"] == "success":
            gold = expected_result(default_db, case["expected_sql"])
            if not execution_match(answer["rows"], gold, case["expected_sql"]):
                wrong.append(case["id"])
    assert not answered, answered
    assert not wrong, wrong
