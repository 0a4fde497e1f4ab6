"""The lexicon is written as normalize_arabic leaves questions: an entry holding a letter that
normalization folds away (أ إ آ ى ة ئ ؤ ...) could never match."""

from __future__ import annotations

from collections.abc import Iterator

from nabahan_pipeline.arabic.normalize import is_arabic_letter, normalize_arabic
from nabahan_pipeline.reference_agent import lexicon


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _strings(item)


def test_no_lexicon_entry_holds_a_letter_normalization_folds() -> None:
    entries = [
        text for name, value in vars(lexicon).items() if name.isupper() for text in _strings(value)
    ]
    assert len(entries) > 500
    folded = sorted(
        {text for text in entries for ch in text if is_arabic_letter(ch) and normalize_arabic(ch) != ch}
    )
    assert folded == []


def test_the_check_sees_a_folded_letter() -> None:
    # The letters the check looks for are the ones normalization changes.
    assert [ch for ch in "علىهيئةإلى" if normalize_arabic(ch) != ch] == ["ى", "ئ", "ة", "إ", "ى"]
