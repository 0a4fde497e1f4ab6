"""A run's progress told to its ``progress`` resource, a ``Watcher`` (the API's caller's, else
``silent``): ``asking`` (``cases``, ``answers``), ``answer`` (``case`` with its 1-based ``number``,
``row``, ``scores`` or None), ``stage`` (``name``), ``written`` (``files``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

Watcher = Callable[[str, Mapping[str, Any]], None]


def silent(event: str, data: Mapping[str, Any]) -> None:
    """A run nobody watches in this process."""


def one_at_a_time(watcher: Watcher) -> Watcher:
    """``watcher`` told one event at a time (answers arrive on the runner's threads)."""
    lock = threading.Lock()

    def told(event: str, data: Mapping[str, Any]) -> None:
        with lock:
            watcher(event, data)

    return told
