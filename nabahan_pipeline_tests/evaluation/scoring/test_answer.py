"""How every scorer reads an answer's cells: present or missing, text or absent."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nabahan_pipeline.evaluation.scoring.answer import present, text_or_none

CELLS = [None, "x", "", "  ", 0, 1, True, False, 1.5, float("nan"), np.float64("nan"), np.float64(2), np.int64(3),
         pd.NA, pd.NaT, [1], (1,), {}, np.bool_(True), np.array([1, 2])]


def pandas_present(value):
    # What "present" means: not None and not a value pandas reads as missing (list-likes are present).
    if value is None:
        return False
    try:
        return not bool(pd.isna(value))
    except (TypeError, ValueError):
        return True


@pytest.mark.parametrize("value", CELLS, ids=repr)
def test_present_is_pandas_reading_of_missing(value) -> None:
    assert present(value) is pandas_present(value)


@pytest.mark.parametrize("value", CELLS, ids=repr)
def test_text_or_none_keeps_non_blank_strings_only(value) -> None:
    expected = value if isinstance(value, str) and value.strip() else None
    assert text_or_none(value) is expected
