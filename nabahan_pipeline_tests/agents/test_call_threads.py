"""The threads agent calls run on: reused while calls finish in time, never after a call given up on."""

from __future__ import annotations

import threading
import time

import pytest

from nabahan_pipeline.agents import call_threads
from nabahan_pipeline.agents.call_threads import start_call


def finished(call: call_threads.Call) -> call_threads.Call:
    assert call.wait(5), "the call finished"
    return call


def test_a_call_gives_its_value_error_and_time() -> None:
    assert finished(start_call(lambda: 42)).value == 42
    failed = finished(start_call(lambda: 1 / 0))
    assert isinstance(failed.error, ZeroDivisionError) and failed.value is None
    stopped = finished(start_call(lambda: (_ for _ in ()).throw(KeyboardInterrupt())))
    assert isinstance(stopped.error, KeyboardInterrupt), "even an interrupt raised by the agent is its outcome"
    slow = finished(start_call(lambda: time.sleep(0.1)))
    assert 0.09 <= slow.latency_s < 1


def test_a_thread_whose_call_finished_takes_the_next() -> None:
    first = finished(start_call(threading.get_ident)).value
    time.sleep(0.01)  # it is waiting again before the outcome is told; the sleep only settles the test
    assert finished(start_call(threading.get_ident)).value == first
    assert not finished(start_call(threading.get_ident)).give_up(), "a finished call's outcome stands"


def test_a_thread_given_up_on_is_never_reused_and_ends_when_its_call_returns() -> None:
    release = threading.Event()
    idents: list[int] = []

    def hang() -> str:
        idents.append(threading.get_ident())
        release.wait(5)
        return "late"

    hung = start_call(hang)
    assert not hung.wait(0.1)
    assert hung.give_up(), "still running"
    others = {finished(start_call(threading.get_ident)).value for _ in range(5)}
    assert idents[0] not in others, "the hung call's thread takes no other call"
    thread = next(t for t in threading.enumerate() if t.ident == idents[0])
    release.set()
    thread.join(5)
    assert not thread.is_alive(), "it ended once its call returned"


def test_idle_threads_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(call_threads, "IDLE_SECONDS", 0.05)
    ident = finished(start_call(threading.get_ident)).value
    thread = next(t for t in threading.enumerate() if t.ident == ident)
    thread.join(5)
    assert not thread.is_alive(), "an idle call thread ends"


def test_the_embedded_agent_opens_a_connection_per_call_thread_not_per_call(default_db) -> None:
    import pandas as pd

    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.agents.runner import run_agent

    agent = resolve_agent("embedded", database=default_db)
    cases = pd.DataFrame({"case_id": [f"c{i}" for i in range(40)], "question": ["كم عدد المناقصات؟"] * 40,
                          "filters": [None] * 40})
    try:
        responses = run_agent(cases, agent, concurrency=2)
        assert (responses["status"] == "success").all()
        assert len(agent._agent._connections) < 10, "one per call thread (two or so here), not one per call (40)"
    finally:
        agent.close()


def test_idle_threads_are_ended_on_demand_and_a_busy_one_is_left_to_its_call() -> None:
    release = threading.Event()
    busy = start_call(lambda: release.wait(5))
    idents = {finished(start_call(threading.get_ident)).value for _ in range(3)}
    call_threads.end_idle_threads()
    alive = {t.ident for t in threading.enumerate() if t.name == "nabahan-agent-call"}
    assert not idents & alive, "the idle threads ended"
    assert not busy.wait(0) and len(alive) >= 1, "the thread in a call is still making it"
    release.set()
    assert finished(busy).value is True
    assert finished(start_call(lambda: 7)).value == 7, "calls still run after the idle threads ended"


def test_a_feeds_threads_take_its_calls_in_order_each_the_next_as_its_last_is_done() -> None:
    feed = call_threads.CallFeed()
    order: list[tuple[int, int]] = []
    for number in range(6):
        feed.put(number, lambda number=number: order.append((number, threading.get_ident())) or number * 10)
    feed.add_thread()
    done = [feed.done.get(timeout=5) for _ in range(6)]
    assert done == list(range(6)) and [number for number, _ in order] == list(range(6))
    assert len({ident for _, ident in order}) == 1, "one thread made every call"
    assert [feed.finished(number).value for number in done] == [0, 10, 20, 30, 40, 50]
    assert feed.oldest() is None and feed.pending() == 0
    thread = next(t for t in threading.enumerate() if t.ident == order[0][1])
    feed.close()
    assert not thread.is_alive(), "closed: its threads end"


def test_a_feed_call_given_up_on_costs_its_thread_and_the_queued_calls_are_dropped_on_close() -> None:
    release = threading.Event()
    feed = call_threads.CallFeed()
    feed.put(0, lambda: (threading.get_ident(), release.wait(5)))
    feed.add_thread()
    deadline = time.monotonic() + 5
    while feed.oldest() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    number, call = feed.oldest()
    assert number == 0 and call.started > 0
    assert feed.give_up(0) and feed.threads == 0, "the thread is left to its call"
    ran: list[int] = []
    feed.put(1, lambda: ran.append(1))
    release.set()
    assert call.wait(5)
    thread = next((t for t in threading.enumerate() if t.ident == call.value[0]), None)
    if thread is not None:
        thread.join(5)
    assert ran == [] and feed.done.empty(), "the given-up thread took no other call"
    feed.close()
    assert feed.pending() == 0, "the queued call is dropped on close"
