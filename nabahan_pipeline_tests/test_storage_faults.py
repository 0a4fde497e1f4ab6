"""Storage faults of a whole `nabahan eval`: a read-only or full NABAHAN_HOME or output folder, a
corrupt response cache, a corrupt Dagster run database. Each is one line naming the file and
exit 2, before any agent call, and nothing already written is lost.

The disks are real: a folder bind-mounted read-only, or a tiny tmpfs filled to the last byte, in
a mount namespace of the test's own (`unshare --user --map-root-user --mount`, which needs no
root); the kernel itself answers EROFS and ENOSPC.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nabahan_pipeline_tests.commands import cases_file, environment, nabahan

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

# An agent that leaves a file for each call: "before any agent call" is that none is there.
RECORDING = '''import pathlib, uuid
from nabahan_pipeline_tests.sample_agents import counting_agent
def answer(question, filters=None):
    pathlib.Path("calls").mkdir(exist_ok=True)
    pathlib.Path("calls", uuid.uuid4().hex).write_text(question, encoding="utf-8")
    return counting_agent(question, filters)
'''
EARLIER = "an earlier report, kept\n"
REASONS = {"read-only": "Read-only file system", "full": "No space left on device"}


def calls(folder: Path) -> int:
    return len(list((folder / "calls").glob("*"))) if (folder / "calls").exists() else 0


def one_line_exit_2(result: subprocess.CompletedProcess, *expected: str) -> str:
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


def eval_on_a_faulty_disk(tmp_path: Path, fault: str, where: str) -> subprocess.CompletedProcess:
    """`nabahan eval` with ``where`` (home or out) on a disk that is ``fault`` (read-only or full),
    an earlier report already there; the disk's files are copied to ``tmp_path/after`` after."""
    assert shutil.which("unshare"), "util-linux's unshare runs these faults in a mount namespace"
    disk = tmp_path / "disk"
    disk.mkdir()
    (disk / "earlier.csv").write_text(EARLIER, encoding="utf-8")
    if fault == "read-only":
        setup = f"mount --bind {disk} {disk} && mount -o remount,ro,bind {disk}"
    else:
        setup = (f"mount -t tmpfs -o size=1m tmpfs {disk} && printf '{EARLIER}' > {disk}/earlier.csv && "
                 f"{{ dd if=/dev/zero of={disk}/fill bs=4k 2>/dev/null; true; }}")
    home = disk / "home" if where == "home" else tmp_path / "home"
    out = disk / "out" if where == "out" else tmp_path / "out"
    (tmp_path / "recording_agent.py").write_text(RECORDING, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=2)
    script = f'{setup} || exit 99; "$@"; code=$?; cp -r {disk} {tmp_path}/after; exit $code'
    command = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh",
               sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", "python:recording_agent:answer",
               "--test-file", str(cases), "--output-dir", str(out), "--test-suite", "0"]
    result = subprocess.run(command, cwd=tmp_path, env=environment(tmp_path, NABAHAN_HOME=str(home)),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode != 99, f"could not make the {fault} disk: {result.stderr}"
    return result


@pytest.mark.parametrize("fault", ["read-only", "full"])
@pytest.mark.parametrize("where", ["home", "out"])
def test_a_read_only_or_full_disk_is_one_line_before_any_agent_call(tmp_path: Path, fault: str, where: str):
    # Each was a traceback (OSError from mkdir, or from a report written after every agent call).
    result = eval_on_a_faulty_disk(tmp_path, fault, where)
    folder = "--output-dir" if where == "out" else "($NABAHAN_HOME"
    one_line_exit_2(result, folder, str(tmp_path / "disk"), REASONS[fault])
    assert calls(tmp_path) == 0
    assert (tmp_path / "after" / "earlier.csv").read_text(encoding="utf-8") == EARLIER


def first_run(tmp_path: Path) -> None:
    (tmp_path / "recording_agent.py").write_text(RECORDING, encoding="utf-8")
    cases = cases_file(tmp_path / "cases.json", n=2)
    result = nabahan("eval", "--agent", "python:recording_agent:answer", "--test-file", str(cases),
                     "--output-dir", "out", "--test-suite", "0", "--fail-under", "0", cwd=tmp_path,
                     NABAHAN_USE_CACHE="1")
    assert result.returncode == 0, result.stderr[-3000:]
    assert calls(tmp_path) == 2
    shutil.rmtree(tmp_path / "calls")


@pytest.mark.parametrize(
    ("damaged", "expected"),
    [
        ("home/response_cache.sqlite", "response cache {path}: cannot be read (database disk image is malformed)"),
        ("home/dagster/history/runs.db",
         "the Dagster run database under {home}/dagster cannot be read (database disk image is malformed)"),
    ],
)
def test_a_corrupt_response_cache_or_run_database_is_one_line_before_any_agent_call(
    tmp_path: Path, damaged: str, expected: str
):
    # Each was a traceback: the cache's in the middle of the run, the run database's at its start.
    first_run(tmp_path)
    path = tmp_path / damaged
    path.write_bytes(path.read_bytes()[:3000])
    reports = sorted((tmp_path / "out").iterdir())
    result = nabahan("eval", "--agent", "python:recording_agent:answer", "--test-file", str(tmp_path / "cases.json"),
                     "--output-dir", "out", "--test-suite", "0", cwd=tmp_path, NABAHAN_USE_CACHE="1")
    one_line_exit_2(result, expected.format(path=path, home=tmp_path / "home"))
    assert calls(tmp_path) == 0 and sorted((tmp_path / "out").iterdir()) == reports
