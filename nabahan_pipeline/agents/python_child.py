"""What runs in a ``python:`` agent's child process: the agent imported and checked, then each
question asked on a thread of its own, each answer sent back as JSON.

    python -c BOOTSTRAP ROOT REQUESTS_FD ANSWERS_FD LIFELINE_FD

Frame 0 names the spec, the parent's import path and the agent's folders; the child answers it with
the module's file or the one-line error of an agent that cannot be loaded. A watchdog thread reads
the lifeline, a pipe only the pipeline holds open, and at its end of file (the pipeline died, even
by SIGKILL) ends this process's group: Python has no public route to Linux's parent-death signal.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

from nabahan_pipeline.agents.contract import json_safe
from nabahan_pipeline.agents.frames import frame, parse, read_frame

# A request is a question and its filters: far less than this.
MAX_REQUEST_BYTES = 64 * 1024 * 1024


def main(requests_fd: int, answers_fd: int, lifeline_fd: int) -> None:
    """Serve the agent over the two pipes until the requests end; die with the pipeline."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the pipeline's; it ends this process
    threading.Thread(target=_watchdog, args=(lifeline_fd,), name="nabahan-lifeline", daemon=True).start()
    requests = os.fdopen(requests_fd, "rb")
    answers = os.fdopen(answers_fd, "wb")
    lock = threading.Lock()

    def send(number: int, message: dict, default: Any = None) -> None:
        data = frame(number, message, default)  # made before the lock: a large answer holds up no other
        with lock:
            answers.write(data)
            answers.flush()

    first = read_frame(requests, MAX_REQUEST_BYTES)
    if first is None:
        return
    agent = _load(first[1], send)
    if agent is None:
        return
    while (request := read_frame(requests, MAX_REQUEST_BYTES)) is not None:
        number, payload = request
        threading.Thread(target=_answer, args=(agent, number, payload, send), daemon=True).start()
    # The requests often end a moment before the lifeline: returning would end this interpreter
    # before the watchdog ends the group, and what the agent started would outlive the run.
    _end_group()


def _watchdog(lifeline_fd: int) -> None:
    """Block on the lifeline; at its end (the pipeline closed it, or died) end this process's group."""
    try:
        while os.read(lifeline_fd, 1):
            pass
    except OSError:
        pass
    _end_group()


def _end_group() -> None:
    """End this process's group (this process and all the agent started), what it printed flushed."""
    for stream in (sys.stdout, sys.stderr):  # what the agent printed, for the pipeline's relay
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    # This process leads a session of its own: the group is ours alone, never another's.
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpgrp(), signal.SIGKILL)


def _load(payload: Any, send: Any) -> Any:
    """The agent the first request names, its module's file sent back; None (the error sent) when it cannot load."""
    from nabahan_pipeline.agents.python_callable import PythonCallableAgent
    from nabahan_pipeline.errors import AgentSpecError

    start = parse(payload)
    sys.path[:] = [entry for entry in start["path"] if isinstance(entry, str)]
    try:
        agent = PythonCallableAgent(start["spec"], folders=[entry for entry in start.get("folders", [])
                                                            if isinstance(entry, str)])
    except AgentSpecError as exc:
        send(0, {"error": str(exc)})
        return None
    send(0, {"module_file": agent.module_file})
    return agent


def _answer(agent: Any, number: int, payload: bytes, send: Any) -> None:
    try:
        request = parse(payload)
        answer = agent.ask(request["question"], request["filters"])
    except BaseException as exc:  # the agent's failure is an answer, even SystemExit
        send(number, {"raised": f"{type(exc).__name__}: {exc}"})
        return
    try:
        send(number, {"answer": answer}, json_safe)
    except RecursionError:  # json's encoder recurses once per level of the answer
        send(number, {"unsendable": "it nests too deep to be encoded"})
    except (TypeError, ValueError) as exc:
        send(number, {"unsendable": f"{type(exc).__name__}: {exc}"})
