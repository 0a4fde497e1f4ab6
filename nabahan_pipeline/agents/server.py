"""Serve an agent over HTTP with the contract (``nabahan agent serve``), HTTP/1.1 with keep-alive.

    POST /ask     {"question": str, "filters": object | null}  ->  the contract answer (200)
    GET  /health  {"status": "ok", "agent": spec, "version": package version}

An agent that raises or breaks the contract yields a 200 ``error`` answer; a bad body a 400.
"""

from __future__ import annotations

import json
import math
import signal
import socket
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from nabahan_pipeline.version import __version__
from nabahan_pipeline.agents.contract import Agent, AgentAnswer, normalize_answer
from nabahan_pipeline.json_bounds import measure_json

MAX_BODY_BYTES = 1 << 20
MAX_BODY_DEPTH = 32  # a question and its filters nest a few levels
IDLE_TIMEOUT_S = 120  # an idle keep-alive connection is closed after this


class AgentServer(ThreadingHTTPServer):
    """A threading HTTP server of the agent it serves, on (host, port) (0: any free port)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], agent: Agent, *, log_requests: bool = False) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.agent = agent
        self.log_requests = log_requests
        super().__init__(address, _AskHandler)

    @property
    def url(self) -> str:
        """Base URL of the bound address (with the real port when 0 was asked for)."""
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serve(host: str = "127.0.0.1", port: int = 8765, agent_spec: str | None = "embedded") -> None:
    """Serve the agent that ``agent_spec`` names until Ctrl-C or SIGTERM, then return cleanly."""
    from nabahan_pipeline.agents.registry import resolve_agent

    agent = resolve_agent(agent_spec)
    try:
        server = AgentServer((host, port), agent, log_requests=True)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    print(f"serving {agent.spec} on {server.url}/ask", flush=True)
    restore = _stop_on_sigterm()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        restore()
        server.server_close()


def _stop_on_sigterm() -> Any:
    # SIGTERM (docker stop, kubectl, terminate()) ends the server like Ctrl-C does.
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _AskHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"nabahan/{__version__}"
    timeout = IDLE_TIMEOUT_S
    # Headers and body go out in two writes: with Nagle on, the second waits ~40 ms for a delayed ACK.
    disable_nagle_algorithm = True
    server: AgentServer

    def do_POST(self) -> None:
        try:
            body = self._read_body()
        except _BadRequest as exc:
            self.close_connection = True  # the unread body would be taken for the next request
            self._send_json(exc.status, {"error": str(exc)})
            return
        path = urlsplit(self.path).path
        if path != "/ask":
            self._not_here(path, "POST")
            return
        try:
            question, filters = _parse_ask(body)
        except _BadRequest as exc:
            self._send_json(exc.status, {"error": str(exc)})
            return
        self._send_json(200, self._ask(question, filters))

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/health":
            agent = self.server.agent
            self._send_json(200, {"status": "ok", "agent": agent.spec, "version": __version__})
        else:
            self._not_here(path, "GET")

    def _ask(self, question: str, filters: dict | None) -> dict[str, Any]:
        try:
            answer = normalize_answer(self.server.agent.ask(question, filters))
        except Exception as exc:  # the agent's failure is an answer, not a crash of the server
            traceback.print_exc(file=sys.stderr)
            answer = AgentAnswer.failure(f"{type(exc).__name__}: {exc}")
        result = answer.to_contract()
        counts = {"prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens}
        usage = {key: value for key, value in counts.items() if not math.isnan(value)}
        if usage:
            result["usage"] = usage
        return result

    def _read_body(self) -> bytes:
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            if self.headers.get("Transfer-Encoding"):
                raise _BadRequest(411, "send the body with a Content-Length (chunked encoding is not supported)")
            return b""
        try:
            length = int(length_header)
        except ValueError:
            raise _BadRequest(400, f"invalid Content-Length {length_header!r}") from None
        if length < 0:
            raise _BadRequest(400, f"invalid Content-Length {length_header!r}")
        if length > MAX_BODY_BYTES:
            raise _BadRequest(413, f"body of {length} bytes is over the limit of {MAX_BODY_BYTES}")
        return self.rfile.read(length)

    def _not_here(self, path: str, method: str) -> None:
        allowed = {"/ask": "POST", "/health": "GET"}.get(path)
        if allowed:
            self._send_json(405, {"error": f"{method} {path} is not allowed; use {allowed}"}, {"Allow": allowed})
        else:
            self._send_json(404, {"error": f"no such path {path!r}; use POST /ask or GET /health"})

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.log_requests:
            super().log_message(format, *args)


def _parse_ask(body: bytes) -> tuple[str, dict | None]:
    """The question and filters of an /ask body; _BadRequest (400) says what is wrong."""
    if not body:
        raise _BadRequest(400, 'empty body: send JSON {"question": "...", "filters": {...}}')
    # Measured before it is parsed: the parser recurses once per level (a RecursionError, no answer).
    if measure_json(body, MAX_BODY_DEPTH).depth > MAX_BODY_DEPTH:
        raise _BadRequest(400, f"body nested deeper than {MAX_BODY_DEPTH} levels")
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _BadRequest(400, f"body is not JSON ({exc})") from None
    if not isinstance(payload, dict):
        raise _BadRequest(400, f"body must be a JSON object, got {type(payload).__name__}")
    question = payload.get("question")
    if question is None:
        raise _BadRequest(400, "missing 'question'")
    if not isinstance(question, str):
        raise _BadRequest(400, f"'question' must be a string, got {type(question).__name__}")
    if not question.strip():
        raise _BadRequest(400, "'question' is empty")
    filters = payload.get("filters")
    if filters is not None and not isinstance(filters, dict):
        raise _BadRequest(400, f"'filters' must be an object or null, got {type(filters).__name__}")
    return question, filters
