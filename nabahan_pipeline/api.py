"""The Python API: run the evaluation job of the code location on a persistent Dagster instance.

    from nabahan_pipeline import NabahanEvaluationPipeline
    result = NabahanEvaluationPipeline(output_dir="evaluation/results").run_complete_pipeline()
    result["summary"]["pass_rate"]  # a fraction

There is no second code path: this runs the same assets as `dagster dev` and `dagster asset
materialize`, and keeps run history and Parquet between runs (see ``settings``). An option not
given here comes from its environment variable, else its default, as everywhere (``settings``).
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import dagster as dg
import pandas as pd

from nabahan_pipeline.agents.registry import resolve_agent
from nabahan_pipeline.errors import EvaluationInputError, NabahanError
from nabahan_pipeline.etimad_db.store import ensure_database
from nabahan_pipeline.console import LiveConsole, files_text, footer, header, summary_text
from nabahan_pipeline.evaluation.summary import summary_dict
from nabahan_pipeline.evaluation.cases import suite_fingerprint
from nabahan_pipeline.files import atomic_open, file_lock
from nabahan_pipeline.orchestration.assets import checked_test_cases
from nabahan_pipeline.orchestration.jobs import evaluation_job, settings_run_config
from nabahan_pipeline.orchestration import resources
from nabahan_pipeline.progress import watching
from nabahan_pipeline.settings import RunSettings, dagster_home, resolve_run_settings

__all__ = ["EvaluationInputError", "EvaluationRun", "NabahanEvaluationPipeline", "open_instance"]

_INSTANCE_YAML = """\
# Dagster instance of the Nabahan evaluation's own entry points (nabahan eval, the Python API).
telemetry:
  enabled: false
"""


def open_instance(home: str | Path | None = None) -> dg.DagsterInstance:
    """The persistent Dagster instance at ``home`` (default: $DAGSTER_HOME or $NABAHAN_HOME/dagster)."""
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
    """What ``check_inputs`` found: the cases to be asked and the agent's fingerprint."""

    cases: pd.DataFrame
    agent_fingerprint: str


class NabahanEvaluationPipeline:
    """One evaluation run's options; ``run_complete_pipeline`` materializes the evaluation group.

    An option left None is not given: it comes from its environment variable (NABAHAN_<OPTION>),
    else its default, when the options are resolved (``settings()``)."""

    def __init__(
        self,
        output_dir: str | Path | None = None,
        *,
        test_file: str | Path | None = None,
        agent: str | None = None,
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
        self.options = {
            "output_dir": output_dir,
            "test_file": test_file or None,
            "agent": agent,
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
        return resolve_run_settings(self.options)

    def run_config(self) -> dict:
        """The run config of these options, every one resolved (what `-c run_config.yaml` would say)."""
        config = settings_run_config(**self.settings().as_config())
        # Our own console report replaces Dagster's event log on the terminal.
        config["loggers"] = {"console": {"config": {"log_level": "CRITICAL"}}}
        return config

    def check_inputs(self) -> CheckedInputs:
        """Check the options, the case file (gold SQL and expected tables included), the agent spec
        and that a service agent is reachable, before any run starts or any state is written;
        raises ``EvaluationInputError`` naming what is wrong."""
        try:
            settings = self.settings()
            _, cases = checked_test_cases(settings)
            agent = resolve_agent(
                settings.agent,
                agent_version=settings.agent_version,
                database=ensure_database(settings.database_path()),
                timeout_s=settings.timeout_s,
            )
            if hasattr(agent, "check"):  # a service: reachable at all?
                agent.check()
            fingerprint = agent.fingerprint()
            if hasattr(agent, "close"):
                agent.close()
        except NabahanError as exc:  # the user's mistake, reported as one line (errors.py)
            raise EvaluationInputError(str(exc)) from None
        return CheckedInputs(cases, fingerprint)

    def run_tags(self, checked: CheckedInputs) -> dict[str, str]:
        """The run's tags, shown in the Dagster UI's runs list."""
        return {
            **resources.run_tags(self.settings()),
            "nabahan/agent_fingerprint": checked.agent_fingerprint,
            "nabahan/suite": suite_fingerprint(checked.cases),
            "nabahan/trigger": "nabahan eval",
        }

    def run_complete_pipeline(self, console: TextIO | None = None) -> dict[str, Any]:
        """Materialize the evaluation group; return ``summary``, ``results``, ``files`` and more.

        Raises ``EvaluationInputError`` (one readable line) for a bad case file, agent spec,
        database or option, before a run starts: no state is written, no report touched.
        """
        return self.run(console).as_dict()

    def run(self, console: TextIO | None = None) -> EvaluationRun:
        """``run_complete_pipeline`` with the tables as they are, not as records (which, for
        100,000 answers, hold a third of a gigabyte): what `nabahan eval` needs."""
        checked = self.check_inputs()
        settings = self.settings()
        live = LiveConsole(console, repeat=settings.repeat) if console is not None else None
        if console is not None:
            print(header(timestamp=datetime.now().isoformat(timespec="seconds"), cases=len(checked.cases),
                         output_dir=settings.output_path(), agent=settings.agent,
                         label=settings.run_label(), repeat=settings.repeat), file=console, flush=True)
        instance = open_instance(self.dagster_home)
        try:
            try:
                job = _definitions().resolve_job_def(evaluation_job.name)
                with watching(live) if live is not None else nullcontext():
                    result = job.execute_in_process(
                        run_config=self.run_config(), instance=instance, tags=self.run_tags(checked)
                    )
            except NabahanError as exc:  # execute_in_process raises the step's own exception
                raise EvaluationInputError(str(exc)) from None
            except dg.DagsterInvalidConfigError as exc:
                raise EvaluationInputError(f"invalid options: {exc}") from None
            except dg.DagsterExecutionInterruptedError:  # Dagster's form of Ctrl-C
                raise KeyboardInterrupt from None
            scores: pd.DataFrame = result.asset_value("case_scores")
            summary: pd.DataFrame = result.asset_value("evaluation_summary")
            files = _materialized_paths(result, "evaluation_reports")
            files.update(_materialized_paths(result, "evaluation_charts"))
            checks = {
                evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()
            }
        finally:
            if live is not None:
                live.close()
            instance.dispose()
        if console is not None:
            print(summary_text(scores, summary), file=console)
            print(files_text(files, settings.output_path()), file=console)
            print(footer(summary), file=console)
            failed = [name for name, passed in checks.items() if not passed]
            if failed:
                print(f"checks not passed: {', '.join(failed)}", file=console)
        return EvaluationRun(scores, summary, files, checks, result.run_id, settings.as_config())


class EvaluationRun(NamedTuple):
    """A finished run: its case_scores and evaluation_summary tables, the files written, the
    checks' verdicts, its run id and the options it ran with."""

    scores: pd.DataFrame
    summary: pd.DataFrame
    files: dict[str, str]
    checks: dict[str, bool]
    run_id: str
    settings: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """What ``run_complete_pipeline`` returns: the overall figures (``summary``, with
        ``categories``), every answer's scores as a record (``results``), and the rest."""
        return {
            "summary": summary_dict(self.summary),
            "results": json.loads(self.scores.to_json(orient="records", force_ascii=False)),
            "files": self.files,
            "checks": self.checks,
            "run_id": self.run_id,
            "settings": self.settings,
        }


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
