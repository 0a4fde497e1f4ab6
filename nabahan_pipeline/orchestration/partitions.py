"""Agents as the evaluation assets' dynamic partitions (key: the label), and the registry of what a
label stands for, kept by the instance as observations of the ``agent`` asset, so that every
entry point, the sensor and the schedule read one registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import dagster as dg

from nabahan_pipeline.agents.labels import LabelledAgent, check_label, check_spec, default_token_env, folder_name
from nabahan_pipeline.agents.registry import agent_kind
from nabahan_pipeline.errors import AgentSpecError
from nabahan_pipeline.settings import RunSettings

AGENTS = dg.DynamicPartitionsDefinition(name="agents")
AGENT_ASSET = dg.AssetKey("agent")
# Dagster's tag on every run of one partition (launched by us, the UI or a backfill).
PARTITION_TAG = "dagster/partition"
AGENT_LABEL_TAG = "nabahan/agent_label"
# The agent a run evaluates, as the entry point, the sensor or the schedule that launched it knew it.
AGENT_SPEC_TAG = "nabahan/agent"
AGENT_VERSION_TAG = "nabahan/agent_version"
# The name of the variable the agent's token is read from (never the token).
AGENT_TOKEN_ENV_TAG = "nabahan/agent_token_env"
# The folder a python: agent's module is imported from, besides the run's import path.
AGENT_FOLDER_TAG = "nabahan/agent_folder"


def register_agents(instance: dg.DagsterInstance, agents: Sequence[LabelledAgent], *,
                    scheduled: bool = True) -> list[LabelledAgent]:
    """Add each agent's partition and record what it stands for (a ``python:`` agent with its folder);
    ``scheduled``: for the schedule and the sensor, else recorded only where that changes nothing
    they run. The agents with their folders; AgentSpecError for a spec holding a credential."""
    for agent in agents:
        check_spec(agent.spec, "agent")
    agents = [replace(agent, folder=agent.folder or _found_folder(agent.spec)) for agent in agents]
    labels = [agent.label for agent in agents]
    # Imported here, not with this module: the instance's storage has loaded it by now, and the
    # Python API's import need not (issue 40: 0.2 s of CPU before the inputs' check).
    import sqlalchemy.exc

    for attempt in range(3):
        try:
            instance.add_dynamic_partitions(AGENTS.name, labels)
            break
        except sqlalchemy.exc.IntegrityError:  # another process added one between Dagster's check and insert
            if attempt == 2:
                raise
    for agent in agents:
        entry = _entry(instance, agent.label)
        if entry != (agent, scheduled) and not (entry is not None and entry[1] and not scheduled):
            _record(instance, agent, scheduled)
    return agents


def registered_text(agents: Sequence[LabelledAgent]) -> str:
    """The line that says which agents were registered for the nightly schedule and the sensor."""
    return ("registered for the nightly schedule and the sensor: "
            + ", ".join(agent.label if agent.label == agent.spec else f"{agent.label} ({agent.spec})" for agent in agents)
            + " (`nabahan agents list`)")


def _record(instance: dg.DagsterInstance, agent: LabelledAgent, scheduled: bool) -> None:
    """Record what ``agent``'s label stands for, and whether it is registered for the schedule and the sensor."""
    instance.report_runless_asset_event(dg.AssetObservation(
        AGENT_ASSET, partition=agent.label,
        description="registered for the schedule and the sensor" if scheduled else "evaluated",
        metadata={"spec": agent.spec, "agent_version": agent.version or "", "token_env": agent.token_env or "",
                  "folder": agent.folder or "", "scheduled": scheduled}))


def _found_folder(spec: str) -> str | None:
    """The folder this process finds a ``python:`` agent's module in; None for other kinds."""
    if not spec.startswith("python:"):
        return None
    from nabahan_pipeline.agents.python_callable import agent_folder

    try:
        return agent_folder(spec)
    except AgentSpecError:  # a malformed spec: its run says so
        return None


def location_agent(settings: RunSettings) -> LabelledAgent:
    """The location's own agent, labelled by its spec; AgentSpecError for a spec of no agent or label."""
    agent_kind(settings.agent)
    token_env = settings.agent_token_env or default_token_env(settings.agent, several=False)
    label = check_label(check_spec(settings.agent, "NABAHAN_AGENT"), settings.agent, "NABAHAN_AGENT")
    return LabelledAgent(label, settings.agent, settings.agent_version, token_env)


def remove_agents(instance: dg.DagsterInstance, labels: Sequence[str]) -> list[str]:
    """Unregister the agents and remove their partitions (runs stay); the labels not found, if any."""
    known = set(instance.get_dynamic_partitions(AGENTS.name))
    missing = [label for label in labels if label not in known]
    if not missing:
        for label in labels:
            entry = _entry(instance, label)
            if entry is not None and entry[1]:  # so that a run of it later does not schedule it again
                _record(instance, entry[0], scheduled=False)
            instance.delete_dynamic_partition(AGENTS.name, label)
    return missing


def _entry(instance: dg.DagsterInstance, label: str) -> tuple[LabelledAgent, bool] | None:
    """What ``label`` was last recorded as and whether it is scheduled (an entry older than that flag
    is); None when it never was. An HTTP entry naming no token variable gets no token."""
    records_filter = dg.AssetRecordsFilter(asset_key=AGENT_ASSET, asset_partitions=[label])
    records = instance.fetch_observations(records_filter, limit=1).records
    if not records or records[0].asset_observation is None:
        return None
    metadata = records[0].asset_observation.metadata
    spec = metadata.get("spec")
    if spec is None:
        return None
    text = {key: str(metadata[key].value) if key in metadata and metadata[key].value else None
            for key in ("agent_version", "token_env", "folder")}
    scheduled = metadata.get("scheduled")
    agent = LabelledAgent(label, str(spec.value), text["agent_version"],
                          text["token_env"] or default_token_env(str(spec.value), several=True), text["folder"])
    return agent, bool(scheduled.value) if scheduled is not None else True


def registered_agent(instance: dg.DagsterInstance, label: str) -> LabelledAgent | None:
    """What ``label`` was last recorded as; None when it never was."""
    entry = _entry(instance, label)
    return entry[0] if entry is not None else None


def registered_agents(instance: dg.DagsterInstance) -> list[LabelledAgent]:
    """Every agent's partition, in the order they were added, with what it stands for."""
    return [registered_agent(instance, label) or _unregistered(label)
            for label in instance.get_dynamic_partitions(AGENTS.name)]


def scheduled_agents(instance: dg.DagsterInstance) -> list[LabelledAgent]:
    """The agents registered for the nightly schedule and the sensor, in the order their partitions were added."""
    entries = (_entry(instance, label) for label in instance.get_dynamic_partitions(AGENTS.name))
    return [entry[0] for entry in entries if entry is not None and entry[1]]


def _unregistered(label: str) -> LabelledAgent:
    """A partition added with no registry entry (the UI's "Add partition"): the spec its label names, no token."""
    return LabelledAgent(label, label, token_env=default_token_env(label, several=True))


def agents_to_run(instance: dg.DagsterInstance, settings: RunSettings) -> list[LabelledAgent]:
    """The agents registered for the schedule and the sensor; when none is, the location's own (its
    partition made sure of, not registered), which they stop evaluating once the user registers one."""
    agents = scheduled_agents(instance)
    if not agents:
        agents = register_agents(instance, [location_agent(settings)], scheduled=False)
    return agents


def agent_of_run(instance: dg.DagsterInstance | None, run: dg.DagsterRun | None) -> LabelledAgent | None:
    """The agent whose partition ``run`` evaluates (None for none): from its tags, else the registry,
    else its label as a spec; AgentSpecError saying how to register a partition that names none."""
    tags = run.tags if run is not None else {}
    label = tags.get(PARTITION_TAG)
    if label is None:
        return None
    if tags.get(AGENT_LABEL_TAG) == label and tags.get(AGENT_SPEC_TAG):
        spec = tags[AGENT_SPEC_TAG]
        return LabelledAgent(label, spec, tags.get(AGENT_VERSION_TAG) or None,
                             tags.get(AGENT_TOKEN_ENV_TAG) or default_token_env(spec, several=True),
                             tags.get(AGENT_FOLDER_TAG) or None)
    agent = registered_agent(instance, label) if instance is not None else None
    if agent is not None:
        return agent
    try:
        agent_kind(label)
    except AgentSpecError:
        raise AgentSpecError(
            f"partition {label!r} names no registered agent: register it with `nabahan agents add {label}=SPEC` "
            "(SPEC: embedded, python:module:function, http(s)://host/path or openai:MODEL), then launch it again"
        ) from None
    return _unregistered(label)


def settings_for_agent(settings: RunSettings, agent: LabelledAgent) -> RunSettings:
    """``settings`` with the agent's spec, version and token variable (its own, else the settings');
    a named agent's runs are labelled with its name unless a label is given."""
    label = settings.label
    if label is None and agent.label != agent.spec:
        label = f"{agent.label} · {settings.test_file.name}"
    token_env = agent.token_env if agent.token_env is not None else settings.agent_token_env
    return replace(settings, agent=agent.spec, agent_version=agent.version or settings.agent_version, label=label,
                   agent_token_env=token_env)


def partition_settings(settings: RunSettings, agent: LabelledAgent, *, several: bool) -> RunSettings:
    """The options of one agent's run, with (``several``) an output folder of its own."""
    own = settings_for_agent(settings, agent)
    return replace(own, output_dir=settings.output_dir / folder_name(agent.label)) if several else own


def partition_run_config(settings: RunSettings, agent: LabelledAgent, *, several: bool) -> dict[str, Any]:
    """The run config of one agent's run: ``partition_settings`` as the ``evaluation`` resource's."""
    return {"resources": {"evaluation": {"config": partition_settings(settings, agent, several=several).as_config()}}}


def run_tags(settings: RunSettings) -> dict[str, str]:
    """Tags that tell a run apart in the Dagster UI's runs list: its label and agent."""
    return {"nabahan/label": settings.run_label(), "nabahan/agent": settings.agent}


def agent_run_requests(settings: RunSettings, agents: Sequence[LabelledAgent], run_key: Callable[[str], str],
                       **tags: str) -> list[dg.RunRequest]:
    """The sensor's and schedule's runs: one per agent's partition, keyed by ``run_key(label)``."""
    return [dg.RunRequest(run_key=run_key(agent.label), partition_key=agent.label,
                          run_config=partition_run_config(settings, agent, several=len(agents) > 1),
                          tags={**run_tags(settings_for_agent(settings, agent)), **partition_run_tags(agent),
                                **tags})
            for agent in agents]


def partition_run_tags(agent: LabelledAgent) -> dict[str, str]:
    """The tags that tell an agent's run apart and carry its agent into the run."""
    tags = {AGENT_LABEL_TAG: agent.label, AGENT_SPEC_TAG: agent.spec}
    if agent.token_env:
        tags[AGENT_TOKEN_ENV_TAG] = agent.token_env
    if agent.folder:
        tags[AGENT_FOLDER_TAG] = agent.folder
    return {**tags, AGENT_VERSION_TAG: agent.version} if agent.version else tags
