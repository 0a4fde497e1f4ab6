"""The run's stdout and stderr captured for the Dagster UI, mirrored to the terminal by a thread of
this process.

Dagster's local compute log manager sends a run's standard streams into files (the UI's stdout and
stderr of the run) and mirrors each file back to the terminal with a ``tail -F`` process, watched
by a Python interpreter of its own in case this process dies: four processes a run, and 0.06 to
0.1 s of a 20-case run spent starting and stopping them. ``MirroredComputeLogManager`` writes the
same files in the same places, so `dagster dev` shows them as its own: each stream goes into a pipe
that a thread copies to the file and to where the stream went before. Where a stream is not a file
descriptor (a notebook), Dagster's own capture is used.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import IO, Sequence

from dagster._core.storage.compute_log_manager import CapturedLogContext, ComputeIOType
from dagster._core.storage.local_compute_log_manager import IO_TYPE_EXTENSION, LocalComputeLogManager
from dagster._serdes import ConfigurableClassData
from dagster._utils import ensure_file, touch_file

from nabahan_pipeline.evaluation.charts.worker import fork_safe

# How long the end of a capture waits for its copy to drain. A process started during the run that
# still holds the stream (a server the agent left behind) keeps the pipe open: its copy then goes
# on in the background, as long as that process writes.
DRAIN_TIMEOUT_S = 1.0

_DEFAULT_MANAGER = ("dagster._core.storage.local_compute_log_manager", "LocalComputeLogManager")


class MirroredComputeLogManager(LocalComputeLogManager):
    """Dagster's local compute logs (the same files), mirrored to the terminal without ``tail``."""

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value: dict) -> MirroredComputeLogManager:
        return cls(inst_data=inst_data, **config_value)

    @contextmanager
    def capture_logs(self, log_key: Sequence[str]) -> Iterator[CapturedLogContext]:
        streams = (sys.stdout, sys.stderr)
        if not all(_descriptor(stream) is not None for stream in streams):
            with super().capture_logs(log_key) as context:
                yield context
            return
        paths = [self.get_captured_local_path(log_key, IO_TYPE_EXTENSION[kind])
                 for kind in (ComputeIOType.STDOUT, ComputeIOType.STDERR)]
        with ExitStack() as stack:
            for stream, path in zip(streams, paths):
                stack.enter_context(mirrored(stream, path))
            yield CapturedLogContext(log_key)
        touch_file(self.complete_artifact_path(log_key))  # what tells Dagster the capture is over


def compute_logs_data(data: ConfigurableClassData | None) -> ConfigurableClassData | None:
    """``data`` (an instance's compute log manager) as ours when it is Dagster's default local one;
    any other (configured, such as cloud storage, or none) as it is."""
    if data is None or (data.module_name, data.class_name) != _DEFAULT_MANAGER:
        return data
    return ConfigurableClassData(__name__, MirroredComputeLogManager.__name__, data.config_yaml)


@contextmanager
def mirrored(stream: IO, path: str) -> Iterator[None]:
    """While held, what is written to ``stream``'s file descriptor (by Python, C code or a child
    process) is appended to the file at ``path`` and still reaches where it went before."""
    descriptor = _descriptor(stream)
    assert descriptor is not None
    ensure_file(path)
    stream.flush()
    original = os.dup(descriptor)
    reading, writing = os.pipe()
    os.dup2(writing, descriptor)
    os.close(writing)
    copier = fork_safe(threading.Thread(target=_copy, args=(reading, path, original), name="nabahan-compute-log",
                                        daemon=True))
    copier.start()
    try:
        yield
    finally:
        try:
            stream.flush()
        finally:
            os.dup2(original, descriptor)  # the pipe's last writer of ours closed: the copy drains
            copier.join(DRAIN_TIMEOUT_S)
            if not copier.is_alive():
                os.close(reading)
                os.close(original)


def _copy(reading: int, path: str, original: int) -> None:
    with open(path, "ab", buffering=0) as log:
        while data := os.read(reading, 1 << 16):
            log.write(data)
            _write_all(original, data)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(descriptor, view):]
        except OSError:  # the terminal is gone (a closed pipe): the log file still has it all
            return


def _descriptor(stream: IO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None
