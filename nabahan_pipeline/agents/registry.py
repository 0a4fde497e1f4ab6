"""Agent specs: one string names an agent everywhere (CLI flag, run config, NABAHAN_AGENT).

    embedded                          the reference agent over the embedded database
    python:package.module:function    any callable with the contract
    http://host:port/path, https://…  a service speaking the contract over HTTP
    openai:MODEL                      an OpenAI-compatible chat model as a text-to-SQL agent

This is the one module that knows the adapters, each imported when a spec names it; they do not
import it back (their AgentSpecError comes from ``errors``).
"""

from __future__ import annotations

from pathlib import Path

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.errors import AgentSpecError, SettingsError
from nabahan_pipeline.settings import resolve


def effective_spec(spec: str | None) -> str:
    """The spec to use: the given one, else $NABAHAN_AGENT, else ``embedded``."""
    try:
        return resolve("agent", spec or None)
    except SettingsError:  # the only way a spec can be bad here
        raise AgentSpecError("the agent spec is empty") from None


def agent_kind(spec: str) -> str:
    """The kind of adapter ``spec`` names: embedded, python, http or openai; raise
    ``AgentSpecError`` for none."""
    if spec == "embedded":
        return "embedded"
    if spec.startswith("python:"):
        return "python"
    if spec.startswith(("http://", "https://")):
        return "http"
    if spec.startswith("openai:"):
        return "openai"
    raise AgentSpecError(
        f"unknown agent spec {spec!r}: expected 'embedded', 'python:package.module:function', "
        "'http(s)://host:port/path' or 'openai:MODEL'"
    )


def resolve_agent(
    spec: str | None = None,
    *,
    agent_version: str | None = None,
    database: str | Path | None = None,
    timeout_s: float = 30.0,
    max_answer_bytes: int | None = None,
    sql_timeout_s: float | None = None,
    in_process: bool = False,
) -> Agent:
    """Build the agent adapter that ``spec`` names; raise ``AgentSpecError`` for a bad spec.
    ``max_answer_bytes`` caps the body an HTTP or OpenAI-compatible agent's answer may have;
    ``sql_timeout_s`` limits each query the OpenAI-compatible agent runs itself; a ``python:`` agent
    runs in a child process unless ``in_process``. A run's agent is
    built by the Dagster resource of its kind (``orchestration.resources``) instead."""
    spec = effective_spec(spec)
    kind = agent_kind(spec)
    if kind == "embedded":
        from nabahan_pipeline.agents.embedded import EmbeddedAgent

        return EmbeddedAgent(database=database, agent_version=agent_version)
    if kind == "python" and in_process:
        from nabahan_pipeline.agents.python_callable import PythonCallableAgent

        return PythonCallableAgent(spec, agent_version=agent_version)
    if kind == "python":
        from nabahan_pipeline.agents.child_process import ChildProcessAgent

        return ChildProcessAgent(spec, agent_version=agent_version, timeout_s=timeout_s,
                                 **({"max_answer_bytes": max_answer_bytes} if max_answer_bytes else {}))
    if kind == "http":
        from nabahan_pipeline.agents.http import HttpAgent

        return HttpAgent(spec, agent_version=agent_version, timeout_s=timeout_s, max_answer_bytes=max_answer_bytes)
    from nabahan_pipeline.agents.openai_compat import OpenAICompatibleAgent

    return OpenAICompatibleAgent(
        spec, agent_version=agent_version, database=database, timeout_s=timeout_s,
        max_answer_bytes=max_answer_bytes,
        **({"sql_timeout_s": sql_timeout_s} if sql_timeout_s is not None else {}),
    )
