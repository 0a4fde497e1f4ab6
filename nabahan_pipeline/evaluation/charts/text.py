"""Text on the charts: Arabic labels, and text from the data made safe to draw.

Arabic text is passed to matplotlib in logical order, as written. Matplotlib 3.11 shapes and
orders it itself (libraqm); pre-shaping it with a reshaper or a bidi library would render it
reversed. A "Glyph missing" warning is a bug: text from the data (questions, categories, run
labels) goes through :func:`safe_text`, which replaces characters the font cannot draw.

Bidi rule followed by every label: a string that mixes scripts is "English — عربي", with any
digits in the English part, or the Arabic on a line of its own. Digits written right after Arabic
in a left-to-right string are reordered into the Arabic run by the Unicode bidi algorithm.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata

from matplotlib import font_manager, ft2font
from matplotlib.figure import Figure
from matplotlib.text import Text

from nabahan_pipeline.evaluation.charts.style import FONT_FAMILY

QUESTION_MAX_CHARS = 45
ELLIPSIS = "\u2026"

CATEGORY_AR = {
    "count": "عدّ", "region_filter": "تصفية بالمنطقة", "aggregation": "تجميع", "distribution": "توزيع",
    "lookup": "استعلام", "time_filter": "تصفية زمنية", "value_filter": "تصفية بالقيمة",
    "out_of_scope": "خارج النطاق",
}


# lru_cache, safe in a long-lived process: the font file is fixed by the installed matplotlib and
# its character map does not change while the process runs.
@functools.lru_cache(maxsize=1)
def _font_charmap() -> frozenset[int]:
    path = font_manager.findfont(
        font_manager.FontProperties(family=FONT_FAMILY), fallback_to_default=False
    )
    return frozenset(ft2font.FT2Font(path).get_charmap())


def text_width_px(fig: Figure, text: str, prop: font_manager.FontProperties) -> float:
    """The width in pixels of one line of ``text`` drawn in ``prop`` on ``fig``'s Agg canvas.

    Measured as matplotlib measures a text it lays out (``Text.get_window_extent``), which keeps
    each measure for the figure's renderer: a label measured to fit is not measured again when
    drawn, nor a cell text met twice.
    """
    label = Text(0, 0, text, fontproperties=prop, figure=fig, parse_math=False)
    return label.get_window_extent(fig.canvas.get_renderer()).width


def safe_text(value: object) -> str:
    """Display form of a value from the data: one line, only characters DejaVu Sans can draw.

    White space (newlines included) collapses to single spaces; a character the font lacks
    (an emoji, a CJK ideograph, a rare Arabic letter) becomes U+FFFD (one per run of them)
    rather than a "Glyph missing" warning and an empty box. Invisible format characters
    (ZWNJ, RLM, ...) pass.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = " ".join(str(value).split())
    charmap = _font_charmap()
    text = "".join(
        ch if ord(ch) in charmap or unicodedata.category(ch) == "Cf" else "\ufffd" for ch in text
    )
    return re.sub("\ufffd+", "\ufffd", text)


_TRAILING_JUNK = " \t,.;:!?\u060c\u061b\u061f-\u2013\u2014(["


def truncate_text(text: object, max_chars: int = QUESTION_MAX_CHARS, *, ellipsis: str = ELLIPSIS) -> str:
    """Shorten ``text`` to at most ``max_chars`` characters, ellipsis included, on a word boundary.

    Works on the logical (typed) order, so for Arabic the ellipsis ends up at the left end, where
    the sentence stops. Cuts at the last space that keeps the result within bounds; only a
    single word longer than half the budget is cut inside the word. Trailing punctuation before
    the ellipsis is dropped.
    """
    if max_chars <= len(ellipsis):
        raise ValueError(f"max_chars must exceed the ellipsis length, got {max_chars}")
    s = " ".join(str(text).split())
    if len(s) <= max_chars:
        return s
    budget = max_chars - len(ellipsis)
    # s[budget] is included so that a space right after the budget counts as a boundary.
    space = s.rfind(" ", 0, budget + 1)
    head = s[:space] if space >= budget // 2 else s[:budget]
    head = head.rstrip(_TRAILING_JUNK) or s[:budget].rstrip()
    return head + ellipsis


_ISO_DATETIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})")


def run_label(value: object) -> str:
    """A run label for an axis: ISO timestamps shortened to "YYYY-MM-DD HH:MM", at most 20 chars."""
    text = safe_text(value)
    m = _ISO_DATETIME.match(text)
    if m:
        text = f"{m.group(1)} {m.group(2)}"
    return truncate_text(text, 20)


def category_label(category: str) -> str:
    """A category as "name — الاسم" (the name alone for a category without an Arabic name)."""
    name = safe_text(category)
    ar = CATEGORY_AR.get(category)
    return f"{name} — {ar}" if ar else name
