"""How the charts write numbers: percentages and their intervals, seconds, counts."""

from __future__ import annotations

import math

import pandas as pd

from nabahan_pipeline.evaluation.reports import format_interval, format_pct

__all__ = ["format_count", "format_interval", "format_pct", "format_seconds", "seconds_tick_label"]


def format_seconds(seconds: float | None) -> str:
    """Seconds with at least two significant digits: ``4.5678 -> "4.57 s"``, ``0.0076 -> "0.0076 s"``.

    Two decimals from 0.1 s up; below that as many as it takes (at most four), so that a fast
    cached answer does not read "0.00 s". NaN or None -> ``"n/a"``.
    """
    if seconds is None or pd.isna(seconds):
        return "n/a"
    v = float(seconds)
    if v == 0:
        return "0 s"
    if 0 < abs(v) < 0.0001:
        return "< 0.0001 s"
    decimals = min(max(2, 1 - math.floor(math.log10(abs(v)))), 4)
    return f"{v:.{decimals}f} s"


def format_count(n: object) -> str:
    """A whole number with thousands separators: ``12345 -> "12,345"``."""
    return f"{int(n):,}"


def seconds_tick_label(v: float, _pos: object = None) -> str:
    """A latency axis tick label, as short as the value allows: ``0.5 -> "0.5 s"``, ``10 -> "10 s"``."""
    return f"{v:g} s"
