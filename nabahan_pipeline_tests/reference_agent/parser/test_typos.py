"""One-letter typos of domain nouns and region names (issue 30): read back when one noun of the
vocabulary is one edit away and the word has five letters or more, never otherwise; a question
the agent understood is never changed; the insight shows each word as understood."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.typos import corrected, name_neighbours, name_words


@pytest.mark.parametrize(
    ("text", "typed", "meant"),
    [
        ("كم عدد المشارع في تبوك", "المشارع", "المشاريع"),
        ("منافسات منطقه الجوفف", "الجوفف", "الجوف"),
        ("كم منافسه في الشرقيع", "الشرقيع", "الشرقيه"),
        ("اجمالي القيمه التقدييريه", "التقدييريه", "التقديريه"),
        ("كم عدد المنافسلت", "المنافسلت", "المنافسات"),
        ("كم عدد للمناقصاتت", "للمناقصاتت", "للمناقصات"),
    ],
)
def test_a_one_letter_typo_is_read_back(text: str, typed: str, meant: str) -> None:
    fixed, understood = corrected(text)
    assert understood == ((typed, meant),)
    assert fixed == text.replace(typed, meant)


@pytest.mark.parametrize(
    "text",
    [
        "كم منافسه في عسيب",  # four letters: too short to guess
        "كم منافسه في الرياض",  # nothing to read back
        "كم عدد المنفسسات",  # two edits
        "كم عطاء لاماره منطقه الرياض",  # a name's word, not a domain noun
    ],
)
def test_no_typo_is_read_back_without_one_close_noun_of_five_letters(text: str) -> None:
    assert corrected(text) == (text, ())


def test_a_typo_between_two_forms_of_one_noun_reads_as_that_noun() -> None:
    # "المنافست" is one edit from المنافسات and from المنافسة: the same noun either way.
    fixed, understood = corrected("كم عدد المنافست")
    assert understood and understood[0][1] in ("المنافسات", "المنافسه")


def test_the_agent_answers_a_typo_and_says_how_it_read_it(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    answer = agent.ask("كم منافسة ملغاة في منطقة عسيرر؟")
    assert answer["status"] == "success"
    (gold,) = db.execute("SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 6 AND status_id = 5").fetchone()
    assert answer["rows"] == [[gold]]
    assert answer["insights"].startswith("قرأت «عسيرر» على أنها «عسير»")


def test_an_understood_question_is_not_read_again(agent: ReferenceAgent) -> None:
    answer = agent.ask("كم منافسة ملغاة في منطقة عسير؟")
    assert answer["status"] == "success" and not answer["insights"].startswith("قرأت")


def test_a_typo_left_with_another_unknown_word_still_refuses(agent: ReferenceAgent) -> None:
    answer = agent.ask("كم منافسة في منطقة الرياص لموظفي الصيانه الليلية؟")
    assert answer["status"] == "out_of_scope"


def test_a_noun_with_its_article_and_without_is_one_noun() -> None:
    # "اتقديريه": one edit from التقديريه and from تقديريه; both the same word.
    fixed, understood = corrected("ما اجمالي القيمه اتقديريه")
    assert understood and understood[0][1].endswith("تقديريه")
    assert corrected("ما هي مناطق الممكه")[1] == (("الممكه", "المملكه"),)


def test_a_names_word_is_read_back_only_after_another_word_of_that_name() -> None:
    names = ["جامعة الملك سعود", "مقاولات الإنشاءات العامة - إنشاء الطرق"]
    words, neighbours = name_words(names), name_neighbours(names)
    assert corrected("كم منافسه لجامعه الملك سعوود", words, neighbours)[1] == (("سعوود", "سعود"),)
    # "الفرق" is one edit from the activity's "الطرق", but no word of that name stands before it.
    assert corrected("كم الفرق في المنافسات", words, neighbours) == ("كم الفرق في المنافسات", ())
