"""A python: agent called in this process: its module found in the folders given, and those
folders taken off the import path again when it closes (the path does not only grow)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nabahan_pipeline.agents.python_callable import PythonCallableAgent
from nabahan_pipeline.errors import AgentSpecError


def test_the_folders_it_adds_to_the_import_path_go_when_it_closes(tmp_path: Path) -> None:
    (tmp_path / "folder_agent_x7.py").write_text("def answer(question):\n    return {'status': 'error'}\n")
    before = list(sys.path)
    agent = PythonCallableAgent("python:folder_agent_x7:answer", folders=[str(tmp_path)])
    try:
        assert str(tmp_path) in sys.path and agent.ask("q") == {"status": "error"}
    finally:
        agent.close()
        sys.modules.pop("folder_agent_x7", None)
    assert sys.path == before


def test_an_agent_that_fails_to_load_leaves_the_path_as_it_was(tmp_path: Path) -> None:
    before = list(sys.path)
    with pytest.raises(AgentSpecError, match="cannot import module 'no_such_agent_x7'"):
        PythonCallableAgent("python:no_such_agent_x7:answer", folders=[str(tmp_path)])
    assert sys.path == before
