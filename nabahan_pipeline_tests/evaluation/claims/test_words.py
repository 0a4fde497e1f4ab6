"""words.json holds the claim words' tables, words.py names and types them."""

from __future__ import annotations

import json
from importlib.resources import files

from nabahan_pipeline.evaluation.claims import words


def test_every_table_of_words_json_is_one_constant_of_words() -> None:
    # No table unnamed, none lost, and each constant in its declared shape.
    data = json.loads(files(words.__package__).joinpath("words.json").read_text(encoding="utf-8"))
    constants = [name for name in vars(words) if name.isupper() and not name.startswith("_")]
    assert sorted(data) == sorted(constants)
    for name, table in data.items():
        constant = getattr(words, name)
        assert isinstance(constant, dict if isinstance(table, dict) else tuple), name
        assert list(constant) == list(table) and len(constant) > 0, name


def test_a_table_reads_as_its_rule_needs() -> None:
    # Signs and factors keep their numeric type; comparators their relation.
    assert words.DIRECTIONS["ارتفع"] == 1 and words.DIRECTIONS["انخفض"] == -1
    assert words.RATIOS["ثلث"] == 1 / 3 and words.DEFINITE_SCALES["المليار"] == 1e9
    assert words.COMPARATORS["لا يقل عن"] == ">=" and "تقريبا" in words.AFTER_APPROXIMATORS
