"""The adapter registry: a new adapter is one module (with its ``build``) and its line in
``registry.ADAPTERS``; the CLI and the API (``resolve_agent``) and the Dagster resource all build it."""

from __future__ import annotations

import sys
import types

import dagster as dg
import pytest

from nabahan_pipeline.agents import registry
from nabahan_pipeline.agents.contract import Agent, AgentOptions
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.orchestration.resources import agent_resource
from nabahan_pipeline.settings import resolve_run_settings


class _ToyAgent(Agent):
    def __init__(self, options: AgentOptions) -> None:
        self.spec, self.options = options.spec, options

    def ask(self, question: str, filters: dict | None = None) -> dict:
        return {"status": "out_of_scope", "sql": None, "data": [], "insights": "عذراً"}

    def fingerprint(self) -> str:
        return self.spec


def test_a_new_adapter_is_its_module_and_its_registry_line(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("nabahan_pipeline.agents.toy_adapter")
    module.build = _ToyAgent  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    toy = registry.Adapter("toy", ("toy:",), "'toy:NAME'", "toy_adapter")
    monkeypatch.setattr(registry, "ADAPTERS", (*registry.ADAPTERS, toy))
    assert registry.resolve_agent("toy:one").fingerprint() == "toy:one"  # the CLI's and the API's door
    resource = agent_resource(resolve_run_settings({"agent": "toy:two", "timeout_s": 7}))
    with dg.build_resources({"agent": resource}) as resources:  # the Dagster resource's
        assert isinstance(resources.agent, _ToyAgent) and resources.agent.options.timeout_s == 7
    with pytest.raises(AgentSpecError, match="or 'toy:NAME'"):
        registry.agent_kind("bogus")
