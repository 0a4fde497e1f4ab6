"""The ``agent_responses`` table as a pandera schema, one row per case and repeat. It lives with
the agents because the evaluation imports the agents, never the reverse (``evaluation.tables``
re-exports it); the two helpers serve every table's declaration.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.agents.contract import STATUSES
from nabahan_pipeline.json_bounds import json_list_items

NON_NEGATIVE = pa.Check.ge(0)


def json_text(kind: type[list] | type[dict]) -> pa.Check:
    """A check that each text is JSON of ``kind`` (the tables store JSON fields as text: one Parquet
    type per column); a list is read an item at a time and dropped, never held as objects."""
    name = "list" if kind is list else "object"

    def parses(text: Any) -> bool:
        try:
            if kind is list and isinstance(text, str):
                deque(json_list_items(text), maxlen=0)
                return True
            return isinstance(json.loads(text), kind)
        except (TypeError, ValueError):
            return False

    def each_parses(texts: pd.Series) -> pd.Series:
        # Each distinct text parsed once: most are alike ("[]", the same column names). A dict of
        # Python's hashes, not pd.unique: pandas hashes a text by its UTF-8 form, which CPython
        # then keeps beside the text for as long as it lives (30 MiB more for a 30 MiB result).
        verdicts: dict[Any, bool] = {}

        def verdict(text: Any) -> bool:
            try:
                known = verdicts.get(text)
            except TypeError:  # a value that is no text, and cannot be hashed
                return parses(text)
            if known is None:
                known = verdicts[text] = parses(text)
            return known

        return pd.Series([verdict(text) for text in texts], index=texts.index, dtype=bool)

    return pa.Check(each_parses, name=f"json_{name}_text", error=f"JSON {name} text")


def non_text_dtypes(schema: pa.DataFrameSchema) -> dict[str, str]:
    """The pandas dtype of each column of ``schema`` that is not text, for ``DataFrame.astype``
    (text columns stay object, so that None stays None)."""
    return {name: str(column.dtype) for name, column in schema.columns.items() if str(column.dtype) != "str"}


AGENT_RESPONSES = pa.DataFrameSchema(
    {
        "case_id": pa.Column(str, description="The case's id (test_cases.case_id)."),
        "repeat": pa.Column(int, NON_NEGATIVE, description="Which answer to the case, 0-based (--repeat)."),
        "status": pa.Column(str, pa.Check.isin(STATUSES), description="success, out_of_scope or error."),
        "sql": pa.Column(str, nullable=True, description="The agent's SQL, as it sent it."),
        "dialect": pa.Column(str, nullable=True, description="The SQL's dialect when the agent named one."),
        "columns": pa.Column(str, json_text(list), description="JSON list of the result's column names (a name may repeat)."),
        "rows": pa.Column(str, json_text(list), description="JSON list of the result's rows, each a list of values."),
        "data_rows": pa.Column(int, NON_NEGATIVE, description="How many rows the result has."),
        "insights": pa.Column(str, description="The agent's Arabic answer text."),
        "error": pa.Column(str, nullable=True, description="Why the answer is an error (scrubbed of secrets)."),
        "latency_s": pa.Column(float, NON_NEGATIVE, description="Seconds, wall clock around the call alone."),
        "cached": pa.Column(bool, description="The answer was reused from the response cache."),
        "prompt_tokens": pa.Column(float, nullable=True, description="LLM agents: prompt tokens; NaN when unknown."),
        "completion_tokens": pa.Column(float, nullable=True, description="LLM agents: completion tokens; NaN when unknown."),
    },
    name="agent_responses",
    description="Every case asked of the agent: one row per case and repeat.",
    strict=True,
    ordered=True,
)
RESPONSE_COLUMNS: tuple[str, ...] = tuple(AGENT_RESPONSES.columns)
RESPONSE_DTYPES: dict[str, str] = non_text_dtypes(AGENT_RESPONSES)
