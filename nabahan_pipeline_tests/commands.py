"""Running our commands as a user types them, in a private home, with the test agents importable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NABAHAN_HOME": str(cwd / "home"), "PYTHONPATH": str(REPO), **env}
    environment.pop("DAGSTER_HOME", None)
    environment.pop("NABAHAN_AGENT", None)
    return subprocess.run(args, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)


def nabahan(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "nabahan_pipeline", *args], cwd, **env)


def cases_file(path: Path, n: int = 3) -> Path:
    cases = [
        {"question": f"كم عدد المناقصات {i}؟", "category": "count", "expected_table": "tenders_full_details"}
        for i in range(n)
    ]
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path
