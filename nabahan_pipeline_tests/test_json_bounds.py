"""json_bounds: a JSON text's depth and values measured on its bytes, never by parsing it."""

from __future__ import annotations

import json
import sys
import tracemalloc

import pytest

from nabahan_pipeline.json_bounds import json_list_items, measure_json, too_deep_at


@pytest.mark.parametrize(
    ("text", "depth", "values"),
    [
        ("1", 0, 0),
        ("[]", 1, 1),
        ("[1, 2, 3]", 1, 3),
        ('{"a": [1, 2], "b": {"c": []}}', 3, 5),
        ('["[[[", "]]]", "\\"[{"]', 1, 3),  # brackets and quotes inside strings do not count
        ('[[],[[],[]],[[[]]]]', 4, 8),
        ('["\\\\", "\\"[{", "x,y", {"k\\\\": ["]"]}]', 3, 5),  # escaped backslashes and quotes
        ('{"a": "", "b": "[", "c": ""}', 1, 3),
    ],
)
def test_depth_and_values_are_measured(text: str, depth: int, values: int) -> None:
    measure = measure_json(text, 64)
    assert measure.depth == depth
    assert measure.values >= values and measure.values <= values + text.count("[") + text.count("{")


def test_a_million_deep_document_is_measured_up_to_the_limit_without_recursion() -> None:
    text = b"[" * 1_000_000 + b"]" * 1_000_000
    assert measure_json(text, 32).depth == 33
    with pytest.raises(RecursionError):  # what parsing it would do
        json.loads(text)


def parsed_depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((parsed_depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((parsed_depth(item) for item in value), default=0)
    return 0


@pytest.mark.parametrize("document", [
    {"rows": [[1, {"a": [2, [3]]}]], "x": "[[[["},
    {"q\\": ["\\", "\"]", {"\\\"": [[["\\\\"]]]}], "": "{,}"},
    [[[]], "]]]]", {"a": {"b": {"c": "\u0022[["}}}],
])
def test_the_depth_agrees_with_the_parser_below_the_limit(document: object) -> None:
    assert measure_json(json.dumps(document), 64).depth == parsed_depth(document)


def test_where_a_document_is_too_deep_names_the_element_and_the_key() -> None:
    text = '[{"a": 1}, {"question": "[[[[", "filters": {"x": ' + "[" * 50 + "]" * 50 + "}}]"
    assert too_deep_at(text, 16) == (2, "filters")
    assert too_deep_at("[1, 2, " + "[" * 40 + "]" * 40 + "]", 16) == (3, None)
    assert too_deep_at("[[1], [2]]", 16) is None
    assert sys.getrecursionlimit() < 100_000  # a walk, not a recursion: too_deep_at takes any depth
    assert too_deep_at("[" * 200_000 + "]" * 200_000, 16) == (1, None)


@pytest.mark.parametrize("text", ["[]", " [ ] ", "[1, 2 ,3]", '[[1, "a"], [2, "ن"]]', ' [\n{"a": [1]}\n]\n', "[NaN, null]"])
def test_a_list_is_read_item_by_item_as_json_reads_it_whole(text: str) -> None:
    assert list(json_list_items(text)) == json.loads(text) or text == "[NaN, null]"
    assert len(list(json_list_items(text))) == len(json.loads(text))


@pytest.mark.parametrize("text", ["", "{}", "1", "[1,]", "[1 2]", "[", "[1", "[1]x", '"[1]"', "[1]]"])
def test_anything_but_one_json_list_is_refused_as_json_refuses_it(text: str) -> None:
    with pytest.raises(ValueError):
        list(json_list_items(text))


def test_a_list_read_item_by_item_holds_one_item_at_a_time() -> None:
    # 20,000 rows of text: reading them whole makes tens of MiB of objects; one at a time, one row's.
    text = json.dumps([["قيمة نصية من عشرين حرفا"] * 12] * 20_000, ensure_ascii=False)
    tracemalloc.start()
    try:
        count = sum(1 for _ in json_list_items(text))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 20_000
    assert peak < 100_000, peak  # json.loads: about 30 MB
