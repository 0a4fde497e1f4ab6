"""The registered agents: --agent values parsed into labels, the roster file kept across runs."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from nabahan_pipeline.agents.roster import (
    RegisteredAgent,
    parse_agent,
    parse_agents,
    register_agents,
    registered_agents,
)
from nabahan_pipeline.errors import NabahanError

PY = "python:nabahan_pipeline_tests.sample_agents:agent_a"


def test_a_bare_spec_is_its_own_label_and_label_eq_spec_names_it():
    assert parse_agent("embedded") == RegisteredAgent("embedded", "embedded")
    assert parse_agent(f"a={PY}", "v2") == RegisteredAgent("a", PY, "v2")
    # A spec's own "=" (a query string) is not a label.
    url = "http://127.0.0.1:8000/ask?key=1"
    assert parse_agent(url) == RegisteredAgent(url, url)


def test_two_agents_with_one_label_are_a_user_mistake_naming_both():
    with pytest.raises(NabahanError, match=r"two --agent with the same label 'x' \(embedded and " + PY):
        parse_agents(["x=embedded", f"x={PY}"])
    with pytest.raises(NabahanError, match="empty agent spec"):
        parse_agents([" "])
    assert [a.label for a in parse_agents(["embedded", f"b={PY}"])] == ["embedded", "b"]


def test_the_roster_keeps_every_agent_in_order_and_updates_a_label(tmp_path: Path):
    roster = tmp_path / "home" / "agents.json"
    assert registered_agents(roster) == []
    register_agents(roster, parse_agents(["embedded", f"b={PY}"]))
    register_agents(roster, [RegisteredAgent("b", "embedded", "v3"), RegisteredAgent("c", PY)])
    assert registered_agents(roster) == [
        RegisteredAgent("embedded", "embedded"),
        RegisteredAgent("b", "embedded", "v3"),
        RegisteredAgent("c", PY),
    ]


def test_concurrent_registrations_lose_nobody(tmp_path: Path):
    roster = tmp_path / "agents.json"
    threads = [
        threading.Thread(target=register_agents, args=(roster, [RegisteredAgent(f"agent{i}", "embedded")]))
        for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.label for a in registered_agents(roster)) == sorted(f"agent{i}" for i in range(8))
