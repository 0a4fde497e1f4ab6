"""The run's options as one Dagster resource, settable from run config (`-c run_config.yaml`)."""

from __future__ import annotations

from typing import Any, Optional

import dagster as dg
from pydantic import Field

from nabahan_pipeline.agents.contract import AnswerLimits
from nabahan_pipeline.orchestration.partitions import agent_of_run, settings_for_agent
from nabahan_pipeline.settings import SETTINGS, RunSettings, resolve_run_settings


def _option(name: str) -> Any:
    """A config field, unset by default; the launchpad shows its help, default and variable."""
    return Field(default=None, description=SETTINGS[name].describe())


class EvaluationSettings(dg.ConfigurableResource):
    """What to evaluate and how: the case file, the agent, concurrency, outputs, thresholds.

    Every option left unset resolves when the run starts, through ``settings``: its environment
    variable (NABAHAN_<OPTION>), else its default; so run config that sets a few options keeps the
    environment's others. Assets, checks, the sensor and the schedule receive the resolved
    ``RunSettings``.
    """

    test_file: Optional[str] = _option("test_file")
    output_dir: Optional[str] = _option("output_dir")
    agent: Optional[str] = _option("agent")
    agent_version: Optional[str] = _option("agent_version")
    database: Optional[str] = _option("database")
    label: Optional[str] = _option("label")
    baseline: Optional[str] = _option("baseline")
    quick: Optional[bool] = _option("quick")
    concurrency: Optional[int] = _option("concurrency")
    timeout_s: Optional[float] = _option("timeout_s")
    repeat: Optional[int] = _option("repeat")
    use_cache: Optional[bool] = _option("use_cache")
    pass_threshold: Optional[float] = _option("pass_threshold")
    gate: Optional[str] = _option("gate")
    test_suite_databases: Optional[int] = _option("test_suite_databases")
    sql_timeout_s: Optional[float] = _option("sql_timeout_s")
    sql_max_rows: Optional[int] = _option("sql_max_rows")
    max_answer_rows: Optional[int] = _option("max_answer_rows")
    max_insight_chars: Optional[int] = _option("max_insight_chars")
    max_sql_chars: Optional[int] = _option("max_sql_chars")
    max_answer_bytes: Optional[int] = _option("max_answer_bytes")

    def resolved(self) -> RunSettings:
        """The options as a run started now gets them; raises SettingsError for a bad value."""
        return resolve_run_settings({name: getattr(self, name) for name in type(self).model_fields})

    def create_resource(self, context: dg.InitResourceContext) -> RunSettings:
        """What assets, checks, the sensor and the schedule receive: the resolved options; in a run
        of an agent's partition, with that agent's spec and version (``partitions``), however the
        run was launched (our entry points, the UI, a backfill)."""
        settings = self.resolved()
        agent = agent_of_run(context.instance, context.run)
        return settings if agent is None else settings_for_agent(settings, agent)


def run_tags(settings: RunSettings) -> dict[str, str]:
    """Tags that tell a run apart in the Dagster UI's runs list: its label and agent."""
    return {"nabahan/label": settings.run_label(), "nabahan/agent": settings.agent}


def answer_limits(settings: RunSettings) -> AnswerLimits:
    """The caps on an agent's answer (rows, insight and SQL characters, HTTP body bytes)."""
    return AnswerLimits(
        max_rows=settings.max_answer_rows,
        max_insight_chars=settings.max_insight_chars,
        max_sql_chars=settings.max_sql_chars,
        max_answer_bytes=settings.max_answer_bytes,
    )
