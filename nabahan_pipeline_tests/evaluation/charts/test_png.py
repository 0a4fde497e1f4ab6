"""Tests for evaluation.charts.png: the PNG a chart is written as holds its pixels exactly, with
the metadata matplotlib writes, and is read back by Pillow as any PNG."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from PIL import Image

from nabahan_pipeline.evaluation.charts.png import PNG_SIGNATURE, SOFTWARE, write_rgba_png


def _written(pixels: np.ndarray, dpi: float = 110) -> bytes:
    buf = io.BytesIO()
    write_rgba_png(buf, pixels, dpi=dpi)
    return buf.getvalue()


def test_every_pixel_and_the_metadata_come_back():
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)  # no two rows alike
    data = _written(pixels, dpi=110)
    assert data.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(data)) as image:
        image.load()  # checks every chunk's CRC and the stream's checksum
        assert (image.mode, image.size) == ("RGBA", (53, 37))
        assert np.array_equal(np.asarray(image), pixels)
        assert image.info["Software"] == SOFTWARE
        assert image.info["dpi"] == pytest.approx((110, 110), abs=0.01)


def test_a_canvas_buffer_is_taken_as_it_is():
    from nabahan_pipeline.evaluation.charts.drawing import draw_figure
    from nabahan_pipeline.evaluation.charts.style import chart_style, new_figure

    fig = new_figure(2, 1)
    with chart_style():
        fig.text(0.1, 0.5, "نسبة النجاح 85%")
    drawn = draw_figure(fig)  # a memoryview of the canvas
    with Image.open(io.BytesIO(_written(drawn))) as image:
        assert np.array_equal(np.asarray(image), np.asarray(drawn))


def test_a_corrupted_file_is_refused_by_a_reader():
    data = bytearray(_written(np.full((4, 4, 4), 200, dtype=np.uint8)))
    idat = data.index(b"IDAT")
    data[idat + 6] ^= 0xFF  # a byte of the compressed rows
    with pytest.raises((SyntaxError, OSError, zlib.error)):
        with Image.open(io.BytesIO(bytes(data))) as image:
            image.load()


def test_only_rgba_pixels():
    with pytest.raises(ValueError, match="RGBA"):
        _written(np.zeros((4, 4, 3), dtype=np.uint8))
