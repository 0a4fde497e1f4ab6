"""The run's options as one Dagster resource, settable from run config (`-c run_config.yaml`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import dagster as dg

from nabahan_pipeline.agents.contract import AnswerLimits
from nabahan_pipeline.agents.registry import effective_spec
from nabahan_pipeline.etimad_db.store import MAX_SUITE_DATABASES
from nabahan_pipeline.evaluation.agent_sql import DEFAULT_MAX_ROWS, DEFAULT_SQL_TIMEOUT_S
from nabahan_pipeline.evaluation.summary import GATES
from nabahan_pipeline.locations import DEFAULT_OUTPUT_DIR, SHIPPED_TEST_CASES


class EvaluationSettings(dg.ConfigurableResource):
    """What to evaluate and how: the case file, the agent, concurrency, outputs, thresholds.

    The case file, output directory, agent and database, when not set, come from the environment
    at run time (NABAHAN_TEST_FILE, NABAHAN_OUTPUT_DIR, NABAHAN_AGENT, NABAHAN_DATABASE), then from
    the built-in defaults; so run config that sets a few options keeps the environment's others.
    """

    test_file: Optional[str] = None
    output_dir: Optional[str] = None
    label: Optional[str] = None
    baseline: Optional[str] = None
    agent: Optional[str] = None
    agent_version: Optional[str] = None
    database: Optional[str] = None
    quick: bool = False
    concurrency: int = 8
    timeout_s: float = 30.0
    repeat: int = 1
    use_cache: bool = False
    pass_threshold: float = 0.8
    gate: str = "correct_rate"
    test_suite_databases: int = 3
    sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S
    sql_max_rows: int = DEFAULT_MAX_ROWS
    max_answer_rows: int = AnswerLimits.max_rows
    max_insight_chars: int = AnswerLimits.max_insight_chars
    max_sql_chars: int = AnswerLimits.max_sql_chars
    max_answer_bytes: int = AnswerLimits.max_answer_bytes

    def case_file(self) -> Path:
        """The JSON case file: configured, else $NABAHAN_TEST_FILE, else the shipped suite."""
        chosen = self.test_file or os.environ.get("NABAHAN_TEST_FILE")
        return Path(chosen).expanduser() if chosen else SHIPPED_TEST_CASES

    def output_path(self) -> Path:
        """Where reports go: configured, else $NABAHAN_OUTPUT_DIR, else evaluation/results."""
        chosen = self.output_dir or os.environ.get("NABAHAN_OUTPUT_DIR")
        return Path(chosen).expanduser() if chosen else DEFAULT_OUTPUT_DIR

    def database_path(self) -> Optional[Path]:
        """The evaluation database: configured, else $NABAHAN_DATABASE, else None (embedded)."""
        chosen = self.database or os.environ.get("NABAHAN_DATABASE")
        return Path(chosen).expanduser() if chosen else None

    def run_label(self) -> str:
        """The run's label: the one given, else the agent spec and the case file's name."""
        return self.label or f"{effective_spec(self.agent)} · {self.case_file().name}"

    def run_tags(self) -> dict[str, str]:
        """Tags that tell this run apart in the Dagster UI's runs list: its label and agent."""
        return {"nabahan/label": self.run_label(), "nabahan/agent": effective_spec(self.agent)}

    def test_suite_size(self) -> int:
        """How many test-suite databases to use: none when the evaluation database is not the
        embedded one (the generator's other seeds say nothing about another database)."""
        return 0 if self.database_path() is not None else self.test_suite_databases

    def answer_limits(self) -> AnswerLimits:
        """The caps on an agent's answer (rows, insight and SQL characters, HTTP body bytes)."""
        return AnswerLimits(
            max_rows=self.max_answer_rows,
            max_insight_chars=self.max_insight_chars,
            max_sql_chars=self.max_sql_chars,
            max_answer_bytes=self.max_answer_bytes,
        )

    def problems(self) -> list[str]:
        """What is wrong with these options, each naming the option; empty when all is well."""
        found = []
        if self.concurrency < 1:
            found.append(f"concurrency must be at least 1, got {self.concurrency}")
        if self.timeout_s <= 0:
            found.append(f"timeout_s must be greater than 0, got {self.timeout_s}")
        if self.repeat < 1:
            found.append(f"repeat must be at least 1, got {self.repeat}")
        if not 0 <= self.pass_threshold <= 1:
            found.append(f"pass_threshold must be between 0 and 1, got {self.pass_threshold}")
        if self.gate not in GATES:
            found.append(f"gate must be one of {', '.join(GATES)}, got {self.gate!r}")
        if not 0 <= self.test_suite_databases <= MAX_SUITE_DATABASES:
            found.append(f"test_suite_databases must be 0 to {MAX_SUITE_DATABASES}, got {self.test_suite_databases}")
        if self.sql_timeout_s <= 0:
            found.append(f"sql_timeout_s must be greater than 0, got {self.sql_timeout_s}")
        if self.sql_max_rows < 1:
            found.append(f"sql_max_rows must be at least 1, got {self.sql_max_rows}")
        found += self.answer_limits().problems()
        return found


def settings_values(settings: EvaluationSettings) -> dict[str, Any]:
    """Every option of ``settings`` by name, for run config that must keep all of them.

    Run config for the ``evaluation`` resource replaces the code location's configured values as a
    whole, so a sensor or schedule that sets one option carries the others along.
    """
    return {name: getattr(settings, name) for name in type(settings).model_fields}
