"""Arabic normalization: one test per folding rule (numbers are read in test_arabic_numbers)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nabahan_pipeline.arabic.normalize import (
    arabic_letter_share,
    is_arabic_letter,
    normalize_arabic,
    normalize_digits,
    strip_marks,
)


# --- letters --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["أحمد", "إحمد", "آحمد", "ٱحمد", "احمد"])
def test_alef_and_hamza_forms_fold_to_bare_alef(variant: str) -> None:
    assert normalize_arabic(variant) == "احمد"


def test_hamza_on_waw_and_yeh_fold_to_the_letter() -> None:
    assert normalize_arabic("الشؤون") == normalize_arabic("الشوون")
    assert normalize_arabic("حائل") == normalize_arabic("حايل")


def test_alef_maqsura_folds_to_yeh() -> None:
    assert normalize_arabic("مستشفى") == "مستشفي"
    assert normalize_arabic("على") == normalize_arabic("علي")


def test_persian_yeh_and_kaf_fold_to_arabic_letters() -> None:
    assert normalize_arabic("الصحیة") == normalize_arabic("الصحية")
    assert normalize_arabic("کتاب") == "كتاب"


def test_ta_marbuta_folds_to_heh() -> None:
    assert normalize_arabic("منطقة") == "منطقه"
    assert normalize_arabic("المدينة المنورة") == normalize_arabic("المدينه المنوره")


def test_tashkeel_is_removed() -> None:
    assert normalize_arabic("كَمْ عَدَدُ المُنَاقَصَاتِ؟") == "كم عدد المناقصات?"
    assert normalize_arabic("الرِّيَاضِ") == "الرياض"
    assert strip_marks("شدّة") == "شدة"


def test_tatweel_is_removed() -> None:
    assert normalize_arabic("المنـــاقصات") == "المناقصات"
    assert normalize_arabic("وزارة الشـؤون") == "وزاره الشوون"


def test_bidi_and_zero_width_marks_are_removed() -> None:
    assert normalize_arabic("\u200fالرياض\u200e") == "الرياض"
    assert normalize_arabic("\u202bجدة\u202c") == "جده"
    assert normalize_arabic("\u061cنجران\ufeff") == "نجران"
    assert normalize_arabic("تبو\u200bك") == "تبوك"


def test_arabic_punctuation_and_spaces_are_unified() -> None:
    assert normalize_arabic("الرياض، جدة؛ كم؟") == "الرياض, جده; كم?"
    assert normalize_arabic("  كم\t\nمناقصة  ") == "كم مناقصه"
    assert normalize_arabic("٥٠٪") == "50%"


def test_latin_is_lower_cased_and_empty_stays_empty() -> None:
    assert normalize_arabic("SELECT") == "select"
    assert normalize_arabic("") == ""


# --- digits and separators ------------------------------------------------------------------------


def test_arabic_indic_and_persian_digits_become_western() -> None:
    assert normalize_digits("٠١٢٣٤٥٦٧٨٩") == "0123456789"
    assert normalize_digits("۰۱۲۳۴۵۶۷۸۹") == "0123456789"
    assert normalize_digits("سنة ١٤٤٦هـ") == "سنة 1446هـ"


def test_arabic_decimal_and_thousands_separators() -> None:
    assert normalize_digits("٢٫٥") == "2.5"
    assert normalize_digits("١٬٢٥٠٬٠٠٠") == "1250000"


def test_arabic_comma_between_digit_groups_is_a_thousands_separator() -> None:
    assert normalize_digits("1،250،000") == "1250000"
    # Between words or a list of numbers it stays a comma.
    assert normalize_digits("الرياض، جدة") == "الرياض، جدة"
    assert normalize_digits("5، 6") == "5، 6"


def test_letters_are_left_by_normalize_digits() -> None:
    assert normalize_digits("أكثر من ٥") == "أكثر من 5"


def test_arabic_letter_share() -> None:
    assert arabic_letter_share("كم مناقصة") == 1.0
    assert arabic_letter_share("hello") == 0.0
    assert arabic_letter_share("123 😀") == 0.0
    assert 0 < arabic_letter_share("كم SQL") < 1


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
       | st.text(st.characters(min_codepoint=0x05F0, max_codepoint=0x0900), max_size=60)
       | st.text(st.characters(min_codepoint=0xFB40, max_codepoint=0xFF00), max_size=60))
def test_arabic_letter_share_counts_as_is_arabic_letter_does(text: str) -> None:
    letters = [ch for ch in text if ch.isalpha()]
    expected = sum(1 for ch in letters if is_arabic_letter(ch)) / len(letters) if letters else 0.0
    assert arabic_letter_share(text) == expected


def test_a_text_folded_again_is_folded_once_while_kept(monkeypatch) -> None:
    import nabahan_pipeline.arabic.normalize as normalize

    normalize._kept_fold.cache_clear()
    folded: list[str] = []
    real = normalize.strip_marks
    monkeypatch.setattr(normalize, "strip_marks", lambda text: folded.append(text) or real(text))
    text = "بلغ عدد المناقصات  ١٢٣ مناقصةً في منطقة الرياض"
    assert normalize_arabic(text) == normalize_arabic(text) == "بلغ عدد المناقصات 123 مناقصه في منطقه الرياض"
    assert len(folded) == 1, "folded once while kept"
    long_text = "أ" * (normalize.FOLDED_KEPT_CHARS + 1)
    assert normalize_arabic(long_text) == normalize_arabic(long_text) == "ا" * (normalize.FOLDED_KEPT_CHARS + 1)
    assert len(folded) == 3, "a text past FOLDED_KEPT_CHARS is folded each time"
