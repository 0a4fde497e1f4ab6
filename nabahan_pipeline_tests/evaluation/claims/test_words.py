"""words.json holds the claim words' tables, words.py names and types them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import files

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.evaluation.claims import words


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _strings(item)


def test_every_table_of_words_json_is_one_constant_of_words() -> None:
    # No table unnamed, none lost, and each constant in its declared shape.
    data = json.loads(files(words.__package__).joinpath("words.json").read_text(encoding="utf-8"))
    constants = [name for name in vars(words) if name.isupper() and not name.startswith("_")]
    assert sorted(data) == sorted(constants)
    for name, table in data.items():
        constant = getattr(words, name)
        assert isinstance(constant, dict if isinstance(table, dict) else tuple), name
        assert [str(key) for key in constant] == list(table) and len(constant) > 0, name


def test_every_word_is_written_as_the_folded_insight_has_it() -> None:
    # The checker looks words up in the folded insight as they are: a word normalization would
    # change could never match.
    entries = [text for name, value in vars(words).items() if name.isupper() and not name.startswith("_")
               for text in _strings(value)]
    assert len(entries) > 700
    assert [text for text in entries if normalize_arabic(text) != text] == []


def test_a_table_reads_as_its_rule_needs() -> None:
    # Signs and factors keep their numeric type; comparators their relation; months their number.
    assert words.DIRECTIONS["ارتفع"] == 1 and words.DIRECTIONS["انخفض"] == -1
    assert words.RATIOS["ثلث"] == 1 / 3 and words.DEFINITE_SCALES["المليار"] == 1e9
    assert words.COMPARATORS["لا يقل عن"] == ">=" and "تقريبا" in words.AFTER_APPROXIMATORS
    assert "سبتمبر" in words.GREGORIAN_MONTHS[9]
