"""Any Python callable with the contract (spec ``python:package.module:function``); the module is
looked up on the import path, in the working directory and in the folders its registry entry names
(``agent_folder``: where it was found when it was registered)."""

from __future__ import annotations

import importlib
import importlib.machinery
import inspect
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.agents.fingerprint import compose, python_sources, source_hash
from nabahan_pipeline.errors import AgentSpecError


class PythonCallableAgent(Agent):
    """Imports ``package.module:function`` and calls it with (question, filters)."""

    def __init__(self, spec: str, agent_version: str | None = None, folders: Sequence[str] = ()) -> None:
        self.spec = spec
        module_name, attr = parse_python_spec(spec)
        # Put on the import path (its module may import more as it answers), taken off at close.
        self._added_paths = [folder for folder in dict.fromkeys([os.getcwd(), *folders]) if folder not in sys.path]
        sys.path.extend(self._added_paths)
        try:
            module = _import(spec, module_name, folders)
        except AgentSpecError:
            self.close()
            raise
        func: Any = module
        for part in attr.split("."):
            func = getattr(func, part, None)
            if func is None:
                raise AgentSpecError(f"agent spec {spec!r}: module {module_name!r} has no {attr!r}")
        if not callable(func):
            raise AgentSpecError(f"agent spec {spec!r}: {attr!r} is not callable")
        self._func = func
        self.module_name = module_name
        source = getattr(module, "__file__", None)
        self.module_file: str | None = source if source and Path(source).is_file() else None
        self._agent_version = agent_version
        self._takes_filters = _accepts_two_arguments(func)

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """Call the function (without ``filters`` when it takes only the question)."""
        if self._takes_filters:
            return self._func(question, filters)
        return self._func(question)

    def fingerprint(self) -> str:
        """Spec plus the source hash of the package (or folder) the callable's module is loaded from."""
        return python_fingerprint(self.spec, self.module_name, self.module_file, self._agent_version)

    def close(self) -> None:
        """Take the folders this agent put on the import path off it again."""
        for folder in self._added_paths:
            if folder in sys.path:
                sys.path.remove(folder)
        self._added_paths = []


def parse_python_spec(spec: str) -> tuple[str, str]:
    """``python:package.module:function`` -> (module name, attribute path); AgentSpecError otherwise."""
    module_name, sep, attr = spec.removeprefix("python:").partition(":")
    if not sep or not module_name or not attr:
        raise AgentSpecError(f"agent spec {spec!r}: expected 'python:package.module:function'")
    return module_name, attr


def python_fingerprint(spec: str, module_name: str, module_file: str | None, agent_version: str | None) -> str:
    """A ``python:`` agent's fingerprint: its spec, its package's (or folder's) source hash, its version."""
    sources = python_sources(module_name, Path(module_file)) if module_file else []
    return compose(spec, source_hash(sources) if sources else None, agent_version)


def agent_folder(spec: str) -> str | None:
    """The folder this process finds a ``python:`` agent's module in, unimported; None when it is
    not found or is this interpreter's own (the standard library, a package), as every process has."""
    top = parse_python_spec(spec)[0].partition(".")[0]
    own = tuple(os.path.join(os.path.realpath(prefix), "") for prefix in {sys.prefix, sys.base_prefix})
    for entry in [*sys.path, os.getcwd()]:
        folder = os.path.abspath(entry or os.curdir)
        if importlib.machinery.PathFinder.find_spec(top, [folder]) is not None:
            return None if os.path.join(os.path.realpath(folder), "").startswith(own) else folder
    return None


def _import(spec: str, module_name: str, folders: Sequence[str] = ()) -> Any:
    """Import the agent's module (from the working directory and ``folders`` too); a failure is one
    line naming the file and line, or the folders looked in."""
    searched = list(dict.fromkeys([os.getcwd(), *folders]))  # on the path already (PythonCallableAgent)
    try:
        return importlib.import_module(module_name)
    except SyntaxError as exc:
        where = f"{exc.filename}:{exc.lineno}" if exc.filename else f"line {exc.lineno}"
        raise AgentSpecError(f"agent spec {spec!r}: {where}: SyntaxError: {exc.msg}") from None
    except ImportError as exc:
        missing = isinstance(exc, ModuleNotFoundError) and exc.name and f"{module_name}.".startswith(f"{exc.name}.")
        looked = f"; looked in {', '.join(searched)} and the installed packages" if missing else ""
        raise AgentSpecError(f"agent spec {spec!r}: cannot import module {module_name!r} ({exc}){looked}") from None
    except Exception as exc:  # the module's own code failed while importing
        raise AgentSpecError(
            f"agent spec {spec!r}: importing {module_name!r} raised {type(exc).__name__}: {exc}"
        ) from None


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

