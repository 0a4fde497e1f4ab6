"""Loading and validating the JSON case file; select_quick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.cases import (
    CATEGORIES,
    MAX_DEPTH,
    TestCaseError,
    derive_case_id,
    load_test_cases,
    parse_test_cases,
    read_case_file,
    select_quick,
)
from nabahan_pipeline.evaluation.tables import TEST_CASE_COLUMNS as COLUMNS

COUNT_CASE = {
    "question": "كم عدد المناقصات في منطقة الرياض؟",
    "category": "count",
    "expected_table": "tenders_full_details",
    "description": "Count tenders in Riyadh",
}
OUT_OF_SCOPE_CASE = {
    "question": "ما هو الطقس اليوم في جدة؟",
    "category": "out_of_scope",
    "expected_response": "عذراً، لا أستطيع الإجابة عن هذا السؤال",
    "description": "Weather is out of scope",
}


def write(tmp_path: Path, content: Any, name: str = "cases.json") -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return path


def case(**changes: Any) -> dict[str, Any]:
    entry = dict(COUNT_CASE)
    for key, value in changes.items():
        if value is ...:
            entry.pop(key, None)
        else:
            entry[key] = value
    return entry


def load_error(tmp_path: Path, content: Any) -> str:
    with pytest.raises(TestCaseError) as caught:
        load_test_cases(write(tmp_path, content))
    return str(caught.value)


def test_categories() -> None:
    assert CATEGORIES == (
        "count", "region_filter", "aggregation", "distribution", "lookup", "time_filter", "value_filter", "out_of_scope"
    )


def test_seed_format_loads_unchanged(tmp_path: Path) -> None:
    cases = load_test_cases(write(tmp_path, [COUNT_CASE, OUT_OF_SCOPE_CASE]))
    assert list(cases.columns) == list(COLUMNS)
    assert list(cases["question"]) == [COUNT_CASE["question"], OUT_OF_SCOPE_CASE["question"]]
    first, second = cases.to_dict("records")
    assert first["expected_table"] == "tenders_full_details"
    assert first["expected_response"] is None or pd.isna(first["expected_response"])
    assert second["expected_response"] == OUT_OF_SCOPE_CASE["expected_response"]
    assert second["expected_table"] is None or pd.isna(second["expected_table"])
    assert first["tags"] == "[]" and second["tags"] == "[]"
    assert first["case_id"] == derive_case_id(COUNT_CASE["question"], "count")


def test_a_file_loaded_again_gives_its_table_anew(tmp_path: Path) -> None:
    path = write(tmp_path, [COUNT_CASE, OUT_OF_SCOPE_CASE])
    first = load_test_cases(path)
    first.loc[0, "question"] = "changed by its reader"
    again = load_test_cases(path)
    assert again["question"].tolist() == [COUNT_CASE["question"], OUT_OF_SCOPE_CASE["question"]]
    assert again.equals(load_test_cases(write(tmp_path, [COUNT_CASE, OUT_OF_SCOPE_CASE], "copy.json")))
    write(tmp_path, [COUNT_CASE])
    assert len(load_test_cases(path)) == 1
    write(tmp_path, [COUNT_CASE, COUNT_CASE])
    assert "duplicate case" in load_error(tmp_path, [COUNT_CASE, COUNT_CASE])


def test_optional_fields(tmp_path: Path) -> None:
    entry = case(
        id="riyadh-count",
        filters={"region_id": 1},
        expected_sql="SELECT COUNT(*) FROM tenders_full_details",
        tags=["smoke", "رياض"],
    )
    row = load_test_cases(write(tmp_path, [entry])).iloc[0]
    assert row["case_id"] == "riyadh-count"
    assert json.loads(row["filters"]) == {"region_id": 1}
    assert row["expected_sql"] == "SELECT COUNT(*) FROM tenders_full_details"
    assert json.loads(row["tags"]) == ["smoke", "رياض"]


def test_must_pass_is_carried_and_false_when_absent(tmp_path: Path) -> None:
    table = load_test_cases(write(tmp_path, [case(id="a", must_pass=True), case(id="b"), case(id="c", must_pass=False)]))
    assert table["must_pass"].tolist() == [True, False, False]
    assert table["must_pass"].dtype == bool


def test_derived_id_is_stable_and_content_based(tmp_path: Path) -> None:
    first = load_test_cases(write(tmp_path, [COUNT_CASE]))["case_id"][0]
    again = load_test_cases(write(tmp_path, [dict(reversed(list(COUNT_CASE.items())))], "other.json"))["case_id"][0]
    assert first == again
    assert first.startswith("c-") and len(first) == 12
    assert derive_case_id(COUNT_CASE["question"], "count", {"region_id": 1}) != first
    assert derive_case_id(COUNT_CASE["question"], "region_filter") != first


def test_unknown_keys_are_tolerated_but_misspellings_are_not(tmp_path: Path) -> None:
    cases = load_test_cases(write(tmp_path, [case(notes="free text", question_en="How many tenders in Riyadh?")]))
    assert len(cases) == 1
    message = load_error(tmp_path, [case(expected_tabel="regions")])
    assert "case 1" in message and "'expected_tabel'" in message and "did you mean 'expected_table'" in message


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes("\ufeff".encode() + json.dumps([COUNT_CASE], ensure_ascii=False).encode())
    assert len(load_test_cases(path)) == 1


# --- errors: each names the file, the case index and the field -----------------------------------


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TestCaseError, match=r"absent\.json: file not found"):
        load_test_cases(tmp_path / "absent.json")


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    message = load_error(tmp_path, '[\n  {"question": "x",\n   "category": }\n]')
    assert "cases.json" in message
    assert "line 3, column 16" in message


@pytest.mark.parametrize(("content", "expected"), [({"question": "x"}, "got object"), ("42", "got number")])
def test_top_level_must_be_a_list(tmp_path: Path, content: Any, expected: str) -> None:
    message = load_error(tmp_path, content)
    assert "cases.json" in message and "list" in message and expected in message


def test_empty_list(tmp_path: Path) -> None:
    assert "empty" in load_error(tmp_path, [])


def test_entry_must_be_an_object(tmp_path: Path) -> None:
    message = load_error(tmp_path, [COUNT_CASE, ["not", "an", "object"]])
    assert message == f"{tmp_path / 'cases.json'}: case 2: must be a JSON object, got list"


@pytest.mark.parametrize(
    ("changes", "field", "problem"),
    [
        ({"question": ...}, "question", "missing"),
        ({"question": None}, "question", "missing"),
        ({"question": "   "}, "question", "empty"),
        ({"question": 12}, "question", "must be a string, got number"),
        ({"category": ...}, "category", "missing"),
        ({"category": "foo"}, "category", "unknown category 'foo' (expected one of: count, region_filter"),
        ({"category": ["count"]}, "category", "must be a string, got list"),
        ({"expected_table": ...}, "expected_table", "missing (required for in-scope cases)"),
        ({"expected_table": ""}, "expected_table", "empty"),
        ({"expected_table": 3}, "expected_table", "must be a string"),
        ({"description": {"en": "x"}}, "description", "must be a string, got object"),
        ({"expected_response": 1}, "expected_response", "must be a string"),
        ({"id": 7}, "id", "must be a string, got number"),
        ({"id": " "}, "id", "empty"),
        ({"filters": [1]}, "filters", "must be a JSON object, got list"),
        ({"filters": "region=1"}, "filters", "must be a JSON object, got string"),
        ({"tags": "smoke"}, "tags", "must be a list of strings"),
        ({"tags": ""}, "tags", "must be a list of strings"),
        ({"tags": ["smoke", 3]}, "tags", "must be a list of strings"),
        ({"must_pass": "yes"}, "must_pass", "must be true or false, got string"),
        ({"must_pass": 1}, "must_pass", "must be true or false, got number"),
        ({"must_pas": True}, "must_pas", "unknown field (did you mean 'must_pass'?)"),
        ({"expected_sql": 5}, "expected_sql", "must be a string"),
        ({"expected_sql": "DELETE FROM tenders_full_details"}, "expected_sql", "not a read-only query: DELETE"),
        ({"expected_sql": "SELECT 1; SELECT 2"}, "expected_sql", "expected one statement"),
        ({"expected_sql": "SELEC count(*)"}, "expected_sql", "SQL does not parse"),
    ],
)
def test_field_errors_name_file_case_and_field(tmp_path: Path, changes: dict, field: str, problem: str) -> None:
    message = load_error(tmp_path, [OUT_OF_SCOPE_CASE, COUNT_CASE, case(**changes)])
    assert message.startswith(f"{tmp_path / 'cases.json'}: case 3: field '{field}': {problem}"), message


def test_out_of_scope_case_needs_no_expected_table(tmp_path: Path) -> None:
    assert len(load_test_cases(write(tmp_path, [OUT_OF_SCOPE_CASE]))) == 1


def test_duplicate_explicit_ids(tmp_path: Path) -> None:
    entries = [case(id="a"), case(id="b", question="سؤال آخر"), case(id="a", question="سؤال ثالث")]
    message = load_error(tmp_path, entries)
    assert "case 3: field 'id': duplicate id 'a' (also case 1)" in message


def test_duplicate_derived_ids_are_identical_cases(tmp_path: Path) -> None:
    message = load_error(tmp_path, [COUNT_CASE, OUT_OF_SCOPE_CASE, dict(COUNT_CASE, description="again")])
    assert "case 3: field 'question': duplicate case" in message and "case 1" in message


def test_same_question_with_other_filters_is_not_a_duplicate(tmp_path: Path) -> None:
    cases = load_test_cases(write(tmp_path, [COUNT_CASE, case(filters={"region_id": 1})]))
    assert cases["case_id"].is_unique


def test_error_is_a_value_error_and_not_collected_by_pytest() -> None:
    assert issubclass(TestCaseError, ValueError)
    assert TestCaseError.__test__ is False


# --- select_quick --------------------------------------------------------------------------------


def frame(categories: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"case_id": [f"q{i}" for i in range(len(categories))], "category": categories})


def test_quick_takes_one_per_category_first_then_round_robin_in_file_order() -> None:
    cases = frame(["count", "count", "count", "lookup", "out_of_scope", "lookup", "aggregation"])
    assert list(select_quick(cases, 5)["case_id"]) == ["q0", "q1", "q3", "q4", "q6"]
    assert list(select_quick(cases, 3)["case_id"]) == ["q0", "q3", "q4"]
    assert list(select_quick(cases, 6)["case_id"]) == ["q0", "q1", "q3", "q4", "q5", "q6"]


def test_quick_by_default_takes_one_case_of_every_category() -> None:
    cases = frame(["count", "count", "count", "lookup", "out_of_scope", "lookup", "aggregation"])
    assert list(select_quick(cases)["case_id"]) == ["q0", "q3", "q4", "q6"]


def test_quick_with_fewer_cases_than_n_returns_all() -> None:
    cases = frame(["count", "lookup"])
    assert list(select_quick(cases)["case_id"]) == ["q0", "q1"]
    assert select_quick(cases, 0).empty


# --- numbered_cases ------------------------------------------------------------------------------


def test_numbered_cases_give_each_case_its_record_and_number_in_file_order() -> None:
    from nabahan_pipeline.evaluation.cases import numbered_cases

    from nabahan_pipeline.settings import SHIPPED_TEST_CASES

    cases = load_test_cases(SHIPPED_TEST_CASES)
    numbered = numbered_cases(cases)
    for number, record in enumerate(cases.to_dict("records"), 1):
        assert numbered(record["case_id"]) == {**record, "number": number}
    with pytest.raises(KeyError):
        numbered("no-such-case")



# --- issue 31: read once, measured before it is parsed ----------------------------------------------


def test_a_case_file_is_parsed_from_the_bytes_read_once(tmp_path: Path) -> None:
    path = write(tmp_path, [COUNT_CASE])
    data = read_case_file(path)
    path.unlink()  # a pipe has nothing left to read: the bytes are all there is
    assert parse_test_cases(data, path)["question"].tolist() == [COUNT_CASE["question"]]


def test_a_key_given_twice_names_the_case_and_field(tmp_path: Path) -> None:
    first = json.dumps(COUNT_CASE, ensure_ascii=False)
    twice = first[:-1] + ', "category": "lookup"}'
    assert load_error(tmp_path, f"[{first}, {twice}]").endswith("cases.json: case 2: field 'category': given twice")
    nested = first[:-1] + ', "filters": {"year": 2024, "year": 2025}}'
    assert load_error(tmp_path, f"[{nested}]").endswith("case 1: field 'filters': key 'year' given twice")


def test_a_case_file_too_deep_is_refused_naming_the_case_and_field(tmp_path: Path) -> None:
    first = json.dumps(COUNT_CASE, ensure_ascii=False)
    deep = first[:-1] + ', "filters": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    message = load_error(tmp_path, f"[{first}, {first}, {deep}]")
    assert message.endswith(f"cases.json: case 3: field 'filters': nested deeper than {MAX_DEPTH} levels")
    assert load_error(tmp_path, "[" * 100_000 + "]" * 100_000).endswith("case 1: nested deeper than 16 levels")


def test_a_number_of_5000_digits_names_the_case_and_field(tmp_path: Path) -> None:
    long = json.dumps(COUNT_CASE, ensure_ascii=False)[:-1] + ', "filters": {"year": ' + "9" * 5_000 + "}}"
    assert load_error(tmp_path, f"[{long}]").endswith(
        "case 1: field 'filters': a number of 5,000 characters (at most 100)")
    assert load_error(tmp_path, "[" + "1" * 5_000 + "]").endswith("case 1: must be a JSON object, got number")
    fine = json.dumps([case(filters={"year": 2024, "ratio": 0.5})], ensure_ascii=False)
    assert json.loads(load_test_cases(write(tmp_path, fine))["filters"][0]) == {"year": 2024, "ratio": 0.5}
