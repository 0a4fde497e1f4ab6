"""One settings.py: every option has one default and one environment variable, and `nabahan eval`,
the Python API, `dagster asset materialize`, the sensor and the schedule resolve it alike."""

from __future__ import annotations

import inspect
import re
import sys
import typing
from pathlib import Path

import dagster as dg
import pytest
import yaml

from nabahan_pipeline import settings
from nabahan_pipeline.api import NabahanEvaluationPipeline
from nabahan_pipeline.cli import EVAL_FLAGS, EVAL_SWITCHES, build_parser, eval_run
from nabahan_pipeline.definitions import defs
from nabahan_pipeline.orchestration import sensors
from nabahan_pipeline.orchestration.history import latest_materializations
from nabahan_pipeline.orchestration.resources import EvaluationSettings
from nabahan_pipeline.orchestration.schedules import nightly_evaluation
from nabahan_pipeline.settings import RUN_OPTIONS, SETTINGS, RunSettings, SettingsError, resolve_run_settings
from nabahan_pipeline_tests.commands import REPO, cases_file, nabahan, run

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
# Per run option: a value of its variable other than the default, and what it resolves to ({tmp}: a
# test's folder).
SAMPLES: dict[str, tuple[str, object]] = {
    "test_file": ("{tmp}/cases.json", Path("{tmp}/cases.json")),
    "output_dir": ("{tmp}/out", Path("{tmp}/out")),
    "agent": (COUNTING, COUNTING),
    "agent_version": ("2.0", "2.0"),
    "agent_token_env": ("MY_AGENT_TOKEN", "MY_AGENT_TOKEN"),
    "database": ("{tmp}/etimad.sqlite", Path("{tmp}/etimad.sqlite")),
    "label": ("nightly-v2", "nightly-v2"),
    "baseline": ("3f2a9c1e", "3f2a9c1e"),
    "quick": ("yes", True),
    "concurrency": ("3", 3),
    "timeout_s": ("12.5", 12.5),
    "agent_start_timeout_s": ("45", 45.0),
    "repeat": ("2", 2),
    "use_cache": ("1", True),
    "pass_threshold": ("75%", 0.75),
    "gate": ("pass_rate", "pass_rate"),
    "gate_on": ("lower", "lower"),
    "test_suite_databases": ("0", 0),
    "sql_timeout_s": ("2", 2.0),
    "sql_max_rows": ("500", 500),
    "max_answer_rows": ("400", 400),
    "max_insight_chars": ("3000", 3000),
    "max_sql_chars": ("4000", 4000),
    "max_answer_bytes": ("1048576", 1_048_576),
    "judge": ("openai:judge-model", "openai:judge-model"),
    "in_process": ("yes", True),
    "robustness": ("on", True),
    "register_agents": ("yes", True),
}
# Per run option of no default whose value has a form: a value given other than its sample.
GIVEN = {"judge": "openai:other-model", "agent_token_env": "none"}
# Per run option whose value can be malformed: a bad value of its variable.
BAD = {
    "quick": "maybe",
    "in_process": "perhaps",
    "register_agents": "later",
    "concurrency": "abc",
    "timeout_s": "soon",
    "repeat": "0",
    "use_cache": "2",
    "pass_threshold": "80",
    "gate": "accuracy",
    "test_suite_databases": "21",
    "sql_timeout_s": "-1",
    "sql_max_rows": "1.5",
    "max_answer_rows": "0",
    "max_insight_chars": "many",
    "max_sql_chars": "-3",
    "max_answer_bytes": "1e6",
    "judge": "gpt-4o-mini",
    "agent_token_env": "sk-a token given instead of its variable",
}
# The triggers of the code location; each sets use_cache itself, whatever the location's.
TRIGGERS = ("sensor", "schedule")


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No setting from the shell (but the session's database cache), a private home, cwd tmp_path."""
    for name in settings.ENVIRONMENT_VARIABLES:
        if name != "NABAHAN_CACHE_DIR":
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _sample(name: str, tmp: Path) -> tuple[str, object]:
    text, value = SAMPLES[name]
    value = Path(str(value).format(tmp=tmp)) if isinstance(value, Path) else value
    return text.format(tmp=tmp), value


def _cli(*argv: str) -> RunSettings:
    """`nabahan eval`'s own resolution of its flags (what it runs with)."""
    return eval_run(build_parser().parse_args(["eval", *argv]))[0]


def _dagster() -> RunSettings:
    """What the code location's assets receive in a run without run config."""
    with dg.build_resources({"evaluation": defs.resources["evaluation"]}) as resources:
        return resources.evaluation


def _triggered(trigger: str) -> RunSettings:
    """The options of the run the sensor's or the schedule's next tick requests."""
    resources = {"evaluation": defs.resources["evaluation"]}  # what they require
    with dg.instance_for_test() as instance:
        if trigger == "sensor":
            (request,) = sensors.test_cases_changed(dg.build_sensor_context(instance=instance, resources=resources))
        else:
            context = dg.build_schedule_context(instance=instance, resources=resources,
                                                repository_def=defs.get_repository_def())
            (request,) = nightly_evaluation.evaluate_tick(context).run_requests
    assert isinstance(request, dg.RunRequest), request
    assert request.partition_key == resolve_run_settings().agent, "no agent registered: the location's own"
    assert dg.validate_run_config(defs.resolve_job_def("evaluation_job"), request.run_config)
    return resolve_run_settings(request.run_config["resources"]["evaluation"]["config"])


# --- one declaration, one resolution ---------------------------------------------------------------


def test_every_option_has_a_sample_and_its_variable_is_nabahan_name():
    assert set(SAMPLES) == {setting.name for setting in RUN_OPTIONS}
    assert {setting.env for setting in RUN_OPTIONS} == {f"NABAHAN_{name.upper()}" for name in SAMPLES}
    kept = {"NABAHAN_TEST_FILE", "NABAHAN_OUTPUT_DIR", "NABAHAN_AGENT", "NABAHAN_DATABASE", "NABAHAN_HOME",
            "NABAHAN_PARQUET_DIR", "NABAHAN_CACHE_DIR", "NABAHAN_AGENT_TOKEN", "OPENAI_API_KEY",
            "OPENAI_BASE_URL", "DAGSTER_HOME", "XDG_CACHE_HOME"}
    assert kept <= set(settings.ENVIRONMENT_VARIABLES), "the variables users already set keep their names"
    assert len(set(settings.ENVIRONMENT_VARIABLES)) == len(settings.ENVIRONMENT_VARIABLES)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_given_beats_the_variable_and_the_variable_beats_the_default(
    name: str, clean_env: Path, monkeypatch: pytest.MonkeyPatch
):
    setting = SETTINGS[name]
    text, value = _sample(name, clean_env)
    assert setting.resolve() == setting.default_value() != value
    monkeypatch.setenv(setting.env, text)
    assert setting.resolve() == value
    assert setting.resolve(setting.default_value() if setting.default is not None else GIVEN.get(name, "given")) != value
    monkeypatch.setenv(setting.env, "   ")
    assert setting.resolve() == setting.default_value(), "an empty variable counts as unset"


@pytest.mark.parametrize("name", list(SAMPLES))
def test_each_entry_point_resolves_the_variable_alike(name: str, clean_env: Path, monkeypatch: pytest.MonkeyPatch):
    """Only this option's variable set: `nabahan eval`, the Python API, the code location's resource
    (`dagster asset materialize`, the UI), the sensor's and the schedule's runs all get its value."""
    text, value = _sample(name, clean_env)
    cases_file(clean_env / "cases.json", n=2)  # the sensor hashes the case file
    monkeypatch.setenv(SETTINGS[name].env, text)
    resolved = {
        "cli": _cli(),
        "api": NabahanEvaluationPipeline().settings(),
        "dagster": _dagster(),
        **({trigger: _triggered(trigger) for trigger in TRIGGERS} if name != "use_cache" else {}),
    }
    assert {entry: getattr(options, name) for entry, options in resolved.items()} == dict.fromkeys(resolved, value)
    assert resolved["cli"] == resolved["api"] == resolved["dagster"], "and every other option alike"


@pytest.mark.parametrize("flag", [*EVAL_SWITCHES, *EVAL_FLAGS])
def test_a_flag_an_argument_and_run_config_beat_the_variable(flag: str, clean_env: Path, monkeypatch: pytest.MonkeyPatch):
    name = EVAL_SWITCHES.get(flag) or EVAL_FLAGS[flag][0]
    setting = SETTINGS[name]
    text, value = _sample(name, clean_env)
    monkeypatch.setenv(setting.env, text)
    given = setting.default_value() if setting.default is not None else GIVEN.get(name, "given")
    api = NabahanEvaluationPipeline(**{name: given}).settings()
    dagster = EvaluationSettings(**{name: str(given) if isinstance(given, Path) else given}).resolved()
    assert getattr(api, name) == getattr(dagster, name) == setting.convert(given) != value
    if flag in EVAL_SWITCHES:  # a switch only switches on: here the variable says off
        monkeypatch.setenv(setting.env, "0")
        assert (getattr(_cli(), name), getattr(_cli(flag), name)) == (False, True)
    else:
        assert getattr(_cli(flag, str(given)), name) == setting.convert(given)


def test_fail_under_sets_the_threshold_and_its_variable_does_not_gate_the_exit(clean_env: Path, monkeypatch):
    monkeypatch.setenv("NABAHAN_PASS_THRESHOLD", "0.5")
    assert _cli().pass_threshold == 0.5
    assert _cli("--fail-under", "90%").pass_threshold == 0.9
    assert build_parser().parse_args(["eval"]).fail_under is None


def test_a_bad_value_names_its_source_and_every_bad_value_is_listed(clean_env: Path, monkeypatch):
    monkeypatch.setenv("NABAHAN_CONCURRENCY", "abc")
    monkeypatch.setenv("NABAHAN_GATE", "accuracy")
    with pytest.raises(SettingsError) as raised:
        resolve_run_settings({"repeat": 0, "colour": "red"})
    assert str(raised.value) == (
        "NABAHAN_CONCURRENCY=abc: not a whole number; NABAHAN_GATE=accuracy: not one of correct_rate, pass_rate; "
        "repeat=0: must be at least 1; unknown option 'colour'"
    )
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", "s3cret-token")
    assert settings.secret_values() == {"s3cret-token"}
    assert "s3cret" not in SETTINGS["agent_token"].describe()


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_variable_is_one_line_exit_2_before_any_agent_call(name: str, tmp_path: Path):
    env = SETTINGS[name].env
    result = nabahan("eval", "--agent", COUNTING, "--output-dir", "out", cwd=tmp_path, **{env: BAD[name]})
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = result.stderr.strip().splitlines()
    # An agent's token variable may have been given the token itself: the value is not repeated.
    shown = "***" if SETTINGS[name].quiet else BAD[name]
    assert line.startswith(f"nabahan: error: {env}={shown}: "), line
    assert SETTINGS[name].quiet is (BAD[name] not in result.stdout + result.stderr)
    assert not (tmp_path / "home").exists() and not (tmp_path / "out").exists(), "nothing ran, nothing written"


def test_a_bad_variable_stops_the_python_api_and_a_dagster_run_before_any_agent_call(clean_env: Path, monkeypatch):
    from nabahan_pipeline.api import EvaluationInputError
    from nabahan_pipeline_tests import sample_agents

    sample_agents.CALLS.clear()
    monkeypatch.setenv("NABAHAN_IN_PROCESS", "yes")  # where its calls would be counted
    monkeypatch.setenv("NABAHAN_TIMEOUT_S", "soon")
    with pytest.raises(EvaluationInputError, match=r"^NABAHAN_TIMEOUT_S=soon: not a number of seconds$"):
        NabahanEvaluationPipeline(test_file=cases_file(clean_env / "cases.json"), agent=COUNTING).run_complete_pipeline()
    with pytest.raises(dg.DagsterResourceFunctionError) as raised:
        defs.resolve_job_def("evaluation_job").execute_in_process(instance=dg.DagsterInstance.ephemeral())
    assert "NABAHAN_TIMEOUT_S=soon: not a number of seconds" in str(raised.value.__cause__)
    assert sample_agents.CALLS == []


def test_the_process_settings_resolve_through_settings(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, small_db: Path
):
    from nabahan_pipeline.agents.http import HttpAgent
    from nabahan_pipeline.agents.openai_compat import OpenAICompatibleAgent
    from nabahan_pipeline.etimad_db.store import default_database_path

    monkeypatch.delenv("NABAHAN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(clean_env / "xdg"))
    assert default_database_path().parent == clean_env / "xdg" / "nabahan"
    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(clean_env / "cache"))
    assert default_database_path().parent == clean_env / "cache"
    assert settings.dagster_home() == clean_env / "home" / "dagster"
    assert settings.parquet_dir() == clean_env / "home" / "parquet"
    monkeypatch.setenv("DAGSTER_HOME", str(clean_env / "dagster"))
    monkeypatch.setenv("NABAHAN_PARQUET_DIR", str(clean_env / "parquet"))
    assert (settings.dagster_home(), settings.parquet_dir()) == (clean_env / "dagster", clean_env / "parquet")
    monkeypatch.setenv("NABAHAN_AGENT_TOKEN", "token-from-env")
    assert HttpAgent("http://127.0.0.1:9/ask")._client._headers["Authorization"] == "Bearer token-from-env"
    assert HttpAgent("http://127.0.0.1:9/ask", token="given")._client._headers["Authorization"] == "Bearer given"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/")
    monkeypatch.setenv("OPENAI_API_KEY", "key-from-env")
    agent = OpenAICompatibleAgent("openai:m", database=small_db)
    assert (agent._url, agent._client._headers["Authorization"]) == ("http://127.0.0.1:9/v1/chat/completions",
                                                                   "Bearer key-from-env")


# --- the declarations the rest of the project mirrors ----------------------------------------------


def test_the_dagster_resource_and_the_api_name_every_option():
    fields = EvaluationSettings.model_fields
    assert list(fields) == [setting.name for setting in RUN_OPTIONS]
    for setting in RUN_OPTIONS:
        config_type = typing.get_args(fields[setting.name].annotation)[0]
        value_type = type(setting.convert(SAMPLES[setting.name][0]))
        assert config_type is (str if issubclass(value_type, Path) else value_type), setting.name
        assert fields[setting.name].default is None, "unset: resolved when the run starts"
        assert setting.env in fields[setting.name].description
    parameters = inspect.signature(NabahanEvaluationPipeline).parameters
    assert {setting.name for setting in RUN_OPTIONS} <= set(parameters)
    assert all(parameters[setting.name].default is None for setting in RUN_OPTIONS)


def test_eval_help_shows_each_flags_default_and_variable(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for flag, name in [*EVAL_SWITCHES.items(), *((flag, name) for flag, (name, _) in EVAL_FLAGS.items())]:
        assert f"(default: {SETTINGS[name].default_text()}; ${SETTINGS[name].env})" in help_text, flag


def test_the_library_defaults_are_the_settings_defaults():
    from nabahan_pipeline.agents.contract import AnswerLimits
    from nabahan_pipeline.etimad_db import sql_safety
    from nabahan_pipeline.evaluation import agent_sql
    from nabahan_pipeline.evaluation.score_checks import GATE_VERDICTS

    defaults = RunSettings()
    assert AnswerLimits() == AnswerLimits(defaults.max_answer_rows, defaults.max_insight_chars,
                                          defaults.max_sql_chars, defaults.max_answer_bytes)
    assert (agent_sql.DEFAULT_SQL_TIMEOUT_S, agent_sql.DEFAULT_MAX_ROWS) == (defaults.sql_timeout_s, defaults.sql_max_rows)
    assert sql_safety.DEFAULT_MAX_ROWS == defaults.sql_max_rows
    assert settings.GATES == tuple(GATE_VERDICTS)


def test_readme_lists_exactly_the_settings_variables_as_declared():
    """The README's table is settings.py's declaration, row for row: variable, run config name and
    flag, default and help."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Options and environment variables", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `[A-Z_]+` \|.*$", section, flags=re.MULTILINE)

    def row(setting: settings.Setting) -> str:
        names = ""
        if setting in RUN_OPTIONS:
            names = f"`{setting.name}`" + (f" / `{setting.flag}`" if setting.flag else "")
        return f"| `{setting.env}` | {names} | {setting.default_text()} | {setting.help} |".replace("|  |", "| |")

    assert rows == [row(setting) for setting in SETTINGS.values()]


def test_run_config_yaml_names_every_option_its_variable_and_its_default(clean_env: Path):
    text = (REPO / "run_config.yaml").read_text(encoding="utf-8")
    config = yaml.safe_load(text)["resources"]["evaluation"]["config"]
    assert resolve_run_settings(config) == RunSettings(), "the values shown are the defaults"
    for setting in RUN_OPTIONS:
        (line,) = [line for line in text.splitlines() if re.match(rf"\s*#? ?{setting.name}:", line)]
        assert f"${setting.env}" in line, line
    assert dg.validate_run_config(defs.resolve_job_def("evaluation_job"), yaml.safe_load(text))


def test_only_settings_reads_the_environment():
    readers = [
        path.relative_to(REPO).as_posix()
        for path in (REPO / "nabahan_pipeline").rglob("*.py")
        if re.search(r"os\.environ|getenv\(", path.read_text(encoding="utf-8"))
    ]
    assert readers == ["nabahan_pipeline/settings.py"]


# --- variables whose effect shows only in a run's outputs: three real runs each ----------------------


def _three_runs(tmp: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Path]:
    """`nabahan eval`, `dagster asset materialize` and the Python API, each in its own working
    directory, on 2 cases with the counting agent, with ``env`` set and nothing else of ours."""
    cases = cases_file(tmp / "cases.json", n=2)
    folders = {entry: tmp / entry for entry in ("cli", "dagster", "api")}
    for folder in folders.values():
        folder.mkdir()
    given = {"test_file": str(cases), "agent": COUNTING, "test_suite_databases": 0}

    cli = nabahan("eval", "--test-file", str(cases), "--agent", COUNTING, "--test-suite", "0",
                  cwd=folders["cli"], **env)
    assert cli.returncode == 0, cli.stderr[-3000:]
    config = folders["dagster"] / "run_config.yaml"
    config.write_text(yaml.safe_dump({"resources": {"evaluation": {"config": given}}}), encoding="utf-8")
    dagster = str(Path(sys.executable).parent / "dagster")
    # The plain dagster command needs a kept instance holding the agent's partition.
    kept = {"DAGSTER_HOME": str(folders["dagster"] / "dagster_home"), **env}
    registered = nabahan("agents", "add", COUNTING, cwd=folders["dagster"], **kept)
    assert registered.returncode == 0, registered.stderr[-3000:]
    materialized = run([dagster, "asset", "materialize", "-m", "nabahan_pipeline.definitions", "--select", "*",
                        "--partition", COUNTING, "-c", str(config)], folders["dagster"], **kept)
    assert materialized.returncode == 0, materialized.stderr[-3000:]
    monkeypatch.chdir(folders["api"])
    monkeypatch.setenv("NABAHAN_HOME", str(folders["api"] / "home"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    NabahanEvaluationPipeline(**given).run_complete_pipeline()
    return folders


@pytest.mark.slow
def test_nabahan_output_dir_sends_every_entry_points_reports_to_one_folder(clean_env: Path, monkeypatch):
    out = clean_env / "reports"
    folders = _three_runs(clean_env, monkeypatch, NABAHAN_OUTPUT_DIR=str(out))
    assert len(list(out.glob("evaluation_results_*.csv"))) == 3, sorted(p.name for p in out.iterdir())
    assert len(list(out.glob("evaluation_summary_*.csv"))) == 3
    assert not [folder for folder in folders.values() if (folder / "evaluation").exists()]


@pytest.mark.slow
def test_nabahan_parquet_dir_holds_every_entry_points_tables(clean_env: Path, monkeypatch):
    parquet = clean_env / "tables"
    folders = _three_runs(clean_env, monkeypatch, NABAHAN_PARQUET_DIR=str(parquet))
    assert len(list((parquet / "history" / "case_scores").glob("*.parquet"))) == 3
    assert not [folder for folder in folders.values() if (folder / "home" / "parquet").exists()]


@pytest.mark.slow
def test_nabahan_home_holds_every_entry_points_state(clean_env: Path, monkeypatch):
    state = clean_env / "state"
    _three_runs(clean_env, monkeypatch, NABAHAN_HOME=str(state))
    assert len(list((state / "parquet" / "history" / "case_scores").glob("*.parquet"))) == 3
    with dg.DagsterInstance.from_config(str(state / "dagster")) as instance:
        # The plain dagster command keeps run history only under $DAGSTER_HOME (README): its own here.
        assert len(instance.get_runs()) == 2, "nabahan eval's and the API's runs"


@pytest.mark.slow
def test_dagster_home_holds_every_entry_points_runs_with_the_options_they_used(clean_env: Path, monkeypatch):
    home = clean_env / "dagster_home"
    home.mkdir()
    _three_runs(clean_env, monkeypatch, DAGSTER_HOME=str(home))
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert len(instance.get_runs()) == 3
        recorded = [m.metadata["settings"].value for _, _, m in latest_materializations(instance, "evaluation_summary", 5)]
    assert len(recorded) == 3
    assert recorded[0] == recorded[1] == recorded[2], recorded
    assert recorded[0]["agent"] == COUNTING and recorded[0]["concurrency"] == 8


def test_the_home_is_one_for_every_folder_unless_nabahan_home_says_otherwise(clean_env: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    """~/.nabahan whatever the working directory (HOME here a folder of the test), its Dagster part
    inside it; NABAHAN_HOME, relative or not, moves both."""
    monkeypatch.delenv("NABAHAN_HOME")
    monkeypatch.setenv("HOME", str(clean_env / "user"))
    for folder in ("a", "b"):
        (clean_env / folder).mkdir()
        monkeypatch.chdir(clean_env / folder)
        assert settings.nabahan_home() == clean_env / "user" / ".nabahan"
        assert settings.dagster_home() == clean_env / "user" / ".nabahan" / "dagster"
    monkeypatch.setenv("NABAHAN_HOME", ".nabahan")
    assert settings.nabahan_home() == clean_env / "b" / ".nabahan", "a project's own, as before"
    assert settings.SETTINGS["home"].default_text() == "~/.nabahan"
