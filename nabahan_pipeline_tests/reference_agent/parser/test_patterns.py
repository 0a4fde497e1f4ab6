"""The lexicon as regexes: an alternation prefers the phrase of more words, whatever the length of
the regex of a shorter one."""

from __future__ import annotations

import re

import pytest

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.patterns import GENERIC_WORDS, TENDER, VALUE, alternation, rephrased


def test_the_phrase_of_more_words_wins_over_a_longer_regex_of_one_word() -> None:
    # The one-word fragment's regex is the longer text; the two-word phrase must still be tried first.
    pattern = re.compile(rf'(?:{alternation(["قيم(?:ه|ت|تها|ته|تهم|هم|ها)?", "قيمه ال?تقديريه"])})(?!\w)')
    assert pattern.match("قيمه التقديريه").group(0) == "قيمه التقديريه"
    assert pattern.match("قيمتها").group(0) == "قيمتها"


def test_the_lexicon_reads_its_multi_word_entries_whole() -> None:
    assert VALUE.search("ما مجموع القيمه التقديريه").group(0).strip() == "القيمه التقديريه"
    # "لمنافسة واحدة" is one tender, not a tender and a stray number word.
    assert TENDER.search("اكبر عدد عروض لمنافسه واحده").group(0).strip() == "لمنافسه واحده"


def test_baladiya_alone_names_no_agency() -> None:
    # "طرحتها البلدية": a town's municipality, not the ministry whose name holds the word (issue 15).
    assert {"بلديه", "البلديه"} <= GENERIC_WORDS


# --- phrasing as data (phrasing.json) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        # A preface and a polite wrapper are dropped whole.
        ("اكتب عرضا للاداره واريد ان اعرف متوسط القيمه", "متوسط القيمه"),
        ("اذا ما عليك امر، كم منافسه", "، كم منافسه"),
        # Dialect verbs, colloquial percent and a year in words read as plain Arabic.
        ("كام منافسه اتلغت", "كام منافسه ملغاه"),
        ("كم في الميه من المنافسات", "كم نسبه من المنافسات"),
        ("في عام الفين وخمسه وعشرين", "في 2025"),
        # English words in an Arabic question, beside each other too.
        ("total budget للمنافسات", "اجمالي قيمه للمنافسات"),
        ("المنافسات per region", "المنافسات per منطقه"),
        # "هل A أعلى من B" compares the two; "أكبر من 2000" stays a threshold.
        ("هل منافسات تبوك اكثر من منافسات حايل", "قارن منافسات تبوك و منافسات حايل"),
        ("هل عدد المنافسات اكبر من 2000", "هل عدد المنافسات اكبر من 2000"),
    ],
)
def test_phrasing_is_read_as_the_plain_arabic_it_means(text: str, reads: str) -> None:
    assert " ".join(rephrased(text).split()) == " ".join(reads.split())


def test_an_english_word_inside_an_english_phrase_is_left_alone() -> None:
    assert rephrased("نوع المنافسه two-stage tender") == "نوع المنافسه two-stage tender"


def test_the_phrasing_data_is_loaded_once_into_the_lexicon() -> None:
    assert "دلوقتي" in lx.FILLER_TERMS and "من فضلك" in lx.FILLER_TERMS
    assert lx.WRAPPER_TERMS and lx.REWRITE_TERMS
    assert lx.PHRASING is lx.PHRASING  # one object, read at import


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("ما الجهه صاحبه اكبر عدد من المنافسات", "ما الجهه اكبر عدد من المنافسات"),
        ("النشاط اللي له النصيب الاكبر من المنافسات", "النشاط اكثر المنافسات"),
        ("لسا في منافسات مفتوحه بالقصيم", "لسا في منافسات مفتوحه بالقصيم"),
        ("المنافسات اللي لسه مفتوحه", "المنافسات اللي مفتوحه"),
    ],
)
def test_the_one_with_the_most_and_still_open(text: str, reads: str) -> None:
    assert " ".join(rephrased(text).split()) == " ".join(reads.split())
