"""Names as the catalog reads them: a compound name written with or without its space is one word,
so a question names the agency it means however it spells it."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.lookup_catalog import join_compound_names, words


def test_a_compound_name_is_one_word_either_way() -> None:
    assert words("جامعة الملك عبد العزيز") == words("جامعة الملك عبدالعزيز") == ["جامعه", "الملك", "عبدالعزيز"]
    assert join_compound_names("مستشفى عبد الله") == "مستشفى عبدالله"
    # Only "عبد" standing alone before an article joins: other words and "عبد" at the end stay.
    assert join_compound_names("عبدة العمل") == "عبدة العمل"
    assert join_compound_names("اسمه عبد") == "اسمه عبد"


@pytest.mark.parametrize(
    ("question", "agency_id"),
    [
        # With a space it was read as the health-sciences university (agency 14), whose name
        # holds "عبد العزيز" spaced, instead of King Abdulaziz University (94).
        ("كم منافسة طرحتها جامعة الملك عبد العزيز؟", 94),
        ("وش عدد منافسات جامعة الملك عبدالعزيز", 94),
        ("كم منافسة لجامعة الإمام عبد الرحمن بن فيصل؟", 99),
        ("كم منافسة لجامعة الملك سعود بن عبدالعزيز للعلوم الصحية؟", 14),
    ],
)
def test_an_agency_is_named_however_its_compound_name_is_spelled(agent: ReferenceAgent, question: str,
                                                                 agency_id: int) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer
    assert answer["sql"].endswith(f"WHERE agency_id = {agency_id}"), answer["sql"]
