"""Any Python callable with the contract (spec ``python:package.module:function``)."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

from nabahan_pipeline.agents.fingerprint import compose, source_hash
from nabahan_pipeline.agents.registry import AgentSpecError


class PythonCallableAgent:
    """Imports ``package.module:function`` and calls it with (question, filters)."""

    def __init__(self, spec: str, agent_version: str | None = None) -> None:
        self.spec = spec
        target = spec.removeprefix("python:")
        module_name, sep, attr = target.partition(":")
        if not sep or not module_name or not attr:
            raise AgentSpecError(f"agent spec {spec!r}: expected 'python:package.module:function'")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AgentSpecError(f"agent spec {spec!r}: cannot import module {module_name!r} ({exc})") from None
        func: Any = module
        for part in attr.split("."):
            func = getattr(func, part, None)
            if func is None:
                raise AgentSpecError(f"agent spec {spec!r}: module {module_name!r} has no {attr!r}")
        if not callable(func):
            raise AgentSpecError(f"agent spec {spec!r}: {attr!r} is not callable")
        self._func = func
        self._module = module
        self._agent_version = agent_version
        self._takes_filters = _accepts_two_arguments(func)

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Call the function (without ``filters`` when it takes only the question)."""
        if self._takes_filters:
            return self._func(question, filters)
        return self._func(question)

    def fingerprint(self) -> str:
        """Spec plus the source hash of the callable's module."""
        source = getattr(self._module, "__file__", None)
        module_hash = source_hash([Path(source)]) if source and Path(source).is_file() else None
        return compose(self.spec, module_hash, self._agent_version)


def _accepts_two_arguments(func: Any) -> bool:
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return True
    try:
        signature.bind("question", None)
    except TypeError:
        return False
    return True
