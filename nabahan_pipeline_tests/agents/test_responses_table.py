"""The agent_responses table's schema, and the JSON-text check every table's JSON columns use."""

from __future__ import annotations

import json
import tracemalloc

import pandas as pd
import pandera.pandas as pa
import pytest

from nabahan_pipeline.agents.responses_table import json_text


@pytest.mark.parametrize(
    ("kind", "texts", "passes"),
    [
        (list, ["[]", '["n"]', "[]", "[[1, 2]]", '["n"]'], [True] * 5),
        (list, ["[]", "{}", "not JSON", "[", "[]", "3", ""], [True, False, False, False, True, False, False]),
        (dict, ['{"a": 1}', "[]", '{"a": 1}', "null"], [True, False, True, False]),
        (list, ["[]", ["a", "list"], {"a": 1}, 5], [True, False, False, False]),
    ],
)
def test_json_text_passes_each_text_of_its_kind_and_names_the_others(kind, texts, passes) -> None:
    check = json_text(kind)
    values = pd.Series(texts, index=range(10, 10 + len(texts)), dtype=object)
    assert check(values).check_output.tolist() == passes
    schema = pa.DataFrameSchema({"x": pa.Column(object, check, nullable=True)})
    frame = pd.DataFrame({"x": values})
    if all(passes):
        schema.validate(frame)
    else:
        with pytest.raises(pa.errors.SchemaError, match="JSON (list|object) text failure cases"):
            schema.validate(frame)


def test_a_huge_result_is_checked_a_row_at_a_time_and_left_as_it_was() -> None:
    # 30,000 rows of text: parsed whole they would be tens of MiB of objects; and hashed by pandas
    # the text would keep a UTF-8 copy of itself for as long as it lives.
    text = json.dumps([["قيمة نصية من عشرين حرفا"] * 12] * 30_000, ensure_ascii=False)
    values = pd.Series([text, "[]", text], dtype=object)
    check = json_text(list)
    tracemalloc.start()
    try:
        verdicts = check(values).check_output.tolist()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert verdicts == [True, True, True]
    assert peak < len(text) // 20, peak
