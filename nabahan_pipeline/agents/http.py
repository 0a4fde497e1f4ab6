"""A service speaking the contract over HTTP (spec ``http://host:port/path`` or ``https://…``),
and the small HTTP client it shares with the OpenAI-compatible agent.

The client is standard library only (http.client): a pool of keep-alive connections shared by all
threads, one time budget per request (connect, send, read and retries together), and retries with
exponential backoff and jitter on refused or reset connections, 429 and 5xx (``Retry-After``
honoured up to a cap). Other 4xx fail at once. A body larger than ``max_body_bytes`` is not read
past the cap. Secrets (bearer tokens, API keys) are sent in headers only and scrubbed from every
error message, whole, before any excerpt is cut (``agents.secrets``).
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import select
import socket
import ssl
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

from nabahan_pipeline.version import __version__
from nabahan_pipeline.agents.contract import AgentAnswer
from nabahan_pipeline.agents.fingerprint import compose
from nabahan_pipeline.agents.registry import AgentSpecError
from nabahan_pipeline.agents.secrets import register_secret, scrub
from nabahan_pipeline.settings import resolve

_USER_AGENT = f"nabahan-pipeline/{__version__}"
_EXCERPT_CHARS = 200
# A reused keep-alive connection that the server closed meanwhile fails on first use; such a
# failure is retried at once on a fresh connection, without counting as a retry.
_STALE_ERRORS = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError, http.client.RemoteDisconnected)


class HttpError(Exception):
    """A request that failed for good (after any retries); the message says why, with no secrets."""


class HttpConnectionError(HttpError):
    """The server could not be reached, or dropped the connection."""


class HttpTimeoutError(HttpError):
    """No complete answer within the request's time budget."""


class HttpStatusError(HttpError):
    """The server answered with a status other than 2xx."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class MalformedResponseError(HttpError):
    """A 2xx answer whose body is not what was asked for (e.g. not JSON)."""


class BodyTooLargeError(HttpError):
    """A response body over the client's ``max_body_bytes`` (read no further than the cap)."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait before asking again (delays in seconds)."""

    max_retries: int = 3
    backoff_base_s: float = 0.5
    backoff_max_s: float = 8.0
    retry_after_cap_s: float = 30.0

    def backoff_s(self, retry: int) -> float:
        """Delay before retry number ``retry`` (0-based): exponential, with jitter in [50 %, 100 %]."""
        delay = min(self.backoff_max_s, self.backoff_base_s * 2**retry)
        return delay * random.uniform(0.5, 1.0)


@dataclass(frozen=True)
class HttpResponse:
    """A complete 2xx response."""

    status: int
    headers: http.client.HTTPMessage  # case-insensitive .get()
    body: bytes


@dataclass(frozen=True)
class HttpTarget:
    """Where a request goes: the connection's scheme, host and port, and the request path."""

    scheme: str
    host: str
    port: int
    path: str  # with the query string

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.scheme, self.host, self.port)


def parse_http_url(url: str) -> HttpTarget:
    """Split an http(s) URL into what a connection needs; ValueError names what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{url!r} is not an http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{parts.scheme}://…@{parts.hostname}: credentials in the URL are not supported")
    if not parts.hostname:
        raise ValueError(f"{url!r} has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ValueError(f"{url!r} has an invalid port") from None
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return HttpTarget(parts.scheme, parts.hostname, port, path)


def check_reachable(url: str, timeout_s: float = 5.0) -> None:
    """Open (and close) a TCP connection to the URL's host and port; raise AgentSpecError naming
    the cause when nothing answers there, so a dead agent is told before any case is asked."""
    target = parse_http_url(url)
    try:
        socket.create_connection((target.host, target.port), timeout=timeout_s).close()
    except socket.gaierror as exc:
        raise AgentSpecError(f"agent {url} is unreachable: cannot resolve host {target.host!r} ({exc.strerror or exc})") from None
    except TimeoutError:
        raise AgentSpecError(f"agent {url} is unreachable: no answer to a connection within {timeout_s:g} s") from None
    except OSError as exc:
        raise AgentSpecError(f"agent {url} is unreachable: {exc.strerror or exc}") from None


class HttpClient:
    """Thread-safe HTTP client with keep-alive pooling, a time budget per request, and retries."""

    def __init__(
        self,
        *,
        timeout_s: float = 30.0,
        retry: RetryPolicy | None = None,
        secrets: Iterable[str | None] = (),
        max_idle_per_host: int = 32,
        max_body_bytes: int | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self.max_body_bytes = max_body_bytes
        self._secrets = [secret for secret in secrets if secret]
        for secret in self._secrets:
            register_secret(secret)
        self._max_idle = max_idle_per_host
        self._idle: dict[tuple[str, str, int], list[http.client.HTTPConnection]] = {}
        self._lock = threading.Lock()
        self._ssl_context: ssl.SSLContext | None = None

    def request(
        self,
        method: str,
        url: str,
        *,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
    ) -> HttpResponse:
        """Send one request (retried as the policy says) and return its 2xx response.

        Raises an ``HttpError`` subclass; ``timeout_s`` overrides the client's budget for this call.
        """
        try:
            return self._request(method, url, body, dict(headers or {}), timeout_s or self.timeout_s)
        except HttpError as exc:
            exc.args = (self._scrub(str(exc)),)
            raise exc from None

    def request_json(
        self,
        method: str,
        url: str,
        payload: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
    ) -> Any:
        """Send ``payload`` as UTF-8 JSON (none for None) and return the decoded JSON answer."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        body = None
        if payload is not None:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            all_headers["Content-Type"] = "application/json; charset=utf-8"
        response = self.request(method, url, body=body, headers=all_headers, timeout_s=timeout_s)
        try:
            return json.loads(response.body)
        except (UnicodeDecodeError, ValueError) as exc:
            content_type = response.headers.get("Content-Type", "no content type")
            detail = str(exc).split(":")[0] if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
            body = _excerpt(self._scrub(_text(response.body)))
            raise MalformedResponseError(
                self._scrub(f"response is not JSON ({detail}; {content_type}; body: {body!r})")
            ) from None

    def close(self) -> None:
        """Close the idle pooled connections."""
        with self._lock:
            pools, self._idle = list(self._idle.values()), {}
        for pool in pools:
            for conn in pool:
                conn.close()

    # -- the retry loop ----------------------------------------------------------------------------

    def _request(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str], budget: float
    ) -> HttpResponse:
        target = parse_http_url(url)
        headers.setdefault("User-Agent", _USER_AGENT)
        deadline = time.monotonic() + budget
        attempts = 0
        stale_retried = False
        while True:
            attempts += 1
            error: HttpError
            try:
                status, response_headers, data = self._attempt(target, method, body, headers, deadline)
            except _ReadTimeout:
                raise HttpTimeoutError(f"timeout: no response from {url} within {budget:g} s") from None
            except _ConnectFailure as failure:
                if failure.stale and not stale_retried:
                    stale_retried = True
                    attempts -= 1
                    self._drop_idle(target)
                    continue
                error = HttpConnectionError(failure.describe(url))
                if not failure.retryable:
                    raise error from None
                wait = self.retry.backoff_s(attempts - 1)
            else:
                if 200 <= status < 300:
                    return HttpResponse(status, response_headers, data)
                error = HttpStatusError(f"HTTP {status} from {url}: {_excerpt(self._scrub(_text(data)))}", status)
                if status != 429 and status < 500:
                    raise error
                retry_after = _retry_after_s(response_headers.get("Retry-After"))
                if retry_after is None:
                    wait = self.retry.backoff_s(attempts - 1)
                else:
                    wait = min(retry_after, self.retry.retry_after_cap_s)
            tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
            if attempts > self.retry.max_retries:
                raise _with_note(error, tries)
            if time.monotonic() + wait >= deadline:
                raise _with_note(error, f"{tries}; no time left to retry within {budget:g} s")
            time.sleep(wait)

    def _attempt(
        self, target: HttpTarget, method: str, body: bytes | None, headers: dict[str, str], deadline: float
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _ReadTimeout()
        conn = self._checkout(target)
        reused = conn is not None
        if conn is None:
            conn = self._new_connection(target, remaining)
            try:
                conn.connect()
            except OSError as exc:
                conn.close()
                raise _ConnectFailure(exc, target) from None
        else:
            conn.timeout = remaining
            if conn.sock is not None:
                conn.sock.settimeout(remaining)
        try:
            conn.request(method, target.path, body=body, headers=headers)
            response = conn.getresponse()
            data = self._read_body(response, target)
        except TimeoutError:
            conn.close()
            raise _ReadTimeout() from None
        except _STALE_ERRORS as exc:
            conn.close()
            raise _ConnectFailure(exc, target, stale=reused) from None
        except http.client.IncompleteRead as exc:
            conn.close()
            cut = ConnectionResetError(f"incomplete body ({len(exc.partial)} bytes)")
            raise _ConnectFailure(cut, target) from None
        except http.client.HTTPException as exc:
            conn.close()
            raise _ConnectFailure(exc, target, retryable=False) from None
        except OSError as exc:
            conn.close()
            raise _ConnectFailure(exc, target) from None
        except BaseException:
            conn.close()
            raise
        if response.will_close:
            conn.close()
        else:
            self._checkin(target, conn)
        return response.status, response.headers, data

    # -- the pool ----------------------------------------------------------------------------------

    def _new_connection(self, target: HttpTarget, timeout: float) -> http.client.HTTPConnection:
        if target.scheme == "https":
            if self._ssl_context is None:
                self._ssl_context = ssl.create_default_context()
            return http.client.HTTPSConnection(target.host, target.port, timeout=timeout, context=self._ssl_context)
        return http.client.HTTPConnection(target.host, target.port, timeout=timeout)

    def _checkout(self, target: HttpTarget) -> http.client.HTTPConnection | None:
        while True:
            with self._lock:
                pool = self._idle.get(target.key)
                conn = pool.pop() if pool else None
            if conn is None:
                return None
            if not _dropped(conn):
                return conn
            conn.close()

    def _drop_idle(self, target: HttpTarget) -> None:
        # One stale connection means the others to that server are likely stale too.
        with self._lock:
            pool = self._idle.pop(target.key, [])
        for conn in pool:
            conn.close()

    def _checkin(self, target: HttpTarget, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            pool = self._idle.setdefault(target.key, [])
            if len(pool) < self._max_idle:
                pool.append(conn)
                return
        conn.close()

    def _read_body(self, response: http.client.HTTPResponse, target: HttpTarget) -> bytes:
        cap = self.max_body_bytes
        if cap is None:
            return response.read()
        declared = response.getheader("Content-Length") or ""
        announced_over = declared.isdigit() and int(declared) > cap
        data = b"" if announced_over else response.read(cap + 1)
        if announced_over or len(data) > cap:
            url = f"{target.scheme}://{target.host}:{target.port}{target.path}"
            raise BodyTooLargeError(f"answer over the cap: more than {cap:,} bytes from {url} (max_answer_bytes)")
        return data

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)


class _ReadTimeout(Exception):
    """The request was sent (or the budget ran out) and no complete answer came in time."""


class _ConnectFailure(Exception):
    """Connecting failed, or the connection broke: ``retryable`` unless retrying cannot help,
    ``stale`` when it was a reused keep-alive connection that broke before any answer."""

    def __init__(
        self, cause: BaseException, target: HttpTarget, *, retryable: bool | None = None, stale: bool = False
    ) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.target = target
        if retryable is None:
            retryable = not isinstance(cause, (ssl.SSLCertVerificationError, socket.gaierror))
        self.retryable = retryable
        self.stale = stale

    def describe(self, url: str) -> str:
        cause = self.cause
        if isinstance(cause, ConnectionRefusedError):
            return f"connection refused by {url}"
        if isinstance(cause, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):
            detail = f" ({cause})" if isinstance(cause, http.client.RemoteDisconnected) or cause.args else ""
            return f"connection reset by {url}{detail}"
        if isinstance(cause, TimeoutError):
            return f"timeout: could not connect to {url}"
        if isinstance(cause, socket.gaierror):
            return f"cannot resolve host {self.target.host!r} of {url} ({cause.strerror or cause})"
        if isinstance(cause, ssl.SSLError):
            return f"TLS error with {url}: {cause}"
        if isinstance(cause, http.client.HTTPException):
            return f"bad HTTP response from {url}: {type(cause).__name__} {cause}".rstrip()
        return f"cannot reach {url}: {cause}"


def _with_note(error: HttpError, note: str) -> HttpError:
    error.args = (f"{error} ({note})",)
    return error


def _dropped(conn: http.client.HTTPConnection) -> bool:
    """True when an idle connection was closed by the server (readable while idle means EOF)."""
    sock = conn.sock
    if sock is None:
        return True
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _retry_after_s(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date; None if unusable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def _text(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


def _excerpt(text: str) -> str:
    """The start of an (already scrubbed) text, on one line, for an error message."""
    text = " ".join(text.split())
    if not text:
        return "(empty body)"
    return text if len(text) <= _EXCERPT_CHARS else text[: _EXCERPT_CHARS - 1] + "…"


class HttpAgent:
    """An agent behind an HTTP endpoint: POST {"question", "filters"} as JSON, the contract back.

    A bearer token is taken from $NABAHAN_AGENT_TOKEN (or ``token``); it is sent, never shown.
    Transport failures come back as ``error`` answers whose message names the URL and the cause.
    """

    def __init__(
        self,
        spec: str,
        *,
        agent_version: str | None = None,
        timeout_s: float = 30.0,
        token: str | None = None,
        max_retries: int = 3,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        retry_after_cap_s: float = 30.0,
        max_answer_bytes: int | None = None,
    ) -> None:
        spec = spec.strip()
        try:
            parse_http_url(spec)
        except ValueError as exc:
            raise AgentSpecError(f"agent spec: {exc}") from None
        self.spec = spec
        self._agent_version = agent_version
        token = resolve("agent_token", token)
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._client = HttpClient(
            timeout_s=timeout_s,
            retry=RetryPolicy(max_retries, backoff_base_s, backoff_max_s, retry_after_cap_s),
            secrets=[token],
            max_body_bytes=max_answer_bytes,
        )

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """POST the question; the decoded JSON answer, or an ``error`` answer saying what failed."""
        try:
            return self._client.request_json(
                "POST", self.spec, {"question": question, "filters": filters}, headers=self._headers
            )
        except MalformedResponseError as exc:
            return AgentAnswer.failure(f"malformed answer: {exc}").to_contract()
        except HttpError as exc:
            return AgentAnswer.failure(str(exc)).to_contract()

    def check(self) -> None:
        """Raise AgentSpecError when the service cannot be reached (before any case is asked)."""
        check_reachable(self.spec, min(self._client.timeout_s, 5.0))

    def fingerprint(self) -> str:
        """The spec and the declared agent version (the token is no part of it)."""
        return compose(self.spec, self._agent_version)

    def close(self) -> None:
        """Close pooled connections."""
        self._client.close()

    def __repr__(self) -> str:
        return f"HttpAgent({self.spec!r})"
