"""`nabahan eval` that stops, mid-way, at a chosen moment, for tests that SIGKILL it there.

    python -m nabahan_pipeline_tests.killable_run PHASE MARKER -- nabahan eval args...

PHASE is where the run stops: ``agent`` (inside an agent call), ``parquet`` (half-way through
writing case_scores' Parquet file), ``report`` (half-way through writing the results CSV) or
``charts`` (as the run writes its first chart, before it switches the set into place). There the process
writes MARKER and sleeps until it is killed. Nothing in the product is changed for this: the patches live here.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pandas as pd

PHASES = ("agent", "parquet", "report", "charts")


def _stop_here(marker: Path) -> None:
    marker.write_text("stopped", encoding="utf-8")
    while True:
        time.sleep(60)


def stopping_agent(question: str, filters: dict | None = None) -> dict:
    """An agent that stops the run in its first call (the marker path in $KILLABLE_MARKER)."""
    import os

    _stop_here(Path(os.environ["KILLABLE_MARKER"]))
    raise AssertionError("unreachable")


def _patch(phase: str, marker: Path) -> None:
    if phase == "parquet":
        original = pd.DataFrame.to_parquet

        def to_parquet(self, path, *args, **kwargs):
            if "correct" not in self.columns:
                return original(self, path, *args, **kwargs)
            original(self, path, *args, **kwargs)
            size = Path(path).stat().st_size
            with open(path, "r+b") as handle:  # half a file, as a kill mid-write leaves it
                handle.truncate(size // 2)
            _stop_here(marker)

        pd.DataFrame.to_parquet = to_parquet
    elif phase == "report":
        original_csv = pd.DataFrame.to_csv

        def to_csv(self, handle, *args, **kwargs):
            if "Question" not in self.columns:
                return original_csv(self, handle, *args, **kwargs)
            text = original_csv(self, None, *args, **kwargs)  # the whole report, as text
            handle.write(text[: len(text) // 2])
            handle.flush()
            _stop_here(marker)

        pd.DataFrame.to_csv = to_csv
    elif phase == "charts":
        from nabahan_pipeline.evaluation.charts import render

        original_save_figure = render.save_figure

        def save_figure(*args, **kwargs):
            _stop_here(marker)
            return original_save_figure(*args, **kwargs)

        render.save_figure = save_figure


def main(argv: list[str]) -> int:
    phase, marker, separator, *rest = argv
    if phase not in PHASES or separator != "--":
        raise SystemExit(f"usage: killable_run {{{','.join(PHASES)}}} MARKER -- nabahan args")
    _patch(phase, Path(marker))
    from nabahan_pipeline.cli import main as nabahan

    return nabahan(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
