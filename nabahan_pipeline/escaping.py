"""Text we did not write made inert where we write it: a CSV cell never becomes a formula, a
Markdown preview never renders an agent's markup, links, HTML, nor its bidi controls."""

from __future__ import annotations

import re

import pandas as pd

# OWASP's list for CSV injection: a cell starting with one of these is read as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Markdown's specials escaped by a backslash, HTML's by entities; a line break as a space.
_MARKDOWN_SPECIAL = str.maketrans({**{char: "\\" + char for char in "\\`*_[]|!~#@"},
                                   "&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "})

# GFM links bare "scheme://x", "www.x" and "a@b.c" (the "@" is escaped above); a backslash before
# the ":" or the "." breaks the run of characters it looks for, and renders as nothing.
_BARE_LINK = re.compile(r":(?=//)|(?<=www)\.", re.IGNORECASE)


# Unicode's bidi controls: embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
# Agent text loses them in Markdown: a stray override would reorder everything after its cell.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Letters written right to left: Hebrew, Arabic (and its supplements, presentation forms), Syriac, Thaana...
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def isolated(text: str) -> str:
    """``text`` with right-to-left letters between FSI and PDI (Unicode's isolates), so that it reads
    in order in a left-to-right page, its neutrals kept within it; text with none unchanged."""
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}" if _RIGHT_TO_LEFT.search(text) else text


def csv_cell(value: object) -> object:
    """``value`` as a spreadsheet will not run it: text starting like a formula gets a leading
    apostrophe (OWASP); numbers and other values pass unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells (and column names) are ``csv_cell``-safe."""
    safe = frame.copy()
    for position in range(safe.shape[1]):
        values = safe.iloc[:, position]
        if values.dtype == object or pd.api.types.is_string_dtype(values):
            safe.isetitem(position, values.map(csv_cell))
    safe.columns = [csv_cell(str(name)) for name in safe.columns]
    return safe


def one_line(value: object, chars: int) -> str:
    """``value`` as one line, cut to ``chars`` characters with "…"; only as much of its start as
    the line needs is split (a 30 MiB result is millions of words)."""
    text = str(value)
    size = 4 * chars + 64
    while size < len(text):
        start = " ".join(text[:size].split())  # the start of the whole line: it is longer still
        if len(start) > chars:
            return start[: chars - 1] + "…"
        size *= 4
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def markdown_text(value: object) -> str:
    """``value`` as literal text in Markdown, on one line: every character Markdown or HTML would
    read escaped, bidi controls removed, right-to-left text isolated."""
    text = str(value).translate(_BIDI_CONTROLS).translate(_MARKDOWN_SPECIAL)
    return isolated(_BARE_LINK.sub(r"\\\g<0>", text))


def markdown_table(frame: pd.DataFrame, *, cell_chars: int | None = None) -> str:
    """``frame`` as a Markdown table whose cells and headers are literal text, each cut to
    ``cell_chars`` characters (before escaping, so an escape is never cut in two)."""

    def cell(value: object) -> object:
        if value is None or (not isinstance(value, str) and pd.api.types.is_scalar(value) and pd.isna(value)):
            return ""
        if isinstance(value, (bool, int, float)):
            return value
        return markdown_text(one_line(value, cell_chars) if cell_chars is not None else " ".join(str(value).split()))

    table = pd.DataFrame(
        {position: frame.iloc[:, position].map(cell).astype(object) for position in range(frame.shape[1])}
    )
    return table.to_markdown(index=False, headers=[markdown_text(name) for name in frame.columns])
