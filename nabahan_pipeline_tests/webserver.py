"""`dagster-webserver` (or `dagster dev`, which adds the daemon) on loopback, serving the project's
code location from a private DAGSTER_HOME, and Dagster's GraphQL API over HTTP: for the UI's test
and docs/screenshots.py."""

from __future__ import annotations

import contextlib
import html
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import urllib3

from nabahan_pipeline_tests.commands import environment
from nabahan_pipeline_tests.test_deploy_postgres import free_port

LOCATION = "nabahan_pipeline.definitions"
REPOSITORY = "__repository__"
START_TIMEOUT_S = 90
WORKSPACE = """{ workspaceOrError { __typename ... on Workspace { locationEntries { name
    locationOrLoadError { __typename ... on PythonError { message } } } } } }"""


@dataclass
class Webserver:
    """A running dagster-webserver: its URL, its process group and its log."""

    process: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def graphql(self, query: str, variables: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        """The ``data`` of a GraphQL query; fails on any error the API reports."""
        response = urllib3.request("POST", f"{self.url}/graphql", json={"query": query, "variables": variables or {}},
                                   timeout=timeout, retries=False)
        assert response.status == 200, f"GraphQL answered {response.status}: {response.data[:500]!r}"
        payload = response.json()
        assert not payload.get("errors"), payload["errors"]
        return payload["data"]

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]

    def loaded(self) -> bool:
        """Whether the code location has loaded (it failing to load fails the caller at once)."""
        try:
            data = self.graphql(WORKSPACE, timeout=5)
        except (urllib3.exceptions.HTTPError, OSError):
            return False
        entries = data["workspaceOrError"]["locationEntries"]
        for entry in entries:
            loaded = entry["locationOrLoadError"]
            assert loaded is None or loaded["__typename"] != "PythonError", loaded
        return any(entry["locationOrLoadError"] for entry in entries)


@contextlib.contextmanager
def webserver(dagster_home: Path, cwd: Path, *, dev: bool = False, start_timeout_s: float = START_TIMEOUT_S,
              **env: str) -> Iterator[Webserver]:
    """dagster-webserver (``dev``: `dagster dev`) on a free loopback port for
    DAGSTER_HOME ``dagster_home``, started in ``cwd`` with our commands' environment
    (``commands.environment``), serving within ``start_timeout_s``; stopped, with its children, on exit."""
    port = free_port()
    bin_dir = Path(sys.executable).parent
    program = [str(bin_dir / "dagster"), "dev"] if dev else [str(bin_dir / "dagster-webserver")]
    command = [*program, "-m", LOCATION, "-h", "127.0.0.1", "-p", str(port)]
    with serving(command, port, cwd, environment(cwd, **{**env, "DAGSTER_HOME": str(dagster_home)}),
                 start_timeout_s) as server:
        yield server


@contextlib.contextmanager
def nabahan_ui(cwd: Path, env: dict[str, str], *, start_timeout_s: float = START_TIMEOUT_S) -> Iterator[Webserver]:
    """`nabahan ui --port P` (`make dev`) started in ``cwd`` with the environment ``env`` as it is,
    serving within ``start_timeout_s``; stopped, with its children, on exit."""
    port = free_port()
    command = [sys.executable, "-m", "nabahan_pipeline", "ui", "--port", str(port)]
    with serving(command, port, cwd, env, start_timeout_s) as server:
        yield server


@contextlib.contextmanager
def serving(command: list[str], port: int, cwd: Path, env: dict[str, str],
            start_timeout_s: float) -> Iterator[Webserver]:
    """``command`` (a webserver on loopback ``port``) in a session of its own, its output in a log in
    ``cwd``, until its code location has loaded."""
    log = cwd / f"webserver-{port}.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    server = Webserver(process, port, log)
    try:
        deadline = time.monotonic() + start_timeout_s
        while not server.loaded():
            assert process.poll() is None, f"the webserver exited {process.returncode}:\n{server.log_tail()}"
            assert time.monotonic() < deadline, (
                f"the webserver not serving after {start_timeout_s} s:\n{server.log_tail()}")
            time.sleep(0.5)
        yield server
    finally:
        stop(process)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process group (the webserver ends its code server, dagster dev its children),
    SIGKILL to what is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


# The Unicode isolates around a right-to-left cell (escaping.isolated): they show as nothing.
ISOLATES = "\u2068\u2069"
_CELL_BREAK = re.compile(r"(?<!\\)\|")
_ESCAPE = re.compile(r"\\(.)")


def markdown_rows(table: str) -> list[dict[str, str]]:
    """The rows of a Markdown table that ``escaping.markdown_table`` wrote, each cell as the text it shows."""
    lines = [line.strip() for line in table.splitlines() if line.strip().startswith("|")]
    if len(lines) < 2:
        return []

    def cells(line: str) -> list[str]:
        return [html.unescape(_ESCAPE.sub(r"\1", cell.strip())).strip(ISOLATES)
                for cell in _CELL_BREAK.split(line.strip("|"))]

    header = cells(lines[0])
    return [dict(zip(header, cells(line), strict=True)) for line in lines[2:]]
