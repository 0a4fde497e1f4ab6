"""A run's progress, told to whoever watches it in this process (the console of `nabahan eval`).

The assets publish what happens (``publish("answer", case=..., row=...)``); a watcher registered
with ``watching`` hears it as it happens, from whichever thread it happened on. With no watcher
(the Dagster UI, `dagster asset materialize`) publishing costs nothing.

Events: ``asking`` (``cases``, ``answers``: how many calls are coming), ``answer`` (``case``: the
case's record with its 1-based ``number``; ``row``: the agent_responses row), ``stage`` (``name``:
scoring, writing reports, drawing charts), ``written`` (``files``: name -> path of each file just
switched into place).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

Watcher = Callable[[str, Mapping[str, Any]], None]

# Process-wide, safe in a long-lived process: a watcher is here only while its ``watching`` block runs.
_watchers: list[Watcher] = []
_lock = threading.Lock()


@contextmanager
def watching(watcher: Watcher) -> Iterator[None]:
    """Tell ``watcher`` every event published while the block runs."""
    with _lock:
        _watchers.append(watcher)
    try:
        yield
    finally:
        with _lock:
            _watchers.remove(watcher)


def publish(event: str, **data: Any) -> None:
    """Tell the watchers that ``event`` happened; one event at a time, so their output never interleaves."""
    with _lock:
        for watcher in list(_watchers):
            watcher(event, data)
