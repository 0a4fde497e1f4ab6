"""Secrets never reach a file we write or a line we print.

The known secrets are the agent's bearer token ($NABAHAN_AGENT_TOKEN), the OpenAI-compatible
key ($OPENAI_API_KEY) and any secret an adapter registers (a token passed as an argument).
``scrub`` removes from a text every piece of a known secret longer than four characters (a
server or agent that echoes part of a token gives away that part), and the value after any
``Authorization:``, ``Bearer`` or ``api_key=`` even when the secret is not known to us. Text is
scrubbed whole, before it is cut for an excerpt, so no cut can leave a piece behind.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable

from nabahan_pipeline.settings import secret_values

REDACTED = "***"
# A piece of a secret this long or longer is redacted wherever it appears.
MIN_PIECE = 5

_CREDENTIAL = re.compile(
    r"(?i)(\bauthorization\b[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token)\s+)?|\bbearer\s+"
    r"|\b(?:api[_-]?key|access[_-]?token)\b[\"']?\s*[:=]\s*[\"']?)"
    r"([^\s\"',;&]+)"
)
# Safe in a long-lived process: a secret once given to an adapter stays one; remembering it longer
# than its run only redacts more, never less, and the set grows by distinct secrets alone.
_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Treat ``value`` as a secret from now on (an adapter's token given as an argument)."""
    if value:
        with _lock:
            _registered.add(value)


def known_secrets() -> frozenset[str]:
    """The secrets of this process: the environment's and the registered ones."""
    values = set(secret_values())
    with _lock:
        values |= _registered
    return frozenset(value for value in values if value.strip())


def scrub(text: str, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every known secret (and ``extra``), every piece of one longer than four
    characters, and every credential after ``Authorization``/``Bearer``/``api_key=`` redacted."""
    if not text:
        return text
    return scrubber(extra)(text)


def scrubber(extra: Iterable[str | None] = ()) -> Callable[[str], str]:
    """``scrub`` with the secrets known now looked up once, for the many texts of one answer."""
    secrets = frozenset(known_secrets() | {value for value in extra if value})
    patterns = _patterns(secrets)
    short = [secret for secret in secrets if len(secret) < MIN_PIECE]

    def scrub_text(text: str) -> str:
        if not text:
            return text
        for pattern, pieces in patterns:
            text = _redact_pieces(text, pattern, pieces)
        for secret in short:
            text = text.replace(secret, REDACTED)
        return _CREDENTIAL.sub(_redact_credential, text)

    return scrub_text


def _redact_credential(match: re.Match[str]) -> str:
    return match.group(1) + REDACTED


@functools.lru_cache(maxsize=64)
def _patterns(secrets: frozenset[str]) -> tuple[tuple[re.Pattern[str], frozenset[str]], ...]:
    """For each secret long enough to have pieces: a pattern matching any piece, and the pieces."""
    known = []
    for secret in secrets:
        if len(secret) >= MIN_PIECE:
            pieces = frozenset(secret[i : i + MIN_PIECE] for i in range(len(secret) - MIN_PIECE + 1))
            alternatives = sorted(pieces, reverse=True)
            known.append((re.compile("|".join(map(re.escape, alternatives))), pieces))
    return tuple(known)


def _redact_pieces(text: str, pattern: re.Pattern[str], pieces: frozenset[str]) -> str:
    out, position = [], 0
    for match in pattern.finditer(text):
        start = match.start()
        if start < position:
            continue
        end = match.end()
        # Grow the piece while the next character still continues a piece of the secret.
        while end < len(text) and text[end - MIN_PIECE + 1 : end + 1] in pieces:
            end += 1
        out.append(text[position:start])
        out.append(REDACTED)
        position = end
    if not out:
        return text
    out.append(text[position:])
    return "".join(out)
