"""Time the embedded database build at the default size and at 200,000 tenders; print file sizes.

    python bench/bench_database.py [--sizes 20000 200000]
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

from nabahan_pipeline.etimad_db.generator import DEFAULT_TENDERS, build_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[DEFAULT_TENDERS, 200_000])
    args = parser.parse_args()
    print(f"sqlite {sqlite3.sqlite_version}")
    print(f"{'tenders':>9} {'projects':>9} {'build s':>8} {'MB':>7}")
    with tempfile.TemporaryDirectory(prefix="nabahan-bench-") as tmp:
        for tenders in args.sizes:
            out = Path(tmp) / f"bench-{tenders}.sqlite"
            start = time.perf_counter()
            build_database(out, tenders=None if tenders == DEFAULT_TENDERS else tenders)
            elapsed = time.perf_counter() - start
            con = sqlite3.connect(out)
            projects = con.execute("SELECT count(*) FROM future_projects").fetchone()[0]
            con.close()
            print(f"{tenders:>9,} {projects:>9,} {elapsed:>8.2f} {out.stat().st_size / 1e6:>7.1f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
