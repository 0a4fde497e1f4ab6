"""The lexicon as regexes: an alternation prefers the phrase of more words, whatever the length of
the regex of a shorter one."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.patterns import GENERIC_WORDS, TENDER, VALUE, alternation


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
