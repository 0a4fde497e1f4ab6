"""JSON we did not write, measured on its bytes before it is parsed (depth, values), so that a deep
or huge document is refused by its measure, never by a RecursionError or the memory it would take."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_NOT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b'"[]{},')
# An innermost pair of brackets: each pass that removes them all takes one level off.
_INNERMOST = re.compile(rb"[\[{][\]}]")
_NOT_A_BRACKET = bytes(byte for byte in range(256) if byte not in b"[]{}")
# What may stand between the items of a list (JSON's whitespace).
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# A token of the walk that finds where a document is too deep: a string, or punctuation.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]', re.DOTALL)


@dataclass(frozen=True)
class JsonMeasure:
    """How deep a JSON text nests (capped at the limit asked + 1) and at most how many values
    its arrays and objects hold (every element and member counted, nested ones included)."""

    depth: int
    values: int


def measure_json(data: bytes | str, depth_limit: int) -> JsonMeasure:
    """Measure ``data`` without parsing it; the depth counted up to ``depth_limit`` + 1 (enough
    to tell it is over), so a document nested a million deep costs ``depth_limit`` passes."""
    bare = _skeleton(data.encode("utf-8") if isinstance(data, str) else bytes(data))
    values = bare.count(b",") + bare.count(b"[") + bare.count(b"{")
    brackets = bare.translate(None, _NOT_A_BRACKET)
    depth = 0
    while brackets and depth <= depth_limit:
        fewer = _INNERMOST.sub(b"", brackets)
        if len(fewer) == len(brackets):  # unbalanced: the parser will say where
            break
        brackets, depth = fewer, depth + 1
    return JsonMeasure(depth, values)


def _skeleton(text: bytes) -> bytes:
    """The brackets and commas of ``text`` that are outside its strings, in order."""
    # Escapes pair from the left: escaped backslashes out first, then escaped quotes; every quote
    # left opens or closes a string.
    text = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = text.translate(None, _NOT_STRUCTURE)
    bare = skeleton.replace(b'""', b"")  # the strings that hold no bracket or comma (most)
    if b'"' in bare:  # a string holds one: cut every string's content out
        bare = b"".join(skeleton.split(b'"')[::2])
    return bare


def too_deep_at(data: bytes | str, depth_limit: int) -> tuple[int, str | None] | None:
    """Where ``data`` first nests deeper than ``depth_limit``, for a message: the 1-based element of
    its top-level array and the key of that element's member (None for no object); else None."""
    text = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    depth = 0
    element = 1
    key: str | None = None
    last_string: bytes | None = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token.startswith(b'"'):
            last_string = token
            continue
        if token in (b"[", b"{"):
            depth += 1
            if depth > depth_limit:
                return element, key
        elif token in (b"]", b"}"):
            depth -= 1
            if depth == 1:
                key = None
        elif token == b"," and depth == 1:
            element += 1
        elif token == b":" and depth == 2 and last_string is not None:
            key = last_string[1:-1].decode("utf-8", errors="replace")
        last_string = None
    return None


def json_list_items(text: str) -> Iterator[Any]:
    """Each item of the JSON list ``text``, parsed one at a time in place (a 30 MiB result is never
    held whole as objects); ValueError as soon as the text is not a JSON list."""
    end = len(text)
    at = _SPACE.match(text).end()
    if at >= end or text[at] != "[":
        raise json.JSONDecodeError("Expecting a JSON list", text, at)
    at = _SPACE.match(text, at + 1).end()
    if at < end and text[at] == "]":
        at += 1
    else:
        while True:
            item, at = _DECODER.raw_decode(text, at)
            yield item
            at = _SPACE.match(text, at).end()
            if at < end and text[at] == ",":
                at = _SPACE.match(text, at + 1).end()
                continue
            if at < end and text[at] == "]":
                at += 1
                break
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
    if _SPACE.match(text, at).end() != end:
        raise json.JSONDecodeError("Extra data", text, at)
