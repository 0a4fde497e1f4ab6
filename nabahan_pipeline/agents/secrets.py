"""Secrets never reach a file we write or a line we print: ``scrub`` redacts the known secrets
($NABAHAN_AGENT_TOKEN, $OPENAI_API_KEY, those adapters register), every piece of one and the value
after ``Authorization:``, ``Bearer`` or ``api_key=``; ``scrubbed_output`` passes fds 1 and 2 through it."""

from __future__ import annotations

import codecs
import contextlib
import functools
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from urllib.parse import unquote_plus, urlsplit

from nabahan_pipeline.settings import secret_values

REDACTED = "***"
# A shorter value is a placeholder (``EMPTY``, ``ollama``): no provider issues keys this short, and
# scrubbing a local server's dummy key would rewrite every answer (``max(`` into ``ma***(``).
MIN_SECRET_CHARS = 8
# Longer values local OpenAI-compatible servers and SDK examples use where a key is required but
# unchecked; so is any value of one repeated character (``xxxxxxxx``).
PLACEHOLDERS = frozenset({
    "sk-no-key-required", "lm-studio", "lmstudio", "llama.cpp", "llamacpp", "not-needed", "notneeded",
    "no-api-key", "changeme", "placeholder", "your-api-key", "your_api_key", "sk-dummy", "dummy-key",
    "fake-key", "sk-fake-key", "test-key", "api-key-here",
})
# A piece of a secret this long or longer is redacted wherever it appears.
MIN_PIECE = 5

_CREDENTIAL = re.compile(
    r"(?i)(\bauthorization\b[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token)\s+)?|\bbearer\s+"
    r"|\b(?:api[_-]?key|access[_-]?token)\b[\"']?\s*[:=]\s*[\"']?)"
    r"([^\s\"',;&]+)"
)
# Query parameters that carry a credential: by their name lower-cased without "-", "_" and ".", or
# by its last word (x-api-key, access_token, X-Amz-Signature, clientSecret...).
_CREDENTIAL_PARAMETERS = frozenset({
    "sig", "auth", "authorization", "pass", "pwd", "jwt", "bearer", "sas", "session", "sessionid", "code",
    "apikey", "accesskey", "secretkey", "privatekey", "subscriptionkey", "accesstoken", "authtoken", "apitoken",
    "idtoken", "refreshtoken", "clientsecret", "apisecret",
})
_CREDENTIAL_WORDS = frozenset({"key", "token", "secret", "password", "passwd", "signature", "credential", "credentials"})
_PARAMETER = re.compile(r"(?P<name>[^&;=#?]+)=(?P<value>[^&;#]*)")
# Safe in a long-lived process: remembering a secret past its run only redacts more, never less.
_registered: set[str] = set()
_lock = threading.Lock()


def is_secret(value: str | None) -> bool:
    """Whether ``value`` is long enough to be a credential and no known placeholder."""
    value = (value or "").strip()
    return len(value) >= MIN_SECRET_CHARS and len(set(value)) > 1 and value.lower() not in PLACEHOLDERS


def register_secret(value: str | None) -> None:
    """Treat ``value`` as a secret from now on (an adapter's token); a placeholder is ignored."""
    if is_secret(value):
        with _lock:
            _registered.add(value)


def credential_parameter(name: str) -> bool:
    """Whether a URL's query parameter called ``name`` carries a credential (api_key, token, sig...)."""
    words = [word.lower() for word in re.split(r"[-_.\s]+|(?<=[a-z])(?=[A-Z])", unquote_plus(name).strip()) if word]
    return bool(words) and ("".join(words) in _CREDENTIAL_PARAMETERS or words[-1] in _CREDENTIAL_WORDS)


def url_credentials(url: str) -> list[str]:
    """What in ``url`` is a credential: "userinfo", and each query or fragment parameter's name."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = ["userinfo"] if "@" in parts.netloc else []
    for part in (parts.query, parts.fragment):
        found += [match["name"] for match in _PARAMETER.finditer(part) if credential_parameter(match["name"])]
    return found


def redacted_url(url: str) -> str:
    """``url`` with its userinfo and the value of every credential parameter as ``***``: a URL to show."""
    scheme, separator, rest = url.partition("://")
    if separator:
        host_end = min((rest.index(mark) for mark in "/?#" if mark in rest), default=len(rest))
        if "@" in rest[:host_end]:
            rest = REDACTED + rest[rest.rindex("@", 0, host_end):]
        url = scheme + separator + rest
    cut = min((url.index(mark) for mark in "?#" if mark in url), default=len(url))
    return url[:cut] + _PARAMETER.sub(
        lambda match: f"{match['name']}={REDACTED}" if credential_parameter(match["name"]) else match[0], url[cut:]
    )


def scrub(text: str, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every known secret (and ``extra``), every piece of one, and every credential
    after ``Authorization``/``Bearer``/``api_key=`` redacted."""
    if not text:
        return text
    return scrubber(extra)(text)


def scrubber(extra: Iterable[str | None] = ()) -> Callable[[str], str]:
    """``scrub`` with the secrets known now (the environment's, the registered ones, ``extra``)
    looked up once, for the many texts of one answer."""
    with _lock:
        registered = list(_registered)
    secrets = frozenset(value for value in (*secret_values(), *registered, *extra) if is_secret(value))
    patterns = _patterns(secrets)

    def scrub_text(text: str) -> str:
        if not text:
            return text
        for pattern, pieces in patterns:
            text = _redact_pieces(text, pattern, pieces)
        return _CREDENTIAL.sub(lambda match: match.group(1) + REDACTED, text)

    return scrub_text


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


# What a relay holds back at most while it waits for the end of a line.
_RELAY_CHUNK = 65_536


@contextlib.contextmanager
def scrubbed_output() -> Iterator[None]:
    """While the block runs, fds 1 and 2 reach what they pointed to before scrubbed, a line at a time."""
    with contextlib.ExitStack() as stack:
        for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
            stack.enter_context(_relay(fd, stream))
        yield


@contextlib.contextmanager
def _relay(fd: int, stream: object) -> Iterator[None]:
    """``fd`` pointed at a pipe whose reader scrubs each line and writes it where ``fd`` went before."""
    _flush(stream)
    target = os.dup(fd)
    read_end, write_end = os.pipe()
    os.dup2(write_end, fd)
    os.close(write_end)
    pump = threading.Thread(target=_pump, args=(read_end, target), name=f"nabahan-scrub-fd{fd}", daemon=True)
    pump.start()
    try:
        yield
    finally:
        _flush(stream)
        os.dup2(target, fd)  # closes the pipe's last writer here: the pump reads to its end and stops
        # A process started in the block may still hold the pipe; the pump then ends when it does
        # (it closes ``target`` itself, so the number is never reused under it).
        pump.join(timeout=5)


def _pump(read_end: int, target: int) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    try:
        with os.fdopen(read_end, "rb", buffering=0) as source:
            while chunk := source.read(_RELAY_CHUNK):
                pending += decoder.decode(chunk)
                cut = pending.rfind("\n") + 1 or (len(pending) if len(pending) >= _RELAY_CHUNK else 0)
                if cut:
                    _write_all(target, scrub(pending[:cut]))
                    pending = pending[cut:]
        pending += decoder.decode(b"", final=True)
        if pending:
            _write_all(target, scrub(pending))
    except OSError:  # the console went away: nothing more can be shown
        pass
    finally:
        os.close(target)


def _write_all(fd: int, text: str) -> None:
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data):]


def _flush(stream: object) -> None:
    flush = getattr(stream, "flush", None)
    if flush is not None:
        with contextlib.suppress(OSError, ValueError):
            flush()
