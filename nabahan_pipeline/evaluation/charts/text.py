"""Text on the charts: Arabic labels, and text from the data made safe to draw (``safe_text``: a
"Glyph missing" warning is a bug). Arabic goes to matplotlib as written: 3.11 shapes and orders it
itself (libraqm), so pre-shaping would reverse it. A label mixing scripts is "English — عربي",
any digits in the English part (after Arabic, the bidi algorithm would move them into it).
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
    """The width in pixels of one line of ``text`` drawn in ``prop`` on ``fig``'s Agg canvas, as
    matplotlib measures a text it lays out (kept for the renderer: not measured again when drawn)."""
    label = Text(0, 0, text, fontproperties=prop, figure=fig, parse_math=False)
    return label.get_window_extent(fig.canvas.get_renderer()).width


def safe_text(value: object) -> str:
    """A value from the data on one line (white space collapsed), each run of characters the font
    lacks (an emoji, a CJK ideograph) as one U+FFFD; invisible format characters (ZWNJ, RLM) pass."""
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
    """``text`` cut to ``max_chars`` characters, ellipsis included, at the last space that fits (in
    a word only when that word is over half the budget), trailing punctuation dropped; in typed
    order, so an Arabic text's ellipsis shows at its left end."""
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
