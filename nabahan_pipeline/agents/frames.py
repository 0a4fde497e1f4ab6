"""The messages between the pipeline and a ``python:`` agent's child process: length-prefixed JSON.

A frame is a header line ``<number> <bytes>\\n`` and that many bytes of UTF-8 JSON. What the child
sends is untrusted: a frame is measured from its header and, past the cap, skipped in chunks
without being held; its nesting depth is counted without recursion before it is parsed; and it is
only ever parsed as JSON (never unpickled: pickle from a hostile child runs its code).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, BinaryIO

# The longest header line: two numbers of at most 20 digits, a space and the newline.
_MAX_HEADER = 64
_CHUNK = 1 << 20
# Nesting past this is refused before parsing: an answer is an object of rows of values, a value a
# little structure at most; json's parser recurses once per level.
MAX_DEPTH = 100
# A JSON string (escapes included), removed before brackets are counted: a bracket in one is text.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")


class FrameError(Exception):
    """The stream is not a sequence of frames (a header or a frame cut short)."""


class Oversized:
    """A frame skipped for its size: how many bytes it had."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size


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
    """Whether JSON ``payload`` nests arrays and objects deeper than ``max_depth``, counted in one
    pass (no recursion)."""
    brackets = _STRING.sub(b"", payload).translate(None, _NOT_BRACKETS)
    return len(brackets) > max_depth and _deepest(brackets) > max_depth


def _deepest(brackets: bytes) -> int:
    depth = deepest = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse(payload: bytes) -> Any:
    """The JSON of a frame (ValueError for anything else; lone surrogates decoded as they were sent)."""
    return json.loads(payload.decode("utf-8", "surrogatepass"))
