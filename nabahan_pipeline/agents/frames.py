"""The messages between the pipeline and a ``python:`` agent's child process: length-prefixed JSON.

A frame is a header line ``<number> <bytes>\\n`` and that many bytes of UTF-8 JSON. What the child
sends is untrusted: a frame is measured from its header and, past the cap, skipped in chunks
without being held; its nesting depth is counted without recursion before it is parsed; and it is
only ever parsed as JSON (never unpickled: pickle from a hostile child runs its code).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from nabahan_pipeline.agents.contract import MAX_ANSWER_DEPTH
from nabahan_pipeline.json_bounds import measure_json

# The longest header line: two numbers of at most 20 digits, a space and the newline.
_MAX_HEADER = 64
_CHUNK = 1 << 20
# Nesting past this is refused before parsing, as an HTTP answer's is.
MAX_DEPTH = MAX_ANSWER_DEPTH


class FrameError(Exception):
    """The stream is not a sequence of frames (a header or a frame cut short)."""


@dataclass(frozen=True, slots=True)
class Oversized:
    """A frame skipped for its size: how many bytes it had."""

    size: int


def frame(number: int, message: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """``message`` as JSON (lone surrogates kept, NaN as NaN; ``default`` for other values) in one
    frame numbered ``number``."""
    payload = json.dumps(message, ensure_ascii=False, default=default).encode("utf-8", "surrogatepass")
    return b"%d %d\n" % (number, len(payload)) + payload


def read_frame(stream: BinaryIO, max_bytes: int) -> tuple[int, bytes | Oversized] | None:
    """The next frame's number and bytes (``Oversized`` when over ``max_bytes``, its bytes read and
    dropped a chunk at a time); None at the end of the stream. Raises FrameError for a bad header
    or a frame cut short."""
    header = stream.readline(_MAX_HEADER)
    if not header:
        return None
    parts = header.split()
    if not header.endswith(b"\n") or len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise FrameError(f"not a frame header: {header[:_MAX_HEADER]!r}")
    number, size = int(parts[0]), int(parts[1])
    if size > max_bytes:
        left = size
        while left:
            chunk = stream.read(min(left, _CHUNK))
            if not chunk:
                raise FrameError("a frame cut short")
            left -= len(chunk)
        return number, Oversized(size)
    payload = stream.read(size)
    if len(payload) != size:
        raise FrameError("a frame cut short")
    return number, payload


def too_deep(payload: bytes, max_depth: int = MAX_DEPTH) -> bool:
    """Whether JSON ``payload`` nests arrays and objects deeper than ``max_depth``, measured on
    its text (json_bounds: no parse, no recursion)."""
    return measure_json(payload, max_depth).depth > max_depth


def decoded(payload: bytes) -> str:
    """A frame's bytes as the text of its JSON (lone surrogates decoded as they were sent); a
    reader that lets go of the bytes before ``parse`` never holds them beside the objects."""
    return payload.decode("utf-8", "surrogatepass")


def parse(payload: bytes | str) -> Any:
    """The JSON of a frame, given as its bytes or as its ``decoded`` text (ValueError for anything else)."""
    return json.loads(decoded(payload) if isinstance(payload, bytes) else payload)
