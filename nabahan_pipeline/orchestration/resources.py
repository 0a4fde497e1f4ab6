"""The run's options as one Dagster resource, settable from run config (`-c run_config.yaml`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import dagster as dg

from nabahan_pipeline.locations import DEFAULT_OUTPUT_DIR, SHIPPED_TEST_CASES


class EvaluationSettings(dg.ConfigurableResource):
    """What to evaluate and how: the case file, the agent, concurrency, outputs, thresholds."""

    test_file: Optional[str] = None
    output_dir: str = str(DEFAULT_OUTPUT_DIR)
    agent: Optional[str] = None
    agent_version: Optional[str] = None
    database: Optional[str] = None
    quick: bool = False
    concurrency: int = 8
    timeout_s: float = 30.0
    repeat: int = 1
    use_cache: bool = False
    pass_threshold: float = 0.8

    def case_file(self) -> Path:
        """The JSON case file: the configured one, else the shipped suite."""
        return Path(self.test_file).expanduser() if self.test_file else SHIPPED_TEST_CASES

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
        return found


def settings_values(settings: EvaluationSettings) -> dict[str, Any]:
    """Every option of ``settings`` by name, for run config that must keep all of them.

    Run config for the ``evaluation`` resource replaces the code location's configured values as a
    whole (an option it leaves out falls back to the class default, not to the location's value),
    so a sensor or schedule that sets one option has to carry the others along.
    """
    return {name: getattr(settings, name) for name in type(settings).model_fields}


def environment_settings() -> EvaluationSettings:
    """The code location's settings, read from the environment now (as definitions.py builds them)."""
    return EvaluationSettings(
        test_file=os.environ.get("NABAHAN_TEST_FILE") or None,
        output_dir=os.environ.get("NABAHAN_OUTPUT_DIR") or str(DEFAULT_OUTPUT_DIR),
        agent=os.environ.get("NABAHAN_AGENT") or None,
        database=os.environ.get("NABAHAN_DATABASE") or None,
    )
