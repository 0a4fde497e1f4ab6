"""Loopback test doubles: a real HTTP server on 127.0.0.1 (port 0, own thread) whose replies are
scripted per request (status, headers, body, delay, dropped connection), and a closed port.

    with LoopbackServer() as server:
        server.script(Reply(500), Reply(200, body={...}))
        ...  # requests go to server.url("/ask"); server.requests records what arrived

``chat_completion`` is a reply of an OpenAI-compatible server (the ``openai:`` agent, the judge).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from nabahan_pipeline.agents.http import HttpAgent


@dataclass
class Reply:
    """One scripted answer. ``body``: bytes/str as is, anything else as JSON."""

    status: int = 200
    body: Any = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    drop: bool = False  # close the connection without answering
    close_after: bool = False  # close the connection after answering, without announcing it


@dataclass(frozen=True)
class Request:
    """What the server received."""

    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    client_port: int
    received_at: float  # time.perf_counter()

    def json(self) -> Any:
        return json.loads(self.body)


def echo_agent(question: str, filters: dict | None = None) -> dict:
    """A contract-speaking agent that answers with the question: for tests that need any agent."""
    return {
        "status": "success",
        "sql": "SELECT 1 AS one",
        "data": [{"one": 1, "filters": json.dumps(filters, ensure_ascii=False)}],
        "insights": f"سؤالك: {question}",
        "error": None,
    }


def contract_reply(request: Request) -> Reply:
    """The default reply: a success answer echoing the posted question."""
    try:
        payload = request.json()
    except ValueError:
        payload = {}
    question = payload.get("question", "") if isinstance(payload, dict) else ""
    return Reply(200, echo_agent(question, payload.get("filters") if isinstance(payload, dict) else None))


def chat_completion(content: str | None, prompt_tokens: int = 100, completion_tokens: int = 10) -> Reply:
    """An OpenAI chat completion whose message is ``content``."""
    return Reply(
        200,
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "test-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    )


class LoopbackServer:
    """A scripted HTTP/1.1 server on 127.0.0.1 with keep-alive, running in a daemon thread."""

    def __init__(self, handler: Callable[[Request], Reply] = contract_reply) -> None:
        self.handler = handler
        self.requests: list[Request] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, path: str = "/ask") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next requests (then ``handler`` answers)."""
        with self._lock:
            self._script.extend(replies)

    @property
    def client_ports(self) -> set[int]:
        return {request.client_port for request in self.requests}

    def _next_reply(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._script:
                return self._script.popleft()
        return self.handler(request)

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _make_handler(owner: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else each reply stalls ~40 ms on the client's delayed ACK

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            request = Request(
                method=self.command,
                path=self.path,
                headers={key.lower(): value for key, value in self.headers.items()},
                body=body,
                client_port=self.client_address[1],
                received_at=time.perf_counter(),
            )
            reply = owner._next_reply(request)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.drop:
                self.close_connection = True
                return
            payload = reply.body
            if isinstance(payload, str):
                payload = payload.encode("utf-8")
            elif not isinstance(payload, bytes):
                payload = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            try:
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json; charset=utf-8", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
                return
            if reply.close_after:
                self.close_connection = True

        do_GET = do_POST = _handle

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    return Handler


@contextmanager
def closed_port() -> Iterator[int]:
    """A loopback port with nothing listening (bound but not listening, so nobody takes it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]
    finally:
        sock.close()


def http_agent(url: str, **kwargs: Any) -> HttpAgent:
    """An HTTP agent for a loopback server: a 5 s budget and near-zero backoff unless given."""
    kwargs.setdefault("timeout_s", 5.0)
    kwargs.setdefault("backoff_base_s", 0.01)
    return HttpAgent(url, **kwargs)
