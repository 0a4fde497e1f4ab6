"""The lexicon is written as normalize_arabic leaves questions: an entry holding a letter that
normalization folds away (أ إ آ ى ة ئ ؤ ...) could never match."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import files

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


def test_every_word_list_of_lexicon_json_is_one_constant_of_the_lexicon() -> None:
    # lexicon.json holds the lists, lexicon.py names and types them: no list unnamed, none lost.
    data = json.loads(files("nabahan_pipeline.reference_agent").joinpath("lexicon.json").read_text(encoding="utf-8"))
    assert len(data) > 40
    for key, value in data.items():
        constant = getattr(lexicon, key)
        assert len(constant) == len(value), key
        if isinstance(value, dict):
            assert [str(k) for k in constant] == list(value), key
        else:
            assert sorted(map(str, constant)) == sorted(map(str, (tuple(v) if isinstance(v, list) else v for v in value))), key
