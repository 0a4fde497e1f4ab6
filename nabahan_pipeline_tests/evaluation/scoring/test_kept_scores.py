"""Scores kept by content: a key tells apart every value a score reads; answers alike are scored
once, answers that differ in anything a score reads are not taken for each other."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.scoring import case_scores, score_responses, seed_verdict
from nabahan_pipeline.evaluation.scoring.kept_scores import KeptScores, content_key
from nabahan_pipeline_tests.evaluation.scoring.test_case_scores import cases_frame, response

REGION_1 = "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"
ALL = "SELECT COUNT(*) FROM tenders_full_details"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "tenders.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE tenders_full_details (tender_id INTEGER PRIMARY KEY, region_id INTEGER);"
        "INSERT INTO tenders_full_details VALUES (1, 1), (2, 1), (3, 2);"
    )
    connection.commit()
    connection.close()
    return path


def test_a_key_tells_kinds_and_order_apart() -> None:
    keys = [content_key(values) for values in (["1"], [1], [1.0], [True], [None], ["None"], ["a", "b"], ["b", "a"],
                                                ["a,b"], ["a", "b", None], [""])]
    assert None not in keys and len(set(keys)) == len(keys)
    assert content_key(["نص", 2, None]) == content_key(("نص", 2, None))


def test_values_of_other_kinds_are_not_kept() -> None:
    assert content_key(["a", [1, 2]]) is None
    kept = KeptScores(4)
    kept.put(None, (1,))
    assert len(kept) == 0 and kept.get(None) is None


def test_the_least_recently_used_goes_first() -> None:
    kept = KeptScores(2)
    kept.put(b"a", (1,))
    kept.put(b"b", (2,))
    assert kept.get(b"a") == (1,)
    kept.put(b"c", (3,))
    assert kept.get(b"b") is None and kept.get(b"a") == (1,) and kept.get(b"c") == (3,)


def test_one_answer_to_two_cases_is_judged_against_each_gold(db: Path) -> None:
    # Cases a and c ask the same question; the same answer is right for a's gold, wrong for c's.
    scores = score_responses(cases_frame(a=REGION_1, c=ALL), pd.DataFrame([response("a"), response("c", latency_s=6.5)]),
                             db)
    assert list(scores["execution_match"]) == [1.0, 0.0]
    assert list(scores["correct"]) == [True, False]
    assert list(scores["latency_tier"]) == ["Excellent", "Acceptable"]


def test_errors_alike_but_for_their_message_keep_their_own_message(db: Path) -> None:
    responses = pd.DataFrame([response("a", status="error", error="first"), response("c", status="error", error="second")])
    scores = score_responses(cases_frame(), responses, db)
    assert [because.split(";")[0] for because in scores["not_correct_because"]] == ["error: first", "error: second"]


def test_the_console_and_the_table_agree_once_kept(db: Path) -> None:
    case_scores._KEPT_SEED_PARTS.clear()
    cases = cases_frame(a=REGION_1)
    answers = [response("a", insights="كنموذج لغوي لا أعرف الكثير عن مناقصات هذه المنطقة."), response("a", 1)]
    shown = [seed_verdict(cases.iloc[0].to_dict(), answer) for answer in answers]
    assert len(case_scores._KEPT_SEED_PARTS) == 2
    scores = score_responses(cases, pd.DataFrame(answers), db)
    for verdict, (_, row) in zip(shown, scores.iterrows()):
        assert verdict == {name: row[name] for name in verdict}
    assert [verdict["overall_passed"] for verdict in shown] == [False, True]
