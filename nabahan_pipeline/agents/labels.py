"""Agents by label: the name an agent goes by in a comparison, a partition and its history.
`--agent NAME=SPEC` names an agent; a bare SPEC is its own label. What stands before the first
``=`` is a label only when it holds no ``:`` or ``/`` (``http://host/ask?x=1`` is a spec)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nabahan_pipeline.agents.registry import agent_kind
from nabahan_pipeline.agents.secrets import redacted_url, url_credentials
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.settings import NO_TOKEN, SETTINGS, RunSettings, environment_value, resolve_run_settings, token_like, variable_name

MAX_LABEL_CHARS = 200
# A plain label is its own folder name: one path component, which file systems cap in bytes.
MAX_LABEL_BYTES = 255
# What Dagster refuses in a partition key ("..." a range), and the comma that separates keys.
_FORBIDDEN = ("...", ",")


@dataclass(frozen=True)
class LabelledAgent:
    """An agent as the user named it: label, spec, version, the variable its token is read from
    (``NO_TOKEN``: none; None: its kind's default), a ``python:`` agent's registered folder."""

    label: str
    spec: str
    version: str | None = None
    token_env: str | None = None
    folder: str | None = None


def check_spec(spec: str, source: str = "--agent") -> str:
    """``spec`` when it holds no credential; else AgentSpecError showing it redacted."""
    found = url_credentials(spec) if spec.startswith(("http://", "https://")) else []
    if found:
        raise AgentSpecError(
            f"{source} {redacted_url(spec)!r}: a credential in the URL ({', '.join(found)}) would be shown in its "
            "label, run tags, run config and the agent registry; remove it and give the agent a bearer token "
            "by the name of the variable holding it: --agent-token NAME=ENV_VAR (or $NABAHAN_AGENT_TOKEN alone)"
        )
    return spec


def default_token_env(spec: str, *, several: bool) -> str | None:
    """The variable an agent's token comes from when none is named: $NABAHAN_AGENT_TOKEN for a run's
    only HTTP agent, none for one of ``several``; None (their own) for other kinds."""
    try:
        kind = agent_kind(spec)
    except AgentSpecError:
        return None
    if kind != "http":
        return None
    return NO_TOKEN if several else SETTINGS["agent_token"].env


def with_tokens(
    agents: Sequence[LabelledAgent], texts: Sequence[str], *, source: str = "--agent-token"
) -> list[LabelledAgent]:
    """``agents`` with the token variables ``texts`` name (``LABEL=ENV_VAR``, or ``ENV_VAR`` for the
    only agent), each set; AgentSpecError, never showing a value given."""
    labels = [agent.label for agent in agents]
    given: dict[str, str] = {}
    for text in texts:
        label, equals, variable = text.strip().rpartition("=")
        if not equals:
            if len(agents) != 1:
                raise AgentSpecError(f"{source} without a label, with {len(agents)} agents: "
                                     f"give each agent its own, {source} NAME=ENV_VAR")
            label = labels[0]
        if label not in labels:  # what stands before "=" may be a piece of a token: not shown then
            shown = "(not shown: it looks like a token)" if token_like(label) else repr(label)
            raise AgentSpecError(f"{source}: no agent labelled {shown} (the agents: {', '.join(labels)})")
        if label in given:
            raise AgentSpecError(f"{source}: two variables for {label!r}")
        try:
            given[label] = variable_name(variable)
        except ValueError as exc:
            raise AgentSpecError(f"{source} for {label!r}: {exc}") from None
        if given[label] != NO_TOKEN and environment_value(given[label]) is None:
            raise AgentSpecError(f"{source} for {label!r}: ${given[label]} is not set")
    return [replace(agent, token_env=given.get(agent.label, agent.token_env)) for agent in agents]


def check_label(label: str, given: str, source: str = "--agent") -> str:
    """``label`` when it can name a partition and a folder; else AgentSpecError naming ``given``."""
    if not label.strip():
        raise AgentSpecError(f"{source} {given!r}: the label before '=' is empty")
    if len(label) > MAX_LABEL_CHARS:
        raise AgentSpecError(f"{source} {given!r}: a label has at most {MAX_LABEL_CHARS} characters")
    if len(label.encode("utf-8")) > MAX_LABEL_BYTES:
        raise AgentSpecError(f"{source} {given[:40]!r}…: a label has at most {MAX_LABEL_BYTES} bytes in UTF-8 "
                             f"(this one {len(label.encode('utf-8'))}; an Arabic letter is 2)")
    bad = [piece for piece in _FORBIDDEN if piece in label] + [
        f"U+{ord(char):04X}" for char in label if ord(char) < 32 or ord(char) == 127
    ]
    if bad:
        raise AgentSpecError(
            f"{source} {given!r}: a label may not hold {', '.join(repr(piece) for piece in bad)}; "
            f"name the agent: {source} NAME=SPEC"
        )
    return label


def labelled_agent(text: str, version: str | None = None, *, source: str = "--agent") -> LabelledAgent:
    """``NAME=SPEC`` or a bare ``SPEC`` (its own label) as a LabelledAgent."""
    text = text.strip()
    name, equals, spec = text.partition("=")
    if not equals or ":" in name or "/" in name:
        name, spec = text, text
    check_spec(spec.strip(), source)
    if not spec.strip():
        raise AgentSpecError(f"{source} {text!r}: no agent spec after '='")
    return LabelledAgent(check_label(name.strip(), text, source), spec.strip(), version)


def labelled_agents(texts: Sequence[str], version: str | None = None, *, source: str = "--agent") -> list[LabelledAgent]:
    """Each agent as ``source`` gave it, in order; AgentSpecError when two share a label."""
    agents = [labelled_agent(text, version, source=source) for text in texts]
    seen: dict[str, str] = {}
    for text, agent in zip(texts, agents):
        if agent.label in seen:
            raise AgentSpecError(
                f"{source} {seen[agent.label]!r} and {source} {text.strip()!r} are both labelled {agent.label!r}; "
                f"give each its own: {source} NAME=SPEC"
            )
        seen[agent.label] = text.strip()
    return agents


def resolve_run(
    given: Mapping[str, Any], agents: Sequence[str] = (), *, source: str = "--agent"
) -> tuple[RunSettings, list[LabelledAgent]]:
    """A run's options and agents, parsed and resolved once: ``given`` options (None: not given) and
    ``agents`` (NAME=SPEC or SPEC; none: the options' agent). ``agent_token_env`` may be several
    ``LABEL=ENV_VAR``; each agent ends with its token variable said. A NabahanError for a bad one."""
    given = dict(given)
    tokens = given.pop("agent_token_env", None)
    tokens = [] if tokens is None else [tokens] if isinstance(tokens, str) else list(tokens)
    labelled = labelled_agents(agents, source=source)
    one = labelled[0].spec if len(labelled) == 1 else None
    settings = resolve_run_settings({**given, "agent": one})
    if not labelled:
        labelled = [LabelledAgent(check_spec(settings.agent, source), settings.agent, settings.agent_version)]
    several = len(labelled) > 1
    labelled = with_tokens([replace(agent, version=settings.agent_version) for agent in labelled], tokens,
                           source="--agent-token" if source == "--agent" else "agent_token_env")
    labelled = [replace(agent, token_env=agent.token_env or (None if several else settings.agent_token_env)
                        or default_token_env(agent.spec, several=several)) for agent in labelled]
    if not several:
        settings = replace(settings, agent_token_env=labelled[0].token_env)
    return settings, labelled


def folder_name(label: str) -> str:
    """A folder name for ``label``: itself when plain, else its safe characters and a short hash."""
    plain = re.sub(r"[^\w.-]+", "_", label).strip("._")
    if plain == label and plain not in ("", ".", ".."):
        return label
    return f"{plain[:60] or 'agent'}-{hashlib.sha256(label.encode('utf-8')).hexdigest()[:8]}"
