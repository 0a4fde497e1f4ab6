"""The HTTP client behind the HTTP agents, against real loopback servers: transient faults are
retried within one time budget, others fail at once with a clear message, connections are pooled
and reused across threads, a connection the server closed is replaced, a body over the cap is
refused, a server that is not there is told before a run."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import normalize_answer
from nabahan_pipeline.agents.http_client import HttpClient, retry_policy
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.errors import AgentSpecError, BodyTooLargeError, HttpConnectionError, MalformedResponseError
from nabahan_pipeline_tests.loopback import LoopbackServer, Reply, closed_port, http_agent

QUESTION = "كم عدد المناقصات في منطقة الرياض؟"


@pytest.fixture(autouse=True)
def _no_token(no_agent_token: None) -> None:
    """No NABAHAN_AGENT_TOKEN from the shell (agents/conftest.py)."""


def test_500_is_retried_then_succeeds(server: LoopbackServer) -> None:
    server.script(Reply(500, "internal error"))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    assert len(server.requests) == 2


def test_dropped_connection_is_retried(server: LoopbackServer) -> None:
    server.script(Reply(drop=True))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    assert len(server.requests) == 2


def test_persistent_503_gives_up_after_three_retries(server: LoopbackServer) -> None:
    server.script(*[Reply(503, "overloaded")] * 5)
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "error"
    assert answer.error == f"HTTP 503 from {server.url()}: overloaded (4 attempts)"
    assert len(server.requests) == 4


def test_429_waits_for_retry_after(server: LoopbackServer) -> None:
    server.script(Reply(429, "slow down", headers={"Retry-After": "1"}))
    answer = normalize_answer(http_agent(server.url()).ask(QUESTION))
    assert answer.status == "success"
    first, second = server.requests
    assert second.received_at - first.received_at >= 0.95
    assert second.received_at - first.received_at < 2.0


def test_retry_after_beyond_the_budget_fails_at_once(server: LoopbackServer) -> None:
    server.script(Reply(429, "come back later", headers={"Retry-After": "120"}))
    start = time.perf_counter()
    answer = normalize_answer(http_agent(server.url(), timeout_s=2.0).ask(QUESTION))
    assert time.perf_counter() - start < 1.0
    assert answer.status == "error"
    assert answer.error.startswith(f"HTTP 429 from {server.url()}: come back later (1 attempt; no time left")
    assert len(server.requests) == 1


def test_slow_server_times_out_quickly_without_piling_up_retries(server: LoopbackServer) -> None:
    server.script(Reply(delay_s=3.0))
    start = time.perf_counter()
    answer = normalize_answer(http_agent(server.url(), timeout_s=0.5).ask(QUESTION))
    elapsed = time.perf_counter() - start
    assert answer.status == "error"
    assert answer.error == f"timeout: no response from {server.url()} within 0.5 s"
    assert 0.4 < elapsed < 1.5
    assert len(server.requests) == 1


def test_refused_connection_is_retried_then_reported() -> None:
    with closed_port() as port:
        url = f"http://127.0.0.1:{port}/ask"
        start = time.perf_counter()
        answer = normalize_answer(http_agent(url).ask(QUESTION))
        elapsed = time.perf_counter() - start
    assert answer.status == "error"
    assert answer.error == f"connection refused by {url} (4 attempts)"
    assert elapsed < 1.0  # 3 backoffs of at most 0.01, 0.02, 0.04 s


def test_404_fails_at_once(server: LoopbackServer) -> None:
    server.script(Reply(404, "no such path\n"))
    answer = normalize_answer(http_agent(server.url("/nope")).ask(QUESTION))
    assert answer.status == "error"
    assert answer.error == f"HTTP 404 from {server.url('/nope')}: no such path"
    assert len(server.requests) == 1


def test_connections_are_kept_alive_and_reused(server: LoopbackServer) -> None:
    agent = http_agent(server.url())
    for _ in range(5):
        assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert len(server.requests) == 5
    assert len(server.client_ports) == 1

    # The runner calls from fresh threads; the pool is shared, so at most one connection per worker.
    cases = pd.DataFrame(
        {"case_id": [f"c{i}" for i in range(16)], "question": [QUESTION] * 16, "filters": [None] * 16}
    )
    responses = run_agent(cases, agent, concurrency=4, timeout_s=5.0)
    assert (responses["status"] == "success").all()
    assert len(server.requests) == 21
    assert len(server.client_ports) <= 5


def test_concurrent_calls_share_the_pool_safely(server: LoopbackServer) -> None:
    agent = http_agent(server.url())
    results: list[str] = []

    def worker() -> None:
        for _ in range(5):
            results.append(normalize_answer(agent.ask(QUESTION)).status)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["success"] * 20
    assert len(server.client_ports) <= 4


def test_connection_closed_by_server_while_idle_is_replaced(server: LoopbackServer) -> None:
    server.script(Reply(200, {"status": "success", "sql": None, "data": [], "insights": "أ"}, close_after=True))
    agent = http_agent(server.url(), max_retries=0)  # a stale connection must not need a retry
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    time.sleep(0.05)
    assert normalize_answer(agent.ask(QUESTION)).status == "success"
    assert len(server.requests) == 2
    assert len(server.client_ports) == 2


def test_a_dead_agent_is_told_in_one_line_and_a_live_one_whatever_its_status(server: LoopbackServer) -> None:
    http_agent(server.url("/no-such-path")).check()  # a HEAD, which this server answers 501
    assert server.requests == [], "no question asked"
    with closed_port() as port:
        url = f"http://127.0.0.1:{port}/ask"
        with pytest.raises(AgentSpecError) as raised:
            http_agent(url).check()
    assert str(raised.value) == f"agent {url} is unreachable: Connection refused"


# -- against raw loopback sockets: what the client sends, answers no HTTP server would give ---------


ANSWER = b'{"status": "success", "sql": null, "data": [], "insights": "\xd8\xa3"}'


@contextmanager
def raw_server(*responses: bytes, close: bool = False) -> Iterator[tuple[str, list[bytes]]]:
    """A one-connection server on 127.0.0.1 that answers each request with the next of
    ``responses`` as given bytes (closing after the last with ``close``); yields its URL and the
    requests it read."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    received: list[bytes] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            for response in responses:
                request = b""
                while b"\r\n\r\n" not in request:
                    request += conn.recv(65536)
                head, _, body = request.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:
                    body += conn.recv(65536)
                received.append(head + b"\r\n\r\n" + body)
                conn.sendall(response)
            if not close:
                conn.recv(1)  # until the client hangs up

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/ask", received
    finally:
        listener.close()
        thread.join(5)


def client(url: str, **kwargs: object) -> HttpClient:
    return HttpClient(url, timeout_s=5.0, retry=retry_policy(max_retries=0), **kwargs)  # type: ignore[arg-type]


def test_the_request_is_one_well_formed_message() -> None:
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: " + str(len(ANSWER)).encode() + b"\r\n\r\n" + ANSWER
    with raw_server(ok, ok) as (url, received):
        http = client(url)
        assert http.request_json("POST", {"question": QUESTION})["insights"] == "أ"
        assert http.request("POST").status == 200
        http.close()
    head, _, body = received[0].partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0] == "POST /ask HTTP/1.1"
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
    assert headers["host"] == url.split("/")[2] and headers["accept-encoding"] == "identity"
    assert headers["content-length"] == str(len(body)) and json.loads(body) == {"question": QUESTION}
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert b"\r\nContent-Length: 0\r\n" in received[1], "a POST without a body says so"


def test_a_chunked_body_over_the_cap_is_refused() -> None:
    big = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % 5_000 + b"x" * 5_000 + b"\r\n0\r\n\r\n"
    with raw_server(big) as (url, _):
        with pytest.raises(BodyTooLargeError, match="more than 1,000 bytes"):
            client(url, max_body_bytes=1_000).request("GET")


def test_a_response_that_is_not_http_fails_at_once() -> None:
    with raw_server(b"SSH-2.0-OpenSSH\r\n\r\n") as (url, received):
        with pytest.raises(HttpConnectionError, match=f"bad HTTP response from {url}: BadStatusLine"):
            HttpClient(url, timeout_s=5.0, retry=retry_policy(backoff_base_s=0.01)).request("GET")
    assert len(received) == 1, "not retried"


def test_https_keeps_its_connection_and_refuses_a_certificate_it_cannot_verify(tmp_path, monkeypatch) -> None:
    import shutil
    import ssl
    import subprocess
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a certificate with")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    ports: list[int] = []

    class Echo(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            ports.append(self.client_address[1])
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"https://127.0.0.1:{server.server_address[1]}/ask"
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the certificates a user's machine trusts
        trusting = client(url)
        for text in ("أ" * 50_000, "ب"):
            assert trusting.request_json("POST", {"q": text}) == {"q": text}
        assert len(ports) == 2 and len(set(ports)) == 1, "one kept-alive TLS connection"
        trusting.close()
        monkeypatch.delenv("SSL_CERT_FILE")
        with pytest.raises(HttpConnectionError, match="TLS error .*CERTIFICATE_VERIFY_FAILED"):
            HttpClient(url, timeout_s=5.0, retry=retry_policy(backoff_base_s=0.01)).request("POST", body=b"{}")
        assert len(ports) == 2, "not retried, nothing sent"
    finally:
        server.shutdown()
        server.server_close()


def test_a_deep_body_is_refused_by_its_depth_before_it_is_parsed(server: LoopbackServer) -> None:
    server.script(Reply(200, body=b"[" * 100_000 + b"]" * 100_000))
    client = HttpClient(server.url(), timeout_s=5)
    with pytest.raises(MalformedResponseError, match="nested deeper than 32 levels"):
        client.request_json("POST", {"question": "q"})


def test_a_body_of_too_many_values_is_refused_before_it_is_parsed(server: LoopbackServer) -> None:
    server.script(Reply(200, body=json.dumps([0] * 5_000)))
    client = HttpClient(server.url(), timeout_s=5)
    with pytest.raises(BodyTooLargeError, match="5,000 values"):
        client.request_json("POST", {"question": "q"}, max_values=1_000)
    server.script(Reply(200, body=json.dumps([0] * 500)))
    assert client.request_json("POST", {"question": "q"}, max_values=1_000) == [0] * 500
