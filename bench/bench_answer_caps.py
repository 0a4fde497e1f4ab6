"""Peak memory of a whole `nabahan eval` with one answer at each cap, over HTTP on loopback.

    python bench/bench_answer_caps.py [--cases 8] [--only bytes_30MiB ...] [--tree DIR]

A loopback server (this process, its own thread) answers every case with a small answer but one,
which is just under a cap: a body of 30 MiB (max_answer_bytes 32 MiB) of text cells (and of row
objects: 80,000 rows of 12 columns, 960,000 values, under the values cap), 100,000 rows
(max_answer_rows) of four numbers, an insight of 20,000 characters, SQL of 100,000 characters; and
over the caps what must be refused before it is parsed: 40 MiB, a million small values, 5,000
nested lists. Each run is its own process; its peak resident memory (``wait4``'s ru_maxrss) is
printed with its ratio to the run whose answers are all small, what it adds to that run's peak in
times the big answer's size (issue 38: at most 8 under the caps), and the answer's status.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MIB = 1 << 20
BIG_QUESTION = "كم عدد المناقصات الكبيرة؟"


def _text_rows(target_bytes: int) -> dict:
    # A dozen columns of 20-character text: a real result's shape, as many rows as fit the bytes.
    columns = [f"c{i}" for i in range(12)]
    row = ["قيمة نصية من عشرين حرفا"[:20]] * 12
    row_bytes = len(json.dumps(row, ensure_ascii=False).encode("utf-8")) + 1
    return {"columns": columns, "rows": [row] * (target_bytes // row_bytes)}


def _data_rows(target_bytes: int) -> dict:
    # The seed's form: row objects, each naming its columns; short values, so many more of them.
    row = {f"column_{i}": i for i in range(12)}
    row_bytes = len(json.dumps(row).encode("utf-8")) + 1
    return {"data": [row] * min(80_000, target_bytes // row_bytes)}


def _number_rows(rows: int, width: int = 4) -> dict:
    return {"columns": [f"n{i}" for i in range(width)], "rows": [[i, i + 1, i + 2, i + 3][:width] for i in range(rows)]}


def _answer(result: dict | None = None, *, sql: str = "SELECT 1 AS one", insights: str = "عدد المناقصات 1") -> dict:
    return {"status": "success", "sql": sql, "insights": insights, **(result or {"columns": ["one"], "rows": [[1]]})}


def big_bodies() -> dict[str, bytes]:
    """Each kind of big answer, by name, as the body the server sends."""
    def body(answer: dict) -> bytes:
        return json.dumps(answer, ensure_ascii=False).encode("utf-8")

    deep = b'{"status":"success","sql":"SELECT 1","insights":"x","columns":["a"],"rows":[[' + b"[" * 5000 + b"]" * 5000 + b"]]}"
    return {
        "small": body(_answer()),
        "bytes_30MiB": body(_answer(_text_rows(30 * MIB))),
        "bytes_30MiB_data": body(_answer(_data_rows(30 * MIB))),
        "rows_100k": body(_answer(_number_rows(100_000))),
        "insight_20k": body(_answer(insights="عدد المناقصات 1 " + "ن" * 19_000)),
        "sql_100k": body(_answer(sql="SELECT 1 AS one" + " " * 99_000)),
        "over_bytes_40MiB": body(_answer(_text_rows(40 * MIB))),
        "over_values_1M": body(_answer(_number_rows(100_000, 1) | {"rows": [[0] * 12] * 90_000, "columns": [f"n{i}" for i in range(12)]})),
        "over_depth_5000": deep,
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    big = b""
    small = b""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", 0))
        question = json.loads(self.rfile.read(length))["question"]
        body = self.server.big if question == BIG_QUESTION else self.server.small
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except ConnectionError:  # refused by its length, unread: as it should be
            pass

    def log_message(self, *args: object) -> None:
        pass


def _cases(path: Path, n: int) -> Path:
    cases = [{"question": BIG_QUESTION, "category": "count", "expected_table": "tenders_full_details"}]
    cases += [{"question": f"كم عدد المناقصات {i}؟", "category": "count", "expected_table": "tenders_full_details"}
              for i in range(n - 1)]
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    return path


def one_run(server: _Server, big: bytes, folder: Path, cases: Path, tree: Path = REPO) -> tuple[float, float, str, int]:
    """One `nabahan eval` in its own process: (peak MiB, wall s, the big answer's status and error, exit code)."""
    server.big = big
    out = folder / "out"
    env = {**os.environ, "NABAHAN_HOME": str(folder / "home"), "PYTHONPATH": str(tree)}
    env.pop("DAGSTER_HOME", None)
    args = [sys.executable, "-m", "nabahan_pipeline", "eval", "--agent", f"http://127.0.0.1:{server.server_port}/ask",
            "--test-file", str(cases), "--output-dir", str(out),]
    start = time.perf_counter()
    with open(folder / "stdout.txt", "w") as stdout, open(folder / "stderr.txt", "w") as stderr:
        process = subprocess.Popen(args, cwd=folder, env=env, stdout=stdout, stderr=stderr)
        _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    verdict = "no report"
    reports = sorted(out.glob("evaluation_results_*.csv"))
    if reports:
        import pandas as pd

        results = pd.read_csv(reports[-1], encoding="utf-8-sig")
        row = results[results["Question"] == BIG_QUESTION].iloc[0] if "Question" in results else results.iloc[0]
        error = str(row.get("Error", "") or "")
        verdict = f"{row.get('Status', '?')}" + (f": {error[:90]}" if error and error != "nan" else "")
    return usage.ru_maxrss / 1024, wall, verdict, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=8)
    parser.add_argument("--only", nargs="*", default=None, help="names of the answers to run (default: all)")
    parser.add_argument("--tree", type=Path, default=REPO, help="the tree of the code to run (default: this one)")
    args = parser.parse_args()
    bodies = big_bodies()
    names = ["small", *(name for name in bodies if name != "small" and (not args.only or name in args.only))]
    server = _Server(("127.0.0.1", 0), _Handler)
    server.small = bodies["small"]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cases = _cases(Path(tmp) / "cases.json", args.cases)
            # "over / body": what the big answer adds to the peak of the small run, in times its own
            # size (issue 38 asks at most 8 for an answer under the caps).
            print(f"{'answer':<18}{'body MiB':>10}{'peak MiB':>10}{'x small':>9}{'over/body':>10}{'wall s':>8}"
                  f"{'exit':>6}  the big answer")
            base = None
            for name in names:
                folder = Path(tmp) / name
                folder.mkdir()
                peak, wall, verdict, code = one_run(server, bodies[name], folder, cases, args.tree)
                base = base or peak
                size = len(bodies[name]) / MIB
                over = (peak - base) / size if name != "small" else float("nan")
                print(f"{name:<18}{size:>10.2f}{peak:>10.0f}{peak / base:>9.2f}{over:>10.1f}{wall:>8.1f}{code:>6}  "
                      f"{verdict}", flush=True)
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
