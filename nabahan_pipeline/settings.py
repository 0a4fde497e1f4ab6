"""Every option, declared once (name, type, default, environment variable, help), and the one
order all entry points resolve it in: given (flag, argument, run config) > variable > default.

A run option's variable is ``NABAHAN_<NAME>``; the process settings keep their tools' names
(``DAGSTER_HOME``, ``OPENAI_API_KEY``). An empty variable is unset. A bad value is one
``SettingsError`` naming its source: ``NABAHAN_CONCURRENCY=abc: not a whole number``. Standard
library only, so that any module may import it.
"""

from __future__ import annotations

import math
import os
import typing
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, get_type_hints

from nabahan_pipeline.errors import SettingsError

PACKAGE_DIR = Path(__file__).resolve().parent
SHIPPED_TEST_CASES = PACKAGE_DIR / "data" / "test_cases.json"
# The rates a run can be gated on, by their evaluation_summary column.
GATES = ("correct_rate", "pass_rate")
# What of the gated rate --fail-under judges: the rate, or its 95 % interval's lower bound.
GATE_ON = ("rate", "lower")
# The most test-suite databases a run may use.
MAX_SUITE_DATABASES = 20
_REDACTED = "***"


# A converter: text (a variable, a flag) or a typed value (an argument, run config) -> the value.
Convert = Callable[[Any], Any]


def _number(value: Any, parse: Callable[[str], Any], kinds: tuple[type, ...], what: str) -> Any:
    """``value`` as a number of ``kinds``: text read by ``parse``; a bool is none."""
    if isinstance(value, str):
        try:
            value = parse(value.strip())
        except ValueError:
            raise ValueError(f"not {what}") from None
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ValueError(f"not {what}")
    return value


def whole_number(minimum: int, maximum: int | None = None) -> Convert:
    """A whole number from ``minimum`` (to ``maximum``)."""

    def convert(value: Any) -> int:
        value = _number(value, int, (int,), "a whole number")
        if maximum is not None and not minimum <= value <= maximum:
            raise ValueError(f"must be {minimum} to {maximum}")
        if value < minimum:
            raise ValueError(f"must be at least {minimum}")
        return value

    return convert


def seconds(value: Any) -> float:
    """A time in seconds, greater than 0."""
    value = _number(value, float, (int, float), "a number of seconds")
    if not math.isfinite(value) or value <= 0:
        raise ValueError("must be greater than 0")
    return float(value)


def rate(value: Any) -> float:
    """A rate: 0 to 1 (0.8), or a percentage with % ("80%"); a bare 80 is refused (either could be meant)."""
    forms = "a rate between 0 and 1 (0.8) or a percentage between 0% and 100% (80%)"
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text.removesuffix("%"))
        except ValueError:
            raise ValueError(f"not {forms}") from None
        number = number / 100 if text.endswith("%") else number
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        raise ValueError(f"not {forms}")
    if not 0 <= number <= 1:
        raise ValueError(f"not {forms}")
    return number


_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


def yes_no(value: Any) -> bool:
    """A switch: a bool, or 1/true/yes/on and 0/false/no/off in any case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _YES + _NO:
        return value.strip().lower() in _YES
    raise ValueError(f"not one of {'/'.join(_YES)} or {'/'.join(_NO)}")


def one_of(choices: tuple[str, ...]) -> Convert:
    """One of ``choices``."""

    def convert(value: Any) -> str:
        if isinstance(value, str) and value.strip() in choices:
            return value.strip()
        raise ValueError(f"not one of {', '.join(choices)}")

    convert.choices = choices  # type: ignore[attr-defined]  # for argparse and the help
    return convert


def path(value: Any) -> Path:
    """A file or folder path; ``~`` expanded."""
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise ValueError("not a path")
    return Path(value).expanduser()


def text(value: Any) -> str:
    """Any text, as given."""
    if not isinstance(value, str):
        raise ValueError("not text")
    return value


def judge_spec(value: Any) -> str:
    """An LLM judge: ``openai:MODEL``, an OpenAI-compatible chat model."""
    if not isinstance(value, str) or not value.strip().startswith("openai:") or not value.strip()[7:].strip():
        raise ValueError("expected openai:MODEL, e.g. openai:gpt-4o-mini")
    return value.strip()


# An agent's token variable that says "no token at all" (the default variable is not read either).
NO_TOKEN = "none"


# Prefixes providers put on their tokens (GitHub, GitLab, Hugging Face, Stripe-style, AWS key ids).
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat", "hf_", "sk_", "rk_", "pk_",
                   "xox", "AKIA", "ASIA")


def token_like(value: str) -> bool:
    """Whether ``value``, given as a variable's name, is rather a token: a provider's prefix, a
    secret this environment holds, or a long run of letters and digits no variable is named like."""
    value = value.strip()
    if value.startswith(_TOKEN_PREFIXES) or value in secret_values():
        return True
    digits, lower, upper = (any(test(char) for char in value) for test in (str.isdigit, str.islower, str.isupper))
    return len(value) >= 20 and digits and (lower and upper or "_" not in value)


def variable_name(value: Any) -> str:
    """The name of the variable an agent's token is read from, or ``none``; a token given there by
    mistake (``token_like``) is refused without repeating it."""
    if isinstance(value, str) and value.strip() == NO_TOKEN:
        return NO_TOKEN
    if isinstance(value, str) and value.strip().isidentifier() and value.isascii() and not token_like(value):
        return value.strip()
    raise ValueError("not the name of an environment variable (give the variable's name, not the token) or 'none'")


def spec(value: Any) -> str:
    """Text with something in it, surrounding blanks removed (an agent spec)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("empty")
    return value.strip()


@dataclass(frozen=True)
class Setting:
    """One option: name, variable, default (or a function of it), converter, help, shown default."""

    name: str
    env: str
    default: Any
    convert: Convert
    help: str
    shown_default: str | None = None
    secret: bool = False
    flag: str | None = None  # a run option's `nabahan eval` flag
    metavar: str | None = None
    value_type: Any = None  # a run option's resolved type: Path, int, str | None...
    quiet: bool = False  # a bad value is not repeated: it may be a secret given by mistake

    @property
    def switch(self) -> bool:
        """A yes/no option: its flag takes no value."""
        return self.convert is yes_no

    @property
    def config_type(self) -> type:
        """The type of its value in run config and the API: a path as text, an optional value as itself."""
        kinds = [kind for kind in typing.get_args(self.value_type) if kind is not type(None)] or [self.value_type]
        return str if kinds[0] is Path else kinds[0]

    @property
    def argument_type(self) -> Any:
        """What a Python argument may give: a path as text or a Path, a rate as a number or "80%"."""
        return {path: str | Path, rate: float | str}.get(self.convert, self.config_type)

    @property
    def choices(self) -> tuple[str, ...]:
        """The values allowed, when they are a short list."""
        return getattr(self.convert, "choices", ())

    def default_value(self) -> Any:
        """The default, computed now when it depends on other settings."""
        return self.default() if callable(self.default) else self.default

    def default_text(self) -> str:
        """The default as help and the README show it."""
        if self.shown_default is not None:
            return self.shown_default
        return "off" if self.default is False else str(self.default)

    def describe(self) -> str:
        """'agent calls at once (default: 8; $NABAHAN_CONCURRENCY)'."""
        return f"{self.help} (default: {self.default_text()}; ${self.env})"

    def resolve(self, given: Any = None) -> Any:
        """``given`` when not None, else the variable, else the default; SettingsError naming the source."""
        if given is not None:
            shown = _REDACTED if self.secret or self.quiet else repr(given) if isinstance(given, str) else given
            return self._convert(given, f"{self.name}={shown}")
        raw = os.environ.get(self.env, "")
        if raw.strip():
            return self._convert(raw, f"{self.env}={_REDACTED if self.secret or self.quiet else raw}")
        return self.default_value()

    def _convert(self, value: Any, source: str) -> Any:
        try:
            return self.convert(value)
        except ValueError as exc:
            raise SettingsError(f"{source}: {exc}") from None


def _option(
    default: Any, convert: Convert, help: str, shown: str | None = None, *,
    flag: str | None = None, metavar: str | None = None, quiet: bool = False,
) -> Any:
    """A RunSettings field: default, converter, help and `nabahan eval` flag (a switch for yes/no)."""
    return field(default=default, metadata={"convert": convert, "help": help, "shown": shown, "flag": flag,
                                            "metavar": metavar, "quiet": quiet})


@dataclass(frozen=True)
class RunSettings:
    """The options of one evaluation run, resolved (``resolve_run_settings``), each field declared
    once; `nabahan eval`'s flags, the API's arguments and the Dagster resource's config are made
    from them, in this order. The library functions that take these numbers read defaults here."""

    quick: bool = _option(False, yes_no, "one case of each category", flag="--quick")
    use_cache: bool = _option(False, yes_no, "reuse the cached answers of an unchanged agent", flag="--cache")
    test_file: Path = _option(SHIPPED_TEST_CASES, path, "the JSON case file", "the shipped 20-case suite",
                              flag="--test-file", metavar="FILE")
    output_dir: Path = _option(Path("evaluation") / "results", path, "where the CSV reports and charts go",
                               flag="--output-dir", metavar="DIR")
    agent: str = _option(
        "embedded", spec, "the agent: embedded, python:pkg.module:function, http(s)://..., openai:MODEL",
        flag="--agent", metavar="[NAME=]SPEC",
    )
    agent_version: str | None = _option(None, text, "your agent's version, part of its cache fingerprint", "none",
                                        flag="--agent-version", metavar="VERSION")
    agent_token_env: str | None = _option(
        None, variable_name,
        "the environment variable holding the agent's token (its name, never the token; 'none': no token); "
        "NAME=ENV_VAR gives each agent of a comparison its own",
        "NABAHAN_AGENT_TOKEN (HTTP) or OPENAI_API_KEY for the only agent of a run; no token for an HTTP agent "
        "among several", flag="--agent-token", metavar="[NAME=]ENV_VAR", quiet=True,
    )
    register_agents: bool = _option(
        False, yes_no, "register the run's agents for the nightly schedule and the sensor (`nabahan agents add` "
        "registers without a run); a Dagster run registers nothing", flag="--register",
    )
    concurrency: int = _option(8, whole_number(1), "agent calls at once", flag="--concurrency", metavar="N")
    timeout_s: float = _option(30.0, seconds, "seconds allowed to each agent call", flag="--timeout",
                               metavar="SECONDS")
    agent_start_timeout_s: float = _option(
        120.0, seconds, "seconds a python: agent's module is given to import in its child process (at the start "
        "and after a crash)", flag="--agent-start-timeout", metavar="SECONDS",
    )
    gate: str = _option(
        "correct_rate", one_of(GATES),
        "the rate the threshold check and --fail-under judge: Correct Rate or the seed's pass rate", flag="--gate",
    )
    gate_on: str = _option(
        "rate", one_of(GATE_ON),
        "what of the gated rate the threshold judges: the rate, or the lower bound of its 95 % interval",
        flag="--gate-on",
    )
    test_suite_databases: int = _option(
        3, whole_number(0, MAX_SUITE_DATABASES),
        "more generated databases that gold and agent SQL also run on; 0 turns it off",
        flag="--test-suite", metavar="K",
    )
    sql_timeout_s: float = _option(5.0, seconds, "seconds allowed to each query the pipeline runs",
                                   flag="--sql-timeout", metavar="SECONDS")
    repeat: int = _option(1, whole_number(1), "times every case is asked", flag="--repeat", metavar="N")
    database: Path | None = _option(
        None, path, "the evaluation SQLite database", "the embedded database, built on first use",
        flag="--database", metavar="FILE",
    )
    label: str | None = _option(
        None, text, "the run's name in history, the trend and the UI", "agent spec · case file name",
        flag="--label", metavar="LABEL",
    )
    baseline: str | None = _option(
        None, text, "the run no_regression compares with (id, id prefix or label)",
        "the previous run of the same suite and agent", flag="--baseline", metavar="RUN_ID|LABEL",
    )
    # Its flag also sets the exit code (cli.py).
    pass_threshold: float = _option(0.8, rate, "the gated rate the threshold check wants: 0.8 or 80%",
                                    flag="--fail-under", metavar="RATE")
    judge: str | None = _option(
        None, judge_spec, "an LLM judge asked whether the rows support every claim of each insight, beside Correct",
        "off", flag="--judge", metavar="openai:MODEL",
    )
    in_process: bool = _option(
        False, yes_no, "run a python: agent inside this process, for debugging (it can then spoil the verdicts)",
        flag="--in-process",
    )
    robustness: bool = _option(
        False, yes_no, "also ask every case written other ways (typos, dialect, digits...): Correct per perturbation",
        flag="--robustness",
    )
    sql_max_rows: int = _option(100_000, whole_number(1), "the row cap of each query the pipeline runs")
    max_answer_rows: int = _option(100_000, whole_number(1), "the most rows one answer may carry")
    max_insight_chars: int = _option(20_000, whole_number(1), "the most characters of one answer's insight")
    max_sql_chars: int = _option(100_000, whole_number(1), "the most characters of one answer's SQL")
    max_answer_bytes: int = _option(
        32 * 1024 * 1024, whole_number(1), "the most bytes of an HTTP or OpenAI-compatible answer's body",
        "33554432 (32 MiB)",
    )

    def gated_figure(self) -> str:
        """The evaluation_summary column the threshold judges: the gated rate, or its lower bound."""
        return self.gate if self.gate_on == "rate" else f"{self.gate}_low"

    def run_label(self) -> str:
        """The run's label: the one given, else the agent spec and the case file's name."""
        return self.label or f"{self.agent} · {self.test_file.name}"

    def test_suite_size(self) -> int:
        """How many test-suite databases to use: none for a database not the embedded one."""
        return 0 if self.database is not None else self.test_suite_databases

    def as_config(self) -> dict[str, Any]:
        """The options as run config values (paths as text, unset ones left out)."""
        return {
            name: str(value) if isinstance(value, Path) else value
            for name, value in asdict(self).items()
            if value is not None
        }


_VALUE_TYPES = get_type_hints(RunSettings)
RUN_OPTIONS: tuple[Setting, ...] = tuple(
    Setting(option.name, f"NABAHAN_{option.name.upper()}", option.default, option.metadata["convert"],
            option.metadata["help"], option.metadata["shown"], flag=option.metadata["flag"],
            metavar=option.metadata["metavar"], value_type=_VALUE_TYPES[option.name], quiet=option.metadata["quiet"])
    for option in fields(RunSettings)
)


def resolve_run_settings(given: Mapping[str, Any] | None = None) -> RunSettings:
    """The run's options (given, else variable, else default); one SettingsError for all bad ones."""
    given = dict(given or {})
    values, problems = {}, []
    for setting in RUN_OPTIONS:
        try:
            values[setting.name] = setting.resolve(given.pop(setting.name, None))
        except SettingsError as exc:
            problems.append(str(exc))
    problems += [f"unknown option {name!r}" for name in given]
    if problems:
        raise SettingsError("; ".join(problems))
    return RunSettings(**values)


def nabahan_home() -> Path:
    """The state directory, absolute: $NABAHAN_HOME, else ~/.nabahan, whatever folder a run starts from."""
    return resolve("home").resolve()


def parquet_dir(given: str | Path | None = None) -> Path:
    """Where the Parquet materializations go: ``given``, else $NABAHAN_PARQUET_DIR, else <home>/parquet."""
    return resolve("parquet_dir", given or None)


def dagster_home(given: str | Path | None = None) -> Path:
    """The Dagster home of our own entry points: ``given``, else $DAGSTER_HOME, else <home>/dagster."""
    return resolve("dagster_home", given or None).resolve()


def response_cache_path() -> Path:
    """The SQLite file of the response cache."""
    return nabahan_home() / "response_cache.sqlite"


def gold_cache_folder() -> Path:
    """Where the gold SQL's results are kept per version of the case file and the databases."""
    return nabahan_home() / "gold_results"


def cache_dir() -> Path:
    """Where generated databases are cached: $NABAHAN_CACHE_DIR, else $XDG_CACHE_HOME/nabahan."""
    return resolve("cache_dir")


PROCESS_SETTINGS: tuple[Setting, ...] = (
    # One home for every folder a run starts from (as ~/.promptfoo): the UI shows them all.
    Setting("home", "NABAHAN_HOME", lambda: Path.home() / ".nabahan", path,
            "the state directory: run history, Parquet, the response cache; one for every folder",
            "~/.nabahan"),
    Setting("parquet_dir", "NABAHAN_PARQUET_DIR", lambda: nabahan_home() / "parquet", path,
            "where the Parquet tables between assets go", "$NABAHAN_HOME/parquet"),
    Setting("dagster_home", "DAGSTER_HOME", lambda: nabahan_home() / "dagster", path,
            "where Dagster keeps run history (the plain dagster command keeps none without it)",
            "$NABAHAN_HOME/dagster"),
    Setting("ui_host", "NABAHAN_UI_HOST", "127.0.0.1", spec,
            "the address `nabahan ui` serves the Dagster UI on (`--host`)"),
    Setting("ui_port", "NABAHAN_UI_PORT", 3000, whole_number(1, 65535),
            "the port `nabahan ui` serves the Dagster UI on (`--port`)"),
    Setting("cache_dir", "NABAHAN_CACHE_DIR", lambda: resolve("xdg_cache_home") / "nabahan", path,
            "where generated databases are cached", "$XDG_CACHE_HOME/nabahan"),
    Setting("xdg_cache_home", "XDG_CACHE_HOME", lambda: Path.home() / ".cache", path,
            "the user's cache directory", "~/.cache"),
    Setting("agent_token", "NABAHAN_AGENT_TOKEN", None, text,
            "bearer token sent to an HTTP agent (never shown)", "none", secret=True),
    Setting("openai_api_key", "OPENAI_API_KEY", None, text,
            "key of an OpenAI-compatible server (never shown)", "none", secret=True),
    Setting("openai_base_url", "OPENAI_BASE_URL", "https://api.openai.com/v1", spec,
            "base URL of an OpenAI-compatible server"),
)

SETTINGS: Mapping[str, Setting] = {setting.name: setting for setting in (*RUN_OPTIONS, *PROCESS_SETTINGS)}
# Every environment variable the pipeline reads.
ENVIRONMENT_VARIABLES: tuple[str, ...] = tuple(setting.env for setting in SETTINGS.values())


def resolve(name: str, given: Any = None) -> Any:
    """The setting ``name``: ``given`` when not None, else its variable, else its default."""
    return SETTINGS[name].resolve(given)


def environment(**variables: str) -> dict[str, str]:
    """A copy of this process's environment with ``variables`` set, for a process we start (Dagster's
    commands; a ``python:`` agent's child's is made from it)."""
    return {**os.environ, **variables}


def environment_value(variable: str) -> str | None:
    """The value of the environment variable ``variable``; None when it is unset or empty."""
    value = os.environ.get(variable, "")
    return value if value.strip() else None


def secret_values() -> frozenset[str]:
    """The secrets set in the environment (the agent token, the OpenAI key), to scrub from every text."""
    return frozenset(value for setting in SETTINGS.values() if setting.secret and (value := setting.resolve()))
