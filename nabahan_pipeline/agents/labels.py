"""Agents by label: the name an agent goes by in a comparison, in the Dagster UI (one partition per
label) and in its history, with the spec and version it stands for.

`--agent NAME=SPEC` names an agent; a bare SPEC is its own label (`--agent embedded` is "embedded").
The part before the first ``=`` is a label only when it holds no ``:`` or ``/``: every spec but
``embedded`` has one before any ``=`` of its own (``http://host/ask?x=1`` is a spec).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.settings import RunSettings, resolve_run_settings

MAX_LABEL_CHARS = 200
# A plain label is its own folder name: one path component, which file systems cap in bytes.
MAX_LABEL_BYTES = 255
# What Dagster refuses in a partition key ("..." marks a range), and the comma that separates keys
# where the UI and `--partition` list them.
_FORBIDDEN = ("...", ",")


@dataclass(frozen=True)
class LabelledAgent:
    """An agent as the user named it: its label, its spec and (optionally) its version."""

    label: str
    spec: str
    version: str | None = None


def check_label(label: str, given: str, source: str = "--agent") -> str:
    """``label`` when it can name a partition and a folder; raises AgentSpecError naming ``given``
    as the ``source`` gave it (the flag, or the argument)."""
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
    if not spec.strip():
        raise AgentSpecError(f"{source} {text!r}: no agent spec after '='")
    return LabelledAgent(check_label(name.strip(), text, source), spec.strip(), version)


def labelled_agents(texts: Sequence[str], version: str | None = None, *, source: str = "--agent") -> list[LabelledAgent]:
    """Each agent as ``source`` (the flag, or "agent" for an argument) gave it, in order; raises
    AgentSpecError when two share a label."""
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
    """A run's options and its agents, each parsed and resolved once: ``given`` options (None: not
    given) and the ``agents`` as ``source`` gave them (NAME=SPEC or SPEC); with one agent its spec
    is the run's, with none the run's agent is the one the options name. Raises a NabahanError
    (a bad label, a bad value) before anything runs."""
    labelled = labelled_agents(agents, source=source)
    one = labelled[0].spec if len(labelled) == 1 else None
    settings = resolve_run_settings({**given, "agent": one})
    if not labelled:
        return settings, [LabelledAgent(settings.agent, settings.agent, settings.agent_version)]
    return settings, [replace(agent, version=settings.agent_version) for agent in labelled]


def folder_name(label: str) -> str:
    """A folder name for ``label``: itself when it is a plain name, else its letters, digits, dots
    and dashes with a short hash of the whole label (so that two labels never share a folder)."""
    plain = re.sub(r"[^\w.-]+", "_", label).strip("._")
    if plain == label and plain not in ("", ".", ".."):
        return label
    return f"{plain[:60] or 'agent'}-{hashlib.sha256(label.encode('utf-8')).hexdigest()[:8]}"
