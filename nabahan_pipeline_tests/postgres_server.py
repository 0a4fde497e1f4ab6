"""A real PostgreSQL server for tests: Debian's binaries, a data directory in a temporary folder,
listening on loopback only at a free port, with password (scram) authentication.

initdb refuses to run as root; as root (CI) the server runs as the ``postgres`` user via runuser,
in a folder that user owns.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

USER = "dagster"
PASSWORD = "loopback-only-password"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here (binaries or the unprivileged user missing)."""


@dataclass(frozen=True)
class PostgresServer:
    """A running server: where to reach it and as whom."""

    host: str
    port: int
    user: str
    password: str

    def connect(self, dbname: str = "postgres"):
        """A psycopg2 connection (autocommit) to ``dbname``."""
        import psycopg2

        connection = psycopg2.connect(host=self.host, port=self.port, user=self.user,
                                      password=self.password, dbname=dbname)
        connection.autocommit = True
        return connection

    def create_database(self, name: str) -> None:
        connection = self.connect()
        try:
            with connection.cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{name}"')
        finally:
            connection.close()


def _bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise PostgresUnavailable("no PostgreSQL server binaries (apt-get install -y postgresql)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """Start a fresh server, yield it, stop it and remove its files."""
    bin_dir = _bin_dir()
    as_root = os.geteuid() == 0
    if as_root and shutil.which("runuser") is None:
        raise PostgresUnavailable("running as root without runuser to drop to the postgres user")
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    root = Path(tempfile.mkdtemp(prefix="nabahan-pg-"))
    root.chmod(0o755)
    data, socket_dir = root / "data", root / "run"
    password_file = root / "password"
    password_file.write_text(PASSWORD + "\n")
    if as_root:
        shutil.chown(root, "postgres")
        shutil.chown(password_file, "postgres")
    port = _free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = root / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"{args[0]} failed: {done.stderr.strip()[-2000:]}\n{tail}")

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={password_file}",
            "-A", "scram-sha-256", "-E", "UTF8", "--no-sync", "--no-locale")
        run("mkdir", "-p", str(socket_dir))
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w", "-t", "60",
            "-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {socket_dir} -c fsync=off", "start")
    except (PostgresUnavailable, OSError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise PostgresUnavailable(str(exc)) from exc
    try:
        yield PostgresServer("127.0.0.1", port, USER, PASSWORD)
    finally:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                       capture_output=True, timeout=120)
        shutil.rmtree(root, ignore_errors=True)
