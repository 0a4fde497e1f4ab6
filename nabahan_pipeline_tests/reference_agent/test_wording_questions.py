"""The wording question set (data/wording_questions.json, issue 30), written before the agent was
changed for it: agency names inside others, everyday words that change nothing, one-letter typos
in domain nouns and region names, thresholds on a group's total or count (HAVING), the members of
an agency group, ordinary and out-of-scope questions. The set is well formed, and the agent's
figures on it are asserted: at least 92 % of the in-scope questions answered right, every
out-of-scope one refused, no wrong answer given as success."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select
from nabahan_pipeline.etimad_db.store import suite_databases
from nabahan_pipeline.evaluation.cases import check_against_database, load_test_cases
from nabahan_pipeline.evaluation.execution_match import execution_match, expected_result
from nabahan_pipeline.evaluation.tables import CATEGORIES, OUT_OF_SCOPE
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.settings import SETTINGS

DATA = Path(__file__).parents[1] / "data"
WORDING = DATA / "wording_questions.json"
OTHER_SETS = ("agent_questions.json", "fresh_questions.json", "holdout_questions.json", "redteam_questions.json")
KINDS = frozenset({"nested_name", "filler_word", "typo", "having", "group_members", "plain", "out_of_scope"})


def _cases() -> list[dict]:
    return json.loads(WORDING.read_text(encoding="utf-8"))


def _comparable(question: str) -> str:
    text = re.sub(r"[^\w\s]", " ", normalize_arabic(question)).replace("مناقص", "منافس")
    return " ".join(text.split())


def test_the_set_is_large_with_every_kind() -> None:
    cases = _cases()
    assert len(cases) >= 120
    assert len({case["id"] for case in cases}) == len(cases)
    assert {case["kind"] for case in cases} == KINDS
    kinds = Counter(case["kind"] for case in cases)
    assert min(kinds.values()) >= 15, kinds
    for case in cases:
        assert case["category"] in CATEGORIES, case["id"]
        out = case["category"] == OUT_OF_SCOPE
        assert (case["kind"] == "out_of_scope") == out, case["id"]
        assert (case["expected_sql"] is None) == out and (case["expected_table"] is None) == out, case["id"]


def test_no_question_repeats_one_of_another_set() -> None:
    seen = {_comparable(c["question"]) for name in OTHER_SETS for c in json.loads((DATA / name).read_text(encoding="utf-8"))}
    for case in _cases():
        key = _comparable(case["question"])
        assert key not in seen, case["id"]
        seen.add(key)


def test_it_loads_as_an_eval_test_file_and_its_gold_runs_on_every_database(default_db: Path) -> None:
    cases = load_test_cases(WORDING)
    check_against_database(cases, WORDING, default_db, suite_databases(SETTINGS["test_suite_databases"].default))


@pytest.mark.parametrize("case", [c for c in _cases() if c["category"] != OUT_OF_SCOPE], ids=lambda c: c["id"])
def test_gold_sql_is_one_read_only_select_with_an_answer(default_db: Path, case: dict) -> None:
    check_read_only_select(case["expected_sql"])
    result = expected_result(default_db, case["expected_sql"])
    assert result.rows and not result.truncated
    assert all(any(value is not None for value in row) for row in result.rows)
    assert result.rows != [(0,)]


def test_the_agent_answers_the_set(agent: ReferenceAgent, default_db: Path) -> None:
    wrong, refused, answered, right = [], [], [], 0
    cases = _cases()
    for case in cases:
        answer = agent.ask(case["question"])
        if case["category"] == OUT_OF_SCOPE:
            if answer["status"] != "out_of_scope":
                answered.append(case["id"])
            continue
        if answer["status"] != "success":
            refused.append(case["id"])
        elif execution_match(answer["rows"], expected_result(default_db, case["expected_sql"]), case["expected_sql"]):
            right += 1
        else:
            wrong.append(case["id"])
    in_scope = sum(case["category"] != OUT_OF_SCOPE for case in cases)
    assert not wrong, wrong
    assert not answered, answered
    assert right / in_scope >= 0.92, (right, in_scope, refused)
