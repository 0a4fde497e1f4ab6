"""ReaderMayLeave: a closed pipe ends the output, not the command."""

from __future__ import annotations

import io
import os

from nabahan_pipeline.reader_may_leave import ReaderMayLeave


def test_writes_after_the_reader_left_are_dropped_and_the_descriptor_goes_to_devnull() -> None:
    read_end, write_end = os.pipe()
    stream = ReaderMayLeave(open(write_end, "w", encoding="utf-8", buffering=1))
    stream.write("first\n")
    assert os.read(read_end, 100) == b"first\n"
    os.close(read_end)  # the reader leaves (`head` exits)
    assert stream.write("second\n") == len("second\n")
    stream.flush()
    assert not stream.isatty()
    assert os.path.realpath(f"/proc/self/fd/{stream.fileno()}") == os.devnull
    stream.write("third\n")
    stream.close()  # the buffer goes to the null device: no BrokenPipeError at exit


def test_a_stream_without_a_descriptor_is_written_as_is() -> None:
    buffer = io.StringIO()
    stream = ReaderMayLeave(buffer)
    stream.write("text")
    stream.flush()
    assert buffer.getvalue() == "text" and not stream.isatty()
