"""A ``python:`` agent in a spawned child process of its own (the default; ``--in-process`` is the
other way), so that the agent cannot end, hang, move (``os.chdir``) or rewrite the judge. What
comes back is untrusted: ``frames`` measured before they are read, parsed as JSON alone."""

from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any, BinaryIO

from nabahan_pipeline.agents.contract import Agent, AgentOptions
from nabahan_pipeline.agents.frames import FrameError, Oversized, decoded, frame, parse, read_frame, too_deep
from nabahan_pipeline.agents.python_callable import PythonCallableAgent, parse_python_spec, python_fingerprint
from nabahan_pipeline.agents.secrets import is_secret, scrub, secret_values
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.settings import PACKAGE_DIR, SETTINGS, environment

# The child imports this package from where this process did, then takes our import path.
_ROOT = str(PACKAGE_DIR.parent)
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from nabahan_pipeline.agents.python_child import main; main(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))"
)
# How long past its time limit a call is waited for (the runner has given up on it already).
_GRACE_S = 1.0
# How long the child is given to leave on its own, then after terminate, before it is killed.
_END_WAIT_S = 1.0
# One line of the agent's output relayed at most this long (a longer one is relayed in pieces).
_MAX_LINE = 64 * 1024
# How long after the child's exit its answers pipe is read on, for the answers it sent before it left.
_DRAIN_S = 0.5
# A variable whose name holds one of these words holds a credential: only its own agent reads it.
_CREDENTIAL_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|(^|_)PAT($|_)", re.I)
# Our own state and settings: the agent's process is not the pipeline.
_OURS = ("NABAHAN_", "DAGSTER_")


def child_environment(token_env: str | None, environ: dict[str, str] | None = None) -> dict[str, str]:
    """A ``python:`` agent's child's environment: ``environ`` (default ours) without our settings and
    credentials (by a variable's name, or its value a known secret), but its own ``token_env``."""
    environ = environment() if environ is None else dict(environ)
    secrets = secret_values()
    kept = {name: value for name, value in environ.items()
            if not name.startswith(_OURS) and not _CREDENTIAL_NAME.search(name)
            and not (is_secret(value) and value in secrets)}
    if token_env and token_env in environ:
        kept[token_env] = environ[token_env]
    return kept


class ChildProcessAgent(Agent):
    """``python:package.module:function`` called in a child process, started (and the callable
    checked, its module looked for in ``folders`` too) when this is made."""

    def __init__(
        self, spec: str, agent_version: str | None = None, *, timeout_s: float = 30.0,
        max_answer_bytes: int = SETTINGS["max_answer_bytes"].default, folders: Sequence[str] = (),
        start_timeout_s: float = SETTINGS["agent_start_timeout_s"].default, token_env: str | None = None,
    ) -> None:
        self.spec = spec
        self._module_name, _ = parse_python_spec(spec)
        self._agent_version = agent_version
        self._wait_s = timeout_s + _GRACE_S
        self._start_s = start_timeout_s
        self._max_answer_bytes = max_answer_bytes
        self._lock = threading.Lock()
        self._closed = False
        self._folders = list(folders)
        self._environment = child_environment(token_env)
        self._child = self._new_child()
        try:
            started = self._child.started(self._start_s)
        except BaseException:  # Ctrl-C while the agent's module imports: no child left
            self._child.end()
            raise
        if isinstance(started, str):
            self._child.end()
            raise AgentSpecError(started)
        self._module_file = started.get("module_file")

    def _new_child(self) -> _Child:
        return _Child(self.spec, self._module_name, self._max_answer_bytes, self._folders, self._environment)

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """The agent's answer, or an error answer saying why none (a new child started after one exited)."""
        with self._lock:
            if self._closed:
                return _failure("the run has ended the agent's process")
            if not self._child.alive:
                self._child = self._new_child()
            child = self._child
        started = child.started(self._start_s)
        if isinstance(started, str):
            child.end()
            return _failure(started)
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
    """One child process: its pipes, the calls in it, and threads reading, relaying and watching it."""

    def __init__(self, spec: str, module: str, max_answer_bytes: int, folders: list[str],
                 environment: dict[str, str]) -> None:
        self._spec = spec
        self._module = module
        self._max_bytes = max_answer_bytes
        self._first = _Pending()  # frame 0: the callable loaded, or why not
        self._pending: dict[int, _Pending] = {0: self._first}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()  # apart: a write held up by a full pipe holds up no answer
        self._ended = False
        self._start: dict | str | None = None
        self.alive = True
        requests_read, self._requests_fd = os.pipe()
        answers_fd, answers_write = os.pipe()
        # A pipe nobody writes to: the child reads its end of file when we close ours or die.
        lifeline_read, self._lifeline = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP, _ROOT, str(requests_read), str(answers_write), str(lifeline_read)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                pass_fds=(requests_read, answers_write, lifeline_read), start_new_session=True, env=environment,
            )
        except BaseException:
            os.close(self._requests_fd)
            os.close(answers_fd)
            os.close(self._lifeline)
            raise
        finally:
            os.close(requests_read)
            os.close(answers_write)
            os.close(lifeline_read)
        self._requests = os.fdopen(self._requests_fd, "wb")
        self._answers = os.fdopen(answers_fd, "rb")
        self._reader = threading.Thread(target=self._read_answers, name="nabahan-agent-answers", daemon=True)
        self._relay = threading.Thread(target=_relay, args=(self._process.stdout,), name="nabahan-agent-output",
                                       daemon=True)
        self._watcher = threading.Thread(target=self._watch, name="nabahan-agent-exit", daemon=True)
        self._reader.start()
        self._relay.start()
        self._watcher.start()
        try:
            self._send(0, {"spec": spec, "path": sys.path, "folders": folders})
        except (OSError, ValueError):  # it died starting: the watcher says so
            pass

    def started(self, limit_s: float) -> dict | str:
        """The child's first frame (the module's file) within ``limit_s``, else the one line of why
        not (the agent's own error, scrubbed, or its module still importing)."""
        first = self._first
        if self._start is None:
            if not first.done.wait(limit_s):
                self._start = (f"agent spec {self._spec!r}: its module {self._module!r} did not finish importing "
                               f"within {limit_s:g} s (--agent-start-timeout)")
            else:
                reply = self._decode(first, take=False)  # every caller may read it
                if isinstance(reply, str):
                    self._start = f"agent spec {self._spec!r}: {reply}"
                elif "error" in reply:
                    self._start = scrub(str(reply["error"]))
                else:
                    module_file = reply.get("module_file")
                    self._start = {"module_file": module_file if isinstance(module_file, str) else None}
        return self._start

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
        reply = self._decode(pending)
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

    def _decode(self, pending: _Pending, *, take: bool = True) -> dict | str:
        """A call's reply frame as its JSON object, or what was wrong with it. Taken (``take``), its
        bytes are let go of before its objects are made (never bytes, text and objects at once)."""
        outcome = pending.outcome
        if take:
            pending.outcome = None
        if isinstance(outcome, str):
            return outcome
        if isinstance(outcome, Oversized):
            return f"answer over the cap: {outcome.size:,} bytes > max_answer_bytes {self._max_bytes:,}"
        if outcome is None:
            return "no answer from the agent's process"
        if too_deep(outcome):
            return "malformed answer: nested deeper than the pipeline reads"
        try:
            text = decoded(outcome)
            outcome = None
            reply = parse(text)
        except (ValueError, RecursionError) as exc:
            return f"malformed answer: not JSON ({type(exc).__name__})"
        return reply if isinstance(reply, dict) else "malformed answer: not a reply of the agent's process"

    def _read_answers(self) -> None:
        """Hand each answer to its call. A child that breaks the protocol, or closes its answers but
        lives on, is ended and its calls failed; else the watcher tells the calls why."""
        why = None
        try:
            while (reply := read_frame(self._answers, self._max_bytes)) is not None:
                number, outcome = reply
                with self._lock:
                    pending = self._pending.pop(number, None)
                if pending is not None:
                    pending.outcome = outcome
                    pending.done.set()
                # The call holds the frame now: not this loop too while it waits for the next one.
                reply = outcome = pending = None
        except FrameError as exc:
            why = f"the agent's process broke the protocol ({exc})"
        except (OSError, ValueError):
            why = "the agent's process could not be read"
        finally:
            self._answers.close()
        if why is not None:
            self._fail_all(why)
            self.end()
            return
        try:
            self._process.wait(_END_WAIT_S)
        except subprocess.TimeoutExpired:
            self._fail_all("the agent's process closed its answers")
            self.end()

    def _watch(self) -> None:
        """Wait for the child's exit (the process, not its pipes: a worker it forked may hold them),
        then end what it left in its group and fail every call still in it."""
        code = self._process.wait()
        with self._lock:
            self.alive = False
            ended = self._ended
        self._reader.join(_DRAIN_S)  # the answers it sent before it left
        _end_group(self._process.pid, signal.SIGKILL)
        self._fail_all("the run ended the agent's process during this call" if ended
                       else f"the agent's process exited (code {code}) during this call")
        if not ended:
            self.end()

    def _fail_all(self, why: str) -> None:
        with self._lock:
            pending, self._pending = list(self._pending.values()), {}
        for call in pending:
            call.outcome = why
            call.done.set()

    def end(self) -> None:
        """Close its requests, then its lifeline, then SIGTERM and SIGKILL its group; calls in it fail."""
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
        for stop in (None, self._close_lifeline, signal.SIGTERM, signal.SIGKILL):
            if callable(stop):
                stop()
            elif stop is not None:
                _end_group(process.pid, stop)
            try:
                process.wait(_END_WAIT_S)
                break
            except subprocess.TimeoutExpired:
                continue
        self._close_lifeline()
        _end_group(process.pid, signal.SIGKILL)  # what it started, whatever became of the child
        self._fail_all("the run ended the agent's process during this call")
        current = threading.current_thread()
        for thread in (self._reader, self._watcher):
            if thread is not current:
                thread.join(_END_WAIT_S)
        self._relay.join(_END_WAIT_S)

    def _close_lifeline(self) -> None:
        """Let the child's watchdog end its group (once)."""
        fd, self._lifeline = self._lifeline, -1
        if fd >= 0:
            os.close(fd)


def _end_group(pgid: int, sig: int) -> None:
    """Send ``sig`` to the process group the child leads (it and all it started), if any is left."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


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
    """A ``python:`` agent in a child process, or (``in_process``, said on stderr) in this one."""
    if options.in_process:
        print(f"nabahan: {options.spec} runs in this process (--in-process): the verdicts are then the "
              "agent's to spoil", file=sys.stderr)
        return PythonCallableAgent(options.spec, agent_version=options.agent_version, folders=options.folders)
    return ChildProcessAgent(options.spec, agent_version=options.agent_version, timeout_s=options.timeout_s,
                             folders=options.folders, token_env=options.token_env,
                             **({"max_answer_bytes": options.max_answer_bytes} if options.max_answer_bytes else {}),
                             **({"start_timeout_s": options.start_timeout_s} if options.start_timeout_s else {}))
