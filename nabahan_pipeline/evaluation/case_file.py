"""What a case holds, stated once as pydantic models (``Case``, ``CASE_FILE``): each case validated,
pydantic's errors in the one-line form users know, the JSON Schema editors use (`nabahan cases
schema`); unknown keys tolerated (suites carry notes), a near miss of a known one refused as a typo."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

from nabahan_pipeline.etimad_db.sql_safety import read_sql
from nabahan_pipeline.evaluation.case_table import CATEGORIES, OUT_OF_SCOPE

# Text that must hold more than white space (JSON Schema's pattern searches, as pydantic's does).
NonBlank = Annotated[str, Field(pattern=r"\S")]


# The rule no field states alone, for editors: an in-scope case names its table.
_IN_SCOPE_NAMES_ITS_TABLE = {
    "if": {"properties": {"category": {"not": {"const": OUT_OF_SCOPE}}}},
    "then": {"required": ["expected_table"], "properties": {"expected_table": {"type": "string"}}},
}


class Case(BaseModel):
    """One case of a Nabahan suite: a question, its category and what a right answer holds."""

    # Strict: JSON gives each field its own type (no "1" read as true); other keys are notes.
    model_config = ConfigDict(extra="allow", strict=True, title="Nabahan test case",
                              json_schema_extra=_IN_SCOPE_NAMES_ITS_TABLE)

    # Declared in the order a case's problems are reported (KNOWN_KEYS).
    question: NonBlank = Field(description="The question asked of the agent, in Arabic.")
    category: Literal[CATEGORIES] = Field(  # type: ignore[valid-type]
        description="The kind of question; out_of_scope cases expect a refusal.")
    id: NonBlank | None = Field(None, description="A stable id (default: derived from question, category, filters).")
    expected_table: NonBlank | None = Field(None, description="The table the answer comes from (in-scope cases).")
    expected_response: str | None = Field(None, description="The response expected, for people reading a report.")
    description: str | None = Field(None, description="What the case tests.")
    expected_sql: NonBlank | None = Field(None, description="The gold SQL: one read-only query on the database.")
    filters: dict[str, Any] | None = Field(None, description="Filters passed to the agent with the question.")
    tags: list[str] | None = Field(None, description="Free labels, to select and group cases.")
    must_pass: bool = Field(False, description="The run's regression check fails when this case is not right.")

    @field_validator("expected_sql")
    @classmethod
    def _read_only_query(cls, sql: str | None) -> str | None:
        problem = None if sql is None else read_sql(sql).problem
        if problem is not None:
            raise ValueError(problem)
        return sql

    @model_validator(mode="after")
    def _in_scope_names_its_table(self) -> Case:
        if self.category != OUT_OF_SCOPE and self.expected_table is None:
            raise ValueError("missing (required for in-scope cases)")  # the one rule of the whole case
        return self


CASE_FILE: TypeAdapter[list[Case]] = TypeAdapter(Annotated[list[Case], Field(min_length=1)])
# The fields as declared, which is the order a case's problems are reported in: the first is named.
KNOWN_KEYS = tuple(Case.model_fields)


def case_file_schema() -> dict[str, Any]:
    """The case file's JSON Schema (draft 2020-12), for editors (VS Code's json.schemas)."""
    schema = CASE_FILE.json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Nabahan case file", **schema}


def validate_case(entry: dict[str, Any]) -> Case | tuple[str, str]:
    """The case, or its first problem as (field, what is wrong) in today's words."""
    for key in entry:
        close = misspelling_of(key)
        if close:
            return key, f"unknown field (did you mean '{close}'?)"
    try:
        return Case.model_validate(entry)
    except ValidationError as error:
        first = min(error.errors(), key=lambda detail: KNOWN_KEYS.index(_field(detail)))
        return _field(first), _problem(first)


def misspelling_of(key: str) -> str | None:
    """The known key ``key`` is a near miss of (difflib's ratio 0.85 and up), or None."""
    if key in KNOWN_KEYS:
        return None
    close = difflib.get_close_matches(key.lower(), KNOWN_KEYS, n=1, cutoff=0.85)
    return close[0] if close else None


def _field(detail: Mapping[str, Any]) -> str:
    return str(detail["loc"][0]) if detail["loc"] else "expected_table"


def _problem(detail: Mapping[str, Any]) -> str:
    """What pydantic found, in the words of the case file's errors ("must be a string, got list")."""
    kind, value = detail["type"], detail["input"]
    if kind == "value_error":  # our validators', already in these words
        return str(detail["ctx"]["error"])
    if kind == "missing" or (value is None and kind in ("string_type", "literal_error")):
        return "missing"
    if kind == "literal_error":  # the category
        if not isinstance(value, str):
            return f"must be a string, got {json_type(value)}"
        if not value.strip():
            return "empty"
        return f"unknown category {value!r} (expected one of: {', '.join(CATEGORIES)})"
    if detail["loc"][0] == "tags":
        return "must be a list of strings"
    words = {"string_type": "must be a string", "dict_type": "must be a JSON object", "bool_type": "must be true or false"}
    if kind in words:
        return f"{words[kind]}, got {json_type(value)}"
    return "empty" if kind == "string_pattern_mismatch" else detail["msg"]


def json_type(value: object) -> str:
    """The JSON name of a parsed value's type: object, list, string, boolean, number, null."""
    names = {dict: "object", list: "list", str: "string", bool: "boolean", int: "number", float: "number"}
    kind = next((kind for kind in type(value).__mro__ if kind in names), None)
    return "null" if value is None else names[kind] if kind else type(value).__name__
