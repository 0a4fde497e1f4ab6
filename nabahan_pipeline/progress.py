"""A run's progress, told to whoever watches it: the run's ``progress`` resource (a ``Watcher``),
which our entry points set to the console of `nabahan eval` and the code location leaves ``silent``
(the Dagster UI, `dagster asset materialize`: telling costs nothing).

Events: ``asking`` (``cases``, ``answers``: how many calls are coming), ``answer`` (``case``: the
case's record with its 1-based ``number``; ``row``: the agent_responses row; ``scores``: its scores,
the case's, or None when scoring it failed), ``stage`` (``name``:
scoring, writing reports, drawing charts), ``written`` (``files``: name -> path of each file just
switched into place).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

Watcher = Callable[[str, Mapping[str, Any]], None]


def silent(event: str, data: Mapping[str, Any]) -> None:
    """A run nobody watches in this process."""


def one_at_a_time(watcher: Watcher) -> Watcher:
    """``watcher`` told one event at a time (answers arrive on the runner's threads), so that its
    output never interleaves."""
    lock = threading.Lock()

    def told(event: str, data: Mapping[str, Any]) -> None:
        with lock:
            watcher(event, data)

    return told
