"""The embedded agent's fingerprint: it follows the agent's own code and nothing else, so that
cached answers are reused until an edit could change them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nabahan_pipeline.agents import embedded
from nabahan_pipeline.agents.embedded import EmbeddedAgent, agent_sources
from nabahan_pipeline.agents.fingerprint import source_hash

PACKAGE = Path(embedded.__file__).resolve().parent.parent


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the nabahan_pipeline package the embedded agent fingerprints instead of the real one."""
    copy = tmp_path / "nabahan_pipeline"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "data"))
    monkeypatch.setattr(embedded, "_PACKAGE", copy)
    return copy


def _fingerprint() -> str:
    return EmbeddedAgent().fingerprint()


def _edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")


def test_the_sources_are_the_agent_its_arabic_functions_and_its_reference_names() -> None:
    sources = {path.relative_to(PACKAGE).as_posix() for path in agent_sources()}
    assert {"reference_agent/agent.py", "reference_agent/parser/dates.py", "arabic/normalize.py"} <= sources
    assert "etimad_db/reference_data.py" in sources
    assert not {s for s in sources if s.startswith(("evaluation/", "agents/", "orchestration/"))}
    assert not {"etimad_db/generator.py", "etimad_db/store.py"} & sources


def test_the_fingerprint_is_stable(package: Path) -> None:
    assert _fingerprint() == _fingerprint()
    assert source_hash(agent_sources(package)) in _fingerprint()


@pytest.mark.parametrize(
    "edited",
    [
        "reference_agent/agent.py",
        "reference_agent/lexicon.py",
        "reference_agent/parser/dates.py",  # a module in a sub-package counts too
        "arabic/normalize.py",
        "etimad_db/reference_data.py",
    ],
)
def test_an_edit_of_the_agents_code_changes_the_fingerprint(package: Path, edited: str) -> None:
    before = _fingerprint()
    _edit(package / edited)
    assert _fingerprint() != before


def test_a_new_module_in_the_agent_changes_the_fingerprint(package: Path) -> None:
    before = _fingerprint()
    (package / "reference_agent" / "parser" / "extra.py").write_text('"""A new module."""\n', encoding="utf-8")
    assert _fingerprint() != before


@pytest.mark.parametrize("folder", ["etimad_db", "evaluation", "agents", "orchestration"])
def test_edits_elsewhere_keep_the_fingerprint(package: Path, folder: str) -> None:
    # Every module of the database generator, the evaluation, the adapters, the orchestration.
    before = _fingerprint()
    own = set(agent_sources(package))
    edited = [path for path in (package / folder).rglob("*.py") if path not in own]
    assert edited
    for path in edited:
        _edit(path)
    assert _fingerprint() == before


def test_the_agent_version_is_part_of_the_fingerprint(package: Path) -> None:
    assert EmbeddedAgent(agent_version="v2").fingerprint() == _fingerprint() + "|v2"
