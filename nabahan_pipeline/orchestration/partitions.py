"""Agents as Dagster dynamic partitions of the evaluation assets, and the registry of what each
label stands for.

The partition key is the agent's label. Registering an agent adds its partition and records an
observation of the ``agent`` asset (the agent outside Dagster) for that partition, holding its spec
and version; so the instance (SQLite, or PostgreSQL in production) keeps the registry, and every
entry point, the sensor and the schedule read it from there. A partition added another way (the
UI's "Add partition") with no observation stands for the spec its label names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import dagster as dg
import sqlalchemy.exc

from nabahan_pipeline.agents.labels import LabelledAgent, check_spec, default_token_env, folder_name
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


def register_agents(instance: dg.DagsterInstance, agents: Sequence[LabelledAgent]) -> None:
    """Add each agent's partition, and record its spec, version and token variable when they are new
    or changed; raises AgentSpecError for a spec holding a credential, before anything is written."""
    for agent in agents:
        check_spec(agent.spec, "agent")
    labels = [agent.label for agent in agents]
    for attempt in range(3):
        try:
            instance.add_dynamic_partitions(AGENTS.name, labels)
            break
        except sqlalchemy.exc.IntegrityError:  # another process added one between Dagster's check and insert
            if attempt == 2:
                raise
    for agent in agents:
        if registered_agent(instance, agent.label) != agent:
            instance.report_runless_asset_event(
                dg.AssetObservation(
                    AGENT_ASSET,
                    partition=agent.label,
                    description="registered",
                    metadata={"spec": agent.spec, "agent_version": agent.version or "",
                              "token_env": agent.token_env or ""},
                )
            )


def remove_agents(instance: dg.DagsterInstance, labels: Sequence[str]) -> list[str]:
    """Remove the agents' partitions (their runs and materializations stay); return the labels
    that were not registered (and removes nothing then)."""
    known = set(instance.get_dynamic_partitions(AGENTS.name))
    missing = [label for label in labels if label not in known]
    if not missing:
        for label in labels:
            instance.delete_dynamic_partition(AGENTS.name, label)
    return missing


def registered_agent(instance: dg.DagsterInstance, label: str) -> LabelledAgent | None:
    """What ``label`` was last registered as; None when it never was. An entry that names no token
    variable (or was made before entries named one) gets no token when it is an HTTP agent."""
    records = instance.fetch_observations(
        dg.AssetRecordsFilter(asset_key=AGENT_ASSET, asset_partitions=[label]), limit=1
    ).records
    if not records or records[0].asset_observation is None:
        return None
    metadata = records[0].asset_observation.metadata
    spec = metadata.get("spec")
    version = metadata.get("agent_version")
    token_env = metadata.get("token_env")
    if spec is None:
        return None
    return LabelledAgent(label, str(spec.value), str(version.value) if version is not None and version.value else None,
                         str(token_env.value) if token_env is not None and token_env.value else
                         default_token_env(str(spec.value), several=True))


def registered_agents(instance: dg.DagsterInstance) -> list[LabelledAgent]:
    """Every agent's partition, in the order they were added, with what it stands for."""
    return [
        registered_agent(instance, label) or _unregistered(label)
        for label in instance.get_dynamic_partitions(AGENTS.name)
    ]


def _unregistered(label: str) -> LabelledAgent:
    """A partition added with no registry entry (the UI's "Add partition"): the spec its label names, no token."""
    return LabelledAgent(label, label, token_env=default_token_env(label, several=True))


def agents_to_run(instance: dg.DagsterInstance, settings: RunSettings) -> list[LabelledAgent]:
    """Every registered agent; when none is yet, the location's own (``settings.agent``), registered
    now (its token from ``settings.agent_token_env``, else the default of a run's only agent), so
    that the sensor and the schedule always evaluate something."""
    agents = registered_agents(instance)
    if not agents:
        token_env = settings.agent_token_env or default_token_env(settings.agent, several=False)
        agents = [LabelledAgent(settings.agent, settings.agent, settings.agent_version, token_env)]
        register_agents(instance, agents)
    return agents


def agent_of_run(instance: dg.DagsterInstance | None, run: dg.DagsterRun | None) -> LabelledAgent | None:
    """The agent whose partition ``run`` evaluates; None for a run of no partition. A run launched
    by our entry points, the sensor or the schedule carries its agent in its tags (passed on, not
    read back); one launched from the UI (or a backfill) stands for what the registry holds."""
    tags = run.tags if run is not None else {}
    label = tags.get(PARTITION_TAG)
    if label is None:
        return None
    if tags.get(AGENT_LABEL_TAG) == label and tags.get(AGENT_SPEC_TAG):
        spec = tags[AGENT_SPEC_TAG]
        return LabelledAgent(label, spec, tags.get(AGENT_VERSION_TAG) or None,
                             tags.get(AGENT_TOKEN_ENV_TAG) or default_token_env(spec, several=True))
    return (registered_agent(instance, label) if instance is not None else None) or _unregistered(label)


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
    """The options of one agent's run: the agent's own, and, when ``several`` agents are
    evaluated together, an output folder of its own under the output directory."""
    own = settings_for_agent(settings, agent)
    return replace(own, output_dir=settings.output_path() / folder_name(agent.label)) if several else own


def partition_run_config(settings: RunSettings, agent: LabelledAgent, *, several: bool) -> dict[str, Any]:
    """The run config of one agent's run: ``partition_settings`` as the ``evaluation`` resource's."""
    return {"resources": {"evaluation": {"config": partition_settings(settings, agent, several=several).as_config()}}}


def partition_run_tags(agent: LabelledAgent) -> dict[str, str]:
    """The tags that tell an agent's run apart and carry its agent into the run (the deployment's
    per-agent run limit reads the partition tag Dagster adds, which holds the same label)."""
    tags = {AGENT_LABEL_TAG: agent.label, AGENT_SPEC_TAG: agent.spec}
    if agent.token_env:
        tags[AGENT_TOKEN_ENV_TAG] = agent.token_env
    return {**tags, AGENT_VERSION_TAG: agent.version} if agent.version else tags
