"""How every view writes a number, one function per kind: a rate (a percentage, with its 95 %
interval), seconds, a count, a score. The CSV files, the console, the HTML report and the charts
all write them here, so a rate's interval reads the same everywhere: ``85.0% (62.1-94.8)``."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

def _missing(value: Any) -> bool:
    return value is None or bool(pd.isna(value))


def format_pct(fraction: float | None) -> str:
    """A fraction 0..1 as the seed writes it: ``0.8123 -> "81.2%"``; NaN or None -> ``"n/a"``."""
    return "n/a" if _missing(fraction) else f"{float(fraction) * 100:.1f}%"


def interval_text(low: float | None, high: float | None) -> str:
    """A 95 % interval's bounds as percentages without the sign, ``"62.1-94.8"``; empty when it
    has none (NaN, or a summary from before the intervals)."""
    if _missing(low) or _missing(high):
        return ""
    return f"{float(low) * 100:.1f}-{float(high) * 100:.1f}"


def format_interval(row: Any, rate: str) -> str:
    """``rate``'s interval in a summary row (its ``_low`` and ``_high``), in brackets: ``"(62.1-94.8)"``."""
    text = interval_text(row.get(f"{rate}_low"), row.get(f"{rate}_high"))
    return f"({text})" if text else ""


def format_rate(value: float | None, low: float | None = None, high: float | None = None) -> str:
    """A rate and its interval: ``"85.0% (62.1-94.8)"``; the rate alone when it has none."""
    interval = interval_text(low, high)
    return f"{format_pct(value)} ({interval})" if interval else format_pct(value)


def format_seconds(seconds: float | None, *, unit: str = " s", decimals: int | None = None) -> str:
    """Seconds: with ``decimals``, that many (the seed's ``1.85``, the console's ``1.85s``); else with
    at least two significant digits, as the charts write them: ``4.5678 -> "4.57 s"``,
    ``0.0076 -> "0.0076 s"`` (two decimals from 0.1 s up, below that as many as it takes, at most
    four, so that a fast cached answer does not read "0.00 s"). NaN or None -> ``"n/a"``."""
    if _missing(seconds):
        return "n/a"
    v = float(seconds)
    if decimals is not None:
        return f"{v:.{decimals}f}{unit}"
    if v == 0:
        return f"0{unit}"
    if 0 < abs(v) < 0.0001:
        return f"< 0.0001{unit}"
    return f"{v:.{min(max(2, 1 - math.floor(math.log10(abs(v)))), 4)}f}{unit}"


def format_count(n: object) -> str:
    """A whole number with thousands separators: ``12345 -> "12,345"``."""
    return f"{int(n):,}"


def format_value(kind: str, value: Any) -> str | int:
    """A summary figure's value by its kind (``scoring.declare.Kind``), as the summary CSV writes it."""
    if kind == "rate":
        return format_pct(value)
    if kind == "seconds":
        return format_seconds(value, unit="", decimals=2)
    if kind == "score":
        return f"{value:.3f}"
    return int(value)


def seconds_tick_label(v: float, _pos: object = None) -> str:
    """A latency axis tick label, as short as the value allows: ``0.5 -> "0.5 s"``, ``10 -> "10 s"``."""
    return f"{v:g} s"
