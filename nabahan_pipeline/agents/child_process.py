"""A ``python:`` agent in a child process of its own (the default; ``--in-process`` is the other way).

The child is a fresh interpreter (``subprocess``: spawned, never a fork of this process), so the
agent cannot end, hang, move (``os.chdir``) or rewrite (a scoring function rebound) the judge.
Questions go to it and answers come back as frames (``frames``) on two pipes of their own; what
comes back is untrusted: measured against ``max_answer_bytes`` before it is read, its depth
counted before it is parsed, parsed as JSON alone. The agent's own stdout and stderr reach our
stderr line by line through the secret scrubber.

A child that exits (``os._exit``, a crash) turns the calls in it into error rows saying so, and the
next call starts a new child: one question that kills the agent costs that question, not the run
(every error row counts against the agent's rates). A call is waited for a little past the run's
time limit (the runner has made it an error row by then), so no thread of ours stays in it; at the
run's end, or on Ctrl-C, ``close`` ends the child (its requests closed, then terminate, then kill),
whatever threads the agent left running there.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any, BinaryIO

from nabahan_pipeline.agents.contract import Agent, AgentOptions
from nabahan_pipeline.agents.frames import FrameError, Oversized, frame, parse, read_frame, too_deep
from nabahan_pipeline.agents.python_callable import PythonCallableAgent, parse_python_spec, python_fingerprint
from nabahan_pipeline.agents.secrets import scrub
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.settings import PACKAGE_DIR, SETTINGS

# The child imports this package from where this process did, then takes our import path.
_ROOT = str(PACKAGE_DIR.parent)
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from nabahan_pipeline.agents.python_child import main; main(int(sys.argv[2]), int(sys.argv[3]))"
)
# How long past its time limit a call is waited for (the runner has given up on it already).
_GRACE_S = 1.0
# How long the child is given to leave on its own, then after terminate, before it is killed.
_END_WAIT_S = 1.0
# One line of the agent's output relayed at most this long (a longer one is relayed in pieces).
_MAX_LINE = 64 * 1024


class ChildProcessAgent(Agent):
    """The callable of ``python:package.module:function`` called in a child process; the child is
    started (and the callable checked there, its module looked for in ``folders`` too) when this is made."""

    def __init__(
        self, spec: str, agent_version: str | None = None, *, timeout_s: float = 30.0,
        max_answer_bytes: int = SETTINGS["max_answer_bytes"].default, folders: Sequence[str] = (),
    ) -> None:
        self.spec = spec
        self._module_name, _ = parse_python_spec(spec)
        self._agent_version = agent_version
        self._wait_s = timeout_s + _GRACE_S
        self._max_answer_bytes = max_answer_bytes
        self._lock = threading.Lock()
        self._closed = False
        self._folders = list(folders)
        self._child = _Child(spec, max_answer_bytes, self._folders)
        self._module_file = self._child.module_file

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """The agent's answer from its child, or an error answer saying why there is none."""
        with self._lock:
            if self._closed:
                return _failure("the run has ended the agent's process")
            if not self._child.alive:
                self._child = _Child(self.spec, self._max_answer_bytes, self._folders)
            child = self._child
        return child.ask(question, filters, self._wait_s)

    def fingerprint(self) -> str:
        """Spec plus the source hash of the package (or folder) the callable's module is loaded from."""
        return python_fingerprint(self.spec, self._module_name, self._module_file, self._agent_version)

    def close(self) -> None:
        """End the child, and with it every call and thread of the agent."""
        with self._lock:
            self._closed = True
            child = self._child
        child.end()


class _Pending:
    """A call sent to the child, waiting for its answer."""

    __slots__ = ("done", "outcome")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.outcome: bytes | Oversized | str | None = None  # the frame, or why there is none


class _Child:
    """One child process: its pipes, the calls in it, a thread reading its answers and one
    relaying its output."""

    def __init__(self, spec: str, max_answer_bytes: int, folders: list[str]) -> None:
        self._max_bytes = max_answer_bytes
        self._pending: dict[int, _Pending] = {0: _Pending()}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()  # apart: a write held up by a full pipe holds up no answer
        self._ended = False
        self.alive = True
        requests_read, self._requests_fd = os.pipe()
        answers_fd, answers_write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP, _ROOT, str(requests_read), str(answers_write)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                pass_fds=(requests_read, answers_write), start_new_session=True,
            )
        finally:
            os.close(requests_read)
            os.close(answers_write)
        self._requests = os.fdopen(self._requests_fd, "wb")
        self._answers = os.fdopen(answers_fd, "rb")
        self._reader = threading.Thread(target=self._read_answers, name="nabahan-agent-answers", daemon=True)
        self._relay = threading.Thread(target=_relay, args=(self._process.stdout,), name="nabahan-agent-output",
                                       daemon=True)
        self._reader.start()
        self._relay.start()
        try:
            self.module_file = self._start(spec, folders)
        except BaseException:  # a bad spec, or Ctrl-C while the agent's module imports: no child left
            self.end()
            raise

    def _start(self, spec: str, folders: list[str]) -> str | None:
        """Send the spec, our import path and the agent's folders; the module's file, once the child
        has loaded the callable; AgentSpecError (scrubbed) when it could not."""
        first = self._pending[0]
        try:
            self._send(0, {"spec": spec, "path": sys.path, "folders": folders})
        except OSError:  # it died starting: the reader says so
            pass
        first.done.wait()
        reply = self._decode(first.outcome)
        if isinstance(reply, str):
            raise AgentSpecError(f"agent spec {spec!r}: {reply}")
        if "error" in reply:
            raise AgentSpecError(scrub(str(reply["error"])))
        module_file = reply.get("module_file")
        return module_file if isinstance(module_file, str) else None

    def ask(self, question: str, filters: dict | None, wait_s: float) -> Any:
        number = next(self._numbers)
        pending = _Pending()
        with self._lock:
            if not self.alive:
                return _failure("the agent's process had exited before this call")
            self._pending[number] = pending
        try:
            self._send(number, {"question": question, "filters": filters})
        except (OSError, ValueError):  # the child is gone (or being ended): the call is failed with the reason
            pass
        if not pending.done.wait(wait_s):
            with self._lock:
                self._pending.pop(number, None)
            raise TimeoutError(f"no answer within {wait_s:g} s")
        reply = self._decode(pending.outcome)
        if isinstance(reply, str):
            return _failure(reply)
        if "answer" in reply:
            return reply["answer"]
        if "raised" in reply:
            return _failure(str(reply["raised"]))
        return _failure(f"malformed answer: the rows are not JSON-serializable ({reply.get('unsendable')})")

    def _send(self, number: int, message: dict) -> None:
        data = frame(number, message)
        with self._write_lock:
            self._requests.write(data)
            self._requests.flush()

    def _decode(self, outcome: bytes | Oversized | str | None) -> dict | str:
        """A reply frame as its JSON object, or the text of what was wrong with it."""
        if isinstance(outcome, str):
            return outcome
        if isinstance(outcome, Oversized):
            return f"answer over the cap: {outcome.size:,} bytes > max_answer_bytes {self._max_bytes:,}"
        if outcome is None:
            return "no answer from the agent's process"
        if too_deep(outcome):
            return "malformed answer: nested deeper than the pipeline reads"
        try:
            reply = parse(outcome)
        except (ValueError, RecursionError) as exc:
            return f"malformed answer: not JSON ({type(exc).__name__})"
        return reply if isinstance(reply, dict) else "malformed answer: not a reply of the agent's process"

    def _read_answers(self) -> None:
        """Hand each answer to its call; when the answers end (the child exited, or sent what is not
        a frame), fail every call still in it and end it."""
        why = None
        try:
            while (reply := read_frame(self._answers, self._max_bytes)) is not None:
                number, outcome = reply
                with self._lock:
                    pending = self._pending.pop(number, None)
                if pending is not None:
                    pending.outcome = outcome
                    pending.done.set()
        except FrameError as exc:
            why = f"the agent's process broke the protocol ({exc})"
        except OSError:
            why = "the agent's process could not be read"
        finally:
            self._answers.close()
        with self._lock:
            self.alive = False
            ended = self._ended
        if why is None:
            code = self._process.poll()
            if code is None:
                try:
                    code = self._process.wait(_END_WAIT_S)
                except subprocess.TimeoutExpired:
                    code = None
            why = ("the run ended the agent's process during this call" if ended
                   else f"the agent's process exited (code {code}) during this call")
        self._fail_all(why)
        if not ended:
            self.end()

    def _fail_all(self, why: str) -> None:
        with self._lock:
            pending, self._pending = list(self._pending.values()), {}
        for call in pending:
            call.outcome = why
            call.done.set()

    def end(self) -> None:
        """Close its requests (it leaves on its own), then terminate it, then kill it; every call
        still in it fails. Safe to call again."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            self.alive = False
        try:
            self._requests.close()
        except OSError:
            pass
        process = self._process
        for stop in (None, process.terminate, process.kill):
            if stop is not None:
                stop()
            try:
                process.wait(_END_WAIT_S)
                break
            except subprocess.TimeoutExpired:
                continue
        self._fail_all("the run ended the agent's process during this call")
        if threading.current_thread() is not self._reader:
            self._reader.join(_END_WAIT_S)
        self._relay.join(_END_WAIT_S)


def _relay(stream: BinaryIO) -> None:
    """The agent's stdout and stderr, a line at a time, scrubbed of secrets, onto our stderr."""
    try:
        while line := stream.readline(_MAX_LINE):
            sys.stderr.write(scrub(line.decode("utf-8", "replace")))
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    finally:
        stream.close()


def _failure(message: str) -> dict:
    """The contract's ``error`` answer carrying ``message``."""
    return {"status": "error", "sql": None, "data": [], "insights": "", "error": message}


def build(options: AgentOptions) -> Agent:
    """A ``python:`` agent: in a spawned child process, or with ``in_process`` called in this one,
    which then can spoil the verdicts (said on stderr)."""
    if options.in_process:
        print(f"nabahan: {options.spec} runs in this process (--in-process): the verdicts are then the "
              "agent's to spoil", file=sys.stderr)
        return PythonCallableAgent(options.spec, agent_version=options.agent_version, folders=options.folders)
    return ChildProcessAgent(options.spec, agent_version=options.agent_version, timeout_s=options.timeout_s,
                             folders=options.folders,
                             **({"max_answer_bytes": options.max_answer_bytes} if options.max_answer_bytes else {}))
