"""The case file's models and the JSON Schema they publish: the schema says what the loader says."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from nabahan_pipeline.errors import TestCaseError
from nabahan_pipeline.evaluation.case_file import case_file_schema, misspelling_of, validate_case
from nabahan_pipeline.evaluation.cases import load_test_cases

DATA = Path(__file__).resolve().parents[1] / "data"
SUITES = [DATA / "agent_questions.json", DATA / "fresh_questions.json", DATA / "holdout_questions.json", DATA / "redteam_questions.json",
          DATA / "wording_questions.json", DATA.parents[1] / "nabahan_pipeline" / "data" / "test_cases.json"]
CASE = {"question": "كم عدد المناقصات في منطقة الرياض؟", "category": "count", "expected_table": "tenders_full_details"}


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = case_file_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("suite", SUITES, ids=lambda path: path.name)
def test_every_suite_we_ship_is_valid_by_the_schema_and_the_loader(
    suite: Path, validator: jsonschema.Draft202012Validator
) -> None:
    assert len(load_test_cases(suite)) > 0
    assert [error.message for error in validator.iter_errors(json.loads(suite.read_text("utf-8")))] == []


@pytest.mark.parametrize(
    "changes",
    [
        {"question": ...}, {"question": None}, {"question": "   "}, {"question": 12}, {"category": ...},
        {"category": "foo"}, {"category": ["count"]}, {"expected_table": ...}, {"expected_table": ""},
        {"expected_table": 3}, {"description": {"en": "x"}}, {"expected_response": 1}, {"id": 7}, {"id": " "},
        {"filters": [1]}, {"filters": "region=1"}, {"tags": "smoke"}, {"tags": ["smoke", 3]},
        {"must_pass": "yes"}, {"must_pass": 1}, {"expected_sql": 5}, {"expected_sql": " "},
    ],
)
def test_a_case_the_loader_refuses_the_schema_refuses_too(
    changes: dict, validator: jsonschema.Draft202012Validator, tmp_path: Path
) -> None:
    bad = {key: value for key, value in {**CASE, **changes}.items() if value is not ...}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([CASE, bad], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(TestCaseError, match=r"cases\.json: case 2: field "):
        load_test_cases(path)
    assert not validator.is_valid([CASE, bad])
    assert validator.is_valid([CASE, {**CASE, "category": "out_of_scope", "expected_table": None, "note": "x"}])


def test_the_schema_refuses_an_empty_file_and_a_file_that_is_not_a_list(
    validator: jsonschema.Draft202012Validator,
) -> None:
    assert not validator.is_valid([]) and not validator.is_valid(CASE)


def test_a_valid_case_is_a_model_with_its_notes_kept() -> None:
    case = validate_case({**CASE, "note": "why this case", "tags": ["smoke"]})
    assert not isinstance(case, tuple)
    assert (case.category, case.tags, case.must_pass, case.model_extra) == (
        "count", ["smoke"], False, {"note": "why this case"})


def test_the_first_problem_is_named_in_field_order() -> None:
    assert validate_case({"category": "foo", "must_pass": 1}) == ("question", "missing")
    assert validate_case({**CASE, "tags": 3, "must_pass": 1}) == ("tags", "must be a list of strings")


@pytest.mark.parametrize(
    ("key", "known"),
    [("expected_tabel", "expected_table"), ("must_pas", "must_pass"), ("tag", "tags"), ("Question", "question"),
     ("filtres", "filters"), ("expectedTable", "expected_table"), ("note", None), ("question_en", None),
     ("ids", None), ("insight", None), ("kind", None), ("expected_result", None), ("question", None)],
)
def test_difflib_names_a_misspelled_key_and_leaves_notes_alone(key: str, known: str | None) -> None:
    assert misspelling_of(key) == known
