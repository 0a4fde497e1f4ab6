"""The two families of errors: a user mistake (NabahanError) is one line and exit code 2 at every
entry point, whatever its subclass; a problem with an agent's answer (AgentAnswerError) is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nabahan_pipeline import cli, errors
from nabahan_pipeline.api import NabahanEvaluationPipeline
from nabahan_pipeline.errors import AgentAnswerError, EvaluationInputError, NabahanError

USER_ERRORS = ("UsageError", "EvaluationInputError", "TestCaseError", "AgentSpecError", "DatabaseBuildError",
               "SettingsError", "StorageError")
ANSWER_ERRORS = ("ContractError", "UnsafeSQLError", "QueryTimeoutError", "HttpError", "HttpConnectionError",
                 "HttpTimeoutError", "HttpStatusError", "MalformedResponseError", "BodyTooLargeError")


class NovelMistake(NabahanError):
    """A user error no entry point names: they must catch it by the base."""


@pytest.mark.parametrize("name", USER_ERRORS)
def test_user_errors_are_nabahan_errors(name: str) -> None:
    cls = getattr(errors, name)
    assert issubclass(cls, NabahanError) and not issubclass(cls, AgentAnswerError)


@pytest.mark.parametrize("name", ANSWER_ERRORS)
def test_answer_errors_are_not_user_errors(name: str) -> None:
    cls = getattr(errors, name)
    assert issubclass(cls, AgentAnswerError) and not issubclass(cls, NabahanError)


def test_every_error_is_in_a_family_and_listed() -> None:
    classes = {name for name, value in vars(errors).items() if isinstance(value, type) and issubclass(value, Exception)}
    assert classes == {*USER_ERRORS, *ANSWER_ERRORS, "NabahanError", "AgentAnswerError"}
    assert set(errors.__all__) == classes


def test_each_error_is_still_importable_where_it_is_raised() -> None:
    from nabahan_pipeline.agents.contract import ContractError
    from nabahan_pipeline.agents.registry import AgentSpecError
    from nabahan_pipeline.api import EvaluationInputError as ApiEvaluationInputError
    from nabahan_pipeline.cli import UsageError
    from nabahan_pipeline.etimad_db.generator import DatabaseBuildError
    from nabahan_pipeline.etimad_db.sql_safety import QueryTimeoutError, UnsafeSQLError
    from nabahan_pipeline.evaluation.cases import TestCaseError

    assert (ContractError, AgentSpecError, ApiEvaluationInputError, UsageError, DatabaseBuildError) == (
        errors.ContractError, errors.AgentSpecError, errors.EvaluationInputError, errors.UsageError,
        errors.DatabaseBuildError,
    )
    assert (QueryTimeoutError, UnsafeSQLError, TestCaseError) == (
        errors.QueryTimeoutError, errors.UnsafeSQLError, errors.TestCaseError,
    )


# --- the entry points catch the base --------------------------------------------------------------


@pytest.fixture
def novel_in_input_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking the case file raises a user error that no entry point names."""

    def check(_settings: object) -> None:
        raise NovelMistake("the case file is novel")

    monkeypatch.setattr("nabahan_pipeline.api.checked_test_cases", check)


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("entry", ["nabahan eval", "nabahan-eval"])
def test_a_new_user_error_in_input_checking_exits_2_with_one_line(
    entry: str, novel_in_input_checking: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--output-dir", str(tmp_path / "out")]
    code = cli.main(["eval", *args]) if entry == "nabahan eval" else cli.eval_main(args)
    assert code == 2
    assert one_error_line(capsys) == "nabahan: error: the case file is novel"
    assert not (tmp_path / "out").exists()


def test_the_api_reports_a_new_user_error_as_an_input_error(novel_in_input_checking: None, tmp_path: Path) -> None:
    with pytest.raises(EvaluationInputError, match="^the case file is novel$"):
        NabahanEvaluationPipeline(output_dir=tmp_path / "out").run_complete_pipeline()


def test_db_build_and_agent_ask_catch_the_base(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise NovelMistake("refused in a novel way")

    monkeypatch.setattr("nabahan_pipeline.etimad_db.generator.build_database", refuse)
    assert cli.main(["db", "build", "--out", str(tmp_path / "db.sqlite")]) == 2
    assert one_error_line(capsys) == "nabahan: error: refused in a novel way"
    monkeypatch.setattr("nabahan_pipeline.agents.registry.resolve_agent", refuse)
    assert cli.main(["agent", "ask", "كم عدد المناقصات؟"]) == 2
    assert one_error_line(capsys) == "nabahan: error: refused in a novel way"


def test_a_user_error_inside_the_run_is_an_input_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Checking passes; a step then meets the mistake inside Dagster's run.
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([{"question": "كم عدد المناقصات؟", "category": "count",
                                 "expected_table": "tenders_full_details"}]), encoding="utf-8")

    def summarize_in_run(_scores: object) -> None:
        raise NovelMistake("found only inside the run")

    monkeypatch.setattr("nabahan_pipeline.orchestration.assets.summarize", summarize_in_run)
    pipeline = NabahanEvaluationPipeline(output_dir=tmp_path / "out", test_file=cases)
    with pytest.raises(EvaluationInputError, match="^found only inside the run$"):
        pipeline.run_complete_pipeline()


def test_an_answer_error_is_not_caught_as_a_user_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Escaping to an entry point, it is a bug: a stack trace, not a one-line exit 2.
    def broken(_settings: object) -> None:
        raise errors.UnsafeSQLError("escaped from scoring")

    monkeypatch.setattr("nabahan_pipeline.api.checked_test_cases", broken)
    with pytest.raises(errors.UnsafeSQLError):
        cli.main(["eval", "--output-dir", str(tmp_path / "out")])
