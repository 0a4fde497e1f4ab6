"""English names and agencies' initials read as the conditions their Arabic names make; initials
two agencies share name neither."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, NameIndex
from nabahan_pipeline.reference_agent.parser import QueryFrame
from nabahan_pipeline.reference_agent.parser.english_names import EnglishNames, initials


def test_initials_are_of_the_capitalized_words() -> None:
    assert initials("King Saud University") == "ksu"
    assert initials("Princess Nourah bint Abdulrahman University") == "pnau"
    assert initials("Ministry of Culture") == "mc"
    # The usual initials skip the father's name after bin/bint.
    assert initials("Princess Nourah bint Abdulrahman University", patronyms=False) == "pnu"
    assert initials("Imam Abdulrahman Bin Faisal University", patronyms=False) == "iau"


def test_initials_two_agencies_share_are_not_read() -> None:
    catalog = Catalog(
        regions={}, statuses={}, types={}, activities={}, agencies={1: "أ", 2: "ب", 3: "ج"},
        latest_publish=date(2026, 1, 1), names=NameIndex(),
        english={"agency": {1: "King Saud University", 2: "King Salman University", 3: "Saudi Water Authority"}},
    )
    names = EnglishNames(catalog)
    text, conditions = names.read("كم منافسه ل ksu و swa", "كم منافسة لـ KSU و SWA")
    assert [(c.field, c.values) for c in conditions] == [("agency", (3,))]
    assert "ksu" in text and "swa" not in text


def test_initials_count_only_in_capitals(agent: ReferenceAgent) -> None:
    # "hmm" (Holy Makkah Municipality's initials) is a word in lower case.
    frame = agent.parser.parse("hmm كم منافسة في جدة")
    assert not isinstance(frame, QueryFrame) or all(c.field != "agency" for c in frame.conditions)
    frame = agent.parser.parse("كم منافسة لـ HMM")
    assert isinstance(frame, QueryFrame) and [c.values for c in frame.conditions] == [(56,)]


@pytest.mark.parametrize(
    ("question", "field", "ids"),
    [
        ("كم منافسة لـ KAU في الرياض؟", "agency", (94,)),
        ("كم منافسة طرحتها PNU", "agency", (92,)),
        ("عدد المنافسات من نوع Direct purchase", "type", (2,)),
        ("كم منافسة في Eastern Province", "region", (5,)),
        ("إجمالي قيمة منافسات King Faisal University", "agency", (100,)),
    ],
)
def test_an_english_name_is_a_condition(agent: ReferenceAgent, question: str, field: str, ids: tuple) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert any(c.field == field and c.values == ids for c in frame.conditions), frame.conditions
