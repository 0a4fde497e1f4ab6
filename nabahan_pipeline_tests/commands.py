"""Running our commands as a user types them, in a private home, with the test agents importable;
whether a process they started has ended."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nabahan_pipeline.settings import ENVIRONMENT_VARIABLES

REPO = Path(__file__).resolve().parents[1]


def environment(cwd: Path, **env: str) -> dict[str, str]:
    """Our commands' environment in ``cwd``: no setting inherited from the shell but the session's
    database cache (conftest), the state in ``cwd/home``, the test agents importable; ``env`` wins."""
    inherited = {key: value for key, value in os.environ.items()
                 if key not in ENVIRONMENT_VARIABLES or key == "NABAHAN_CACHE_DIR"}
    return {**inherited, "NABAHAN_HOME": str(cwd / "home"), "PYTHONPATH": str(REPO), **env}


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=environment(cwd, **env), capture_output=True, text=True, timeout=300)


def nabahan(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "nabahan_pipeline", *args], cwd, **env)


def cases_file(path: Path, n: int = 3) -> Path:
    cases = [
        {"question": f"كم عدد المناقصات {i}؟", "category": "count", "expected_table": "tenders_full_details"}
        for i in range(n)
    ]
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def gone(pid: int, within_s: float = 10.0) -> bool:
    """Whether process ``pid`` ends within ``within_s`` (a zombie, dead but not yet reaped by
    whoever inherited it, counts as ended)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.1)
    return False


def nabahan_here(*args: str, cwd: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 **env: str) -> subprocess.CompletedProcess:
    """`nabahan ARGS` run in this process (``cli.main``) as ``nabahan`` runs it in a process of its
    own: in ``cwd``, in ``environment(cwd, **env)``; its exit code and what it printed, as a
    CompletedProcess. For commands whose process has nothing to show (the console script and the
    process's end have tests of their own): it saves the ~3 s of imports a new interpreter pays."""
    from nabahan_pipeline.cli import main

    wanted = environment(cwd, **env)
    for key in [key for key in os.environ if key not in wanted]:
        monkeypatch.delenv(key)
    for key, value in wanted.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(cwd)
    capsys.readouterr()
    code = main(list(args))
    printed = capsys.readouterr()
    return subprocess.CompletedProcess(["nabahan", *args], code, printed.out, printed.err)
