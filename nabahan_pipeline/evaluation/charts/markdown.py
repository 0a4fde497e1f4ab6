"""The dashboard as Markdown for the Dagster UI: a small copy of its PNG inline."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

from PIL import Image  # matplotlib depends on Pillow

MAX_WIDTH_PX = 800
MAX_BYTES = 150_000

# The Markdown of the dashboard render_charts wrote last, made while the other charts were drawn,
# by the file's identity (device, inode, modification time, size: the same file whatever the
# path or link it is read by) and the two limits.
_prepared: dict[tuple[int, ...], str] = {}


def _png_bytes(image: Image.Image) -> bytes:
    # Pillow's default zlib level: "optimize" (level 9) made the dashboard's copy 1 to 3 % smaller
    # for four times the CPU (0.11 s of a 20-case run's 0.15 s here).
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def _identity(path: str | Path, max_width_px: int, max_bytes: int) -> tuple[int, ...]:
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, max_width_px, max_bytes)


def _markdown(image: Image.Image, max_width_px: int, max_bytes: int) -> str:
    width = min(max_width_px, image.width)
    while True:
        height = max(1, round(image.height * width / image.width))
        small = image.resize((width, height), Image.Resampling.LANCZOS)
        encoded = base64.b64encode(_png_bytes(small))
        if len(encoded) > max_bytes:
            encoded = base64.b64encode(_png_bytes(small.quantize(colors=256)))
        if len(encoded) <= max_bytes or width <= 200:
            break
        width = int(width * 0.85)
    return f"![Evaluation dashboard](data:image/png;base64,{encoded.decode('ascii')})"


def prepare_dashboard_markdown(path: str | Path, pixels: memoryview) -> str:
    """Make the Markdown of the dashboard PNG just written at ``path`` from its drawn ``pixels``
    (RGBA rows from the top, as the PNG holds them), so that :func:`dashboard_markdown` of that
    file, with the default limits, is ready at once; and return it."""
    height, width = pixels.shape[:2]
    image = Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1).convert("RGB")
    markdown = _markdown(image, MAX_WIDTH_PX, MAX_BYTES)
    remember_dashboard_markdown(path, markdown)
    return markdown


def remember_dashboard_markdown(path: str | Path, markdown: str) -> None:
    """Keep ``markdown``, made by :func:`prepare_dashboard_markdown` (maybe in another process),
    for :func:`dashboard_markdown` of the file at ``path``, with the default limits."""
    _prepared.clear()
    _prepared[_identity(path, MAX_WIDTH_PX, MAX_BYTES)] = markdown


def dashboard_markdown(path: str | Path, *, max_width_px: int = MAX_WIDTH_PX, max_bytes: int = MAX_BYTES) -> str:
    """Markdown with a small copy of the dashboard PNG inline (base64 data URI), for the Dagster UI.

    The image is scaled down to at most ``max_width_px`` wide; if the encoded image is still over
    ``max_bytes`` it is reduced to a 256-colour palette, then narrowed step by step.
    """
    if max_width_px < 16:
        raise ValueError(f"max_width_px too small: {max_width_px}")
    prepared = _prepared.get(_identity(path, max_width_px, max_bytes))
    if prepared is not None:
        return prepared
    with Image.open(path) as src:
        image = src.convert("RGB")
    return _markdown(image, max_width_px, max_bytes)
