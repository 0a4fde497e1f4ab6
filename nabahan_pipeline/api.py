"""The Python API: `NabahanEvaluationPipeline(...).run_complete_pipeline()` runs the same Dagster
assets as the CLI and `dagster dev`, on the home's persistent instance, and returns the results;
it prints nothing (``run``'s ``progress`` is told the run's events when a caller asks)."""

from __future__ import annotations

import inspect
import json
import sqlite3
import uuid
from contextlib import ExitStack
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, Optional

import dagster as dg
import pandas as pd

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.agents.labels import LabelledAgent, resolve_run
from nabahan_pipeline.agents.response_cache import ResponseCache
from nabahan_pipeline.agents.secrets import scrub, scrubbed_output
from nabahan_pipeline.errors import EvaluationInputError, NabahanError, StorageError
from nabahan_pipeline.evaluation.cases import suite_fingerprint
from nabahan_pipeline.evaluation.summary import summary_dict
from nabahan_pipeline.files import atomic_open, file_lock, storage_problem
from nabahan_pipeline.orchestration.assets import CheckedCases, check_output_folder, checked_test_cases
from nabahan_pipeline.orchestration.jobs import LOCATION_TAGS, comparison_job, evaluation_job, settings_run_config
from nabahan_pipeline.orchestration.partitions import (
    partition_run_tags, partition_settings, register_agents, run_tags,
)
from nabahan_pipeline.orchestration.resources import built_agent
from nabahan_pipeline.orchestration.run_owners import fail_runs_of_dead_processes, owner_tags, record_interrupted
from nabahan_pipeline.progress import Watcher, one_at_a_time, silent
from nabahan_pipeline.settings import (
    RUN_OPTIONS, RunSettings, dagster_home, nabahan_home, parquet_dir, response_cache_path,
)

__all__ = ["ComparedRuns", "EvaluationInputError", "EvaluationRun", "NabahanEvaluationPipeline", "open_instance"]

_INSTANCE_YAML = """\
# Dagster instance of `nabahan eval` and the Python API (`dagster dev` with this DAGSTER_HOME opens
# the same one); everything else is Dagster's default.
telemetry:
  enabled: false
"""


def open_instance(home: str | Path | None = None) -> dg.DagsterInstance:
    """The persistent Dagster instance at ``home`` (default: $DAGSTER_HOME or $NABAHAN_HOME/dagster),
    its dagster.yaml written on first use; runs our dead processes left unfinished marked failed."""
    home = dagster_home(home)
    # Creating Dagster's SQLite storage is not safe from two processes at once (both stamp its version).
    with file_lock(home / ".nabahan-instance.lock"):
        config = home / "dagster.yaml"
        if not config.exists():
            with atomic_open(config, "w", encoding="utf-8") as handle:
                handle.write(_INSTANCE_YAML)
        try:
            instance = dg.DagsterInstance.from_config(str(home))
        except Exception as exc:
            raise _unreadable_storage(home, exc) or exc
        try:
            fail_runs_of_dead_processes(instance)
        except BaseException as exc:
            instance.dispose()
            raise (_unreadable_storage(home, exc) if isinstance(exc, Exception) else None) or exc
        return instance


def check_state(settings: RunSettings, home: Path) -> None:
    """A StorageError, before any agent call, when the run's state (Dagster's home, the Parquet
    folder) could not be written or its response cache read."""
    for folder in (home, parquet_dir()):
        problem = storage_problem(folder)
        if problem is not None:
            raise StorageError(f"state folder {folder} ($NABAHAN_HOME {nabahan_home()}): {problem}")
    cache = response_cache_path()
    if settings.use_cache and cache.exists():
        ResponseCache(cache).close()


def _unreadable_storage(home: Path, exc: BaseException) -> StorageError | None:
    """A StorageError naming Dagster's storage under ``home`` when ``exc`` comes of a SQLite file
    that cannot be read (sqlite3's DatabaseError, or SQLAlchemy's wrapping it as ``orig``); else None."""
    seen: BaseException | None = exc
    while seen is not None:
        cause = getattr(seen, "orig", None)
        if isinstance(seen, sqlite3.DatabaseError) or isinstance(cause, sqlite3.DatabaseError):
            reason = cause if isinstance(cause, sqlite3.DatabaseError) else seen
            return StorageError(f"the Dagster run database under {home} cannot be read ({reason}); move "
                                f"{home} away to start a new run history")
        seen = seen.__cause__ or seen.__context__
    return None


class CheckedInputs(NamedTuple):
    """What ``check_inputs`` found: the options, the cases, the agents built and checked (by label)."""

    settings: RunSettings
    case_file: CheckedCases
    agents: list[LabelledAgent]
    built: dict[str, Agent]
    fingerprints: dict[str, str]


# The run options an argument of the API gives, and those whose empty value counts as not given.
_OPTIONS = tuple(setting.name for setting in RUN_OPTIONS)
_EMPTY_IS_UNSET = ("test_file", "database")


def options_signature() -> inspect.Signature:
    """NabahanEvaluationPipeline's signature as help() and editors show it: ``output_dir``, every
    run option of settings.py as a keyword (``**options``), ``agent``, ``fail_under``, ``dagster_home``."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature([
        inspect.Parameter("output_dir", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                          annotation=Optional[str | Path]),
        *(inspect.Parameter(setting.name, keyword, default=None, annotation=Optional[setting.argument_type])
          for setting in RUN_OPTIONS if setting.name not in ("output_dir", "agent")),
        inspect.Parameter("agent", keyword, default=None, annotation=Optional[str | Sequence[str]]),
        inspect.Parameter("fail_under", keyword, default=None, annotation=Optional[float | str]),
        inspect.Parameter("dagster_home", keyword, default=None, annotation=Optional[str | Path]),
    ], return_annotation=None)


class NabahanEvaluationPipeline:
    """One evaluation's options; ``run_complete_pipeline`` materializes the evaluation group for
    each agent (its partition), then compares several.

    An option left None comes from its variable (NABAHAN_<OPTION>), else its default, as a run
    starts. ``agent`` is one spec or a list to compare, each ``NAME=SPEC`` or labelled by itself.
    ``fail_under`` is ``pass_threshold``'s other name."""

    __signature__ = options_signature()  # what inspect.signature, help() and editors show

    def __init__(self, output_dir: str | Path | None = None, *, agent: str | Sequence[str] | None = None,
                 fail_under: float | str | None = None, dagster_home: str | Path | None = None,
                 **options: Any) -> None:
        unknown = [name for name in options if name not in _OPTIONS or name in ("output_dir", "agent")]
        if unknown:
            raise TypeError(f"NabahanEvaluationPipeline() got an unexpected keyword argument {unknown[0]!r}")
        self.agent_texts = [agent] if isinstance(agent, str) else list(agent or [])
        given = {name: options.get(name) for name in _OPTIONS if name != "agent"}
        given.update({name: given[name] or None for name in _EMPTY_IS_UNSET})
        given["output_dir"] = output_dir
        if fail_under is not None:
            given["pass_threshold"] = fail_under
        self.options = given
        self.dagster_home = dagster_home
        self._fixed: tuple[RunSettings, list[LabelledAgent]] | None = None

    @classmethod
    def resolved(cls, settings: RunSettings, agents: Sequence[LabelledAgent],
                 dagster_home: str | Path | None = None) -> NabahanEvaluationPipeline:
        """A pipeline of options and agents already resolved (`nabahan eval`'s, before Dagster loads)."""
        pipeline = cls(dagster_home=dagster_home)
        pipeline._fixed = (settings, list(agents))
        return pipeline

    def _resolve(self) -> tuple[RunSettings, list[LabelledAgent]]:
        """The options and the agents, resolved now (or as they were given resolved)."""
        return self._fixed or resolve_run(self.options, self.agent_texts)

    def settings(self) -> RunSettings:
        """These options resolved now, as a run started now gets them; SettingsError for a bad value."""
        return self._resolve()[0]

    def check_inputs(self) -> CheckedInputs:
        """Check the options, labels, case file and agents (a service reachable) before any run
        starts or state is written; ``EvaluationInputError`` names what is wrong."""
        with ExitStack() as stack:
            return self._check(stack)

    def _check(self, stack: ExitStack) -> CheckedInputs:
        """``check_inputs``, each agent kept open (built and checked by its resource) until ``stack`` closes."""
        try:
            settings, agents = self._resolve()
            cases = checked_test_cases(settings)
            if settings.judge:  # its base URL checked now; its calls' failures are recorded, never raised
                from nabahan_pipeline.evaluation.judge import Judge

                Judge(settings.judge).close()
            several = len(agents) > 1
            check_output_folder(settings)
            for agent in agents:
                check_output_folder(partition_settings(settings, agent, several=several))
            check_state(settings, dagster_home(self.dagster_home))
            # In memory: the instance our runs keep is opened once every input is checked.
            building = stack.enter_context(dg.DagsterInstance.ephemeral())
            with scrubbed_output():  # what an agent's module prints as it loads
                built = {agent.label: stack.enter_context(built_agent(partition_settings(settings, agent,
                                                                                         several=several), building))
                         for agent in agents}
        except NabahanError as exc:  # the user's mistake, reported as one line (errors.py), scrubbed
            raise EvaluationInputError(scrub(str(exc))) from None
        except dg.DagsterResourceFunctionError as exc:  # an agent's own check, raised within Dagster's
            if isinstance(exc.__cause__, NabahanError):
                raise EvaluationInputError(scrub(str(exc.__cause__))) from None
            raise
        fingerprints = {label: agent.fingerprint() for label, agent in built.items()}
        return CheckedInputs(settings, cases, agents, built, fingerprints)

    def run_tags(self, checked: CheckedInputs, agent: LabelledAgent | None = None) -> dict[str, str]:
        """The tags of ``agent``'s run (default: the first), shown in the Dagster UI's runs list."""
        agent = agent or checked.agents[0]
        return {
            **run_tags(partition_settings(checked.settings, agent, several=False)),
            **partition_run_tags(agent),
            "nabahan/agent_fingerprint": checked.fingerprints[agent.label],
            "nabahan/suite": suite_fingerprint(checked.case_file.cases),
            "nabahan/trigger": "nabahan eval",
            **owner_tags(),
            **LOCATION_TAGS,
        }

    def run_complete_pipeline(self, progress: Watcher | None = None) -> dict[str, Any]:
        """Evaluate each agent (its partition), then compare several; ``run`` as records.

        One agent: ``summary``, ``results``, ``files``, ``checks``, ``run_id``, ``settings``,
        ``agent_label``. Several: ``agents`` (that dict by label), ``comparison`` and ``files``.
        A bad input raises ``EvaluationInputError`` (one line) before any state is written."""
        return self.run(progress).as_dict()

    def run(self, progress: Watcher | None = None) -> EvaluationRun | ComparedRuns:
        """One agent's EvaluationRun, or several agents' ComparedRuns, the tables as they are (as
        records, 100,000 answers hold a third of a gigabyte). Prints nothing.

        ``progress`` (e.g. ``console.RunConsole``) is told, one event at a time, besides a run's
        own: ``registered`` (``agents``), ``run`` (``settings``, ``cases``), ``evaluated`` (``run``,
        ``responses``, ``cases``, ``golds``, ``robustness``), ``interrupted`` and ``compared``."""
        tell = one_at_a_time(progress) if progress is not None else silent
        with ExitStack() as stack:  # each agent closed once every run is done
            checked = self._check(stack)
            several = len(checked.agents) > 1
            with open_instance(self.dagster_home) as instance:
                # Each run has its agent's partition; the schedule and the sensor get it only when asked.
                register_agents(instance, checked.agents, scheduled=checked.settings.register_agents)
                if checked.settings.register_agents:
                    tell("registered", {"agents": checked.agents})
                runs = {agent.label: self._evaluate(instance, checked, agent, several, tell)
                        for agent in checked.agents}
                if not several:
                    return runs[checked.agents[0].label]
                compared = self._compare(instance, checked, runs)
                tell("compared", {"comparison": compared})
                return compared

    def _evaluate(self, instance: dg.DagsterInstance, checked: CheckedInputs, agent: LabelledAgent,
                  several: bool, tell: Watcher) -> EvaluationRun:
        """One agent's run: its partition of the evaluation job, in this process, with its checked inputs."""
        settings = partition_settings(checked.settings, agent, several=several)
        tell("run", {"settings": settings, "cases": len(checked.case_file.cases)})
        run_id = str(uuid.uuid4())  # known before the run, to record it canceled after Ctrl-C
        try:
            job = _definitions().resolve_job_def(evaluation_job.name)
            result = job.execute_in_process(
                run_config=_run_config(settings), instance=instance, partition_key=agent.label,
                tags=self.run_tags(checked, agent), run_id=run_id,
                resources={"agent": checked.built[agent.label], "checked_cases": checked.case_file, "progress": tell},
            )
        except NabahanError as exc:  # execute_in_process raises the step's own exception
            raise EvaluationInputError(str(exc)) from None
        except dg.DagsterInvalidConfigError as exc:
            raise EvaluationInputError(f"invalid options: {exc}") from None
        except (dg.DagsterExecutionInterruptedError, KeyboardInterrupt):  # the first is Dagster's form of Ctrl-C
            record_interrupted(instance, run_id)
            tell("interrupted", {})
            raise KeyboardInterrupt from None
        files = _materialized_paths(result, "evaluation_reports")
        charts = _materialized_paths(result, "evaluation_charts")  # this run's own, as its metadata names them
        for node in ("evaluation_charts", "evaluation_report_page", "robustness"):
            files.update(_materialized_paths(result, node))
        run = EvaluationRun(
            result.asset_value("case_scores"), result.asset_value("evaluation_summary"), files,
            {evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()},
            result.run_id, settings.as_config(), agent.label, tuple(charts),
        )
        if tell is not silent:
            tell("evaluated", {"run": run, "responses": result.asset_value("agent_responses"),
                               "cases": result.asset_value("test_cases"), "golds": checked.case_file.golds,
                               "robustness": result.asset_value("robustness") if settings.robustness else None})
        return run

    def _compare(self, instance: dg.DagsterInstance, checked: CheckedInputs,
                 runs: dict[str, EvaluationRun]) -> ComparedRuns:
        """The comparison of the agents just evaluated: the agent_comparison asset, in this process."""
        labels = [agent.label for agent in checked.agents]
        run_config = settings_run_config(**checked.settings.as_config())
        run_config["ops"] = {"agent_comparison": {"config": {"agents": labels}}}
        run_config["loggers"] = {"console": {"config": {"log_level": "CRITICAL"}}}
        job = _definitions().resolve_job_def(comparison_job.name)
        run_id = str(uuid.uuid4())
        try:
            result = job.execute_in_process(
                run_config=run_config, instance=instance, run_id=run_id,
                tags={"nabahan/trigger": "nabahan eval", "nabahan/agents": ",".join(labels), **owner_tags(),
                      **LOCATION_TAGS},
            )
        except (dg.DagsterExecutionInterruptedError, KeyboardInterrupt):
            record_interrupted(instance, run_id)
            raise KeyboardInterrupt from None
        metadata = _metadata(result, "agent_comparison")
        return ComparedRuns(runs, result.asset_value("agent_comparison"), int(metadata["cases"]),
                            int(metadata["disagreements"]), _materialized_paths(result, "agent_comparison"),
                            result.run_id, list(metadata.get("pairs") or []))


class EvaluationRun(NamedTuple):
    """A finished run: its tables, files, checks' verdicts, run id, options, label and charts."""

    scores: pd.DataFrame
    summary: pd.DataFrame
    files: dict[str, str]
    checks: dict[str, bool]
    run_id: str
    settings: dict[str, Any]
    agent_label: str
    charts: tuple[str, ...] = ()  # the names of ``files`` that are charts of the set

    def as_dict(self) -> dict[str, Any]:
        """What ``run_complete_pipeline`` returns for one agent."""
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
    cases, disagreements, files, run id, and each pair case by case (``paired_table``'s rows)."""

    runs: dict[str, EvaluationRun]
    agents: pd.DataFrame
    cases: int
    disagreements: int
    files: dict[str, str]
    run_id: str
    pairs: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        """What ``run_complete_pipeline`` returns for several agents."""
        return {
            "agents": {label: run.as_dict() for label, run in self.runs.items()},
            "comparison": {
                "agents": json.loads(self.agents.to_json(orient="records", force_ascii=False)),
                "cases": self.cases,
                "disagreements": self.disagreements,
                "pairs": self.pairs,
                "run_id": self.run_id,
            },
            "files": self.files,
        }


def _run_config(settings: RunSettings) -> dict[str, Any]:
    """The run config of a run of ``settings``; Dagster's console log silenced (ours reports)."""
    return {**settings_run_config(**settings.as_config()), "loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


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
        if isinstance(value, str) and key.endswith(("_csv", "_html", ".png"))
    }
