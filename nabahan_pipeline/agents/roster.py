"""The registered agents: each one's label (its partition key in Dagster), spec and version, kept
in a JSON file in the Nabahan home so that the sensor and the schedule can re-run every one.

``--agent`` takes ``LABEL=SPEC`` or a bare spec, whose label is the spec itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from nabahan_pipeline.errors import UsageError
from nabahan_pipeline.files import atomic_open, file_lock

# A label given before "=": letters, digits, "_", "-" and "." (a spec's own "=" never matches it:
# a spec has a ":" or is a word such as "embedded").
_LABEL = re.compile(r"^([A-Za-z0-9_.\-]{1,64})=(.+)$")


@dataclass(frozen=True)
class RegisteredAgent:
    """One agent the evaluation is partitioned by."""

    label: str
    spec: str
    agent_version: str | None = None


def parse_agent(value: str, agent_version: str | None = None) -> RegisteredAgent:
    """``LABEL=SPEC`` or a bare ``SPEC`` (labelled by itself) as a RegisteredAgent."""
    value = value.strip()
    if not value:
        raise UsageError("--agent: empty agent spec")
    match = _LABEL.match(value)
    label, spec = (match.group(1), match.group(2).strip()) if match else (value, value)
    return RegisteredAgent(label, spec, agent_version)


def parse_agents(values: Iterable[str], agent_version: str | None = None) -> list[RegisteredAgent]:
    """Each ``--agent`` value parsed; two with the same label are the user's mistake."""
    agents: list[RegisteredAgent] = []
    for value in values:
        agent = parse_agent(value, agent_version)
        twin = next((a for a in agents if a.label == agent.label), None)
        if twin is not None:
            raise UsageError(
                f"two --agent with the same label {agent.label!r} ({twin.spec} and {agent.spec}); "
                "name them apart as LABEL=SPEC"
            )
        agents.append(agent)
    return agents


def registered_agents(path: str | Path) -> list[RegisteredAgent]:
    """The agents registered in the roster file ``path``, in the order first registered."""
    path = Path(path)
    if not path.is_file():
        return []
    return [RegisteredAgent(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]


def register_agents(path: str | Path, agents: Iterable[RegisteredAgent]) -> list[RegisteredAgent]:
    """Add ``agents`` to the roster (a label already there takes the new spec and version, in its
    place); return the whole roster. Concurrent registrations wait for each other."""
    path = Path(path)
    with file_lock(path.with_name(path.name + ".lock")):
        roster = {agent.label: agent for agent in registered_agents(path)}
        roster.update({agent.label: agent for agent in agents})
        with atomic_open(path, "w", encoding="utf-8") as handle:
            json.dump([asdict(agent) for agent in roster.values()], handle, ensure_ascii=False, indent=2)
    return list(roster.values())
