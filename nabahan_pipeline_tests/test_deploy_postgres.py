"""deploy/dagster.yaml against a real PostgreSQL server: two agents evaluated twice by `nabahan
eval`, and what the instance keeps found in PostgreSQL itself (runs, the agents' partitions and
their materializations, the regression check's evaluations, the comparison).

The server is Debian's package (binaries under /usr/lib/postgresql/<version>/bin), started on
loopback in a temporary folder as an unprivileged user: initdb refuses to run as root, and CI runs
as root, so the server runs as the `postgres` user the package creates (or `nobody`), through
runuser. CI (CI=true) installs the package (.ci/run) and this test fails there if the server
cannot start; elsewhere it is skipped, saying why, only when the binaries are absent.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from nabahan_pipeline_tests.commands import REPO, nabahan

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
RAISING = "python:nabahan_pipeline_tests.sample_agents:raising_agent"
DATABASE = "nabahan_dagster"
USER = "dagster"


@dataclass
class Postgres:
    """A running server: where it listens and who may log in."""

    port: int
    password: str

    def env(self) -> dict[str, str]:
        """The variables deploy/dagster.yaml reads its credentials from."""
        return {"DAGSTER_PG_HOST": "127.0.0.1", "DAGSTER_PG_PORT": str(self.port), "DAGSTER_PG_USER": USER,
                "DAGSTER_PG_PASSWORD": self.password, "DAGSTER_PG_DB": DATABASE}

    def query(self, sql: str, *params: object) -> list[tuple]:
        import psycopg2  # installed with dagster-postgres

        with contextlib.closing(psycopg2.connect(host="127.0.0.1", port=self.port, user=USER,
                                                 password=self.password, dbname=DATABASE)) as connection:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()


def server_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder with initdb and pg_ctl, if any."""
    found = [path for path in Path("/usr/lib/postgresql").glob("*/bin")
             if (path / "initdb").is_file() and (path / "pg_ctl").is_file()]
    return max(found, key=lambda path: float(path.parent.name), default=None)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_user() -> tuple[list[str], int | None]:
    """How to run the server's commands: as ourselves, or (as root) through runuser as the
    package's `postgres` user, else `nobody`; and that user's uid to give the folder to."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return ["runuser", "-u", name, "--"], pwd.getpwnam(name).pw_uid
    pytest.fail("running as root with neither a postgres nor a nobody user to run the server as")


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    binaries = server_binaries()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail("the PostgreSQL server is not installed (.ci/run installs it: apt-get install -y postgresql)")
        pytest.skip("no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql); CI runs this test")
    as_user, uid = server_user()
    # Not under pytest's tmp_path: its parents are closed to any user but ours.
    root = Path(tempfile.mkdtemp(prefix="nabahan-pg-"))
    data, log, password = root / "data", root / "server.log", os.urandom(12).hex()
    (root / "password").write_text(password, encoding="utf-8")
    if uid is not None:
        for path in (root, root / "password"):
            os.chown(path, uid, -1)
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}

    def run(*command: str) -> None:
        result = subprocess.run([*as_user, *command], env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{' '.join(command)}: {result.stdout}{result.stderr}" + (
            log.read_text(errors="replace")[-3000:] if log.exists() else "")

    port = free_port()
    try:
        run(str(binaries / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={root / 'password'}",
            "--auth=scram-sha-256", "--encoding=UTF8", "--no-instructions")
        run(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root}", "start")
        import psycopg2

        with contextlib.closing(psycopg2.connect(host="127.0.0.1", port=port, user=USER, password=password,
                                                 dbname="postgres")) as connection:
            connection.autocommit = True
            with connection.cursor() as cursor:
                cursor.execute(f"CREATE DATABASE {DATABASE} ENCODING 'UTF8'")
        yield Postgres(port, password)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           env=env, capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def deploy_instance(home: Path) -> None:
    """$DAGSTER_HOME/dagster.yaml: deploy's, with its run launcher left out. K8sRunLauncher needs a
    Kubernetes cluster; here runs are launched in-process by `nabahan eval` (the default launcher
    for any other). Storage, the run coordinator, run monitoring and retention are deploy's."""
    config = yaml.safe_load((REPO / "deploy" / "dagster.yaml").read_text(encoding="utf-8"))
    assert config["run_launcher"]["class"] == "K8sRunLauncher"
    del config["run_launcher"]
    home.mkdir()
    (home / "dagster.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")


def write_cases(path: Path) -> Path:
    """Three cases, two with gold SQL: the counting agent (always 7) gets their result wrong; the
    third must pass (one case lost alone is noise to no_regression)."""
    cases = [
        {"id": "all", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details",
         "expected_sql": "SELECT COUNT(*) FROM tenders_full_details"},
        {"id": "riyadh", "question": "كم عدد المناقصات في منطقة الرياض؟", "category": "region_filter",
         "expected_table": "tenders_full_details",
         "expected_sql": "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"},
        {"id": "plain", "question": "كم مناقصة؟", "category": "count", "expected_table": "tenders_full_details",
         "must_pass": True},
    ]
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def materializations(pg: Postgres, asset: str) -> list[tuple[str | None, str]]:
    """(partition, run id) of each materialization of ``asset``, oldest first."""
    return pg.query(
        "SELECT partition, run_id FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION' "
        "AND asset_key = %s ORDER BY id", json.dumps([asset]))


@pytest.mark.slow
def test_two_agents_evaluated_twice_are_kept_in_postgresql(postgres: Postgres, tmp_path: Path):
    home = tmp_path / "dagster_home"
    deploy_instance(home)
    cases = write_cases(tmp_path / "cases.json")
    env = {**postgres.env(), "DAGSTER_HOME": str(home)}
    common = ["eval", "--test-file", str(cases), "--output-dir", "out", "--test-suite", "0"]

    first = nabahan(*common, "--agent", "ref=embedded", "--agent", f"a={COUNTING}", cwd=tmp_path, **env)
    assert first.returncode == 0, first.stderr[-3000:]
    # The same label, another spec: agent a's own history says it regressed (lost its must_pass case).
    second = nabahan(*common, "--agent", "ref=embedded", "--agent", f"a={RAISING}", cwd=tmp_path, **env)
    assert second.returncode == 0, second.stderr[-3000:]
    assert "AGENT COMPARISON (2 agents, 3 cases)" in second.stdout
    assert not list(home.glob("**/*.db")), "no SQLite storage: the instance is PostgreSQL's"

    # The agents' partitions.
    partitions = postgres.query("SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'agents' ORDER BY id")
    assert [row[0] for row in partitions] == ["ref", "a"]

    # The runs: per nabahan eval, one per agent's partition and the comparison's.
    runs = postgres.query("SELECT r.run_id, r.pipeline_name, r.status, t.value FROM runs r LEFT JOIN run_tags t "
                          "ON t.run_id = r.run_id AND t.key = 'dagster/partition' ORDER BY r.id")
    assert [(job, status, partition) for _, job, status, partition in runs] == [
        ("evaluation_job", "SUCCESS", "ref"), ("evaluation_job", "SUCCESS", "a"), ("comparison_job", "SUCCESS", None),
    ] * 2
    run_ids = [run_id for run_id, *_ in runs]
    labels = dict(postgres.query("SELECT run_id, value FROM run_tags WHERE key = 'nabahan/agent_label'"))
    assert [labels.get(run_id) for run_id in run_ids] == ["ref", "a", None] * 2

    # Each partition's materializations, one per run.
    for asset in ("test_cases", "agent_responses", "case_scores", "evaluation_summary", "evaluation_reports",
                  "evaluation_charts", "evaluation_report_page"):
        assert materializations(postgres, asset) == [("ref", run_ids[0]), ("a", run_ids[1]),
                                                     ("ref", run_ids[3]), ("a", run_ids[4])], asset
    registered = postgres.query("SELECT partition, event FROM event_logs WHERE dagster_event_type = 'ASSET_OBSERVATION' "
                                "AND asset_key = %s ORDER BY id", json.dumps(["agent"]))
    assert [partition for partition, _ in registered] == ["ref", "a", "a"], "a's new spec registered"
    assert RAISING in registered[-1][1]

    # The regression check, per partition, against that partition's previous run.
    checks = postgres.query("SELECT partition, run_id, execution_status, evaluation_event FROM asset_check_executions "
                            "WHERE check_name = 'no_regression' ORDER BY id")
    assert [(partition, run_id, status) for partition, run_id, status, _ in checks] == [
        ("ref", run_ids[0], "SUCCEEDED"), ("a", run_ids[1], "SUCCEEDED"),
        ("ref", run_ids[3], "SUCCEEDED"), ("a", run_ids[4], "FAILED"),
    ]
    ref_again, a_again = checks[2][3], checks[3][3]
    assert f"case_scores/{run_ids[0]}.parquet" in ref_again, "ref's second run compared with ref's first"
    assert f"case_scores/{run_ids[1]}.parquet" in a_again, "a's second run compared with a's first"
    assert '"plain"' in a_again and '"all"' not in a_again, "regressed: the case a had right, not those it had wrong"

    # The comparison asset, over the newest run of each agent.
    assert materializations(postgres, "agent_comparison") == [(None, run_ids[2]), (None, run_ids[5])]
    (event,) = postgres.query("SELECT event FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION' "
                              "AND asset_key = %s AND run_id = %s", json.dumps(["agent_comparison"]), run_ids[5])
    assert run_ids[3] in event[0] and run_ids[4] in event[0]
    newest = max((tmp_path / "out").glob("agent_comparison_*.csv"), key=lambda path: path.stat().st_mtime)
    rows = newest.read_text(encoding="utf-8-sig").splitlines()
    assert rows[1].startswith("ref,3,3,3,100.0%,") and rows[2].startswith("a,3,3,0,0.0%,"), rows
