"""words.json holds the claim words' tables, words.py names and types them."""

from __future__ import annotations

import json
import re
from importlib.resources import files

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.evaluation.claims import words


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
    # change could never match. Every string of the file but the tables' names is a word.
    text = files(words.__package__).joinpath("words.json").read_text(encoding="utf-8")
    names = set(json.loads(text))
    entries = [json.loads(f'"{word}"') for word in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]
    assert len(entries) > 700
    assert [entry for entry in entries if entry not in names and normalize_arabic(entry) != entry] == []


def test_a_table_reads_as_its_rule_needs() -> None:
    # Signs and factors keep their numeric type; comparators their relation; months their number.
    assert words.DIRECTIONS["ارتفع"] == 1 and words.DIRECTIONS["انخفض"] == -1
    assert words.RATIOS["ثلث"] == 1 / 3 and words.DEFINITE_SCALES["المليار"] == 1e9
    assert words.COMPARATORS["لا يقل عن"] == ">=" and "تقريبا" in words.AFTER_APPROXIMATORS
    assert "سبتمبر" in words.GREGORIAN_MONTHS[9]
