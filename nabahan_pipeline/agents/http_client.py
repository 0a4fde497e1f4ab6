"""A small HTTP/1.1 client for the agents that speak over HTTP (the HTTP agent, the OpenAI-compatible one).

Standard library only, on plain sockets. http.client cost each call about 150 µs of CPU (an e-mail
parser for the headers, two sends, a file object per response): at 64 calls in flight, 1,280 calls
a second, that is a fifth of a core fought over by 64 threads under one GIL. Here a request is one
``sendall`` of bytes built once, and a response is read with a recv or two and its head parsed
directly. What it keeps: a pool of keep-alive connections shared by all threads, one time budget per
request (connect, send, read and retries together; every wait on the socket is limited to what is
left of it), and retries with exponential backoff and jitter on refused or reset connections, 429
and 5xx (``Retry-After`` honoured up to a cap). Other 4xx fail at once. A body is read by its
Content-Length, chunk by chunk, or to the connection's end; one larger than ``max_body_bytes`` is
not read past the cap. Interim 1xx answers are skipped. Secrets (bearer tokens, API keys) are sent
in headers only and scrubbed from every error message, whole, before any excerpt is cut
(``agents.secrets``). Failures raise the ``HttpError`` family (``nabahan_pipeline.errors``).

Each successful response carries ``elapsed_s``: from the moment the first attempt's request went
out to the moment the answer's last byte arrived (by the kernel's receive stamp on Linux), retries
included: the agent's latency as close to the wire as this process can see it, without opening the
connection, the JSON work, or the wait for the GIL around it.
"""

from __future__ import annotations

import email.utils
import functools
import http.client
import json
import platform
import random
import select
import socket
import ssl
import struct
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

from nabahan_pipeline.agents.secrets import register_secret, scrub
from nabahan_pipeline.errors import (
    AgentSpecError,
    BodyTooLargeError,
    HttpConnectionError,
    HttpError,
    HttpStatusError,
    HttpTimeoutError,
    MalformedResponseError,
)
from nabahan_pipeline.version import __version__

_USER_AGENT = f"nabahan-pipeline/{__version__}"
_EXCERPT_CHARS = 200
# A reused keep-alive connection that the server closed meanwhile fails on first use; such a
# failure is retried at once on a fresh connection, without counting as a retry.
_STALE_ERRORS = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError, http.client.RemoteDisconnected)
# What one recv asks for, and the most a response's status line and headers (or a chunk-size line) may take.
_RECV_BYTES = 65_536
_MAX_HEAD_BYTES = 65_536
_MAX_HEADERS = 100
# The kernel's receive stamps (Linux's SO_TIMESTAMPNS, a struct timespec of CLOCK_REALTIME per
# read, which Python's socket module does not name): the moment an answer's last byte arrived, so
# that its latency leaves out how long this thread then waited for the GIL among 64 others (0.3 to
# 0.9 ms a call at 64 in flight). 35 on the architectures of asm-generic/socket.h; elsewhere, and
# on TLS sockets (no recvmsg), the stamp is when recv returned.
_SO_TIMESTAMPNS: int | None = (
    35 if sys.platform == "linux" and platform.machine() in ("x86_64", "amd64", "aarch64", "arm64") else None
)
_TIMESPEC = struct.Struct("@qq")
_ANCILLARY_BYTES = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0
# Methods whose request has a body: sent with Content-Length: 0 when there is none (as http.client does).
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


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


class Headers(dict):
    """A response's headers by lower-case name, looked up whatever the case (a repeated header's
    values joined by ", ")."""

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return dict.get(self, name.lower(), default)

    def __getitem__(self, name: str) -> str:
        return dict.__getitem__(self, name.lower())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and dict.__contains__(self, name.lower())


@dataclass(frozen=True)
class HttpResponse:
    """A complete 2xx response, and the seconds from the request's start to its last byte."""

    status: int
    headers: Headers  # case-insensitive .get()
    body: bytes
    elapsed_s: float = 0.0


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

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}{self.path}"

    @property
    def host_header(self) -> str:
        """The Host header's value: the port only when it is not the scheme's default."""
        host = self.host.encode("idna").decode("ascii") if not self.host.isascii() else self.host
        if ":" in host:  # an IPv6 address
            host = f"[{host}]"
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


@functools.lru_cache(maxsize=64)
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
    if any(ord(char) <= 0x20 or ord(char) == 0x7F for char in path):
        raise ValueError(f"{url!r} has a space or a control character in its path")
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
        max_idle_per_host: int = 64,
        max_body_bytes: int | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self.max_body_bytes = max_body_bytes
        self._secrets = [secret for secret in secrets if secret]
        for secret in self._secrets:
            register_secret(secret)
        self._max_idle = max_idle_per_host
        self._idle: dict[tuple[str, str, int], list[socket.socket]] = {}
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
            return self._request(method, url, body, headers or {}, timeout_s or self.timeout_s)
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
        return self.request_json_timed(method, url, payload, headers=headers, timeout_s=timeout_s)[0]

    def request_json_timed(
        self,
        method: str,
        url: str,
        payload: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
    ) -> tuple[Any, float]:
        """``request_json``'s answer and the response's ``elapsed_s`` (the JSON work left out)."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        body = None
        if payload is not None:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            all_headers["Content-Type"] = "application/json; charset=utf-8"
        response = self.request(method, url, body=body, headers=all_headers, timeout_s=timeout_s)
        try:
            return json.loads(response.body), response.elapsed_s
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
            for sock in pool:
                sock.close()

    # -- the retry loop ----------------------------------------------------------------------------

    def _request(
        self, method: str, url: str, body: bytes | None, headers: Mapping[str, str], budget: float
    ) -> HttpResponse:
        target = parse_http_url(url)
        request = _request_bytes(method, target, headers, body)
        deadline = time.monotonic() + budget
        sent = _Sent()  # when the first attempt's request went out
        attempts = 0
        stale_retried = False
        while True:
            attempts += 1
            error: HttpError
            try:
                status, response_headers, data, last_byte_at = self._attempt(target, method, request, deadline, sent)
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
                    return HttpResponse(status, response_headers, data, last_byte_at - sent.at)
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
        self, target: HttpTarget, method: str, request: bytes, deadline: float, sent: _Sent
    ) -> tuple[int, Headers, bytes, float]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _ReadTimeout()
        sock = self._checkout(target)
        reused = sock is not None
        if sock is None:
            try:
                sock = self._connect(target, remaining)
            except OSError as exc:
                raise _ConnectFailure(exc, target) from None
        try:
            reader = _Reader(sock, deadline)
            reader.send(request, sent)
            status, headers, keep_alive = reader.head(method)
            data = reader.body(method, status, headers, self.max_body_bytes, target)
        except TimeoutError:
            sock.close()
            raise _ReadTimeout() from None
        except _STALE_ERRORS as exc:
            sock.close()
            # Stale only when nothing of an answer came: a connection that breaks mid-answer is a fault.
            raise _ConnectFailure(exc, target, stale=reused and not reader.received) from None
        except http.client.IncompleteRead as exc:
            sock.close()
            cut = ConnectionResetError(f"incomplete body ({len(exc.partial)} bytes)")
            raise _ConnectFailure(cut, target) from None
        except http.client.HTTPException as exc:
            sock.close()
            raise _ConnectFailure(exc, target, retryable=False) from None
        except OSError as exc:
            sock.close()
            raise _ConnectFailure(exc, target) from None
        except BaseException:
            sock.close()
            raise
        if keep_alive and not reader.unread and not reader.ended:
            self._checkin(target, sock)
        else:
            sock.close()
        return status, headers, data, reader.last_byte_at

    # -- the pool ----------------------------------------------------------------------------------

    def _connect(self, target: HttpTarget, timeout: float) -> socket.socket:
        sock = socket.create_connection((target.host, target.port), timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if _SO_TIMESTAMPNS is not None and target.scheme == "http":
                try:
                    sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
                except OSError:  # no stamps: recv's return is the moment then
                    pass
            if target.scheme == "https":
                if self._ssl_context is None:
                    self._ssl_context = ssl.create_default_context()
                sock = self._ssl_context.wrap_socket(sock, server_hostname=target.host)
        except BaseException:
            sock.close()
            raise
        return sock

    def _checkout(self, target: HttpTarget) -> socket.socket | None:
        while True:
            with self._lock:
                pool = self._idle.get(target.key)
                sock = pool.pop() if pool else None
            if sock is None:
                return None
            if not _dropped(sock):
                return sock
            sock.close()

    def _drop_idle(self, target: HttpTarget) -> None:
        # One stale connection means the others to that server are likely stale too.
        with self._lock:
            pool = self._idle.pop(target.key, [])
        for sock in pool:
            sock.close()

    def _checkin(self, target: HttpTarget, sock: socket.socket) -> None:
        with self._lock:
            pool = self._idle.setdefault(target.key, [])
            if len(pool) < self._max_idle:
                pool.append(sock)
                return
        sock.close()

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)


def _request_bytes(method: str, target: HttpTarget, headers: Mapping[str, str], body: bytes | None) -> bytes:
    """The whole request as it goes on the wire: request line, headers, blank line, body."""
    chosen = {"host": ("Host", target.host_header), "accept-encoding": ("Accept-Encoding", "identity"),
              "user-agent": ("User-Agent", _USER_AGENT)}
    for name, value in headers.items():
        value = str(value)
        if not name or any(char in name for char in ":\r\n \t") or "\r" in value or "\n" in value:
            raise ValueError(f"invalid HTTP header {name!r}: no line break may be in a header")
        if name.lower() != "content-length":  # the body's own length is sent
            chosen[name.lower()] = (name, value)
    lines = [f"{method} {target.path} HTTP/1.1", *(f"{name}: {value}" for name, value in chosen.values())]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    elif method in _BODY_METHODS:
        lines.append("Content-Length: 0")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head + body if body else head


class _Sent:
    """When a request's first attempt went out (perf_counter), stamped once by ``_Reader.send``."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at: float | None = None


class _Reader:
    """One exchange on one connection: the request sent, the response read within the deadline."""

    __slots__ = ("sock", "deadline", "buffer", "position", "received", "ended", "last_byte_at")

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline
        self.buffer = bytearray()
        self.position = 0  # where the unparsed bytes start
        self.received = False  # any byte of an answer
        self.ended = False  # the server closed its side
        self.last_byte_at = 0.0  # perf_counter() when the last bytes came

    @property
    def unread(self) -> bool:
        """Bytes came past the response (a server that sent more than it should)."""
        return self.position < len(self.buffer)

    def _wait_limit(self) -> None:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the time budget ran out")
        self.sock.settimeout(remaining)

    def send(self, request: bytes, sent: _Sent) -> None:
        """Send the request; ``sent.at`` is stamped just before its first byte leaves. On a plain
        socket a request fits the socket's buffer: one send with the socket made non-blocking,
        without the wait for room that a send with a time limit makes first (one hand-over of the
        GIL less); the rest, if any, and a TLS socket's request, with the time limit."""
        sock = self.sock
        done = 0
        if type(sock) is socket.socket:
            sock.settimeout(0.0)
            if sent.at is None:
                sent.at = time.perf_counter()
            try:
                done = sock.send(request)
            except BlockingIOError:
                pass
        elif sent.at is None:
            sent.at = time.perf_counter()
        if done < len(request):
            self._wait_limit()
            sock.sendall(memoryview(request)[done:])

    def fill(self) -> bool:
        """Read what has come (waiting for it within the deadline); False at the connection's end.
        ``last_byte_at`` is when the bytes reached this machine: the kernel's stamp of their arrival
        where it gives one (``_SO_TIMESTAMPNS``), not when this thread got the GIL to read them."""
        self._wait_limit()
        sock = self.sock
        if _SO_TIMESTAMPNS is not None and type(sock) is socket.socket:
            data, ancillary, _, _ = sock.recvmsg(_RECV_BYTES, _ANCILLARY_BYTES)
        else:
            data, ancillary = sock.recv(_RECV_BYTES), ()
        if not data:
            self.ended = True
            return False
        self.last_byte_at = time.perf_counter() - _arrived_ago(ancillary)
        self.received = True
        self.buffer += data
        return True

    def line(self) -> bytes:
        """The next line, without its end of line."""
        buffer = self.buffer
        while (end := buffer.find(b"\n", self.position)) < 0:
            if len(buffer) - self.position > _MAX_HEAD_BYTES:
                raise http.client.LineTooLong("chunk-size line")
            if not self.fill():
                raise http.client.IncompleteRead(bytes(buffer[self.position :]))
        line = bytes(buffer[self.position : end]).rstrip(b"\r")
        self.position = end + 1
        return line

    def exact(self, size: int) -> bytes:
        """The next ``size`` bytes."""
        while len(self.buffer) - self.position < size:
            if not self.fill():
                raise http.client.IncompleteRead(bytes(self.buffer[self.position :]), size)
        data = bytes(self.buffer[self.position : self.position + size])
        self.position += size
        return data

    def head(self, method: str) -> tuple[int, Headers, bool]:
        """The final response's status, headers, and whether the connection may be kept; interim
        1xx responses are skipped."""
        while True:
            status, headers, keep_alive = self._one_head()
            if not 100 <= status < 200 or status == 101:
                return status, headers, keep_alive

    def _one_head(self) -> tuple[int, Headers, bool]:
        buffer = self.buffer
        while True:
            end = buffer.find(b"\r\n\r\n", self.position)
            if end >= 0:
                body_at = end + 4
                break
            end = buffer.find(b"\n\n", self.position)  # a server that ends its lines with LF alone
            if end >= 0:
                body_at = end + 2
                break
            if len(buffer) - self.position > _MAX_HEAD_BYTES:
                raise http.client.LineTooLong("response head")
            if not self.fill():
                if self.position == len(buffer):
                    raise http.client.RemoteDisconnected("Remote end closed connection without response")
                raise ConnectionResetError("the connection closed in the middle of the response's headers")
        lines = bytes(buffer[self.position : end]).split(b"\n")
        self.position = body_at
        status_line = lines[0].rstrip(b"\r")
        parts = status_line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or len(parts[1]) != 3 or not parts[1].isdigit():
            raise http.client.BadStatusLine(repr(status_line[:100]))
        version, status = parts[0], int(parts[1])
        if status < 100:
            raise http.client.BadStatusLine(repr(status_line[:100]))
        if len(lines) - 1 > _MAX_HEADERS:
            raise http.client.HTTPException(f"got more than {_MAX_HEADERS} headers")
        headers = Headers()
        name = ""
        for raw in lines[1:]:
            text = raw.rstrip(b"\r").decode("latin-1")
            if text[:1] in (" ", "\t") and name:  # a folded continuation of the header before
                headers[name] += " " + text.strip()
                continue
            key, colon, value = text.partition(":")
            if not colon:
                continue
            name = key.strip().lower()
            value = value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        connection = headers.get("connection", "").lower()
        keep_alive = "close" not in connection if version == b"HTTP/1.1" else "keep-alive" in connection
        return status, headers, keep_alive

    def body(self, method: str, status: int, headers: Headers, cap: int | None, target: HttpTarget) -> bytes:
        """The response's body, by its Content-Length, its chunks, or to the connection's end;
        BodyTooLargeError as soon as it is known to be over ``cap`` (not read past it)."""
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            return b""
        if "chunked" in headers.get("transfer-encoding", "").lower():
            return self._chunked(cap, target)
        declared = headers.get("content-length")
        if declared is not None:
            declared = declared.split(",")[0].strip()  # repeated identical values are joined
            if not declared.isdigit():
                raise http.client.HTTPException(f"bad Content-Length {declared[:40]!r}")
            size = int(declared)
            if cap is not None and size > cap:
                raise _over_the_cap(cap, target)
            return self.exact(size)
        while cap is None or len(self.buffer) - self.position <= cap:  # to the connection's end
            if not self.fill():
                data = bytes(self.buffer[self.position :])
                self.position = len(self.buffer)
                return data
        raise _over_the_cap(cap, target)

    def _chunked(self, cap: int | None, target: HttpTarget) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            size_text = self.line().split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise http.client.HTTPException(f"bad chunk size {size_text[:40]!r}") from None
            if size == 0:
                break
            total += size
            if cap is not None and total > cap:
                raise _over_the_cap(cap, target)
            parts.append(self.exact(size))
            self.line()  # the chunk's end of line
        while self.line():  # trailers, up to the blank line
            pass
        return b"".join(parts)


def _arrived_ago(ancillary: list[tuple[int, int, bytes]] | tuple[()]) -> float:
    """How long ago the bytes just read arrived, by the kernel's receive stamp among ``ancillary``
    (0 when there is none, or when it is not a plausible moment of the last second)."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(data) == _TIMESPEC.size:
            seconds, nanoseconds = _TIMESPEC.unpack(data)
            ago = time.time() - (seconds + nanoseconds / 1e9)
            return ago if 0.0 <= ago < 1.0 else 0.0
    return 0.0


def _over_the_cap(cap: int, target: HttpTarget) -> BodyTooLargeError:
    return BodyTooLargeError(f"answer over the cap: more than {cap:,} bytes from {target.url} (max_answer_bytes)")


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


def _dropped(sock: socket.socket) -> bool:
    """True when an idle connection was closed by the server (readable while idle means EOF)."""
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
