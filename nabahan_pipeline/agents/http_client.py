"""The HTTP agents' transport, on urllib3: its pool and its ``Retry`` (429 and 5xx, backoff with
jitter, Retry-After). Added here: one time budget per request across its attempts (urllib3's loop
restarts the timeouts with every attempt), a body cap read in chunks, and failures as the
``HttpError`` family, each naming the URL, scrubbed whole before any excerpt is cut."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import urllib3
from urllib3.exceptions import (
    ConnectTimeoutError, IncompleteRead, InvalidHeader, MaxRetryError, NameResolutionError,
    NewConnectionError, ProtocolError, ReadTimeoutError, SSLError,
)
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.util import Retry, Timeout, Url

from nabahan_pipeline.agents.contract import MAX_ANSWER_DEPTH
from nabahan_pipeline.agents.secrets import redacted_url, register_secret, scrub, url_credentials
from nabahan_pipeline.errors import (
    AgentSpecError, BodyTooLargeError, HttpConnectionError, HttpError, HttpStatusError, HttpTimeoutError,
    MalformedResponseError,
)
from nabahan_pipeline.escaping import one_line
from nabahan_pipeline.json_bounds import measure_json
from nabahan_pipeline.version import __version__

_HEADERS = {"User-Agent": f"nabahan-pipeline/{__version__}"}  # http.client adds Accept-Encoding: identity
_EXCERPT_CHARS = 200
_CHUNK_BYTES = 65_536
# Asked again: too many requests, and every server error.
RETRY_STATUSES = frozenset({429, *range(500, 600)})


def retry_policy(
    max_retries: int = 3, backoff_base_s: float = 0.5, backoff_max_s: float = 8.0, retry_after_cap_s: float = 30.0
) -> Retry:
    """urllib3's ``Retry`` for an agent: 429 and 5xx asked again, as are refused or broken
    connections, whatever the method (asking an agent a question changes nothing on its side)."""
    return Retry(total=max_retries, redirect=False, status_forcelist=RETRY_STATUSES, allowed_methods=None,
                 backoff_factor=backoff_base_s, backoff_max=backoff_max_s, backoff_jitter=backoff_base_s,
                 respect_retry_after_header=True, retry_after_max=int(retry_after_cap_s),
                 raise_on_status=False)


@dataclass(frozen=True)
class HttpResponse:
    """A complete 2xx response."""

    status: int
    headers: Mapping[str, str]  # case-insensitive
    body: bytes


def parse_http_url(url: str) -> Url:
    """The parts of an http(s) URL, its port filled in; ValueError names what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{url!r} is not an http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{parts.scheme}://…@{parts.hostname}: credentials in the URL are not supported")
    if found := url_credentials(url):  # shown in labels, tags and the registry: refused, never repeated
        raise ValueError(f"{redacted_url(url)!r}: a credential in the URL ({', '.join(found)}) is not supported; "
                         "give the agent a bearer token by its variable's name: --agent-token NAME=ENV_VAR")
    if not parts.hostname:
        raise ValueError(f"{url!r} has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ValueError(f"{url!r} has an invalid port") from None
    if any(ord(char) <= 0x20 or ord(char) == 0x7F for char in parts.path + parts.query):
        raise ValueError(f"{url!r} has a space or a control character in its path")
    return Url(parts.scheme, host=parts.hostname, port=port, path=parts.path or "/", query=parts.query or None)


class HttpClient:
    """A thread-safe client of one HTTP endpoint: pooled connections, a time budget, retries; a
    bearer ``token`` (a secret, scrubbed from every error) sent with each request."""

    def __init__(self, url: str, *, timeout_s: float = 30.0, retry: Retry | None = None,
                 token: str | None = None, max_connections: int = 64,
                 max_body_bytes: int | None = None) -> None:
        self.url = url
        self._path = parse_http_url(url).request_uri
        self.timeout_s = timeout_s
        self.retry = retry or retry_policy()
        self.max_body_bytes = max_body_bytes
        self._secrets = [token] if token else []
        self._headers = {**_HEADERS, "Authorization": f"Bearer {token}"} if token else _HEADERS
        register_secret(token)
        self._max_connections = max_connections
        self._pool = self._new_pool()

    def _new_pool(self) -> urllib3.HTTPConnectionPool:
        # Calls beyond ``max_connections`` at once open connections of their own, not kept.
        return urllib3.connection_from_url(self.url, maxsize=self._max_connections, block=False)

    def request(self, method: str, *, body: bytes | None = None, headers: Mapping[str, str] | None = None,
                timeout_s: float | None = None) -> HttpResponse:
        """One request to the URL (retried as the policy says): its 2xx response, else an
        ``HttpError``; ``timeout_s`` overrides the client's budget for this call."""
        try:
            return self._request(method, body, {**self._headers, **(headers or {})}, timeout_s or self.timeout_s)
        except HttpError as exc:
            exc.args = (self._scrub(str(exc)),)
            raise exc from None

    def request_json(self, method: str, payload: Any = None, *, headers: Mapping[str, str] | None = None,
                     timeout_s: float | None = None, max_depth: int = MAX_ANSWER_DEPTH,
                     max_values: int | None = None) -> Any:
        """Send ``payload`` as UTF-8 JSON (none for None); the decoded JSON answer, measured before
        it is parsed (``json_bounds``): deeper than ``max_depth`` or over ``max_values`` values, it
        is refused (MalformedResponseError, BodyTooLargeError) before any object is made of it."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        body = None
        if payload is not None:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            all_headers["Content-Type"] = "application/json; charset=utf-8"
        response = self.request(method, body=body, headers=all_headers, timeout_s=timeout_s)
        content_type = response.headers.get("Content-Type", "no content type")
        measure = measure_json(response.body, max_depth)
        if measure.depth > max_depth:
            raise MalformedResponseError(f"response from {self.url} nested deeper than {max_depth} levels")
        if max_values is not None and measure.values > max_values:
            raise BodyTooLargeError(f"answer over the cap: {measure.values:,} values from {self.url} > the cap of "
                                    f"{max_values:,} values (rows x columns)")
        # The bytes let go of before the objects are made: never bytes, text and objects at once.
        data, response = response.body, None
        try:
            text = data.decode(json.detect_encoding(data), "surrogatepass")
        except UnicodeDecodeError:
            raise self._not_json("not UTF-8", content_type, _text(data)) from None
        data = None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise self._not_json(str(exc).split(":")[0], content_type, text) from None

    def _not_json(self, detail: str, content_type: str, text: str) -> MalformedResponseError:
        """The error of a body that is not JSON: why, its content type and the start of it, scrubbed."""
        body_text = excerpt(self._scrub(text))
        return MalformedResponseError(self._scrub(f"response is not JSON ({detail}; {content_type}; body: {body_text!r})"))

    def check_reachable(self, timeout_s: float = 5.0) -> None:
        """A HEAD to the URL's server, once: any answer, or a connection accepted and left
        unanswered, says it is there; else AgentSpecError naming the URL and the cause."""
        try:
            response = self._pool.urlopen("HEAD", self._path, headers=_HEADERS, retries=False, redirect=False,
                                          timeout=timeout_s, preload_content=False)
            response.drain_conn()
            response.release_conn()
        except (ProtocolError, ReadTimeoutError):
            return
        except Urllib3Error as exc:
            raise AgentSpecError(self._scrub(f"agent {self.url} is unreachable: {_unreachable(exc, timeout_s)}")) from None

    def close(self) -> None:
        """Close the pooled connections (a later request opens new ones)."""
        pool, self._pool = self._pool, self._new_pool()
        pool.close()

    def _request(self, method: str, body: bytes | None, headers: Mapping[str, str], budget: float) -> HttpResponse:
        url = self.url
        deadline = time.monotonic() + budget
        retry = self.retry
        attempts = 0
        while True:
            attempts += 1
            response = None
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise ReadTimeoutError(None, url, "the time budget ran out")
                timeout = Timeout(connect=remaining, read=remaining)
                response = self._pool.urlopen(method, self._path, body=body, headers=headers, retries=False,
                                              redirect=False, timeout=timeout, preload_content=False)
                data = self._read(response, url, deadline)
            except ReadTimeoutError:
                raise HttpTimeoutError(f"timeout: no response from {url} within {budget:g} s") from None
            except Urllib3Error as exc:
                error: HttpError = HttpConnectionError(_describe(exc, url))
                if not _retryable(exc):
                    raise error from None
                cause: Urllib3Error | None = exc
            else:
                if 200 <= response.status < 300:
                    return HttpResponse(response.status, response.headers, data)
                error = HttpStatusError(f"HTTP {response.status} from {url}: {excerpt(self._scrub(_text(data)))}", response.status)
                if not retry.is_retry(method, response.status, "Retry-After" in response.headers):
                    raise error
                cause = None
            tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
            try:
                retry = retry.increment(method, url, response=None if cause else response, error=cause)
            except MaxRetryError:
                raise _with_note(error, tries) from None
            wait = _wait_s(retry, response if cause is None else None)
            if time.monotonic() + wait >= deadline:
                raise _with_note(error, f"{tries}; no time left to retry within {budget:g} s")
            time.sleep(wait)

    def _read(self, response: urllib3.BaseHTTPResponse, url: str, deadline: float) -> bytes:
        """The body: by its Content-Length, else in chunks; BodyTooLargeError as soon as it is over
        the cap, ReadTimeoutError when the budget runs out. A body not read whole closes its connection."""
        cap = self.max_body_bytes
        try:
            declared = response.length_remaining  # by Content-Length; None for chunks or no length
            if declared is not None:
                if cap is not None and declared > cap:
                    raise _over_the_cap(cap, url)
                return response.read()
            parts: list[bytes] = []
            total = 0
            while chunk := response.read(_CHUNK_BYTES if cap is None else min(_CHUNK_BYTES, cap - total + 1)):
                total += len(chunk)
                if cap is not None and total > cap:
                    raise _over_the_cap(cap, url)
                if time.monotonic() > deadline:
                    raise ReadTimeoutError(None, url, "the time budget ran out")
                parts.append(chunk)
            return b"".join(parts)
        except BaseException:
            response.close()
            raise
        finally:
            response.release_conn()

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)


def _wait_s(retry: Retry, response: urllib3.BaseHTTPResponse | None) -> float:
    """The wait before the next attempt, as ``Retry.sleep``: a usable Retry-After (capped), else backoff."""
    if response is not None and retry.respect_retry_after_header:
        try:
            retry_after = retry.get_retry_after(response)
        except InvalidHeader:
            retry_after = None
        if retry_after:
            return retry_after
    return retry.get_backoff_time()


def _retryable(exc: Urllib3Error) -> bool:
    """Asking again may help: a refused, timed-out or broken connection; not a name that does not
    resolve, a TLS failure, or a server that does not speak HTTP."""
    if isinstance(exc, (NameResolutionError, SSLError)):
        return False
    if isinstance(exc, ProtocolError):
        return isinstance(_cause(exc), (OSError, IncompleteRead))
    return True


def _describe(exc: Urllib3Error, url: str) -> str:
    """One line saying what went wrong with the connection to ``url``."""
    cause = _cause(exc)
    if isinstance(exc, NameResolutionError):
        return f"cannot resolve host {urlsplit(url).hostname!r} of {url} ({_os_text(cause)})"
    if isinstance(exc, NewConnectionError):
        if isinstance(cause, ConnectionRefusedError):
            return f"connection refused by {url}"
        return f"cannot reach {url}: {_os_text(cause)}"
    if isinstance(exc, ConnectTimeoutError):
        return f"timeout: could not connect to {url}"
    if isinstance(exc, SSLError):
        return f"TLS error with {url}: {cause or exc}"
    if isinstance(exc, ProtocolError):
        if isinstance(cause, (OSError, IncompleteRead)):
            return f"connection reset by {url} ({cause})" if str(cause) else f"connection reset by {url}"
        return f"bad HTTP response from {url}: {type(cause).__name__} {cause}".rstrip()
    return f"cannot reach {url}: {exc}"


def _unreachable(exc: Urllib3Error, timeout_s: float) -> str:
    """Why a reachability check failed, for ``agent URL is unreachable: ...``."""
    cause = _cause(exc)
    if isinstance(exc, NameResolutionError):
        return f"cannot resolve host {exc.conn.host!r} ({_os_text(cause)})" if exc.conn else _os_text(cause)
    if isinstance(exc, NewConnectionError):
        return _os_text(cause)
    if isinstance(exc, ConnectTimeoutError):
        return f"no answer to a connection within {timeout_s:g} s"
    if isinstance(exc, SSLError):
        return f"TLS error: {cause or exc}"
    return str(exc)


def _cause(exc: Urllib3Error) -> BaseException | None:
    """The error urllib3 wrapped: a ProtocolError's second argument, else the one it was raised from."""
    if isinstance(exc, ProtocolError) and len(exc.args) > 1 and isinstance(exc.args[1], BaseException):
        return exc.args[1]
    return exc.__cause__


def _os_text(error: BaseException | None) -> str:
    return (getattr(error, "strerror", None) or str(error)) if error is not None else "unknown cause"


def _over_the_cap(cap: int, url: str) -> BodyTooLargeError:
    return BodyTooLargeError(f"answer over the cap: more than {cap:,} bytes from {url} (max_answer_bytes)")


def _with_note(error: HttpError, note: str) -> HttpError:
    error.args = (f"{error} ({note})",)
    return error


def _text(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


def excerpt(text: str) -> str:
    """The start of an (already scrubbed) text on one line, for an error message; "(empty body)" for none."""
    return one_line(text, _EXCERPT_CHARS) or "(empty body)"
