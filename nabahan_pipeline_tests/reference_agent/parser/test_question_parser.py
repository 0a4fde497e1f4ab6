"""The walk as a table: READERS read in their order and file their words under their part, a reader
added to the table is walked with no other change, and SHAPERS stop at a refusal."""

from __future__ import annotations

import re

import pytest

from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser, Refusal
from nabahan_pipeline.reference_agent.parser import question_parser as qp
from nabahan_pipeline.reference_agent.parser.reading import Reading


def test_every_reader_files_its_words_under_a_part_of_its_own() -> None:
    parts = [reader.part for reader in qp.READERS]
    assert len(parts) == len(set(parts))


def test_the_walk_files_each_readers_words_in_the_tables_order(parser: QuestionParser) -> None:
    parse = parser.read("كم منافسة ملغاة في منطقة الرياض في 2024")
    assert isinstance(parse.frame, QueryFrame)
    order = [reader.part for reader in qp.READERS]
    walked = [part for part, _ in parse.consumed if part in order]
    assert walked == ["date", "region", "status_type"]
    assert walked == sorted(walked, key=order.index)


def _read_marker(parser: QuestionParser, r: Reading) -> str | None:
    # A stand-in for a new kind of phrase: one made-up word, blanked out once read.
    m = re.search(r"(?<!\w)زرزور(?!\w)", r.text)
    if m:
        r.blank(m.start(), m.end())
    return m and m.group(0)


def test_a_reader_added_to_the_table_is_walked(parser: QuestionParser, monkeypatch: pytest.MonkeyPatch) -> None:
    question = "كم منافسة زرزور في منطقة الرياض"
    refused = parser.read(question)
    assert isinstance(refused.frame, Refusal) and refused.frame.words == ("زرزور",)
    monkeypatch.setattr(qp, "READERS", (*qp.READERS, qp.Reader("marker", _read_marker)))
    parse = parser.read(question)
    assert isinstance(parse.frame, QueryFrame) and parse.frame.measure == "count"
    assert ("marker", ("زرزور",)) in parse.consumed


def test_the_shapers_stop_at_a_refusal(parser: QuestionParser, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def refuse(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict) -> Refusal:
        seen.append("refuse")
        return Refusal("not_understood", ("x",))

    def after(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict) -> QueryFrame:
        seen.append("after")
        return frame

    monkeypatch.setattr(qp, "SHAPERS", (refuse, after))
    parse = parser.read("كم منافسة في منطقة الرياض")
    # (A refused question is read again for typos: each reading stops at the refusal.)
    assert seen and set(seen) == {"refuse"}
    assert isinstance(parse.frame, Refusal) and parse.frame.reason == "not_understood"
