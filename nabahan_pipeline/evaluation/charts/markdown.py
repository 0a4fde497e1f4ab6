"""The dashboard as Markdown for the Dagster UI: a small copy of its PNG inline."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

MAX_WIDTH_PX = 800
MAX_BYTES = 150_000


def _png_bytes(image: Image.Image) -> bytes:
    # Pillow's default zlib level: "optimize" (level 9) makes the copy only a little smaller for
    # several times the CPU.
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def dashboard_markdown(path: str | Path, *, max_width_px: int = MAX_WIDTH_PX, max_bytes: int = MAX_BYTES) -> str:
    """Markdown with a small copy of the dashboard PNG inline (base64 data URI), for the Dagster UI.

    The image is scaled down to at most ``max_width_px`` wide; if the encoded image is still over
    ``max_bytes`` it is reduced to a 256-colour palette, then narrowed step by step.
    """
    if max_width_px < 16:
        raise ValueError(f"max_width_px too small: {max_width_px}")
    with Image.open(path) as src:
        image = src.convert("RGB")
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
