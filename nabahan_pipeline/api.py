"""The Python API: run the evaluation job of the code location on a persistent Dagster instance.

    from nabahan_pipeline import NabahanEvaluationPipeline
    result = NabahanEvaluationPipeline(output_dir="evaluation/results").run_complete_pipeline()
    result["summary"]["pass_rate"]  # a fraction

    both = NabahanEvaluationPipeline(agent=["embedded", "mine=python:my_agent:answer"]).run_complete_pipeline()
    both["comparison"]["agents"], both["files"]["comparison_csv"]  # side by side

There is no second code path: this runs the same assets as `dagster dev` and `dagster asset
materialize`, and keeps run history and Parquet between runs (see ``settings``). An option not
given here comes from its environment variable, else its default, as everywhere (``settings``).
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from datetime import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import dagster as dg
import pandas as pd

from nabahan_pipeline.agents.labels import LabelledAgent, labelled_agent, labelled_agents
from nabahan_pipeline.agents.registry import resolve_agent
from nabahan_pipeline.errors import AgentSpecError, EvaluationInputError, NabahanError
from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.console import LiveConsole, comparison_text, files_text, footer, header, summary_text
from nabahan_pipeline.evaluation.summary import summary_dict
from nabahan_pipeline.evaluation.cases import suite_fingerprint
from nabahan_pipeline.files import atomic_open, file_lock
from nabahan_pipeline.orchestration.assets import checked_test_cases
from nabahan_pipeline.orchestration.jobs import comparison_job, evaluation_job, settings_run_config
from nabahan_pipeline.orchestration import resources
from nabahan_pipeline.orchestration.partitions import (
    partition_run_config,
    partition_run_tags,
    register_agents,
    settings_for_agent,
)
from nabahan_pipeline.progress import watching
from nabahan_pipeline.settings import RunSettings, dagster_home, resolve_run_settings

__all__ = ["ComparedRuns", "EvaluationInputError", "EvaluationRun", "NabahanEvaluationPipeline", "open_instance"]

_INSTANCE_YAML = """\
# Dagster instance of the Nabahan evaluation's own entry points (nabahan eval, the Python API);
# `dagster dev` with this folder as DAGSTER_HOME opens the same one. Every other part (SQLite storage
# under this folder, compute logs in storage/) is Dagster's default.
telemetry:
  enabled: false
"""


def open_instance(home: str | Path | None = None) -> dg.DagsterInstance:
    """The persistent Dagster instance at ``home`` (default: $DAGSTER_HOME or $NABAHAN_HOME/dagster),
    Dagster's own as its dagster.yaml configures it (written on first use when there is none)."""
    home = dagster_home(home)
    # Creating Dagster's SQLite storage is not safe from two processes at once (both stamp the
    # schema's version); runs that share the instance afterwards are.
    with file_lock(home / ".nabahan-instance.lock"):
        config = home / "dagster.yaml"
        if not config.exists():
            with atomic_open(config, "w", encoding="utf-8") as handle:
                handle.write(_INSTANCE_YAML)
        return dg.DagsterInstance.from_config(str(home))


class CheckedInputs(NamedTuple):
    """What ``check_inputs`` found: the cases to be asked, the agents, each one's fingerprint."""

    cases: pd.DataFrame
    agents: list[LabelledAgent]
    fingerprints: dict[str, str]


class NabahanEvaluationPipeline:
    """One evaluation's options; ``run_complete_pipeline`` materializes the evaluation group for
    each agent (its partition), then, for several agents, compares them.

    An option left None is not given: it comes from its environment variable (NABAHAN_<OPTION>),
    else its default, when the options are resolved (``settings()``). ``agent`` is one spec, or a
    list of them for a comparison; each may be named, ``NAME=SPEC`` (else the spec is its label)."""

    def __init__(
        self,
        output_dir: str | Path | None = None,
        *,
        test_file: str | Path | None = None,
        agent: str | Sequence[str] | None = None,
        agent_version: str | None = None,
        quick: bool | None = None,
        concurrency: int | None = None,
        timeout_s: float | None = None,
        repeat: int | None = None,
        use_cache: bool | None = None,
        database: str | Path | None = None,
        pass_threshold: float | str | None = None,
        fail_under: float | str | None = None,
        gate: str | None = None,
        test_suite_databases: int | None = None,
        sql_timeout_s: float | None = None,
        sql_max_rows: int | None = None,
        max_answer_rows: int | None = None,
        max_insight_chars: int | None = None,
        max_sql_chars: int | None = None,
        max_answer_bytes: int | None = None,
        dagster_home: str | Path | None = None,
        label: str | None = None,
        baseline: str | None = None,
    ) -> None:
        self.agent_texts = [agent] if isinstance(agent, str) else list(agent or [])
        self.options = {
            "output_dir": output_dir,
            "test_file": test_file or None,
            "agent": None,  # ``settings()``: the one agent's spec; several have each their own
            "agent_version": agent_version,
            "quick": quick,
            "concurrency": concurrency,
            "timeout_s": timeout_s,
            "repeat": repeat,
            "use_cache": use_cache,
            "database": database or None,
            "pass_threshold": fail_under if fail_under is not None else pass_threshold,
            "gate": gate,
            "test_suite_databases": test_suite_databases,
            "sql_timeout_s": sql_timeout_s,
            "sql_max_rows": sql_max_rows,
            "max_answer_rows": max_answer_rows,
            "max_insight_chars": max_insight_chars,
            "max_sql_chars": max_sql_chars,
            "max_answer_bytes": max_answer_bytes,
            "label": label,
            "baseline": baseline,
        }
        self.dagster_home = dagster_home

    def settings(self) -> RunSettings:
        """These options resolved now (given, else environment, else default), as the run's
        ``evaluation`` resource will see them; raises SettingsError naming a bad value."""
        options = dict(self.options)
        if len(self.agent_texts) == 1:
            options["agent"] = _spec(self.agent_texts[0])
        return resolve_run_settings(options)

    def agents(self) -> list[LabelledAgent]:
        """The agents to evaluate, each with its label: those given, else the one the settings
        name; raises AgentSpecError for a bad label or two agents of one label."""
        settings = self.settings()
        if not self.agent_texts:
            return [LabelledAgent(settings.agent, settings.agent, settings.agent_version)]
        return labelled_agents(self.agent_texts, settings.agent_version)

    def run_config(self, agent: LabelledAgent | None = None, *, several: bool = False) -> dict:
        """The run config of ``agent``'s run (default: the first agent), every option resolved (what
        `-c run_config.yaml` would say); with ``several``, its reports in a folder of its own."""
        config = partition_run_config(self.settings(), agent or self.agents()[0], several=several)
        # Our own console report replaces Dagster's event log on the terminal.
        config["loggers"] = {"console": {"config": {"log_level": "CRITICAL"}}}
        return config

    def check_inputs(self) -> CheckedInputs:
        """Check the options and labels, the case file (gold SQL and expected tables included), each
        agent's spec and that a service agent is reachable, before any run starts or any state is
        written; raises ``EvaluationInputError`` naming what is wrong."""
        try:
            settings = self.settings()
            agents = self.agents()
            _, cases = checked_test_cases(settings)
            fingerprints = {}
            for agent in agents:
                adapter = resolve_agent(
                    agent.spec,
                    agent_version=agent.version,
                    database=ensure_database(settings.database_path()),
                    timeout_s=settings.timeout_s,
                )
                if hasattr(adapter, "check"):  # a service: reachable at all?
                    adapter.check()
                fingerprints[agent.label] = adapter.fingerprint()
                if hasattr(adapter, "close"):
                    adapter.close()
        except NabahanError as exc:  # the user's mistake, reported as one line (errors.py)
            raise EvaluationInputError(str(exc)) from None
        return CheckedInputs(cases, agents, fingerprints)

    def run_tags(self, checked: CheckedInputs, agent: LabelledAgent | None = None) -> dict[str, str]:
        """The tags of ``agent``'s run (default: the first agent), shown in the Dagster UI's runs list."""
        agent = agent or checked.agents[0]
        return {
            **resources.run_tags(settings_for_agent(self.settings(), agent)),
            **partition_run_tags(agent),
            "nabahan/agent_fingerprint": checked.fingerprints[agent.label],
            "nabahan/suite": suite_fingerprint(checked.cases),
            "nabahan/trigger": "nabahan eval",
        }

    def run_complete_pipeline(self, console: TextIO | None = None) -> dict[str, Any]:
        """Evaluate each agent (its partition of the evaluation group), then compare them when
        there are several.

        One agent: return ``summary``, ``results``, ``files``, ``checks``, ``run_id``,
        ``settings`` and ``agent_label``. Several: ``agents`` (that dict for each, by label),
        ``comparison`` (``agents``, ``cases``, ``disagreements``, ``run_id``) and ``files`` (the
        comparison's). Raises ``EvaluationInputError`` (one readable line) for a bad case file,
        agent spec or label, database or option, before a run starts: no state is written, no
        report touched.
        """
        return self.run(console).as_dict()

    def run(self, console: TextIO | None = None) -> EvaluationRun | ComparedRuns:
        """``run_complete_pipeline`` with the tables as they are, not as records (which, for
        100,000 answers, hold a third of a gigabyte): what `nabahan eval` needs. One agent: its
        EvaluationRun; several: ComparedRuns."""
        checked = self.check_inputs()
        several = len(checked.agents) > 1
        with open_instance(self.dagster_home) as instance:
            register_agents(instance, checked.agents)
            runs = {agent.label: self._evaluate(instance, checked, agent, several, console)
                    for agent in checked.agents}
            if not several:
                return runs[checked.agents[0].label]
            return self._compare(instance, checked, runs, console)

    def _evaluate(
        self, instance: dg.DagsterInstance, checked: CheckedInputs, agent: LabelledAgent, several: bool,
        console: TextIO | None,
    ) -> EvaluationRun:
        """One agent's run: its partition of the evaluation job, in this process."""
        run_config = self.run_config(agent, several=several)
        settings = resolve_run_settings(run_config["resources"]["evaluation"]["config"])
        live = LiveConsole(console, repeat=settings.repeat) if console is not None else None
        if console is not None:
            print(header(timestamp=datetime.now().isoformat(timespec="seconds"), cases=len(checked.cases),
                         output_dir=settings.output_path(), agent=settings.agent,
                         label=settings.run_label(), repeat=settings.repeat), file=console, flush=True)
        try:
            job = _definitions().resolve_job_def(evaluation_job.name)
            with watching(live) if live is not None else nullcontext():
                result = job.execute_in_process(
                    run_config=run_config, instance=instance, partition_key=agent.label,
                    tags=self.run_tags(checked, agent),
                )
        except NabahanError as exc:  # execute_in_process raises the step's own exception
            raise EvaluationInputError(str(exc)) from None
        except dg.DagsterInvalidConfigError as exc:
            raise EvaluationInputError(f"invalid options: {exc}") from None
        except dg.DagsterExecutionInterruptedError:  # Dagster's form of Ctrl-C
            raise KeyboardInterrupt from None
        finally:
            if live is not None:
                live.close()
        scores: pd.DataFrame = result.asset_value("case_scores")
        summary: pd.DataFrame = result.asset_value("evaluation_summary")
        files = _materialized_paths(result, "evaluation_reports")
        files.update(_materialized_paths(result, "evaluation_charts"))
        checks = {evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()}
        if console is not None:
            print(summary_text(scores, summary), file=console)
            print(files_text(files, settings.output_path()), file=console)
            print(footer(summary), file=console)
            failed = [name for name, passed in checks.items() if not passed]
            if failed:
                print(f"checks not passed: {', '.join(failed)}", file=console)
        return EvaluationRun(scores, summary, files, checks, result.run_id, settings.as_config(), agent.label)

    def _compare(
        self, instance: dg.DagsterInstance, checked: CheckedInputs, runs: dict[str, EvaluationRun],
        console: TextIO | None,
    ) -> ComparedRuns:
        """The comparison of the agents just evaluated: the agent_comparison asset, in this process."""
        labels = [agent.label for agent in checked.agents]
        run_config = settings_run_config(**self.settings().as_config())
        run_config["ops"] = {"agent_comparison": {"config": {"agents": labels}}}
        run_config["loggers"] = {"console": {"config": {"log_level": "CRITICAL"}}}
        job = _definitions().resolve_job_def(comparison_job.name)
        result = job.execute_in_process(
            run_config=run_config, instance=instance,
            tags={"nabahan/trigger": "nabahan eval", "nabahan/agents": ",".join(labels)},
        )
        agents: pd.DataFrame = result.asset_value("agent_comparison")
        metadata = _metadata(result, "agent_comparison")
        files = _materialized_paths(result, "agent_comparison")
        if console is not None:
            print(comparison_text(agents, cases=int(metadata["cases"]), disagreements=int(metadata["disagreements"]),
                                  files=files), file=console)
        return ComparedRuns(runs, agents, int(metadata["cases"]), int(metadata["disagreements"]), files, result.run_id)


class EvaluationRun(NamedTuple):
    """A finished run: its case_scores and evaluation_summary tables, the files written, the
    checks' verdicts, its run id, the options it ran with and its agent's label."""

    scores: pd.DataFrame
    summary: pd.DataFrame
    files: dict[str, str]
    checks: dict[str, bool]
    run_id: str
    settings: dict[str, Any]
    agent_label: str

    def as_dict(self) -> dict[str, Any]:
        """What ``run_complete_pipeline`` returns for one agent: the overall figures (``summary``,
        with ``categories``), every answer's scores as a record (``results``), and the rest."""
        return {
            "agent_label": self.agent_label,
            "summary": summary_dict(self.summary),
            "results": json.loads(self.scores.to_json(orient="records", force_ascii=False)),
            "files": self.files,
            "checks": self.checks,
            "run_id": self.run_id,
            "settings": self.settings,
        }


class ComparedRuns(NamedTuple):
    """Several agents evaluated and compared: each one's run by label, the agent_comparison table,
    how many cases and disagreements, the comparison's files and its run id."""

    runs: dict[str, EvaluationRun]
    agents: pd.DataFrame
    cases: int
    disagreements: int
    files: dict[str, str]
    run_id: str

    def as_dict(self) -> dict[str, Any]:
        """What ``run_complete_pipeline`` returns for several agents."""
        return {
            "agents": {label: run.as_dict() for label, run in self.runs.items()},
            "comparison": {
                "agents": json.loads(self.agents.to_json(orient="records", force_ascii=False)),
                "cases": self.cases,
                "disagreements": self.disagreements,
                "run_id": self.run_id,
            },
            "files": self.files,
        }


def _spec(text: str) -> str:
    """The spec of an agent given as SPEC or NAME=SPEC (a bad label is reported by ``agents()``)."""
    try:
        return labelled_agent(text).spec
    except AgentSpecError:
        return text


def _definitions() -> dg.Definitions:
    from nabahan_pipeline.definitions import defs

    return defs


def _metadata(result: dg.ExecuteInProcessResult, node: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for event in result.asset_materializations_for_node(node):
        values.update({key: value.value for key, value in event.metadata.items()})
    return values


def _materialized_paths(result: dg.ExecuteInProcessResult, node: str) -> dict[str, str]:
    return {
        key: str(value)
        for key, value in _metadata(result, node).items()
        if isinstance(value, str) and (key.endswith("_csv") or key.endswith(".png"))
    }
