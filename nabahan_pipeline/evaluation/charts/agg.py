"""The charts' Agg canvas: matplotlib's, with its text drawn in fewer FreeType calls.

Matplotlib 3.11 draws a text by shaping it (libraqm: bidi, Arabic joining, kerning) into glyphs,
then rendering each glyph on its own. It sets the font size again before every glyph (FreeType
then runs the font's hinting set-up anew, more than half the cost of a glyph) and builds the same
rotation matrix with NumPy each time; and it shapes a text each time it is drawn, though our
charts draw the same strings again and again (tick labels, table cells, the same legend in two
figures). :class:`ChartRenderer` sets the size once per run of glyphs of one font, builds the
matrix once per text and keeps the shaped glyphs of the last few thousand texts: the same
FreeType calls with the same arguments, so the same pixels, in a little over half the time.
It also gives each text's layout its font's line metrics from a table per font and size, where
matplotlib reads them from the font's tables for every line each time it lays a text out.

This reaches into private parts of matplotlib (``RendererAgg._prepare_font`` and
``_draw_text_glyphs_and_boxes``, ``FT2Font._layout``, ``_set_transform`` and ``_render_glyph``,
the ``_get_font_height_metrics`` hook of ``Text._get_layout``), as they are in matplotlib 3.11,
which it was written for and checked against. Any other version, or one without those parts,
gets matplotlib's own renderer (:data:`USE_CHART_RENDERER` is False): the same pixels, drawn
slower. To admit a new version, add it to :data:`VERIFIED_VERSIONS` once
``nabahan_pipeline_tests/evaluation/charts/test_agg.py`` (our pixels against matplotlib's) and
``test_render.py`` (the reference pixels) pass on it.
"""

from __future__ import annotations

import functools
import math
import os

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.font_manager import fontManager, get_font
from matplotlib.ft2font import FT2Font, RenderMode
from matplotlib.text import Text

# Shaped texts kept: a run's seven charts draw about 500 texts, 300 of them different.
LAYOUT_CACHE_SIZE = 4096
# The matplotlib versions (prefixes) ChartRenderer was checked against.
VERIFIED_VERSIONS = ("3.11.",)


def _fits(version: str) -> bool:
    """Whether ChartRenderer may draw under matplotlib ``version``: a verified version, with the
    private parts it overrides and calls where it expects them."""
    if not version.startswith(VERIFIED_VERSIONS):
        return False
    layout = getattr(getattr(Text, "_get_layout", None), "__code__", None)
    return (layout is not None and "_get_font_height_metrics" in layout.co_names
            and all(hasattr(RendererAgg, name) for name in ("_prepare_font", "_draw_text_glyphs_and_boxes"))
            and all(hasattr(FT2Font, name) for name in ("_layout", "_set_transform", "_render_glyph")))


USE_CHART_RENDERER = _fits(matplotlib.__version__)


class ChartRenderer(RendererAgg):
    """Matplotlib's Agg renderer, drawing text as it does with fewer calls (see the module)."""

    def __init__(self, width, height, dpi):
        super().__init__(width, height, dpi)
        self._height_metrics = {}

    def _get_font_height_metrics(self, prop):
        """A font's ascent, descent and line gap in pixels, which ``Text._get_layout`` reads from
        the font's tables for every line of every text, each time it is laid out: computed as it
        computes them, once per font and size (``None``s send it to its own way)."""
        key = prop.copy()  # mutable, hashed by its state: as matplotlib keys its text metrics
        metrics = self._height_metrics.get(key)
        if metrics is None:
            metrics = self._height_metrics[key] = _height_metrics(prop, self.dpi)
        return metrics

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        font = self._prepare_font(prop)
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        size = prop.get_size_in_points()
        items = _shaped(font, size, self.dpi, s, get_hinting_flag(),
                        None if features is None else tuple(features), _hashable(language))
        self._draw_glyphs(gc, x, y, angle, size, items)

    def _draw_glyphs(self, gc, x, y, angle, size, items):
        """``RendererAgg._draw_text_glyphs_and_boxes`` for shaped text (no slant, no stretch, no
        boxes): the size set when the font changes, not before each glyph, the matrix made once."""
        cos = math.cos(math.radians(angle))
        sin = math.sin(math.radians(angle))
        # round(0x10000 * [[cos, -sin], [sin, cos]] @ [[1, 0], [0, 1]]), as matplotlib computes it.
        matrix = [[round(0x10000 * cos), round(0x10000 * -sin)], [round(0x10000 * sin), round(0x10000 * cos)]]
        load_flags = get_hinting_flag()
        mode = RenderMode.NORMAL if gc.get_antialiased() else RenderMode.MONO
        height = self.height
        draw_text_image = self._renderer.draw_text_image
        current = None
        for item in items:
            font, dx, dy = item.ft_object, item.x, item.y  # dy is upwards.
            if font is not current:
                font.set_size(size, self.dpi)
                current = font
            font._set_transform(matrix, [round(0x40 * (x + dx * cos - dy * sin)),
                                         # FreeType's y is upwards.
                                         round(0x40 * (height - y + dx * sin + dy * cos))])
            bitmap = font._render_glyph(item.glyph_index, load_flags, mode)
            buffer = bitmap.buffer
            if mode is RenderMode.MONO:
                buffer *= 0xff
            # draw_text_image's y is downwards & the bitmap bottom side.
            draw_text_image(buffer, bitmap.left, int(height) - bitmap.top + buffer.shape[0], 0, gc)


@functools.lru_cache(LAYOUT_CACHE_SIZE)
def _shaped(font, size, dpi, s, flags, features, language):
    """The glyphs of ``s`` in ``font`` (already set to ``size`` at ``dpi``), shaped by libraqm.

    Keyed by the font object itself: a font is made once per process and thread (matplotlib's
    ``font_manager._get_font``), and not shared with a forked child, which makes its own.
    """
    return font._layout(s, flags=flags, features=features, language=language)


def _height_metrics(prop, dpi):
    # text.Text._get_layout's own computation, step for step (matplotlib 3.11).
    font = get_font(fontManager._find_fonts_by_props(prop))
    possible = [
        ('OS/2', 'sTypoLineGap', 'sTypoAscender', 'sTypoDescender'),
        ('hhea', 'lineGap', 'ascent', 'descent')
    ]
    for table_name, linegap_key, ascent_key, descent_key in possible:
        table = font.get_sfnt_table(table_name)
        if table is None:
            continue
        fontsize = prop.get_size_in_points()
        units_per_em = font.get_sfnt_table('head')['unitsPerEm']
        scale = 1 / units_per_em * fontsize * dpi / 72
        return table[ascent_key] * scale, -table[descent_key] * scale, table[linegap_key] * scale
    return None, None, None


def _hashable(language):
    if language is None or isinstance(language, str):
        return language
    return tuple(tuple(part) for part in language)


class ChartCanvas(FigureCanvasAgg):
    """An Agg canvas drawing with :class:`ChartRenderer` (matplotlib's own renderer on a
    matplotlib it was not checked against: :data:`USE_CHART_RENDERER`)."""

    def get_renderer(self):
        if not USE_CHART_RENDERER:
            return super().get_renderer()
        w, h = self.get_width_height(physical=True)
        key = w, h, self.figure.dpi
        if self._lastKey != key:
            self.renderer = ChartRenderer(w, h, self.figure.dpi)
            self._lastKey = key
        return self.renderer


# A forked child makes its own fonts (matplotlib empties its font cache there): the shaped texts
# of the parent's fonts would only keep those alive.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_shaped.cache_clear)
