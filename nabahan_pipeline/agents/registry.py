"""Agent specs, and the one registry of the adapters that build them (``ADAPTERS``), for the CLI,
the API and the Dagster resource alike. Each adapter's module has ``build(options: AgentOptions)
-> Agent``, imported only when a spec names it."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from nabahan_pipeline.agents.contract import Agent, AgentOptions
from nabahan_pipeline.errors import AgentSpecError, SettingsError
from nabahan_pipeline.settings import resolve


@dataclass(frozen=True)
class Adapter:
    """One kind of agent: the ``prefixes`` of its specs (one not ending in ":" or "/" is the whole
    spec), its spec's ``form`` for errors, the ``module`` that builds it, its ``secret``'s setting."""

    kind: str
    prefixes: tuple[str, ...]
    form: str
    module: str
    secret: str | None = None

    def names(self, spec: str) -> bool:
        return any(spec.startswith(prefix) if prefix.endswith((":", "/")) else spec == prefix
                   for prefix in self.prefixes)


ADAPTERS: tuple[Adapter, ...] = (
    Adapter("embedded", ("embedded",), "'embedded'", "embedded"),
    Adapter("python", ("python:",), "'python:package.module:function'", "child_process"),
    Adapter("http", ("http://", "https://"), "'http(s)://host:port/path'", "http", secret="agent_token"),
    Adapter("openai", ("openai:",), "'openai:MODEL'", "openai_compat", secret="openai_api_key"),
)


def effective_spec(spec: str | None) -> str:
    """The spec to use: the given one, else $NABAHAN_AGENT, else ``embedded``."""
    try:
        return resolve("agent", spec or None)
    except SettingsError:  # the only way a spec can be bad here
        raise AgentSpecError("the agent spec is empty") from None


def adapter_of(spec: str) -> Adapter:
    """The adapter ``spec`` names; raise ``AgentSpecError`` for none."""
    for adapter in ADAPTERS:
        if adapter.names(spec):
            return adapter
    forms = [adapter.form for adapter in ADAPTERS]
    raise AgentSpecError(f"unknown agent spec {spec!r}: expected {', '.join(forms[:-1])} or {forms[-1]}")


def agent_kind(spec: str) -> str:
    """The kind of adapter ``spec`` names (embedded, python, http, openai); AgentSpecError for none."""
    return adapter_of(spec).kind


def build_agent(options: AgentOptions) -> Agent:
    """The agent ``options.spec`` names, built by its adapter's module; AgentSpecError for a bad spec."""
    adapter = adapter_of(options.spec)
    return importlib.import_module(f"nabahan_pipeline.agents.{adapter.module}").build(options)


def resolve_agent(spec: str | None = None, *, agent_version: str | None = None,
                  database: str | Path | None = None, timeout_s: float = 30.0,
                  max_answer_bytes: int | None = None, sql_timeout_s: float | None = None,
                  in_process: bool = False) -> Agent:
    """``build_agent`` for a spec (None: $NABAHAN_AGENT, else embedded) outside a run, its secret
    read by the adapter from its own variable: for tests, benchmarks and scripts."""
    return build_agent(AgentOptions(effective_spec(spec), agent_version, database, timeout_s, max_answer_bytes,
                                    sql_timeout_s, in_process))
