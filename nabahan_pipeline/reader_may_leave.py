"""Output whose reader may go away: `nabahan eval ... | head -n 5` closes the pipe after five lines,
and the run must still finish its reports and exit with its own code, silently."""

from __future__ import annotations

import os
from typing import Any


class ReaderMayLeave:
    """A text stream whose reader may go (`nabahan eval | head -n 5`): from the first write that
    finds the pipe closed, writes are dropped and the run goes on, with no BrokenPipeError at exit."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        """Write ``text``, or drop it once the reader has gone."""
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        """Flush, unless the reader has gone."""
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def close(self) -> None:
        """Close the stream (what it still holds is dropped once the reader has gone)."""
        try:
            self._stream.close()
        except BrokenPipeError:
            self._reader_gone()
            self._stream.close()

    def isatty(self) -> bool:
        """Whether the stream is a terminal (never once its reader has gone)."""
        return not self._gone and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, errors... as the stream has them
        return getattr(self._stream, name)

    def _reader_gone(self) -> None:
        # The descriptor pointed at the null device: what the buffer holds is flushed there at exit.
        self._gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self._stream.fileno())
            finally:
                os.close(devnull)
        except (OSError, ValueError, AttributeError):  # a stream without a descriptor of its own
            pass
