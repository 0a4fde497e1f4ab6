"""What identifies a ``python:`` agent's version: every source file of its package, or of its folder."""

from __future__ import annotations

from pathlib import Path

from nabahan_pipeline.agents.fingerprint import python_sources
from nabahan_pipeline.agents.python_callable import python_fingerprint


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_module_of_a_package_is_hashed_with_the_whole_package(tmp_path: Path):
    module = write(tmp_path / "shop" / "agents" / "answer.py", "def answer(q): ...\n")
    helper = write(tmp_path / "shop" / "prompts.py", "PROMPT = 'v1'\n")
    write(tmp_path / "shop" / "__init__.py")
    write(tmp_path / "shop" / "__pycache__" / "prompts.py", "stale")
    write(tmp_path / "unrelated.py")
    sources = python_sources("shop.agents.answer", module)
    assert sources == sorted([module, helper, tmp_path / "shop" / "__init__.py"])
    assert python_sources("shop", tmp_path / "shop" / "__init__.py") == sources

    before = python_fingerprint("python:shop.agents.answer:answer", "shop.agents.answer", str(module), None)
    helper.write_text("PROMPT = 'v2'\n", encoding="utf-8")
    after = python_fingerprint("python:shop.agents.answer:answer", "shop.agents.answer", str(module), None)
    assert after != before, "a changed helper module is a new agent"


def test_a_top_level_module_is_hashed_with_the_modules_of_its_folder_not_below(tmp_path: Path):
    module = write(tmp_path / "my_agent.py")
    helper = write(tmp_path / "my_helpers.py")
    write(tmp_path / "venv" / "lib" / "big.py")
    write(tmp_path / "notes.txt")
    assert python_sources("my_agent", module) == [module, helper]
