"""The threads agent calls run on, reused from call to call.

A call runs off the runner's own thread so that the runner can give up on it at its time limit: a
hung agent then costs one thread, not the run. Starting a thread for every call cost as much CPU as
the rest of the runner's work on an answer, and gave an agent that keeps a connection per thread (the
embedded agent does) a new connection for every call; so a thread whose call finished in time waits
for the next call, and one whose call was given up on ends when that call returns.

Two ways to hand calls to them: ``start_call`` gives one call to a waiting thread (``call_agent``);
a ``CallFeed`` (the runner's) is a queue of calls that its own threads take from, each the moment
its last call is done, so that between two calls of a slot no other thread has to run (and win the
GIL) first: at 64 calls in flight the hand-back to the runner's thread and the hand-out again cost
each slot about a millisecond a call, the agent-phase efficiency lost at the top.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

# Threads kept waiting for a call, and how long one waits before it ends.
MAX_IDLE_THREADS = 64
IDLE_SECONDS = 10.0

_idle: list[_CallThread] = []
_idle_lock = threading.Lock()


class Call:
    """One call on a call thread: once ``done``, its ``value`` or ``error`` and the seconds it took."""

    def __init__(self, function: Callable[[], Any], on_done: Callable[[], None] | None = None) -> None:
        self.function = function
        self.on_done = on_done
        self.value: Any = None
        self.error: BaseException | None = None
        self.latency_s = 0.0
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._finished = False
        self._given_up = False
        self.started = 0.0  # perf_counter() when a feed's thread took it

    def wait(self, timeout_s: float) -> bool:
        """Wait at most ``timeout_s`` seconds; True once the call is done."""
        return self._done.wait(timeout_s)

    def give_up(self) -> bool:
        """Stop waiting for the call: True when it is still running (its thread then ends when it
        returns, and its outcome is dropped); False when it has finished (its outcome stands)."""
        with self._lock:
            if self._finished:
                return False
            self._given_up = True
            return True

    def _run(self) -> bool:
        """Make the call; True when its thread may take another."""
        start = time.perf_counter()
        try:
            self.value = self.function()
        except BaseException as exc:  # an agent's failure is data, never the run's
            self.error = exc
        finally:
            self.latency_s = time.perf_counter() - start
        with self._lock:
            self._finished = True
            return not self._given_up


def start_call(function: Callable[[], Any], on_done: Callable[[], None] | None = None) -> Call:
    """Run ``function()`` on a waiting call thread (a new one when none waits) and return the call;
    ``on_done()`` is called on that thread once the call is done (given up on or not)."""
    call = Call(function, on_done)
    with _idle_lock:
        thread = _idle.pop() if _idle else None
    if thread is None:
        thread = _CallThread()
    thread.inbox.put(call)
    return call


def end_idle_threads(timeout_s: float = 1.0) -> None:
    """End the call threads waiting for a call, and wait (at most ``timeout_s``) until they have:
    a run that is done leaves no thread behind (a process with threads can not safely fork,
    and the charts' drawing forks). Threads still in a call given up on end when it returns."""
    with _idle_lock:
        ending = _idle[:]
        _idle.clear()
    for thread in ending:
        thread.inbox.put(None)
    deadline = time.monotonic() + timeout_s
    for thread in ending:
        thread.thread.join(max(0.0, deadline - time.monotonic()))


class _CallThread:
    """A daemon thread that makes one call after another."""

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="nabahan-agent-call", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                call = self.inbox.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with _idle_lock:
                    if self in _idle:  # nobody took it meanwhile: end
                        _idle.remove(self)
                        return
                continue  # taken a moment ago: its call is on the way
            if call is None:  # told to end (end_idle_threads)
                return
            reusable = call._run()
            if reusable:
                with _idle_lock:  # waiting again before the caller hears of the outcome
                    reusable = len(_idle) < MAX_IDLE_THREADS
                    if reusable:
                        _idle.append(self)
            call._done.set()
            if call.on_done is not None:
                call.on_done()
            if not reusable:
                return


class CallFeed:
    """Calls queued for a set of threads of their own (``add_thread``), each of which takes the next
    queued call as soon as its last one is done; the number of each call done (not given up on) goes
    to ``done``. Calls start in the order queued, and ``oldest`` is the running call started first:
    the first to reach its time limit. A thread whose call is given up on takes no other and ends
    when that call returns; ``close`` ends the others."""

    def __init__(self) -> None:
        self.done: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._ready = threading.Condition(threading.Lock())
        self._queued: deque[tuple[int, Callable[[], Any]]] = deque()
        self._running: dict[int, tuple[Call, threading.Thread]] = {}  # in the order started
        self._threads: set[threading.Thread] = set()  # not those left in a call given up on
        self._waiting = 0  # threads waiting for a call
        self._closed = False

    @property
    def threads(self) -> int:
        """The threads that take calls (not those left in a call given up on)."""
        return len(self._threads)

    def pending(self) -> int:
        """Calls queued or running."""
        return len(self._queued) + len(self._running)

    def put(self, number: int, function: Callable[[], Any]) -> None:
        """Queue ``function()`` as call ``number``."""
        with self._ready:
            self._queued.append((number, function))
            if self._waiting:
                self._ready.notify()

    def add_thread(self) -> None:
        """One more thread taking calls."""
        thread = threading.Thread(target=self._serve, name="nabahan-agent-call", daemon=True)
        self._threads.add(thread)
        thread.start()

    def oldest(self) -> tuple[int, Call] | None:
        """The running call started first, with its number; None when none runs."""
        with self._ready:
            for number, (call, _) in self._running.items():
                return number, call
            return None

    def finished(self, number: int) -> Call:
        """Call ``number``, done (its number came out of ``done``), no longer running."""
        with self._ready:
            return self._running.pop(number)[0]

    def give_up(self, number: int) -> bool:
        """Stop waiting for running call ``number``: True when it was still running (its thread is
        lost to the feed), False when it has just finished (its number is in ``done``)."""
        with self._ready:
            call, thread = self._running[number]
            if not call.give_up():
                return False
            del self._running[number]
            self._threads.discard(thread)
            return True

    def close(self, wait_s: float = 1.0) -> None:
        """Drop the calls not started, give up on those running, end the threads; wait at most
        ``wait_s`` for those not in a call to end (a process with threads can not safely fork)."""
        with self._ready:
            self._closed = True
            self._queued.clear()
            for call, thread in self._running.values():
                if call.give_up():
                    self._threads.discard(thread)
            self._running.clear()
            self._ready.notify_all()
            threads = list(self._threads)
        deadline = time.monotonic() + wait_s
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _serve(self) -> None:
        ready, queued, running = self._ready, self._queued, self._running
        this = threading.current_thread()
        while True:
            with ready:
                while not queued:
                    if self._closed:
                        return
                    self._waiting += 1
                    ready.wait()
                    self._waiting -= 1
                if self._closed:
                    return
                number, function = queued.popleft()
                call = Call(function)
                call.started = time.perf_counter()  # under the lock: calls start in their deadlines' order
                running[number] = (call, this)
            reusable = call._run()
            call._done.set()
            if not reusable:  # given up on: its outcome is dropped, and this thread ends
                return
            self.done.put(number)
