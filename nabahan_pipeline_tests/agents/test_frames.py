"""The frames between the pipeline and a python: agent's child: measured before read, depth counted
before parsed, JSON alone."""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from nabahan_pipeline.agents.frames import FrameError, Oversized, frame, parse, read_frame, too_deep


def test_frames_round_trip_in_order_with_what_json_lacks():
    message = {"answer": {"insights": "بلغ 7", "data": [{"n": float("nan")}], "odd": "\udc80"}}
    stream = io.BytesIO(frame(3, message) + frame(4, [1, 2]))
    number, payload = read_frame(stream, 1_000)
    decoded = parse(payload)
    assert number == 3 and decoded["answer"]["insights"] == "بلغ 7" and decoded["answer"]["odd"] == "\udc80"
    assert decoded["answer"]["data"][0]["n"] != decoded["answer"]["data"][0]["n"], "NaN comes back as NaN"
    assert read_frame(stream, 1_000) == (4, b"[1, 2]")
    assert read_frame(stream, 1_000) is None


def test_a_frame_over_the_cap_is_skipped_without_being_held():
    big = frame(1, "x" * 50_000_000)
    stream = io.BytesIO(big + frame(2, "next"))
    tracemalloc.start()
    try:
        number, outcome = read_frame(stream, 1_000_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert number == 1 and isinstance(outcome, Oversized) and outcome.size == len(big) - len(b"1 50000002\n")
    assert peak < 4 * 1024 * 1024, f"read in chunks, not held: {peak:,} bytes at most"
    assert read_frame(stream, 1_000_000) == (2, b'"next"'), "the frames after it are read as before"


@pytest.mark.parametrize("stream", [b"garbage\n", b"1 2 3\n", b"1 -5\n", b"1 10\nshort", b"no newline"])
def test_what_is_not_a_frame_is_a_frame_error(stream: bytes):
    with pytest.raises(FrameError):
        read_frame(io.BytesIO(stream), 1_000)


def test_depth_is_counted_without_recursion_and_brackets_in_strings_are_text():
    deep = b"[" * 100_000 + b"]" * 100_000  # json.loads would recurse 100,000 deep
    assert too_deep(deep)
    assert not too_deep(json.dumps({"rows": [[1, {"a": [2]}]] * 10_000, "insights": "[[[[" * 500}).encode())
    assert too_deep(json.dumps({"v": [[[[[1]]]]]}).encode(), max_depth=5)
    assert not too_deep(json.dumps({"v": [[[["]]]]]]"]]]]}).encode(), max_depth=5)
    assert not too_deep(json.dumps({"v": "\\\"[[[[[[[[["}).encode(), max_depth=2)
