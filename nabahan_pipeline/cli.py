"""The `nabahan` command. A user mistake (``errors.NabahanError``) is one line on stderr and exit
code 2; only a bug shows a traceback. An `eval` flag not given is None: its variable, else its default."""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from nabahan_pipeline.agents.secrets import redacted_url, scrub
from nabahan_pipeline.agents.labels import LabelledAgent, default_token_env, labelled_agents, resolve_run, with_tokens
from nabahan_pipeline.errors import NabahanError, UsageError
from nabahan_pipeline.reader_may_leave import ReaderMayLeave
from nabahan_pipeline.settings import (
    NO_TOKEN, RUN_OPTIONS, SETTINGS, RunSettings, dagster_home, environment, environment_value,
    nabahan_home, resolve, resolve_run_settings, whole_number
)
from nabahan_pipeline.version import __version__


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _argparse_type(convert: Callable[[Any], Any]) -> Callable[[str], Any]:
    """An argparse type from one of settings.py's converters; its complaint becomes argparse's."""

    def parse(text: str) -> Any:
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{exc} (got {text})") from None

    return parse


_positive_int = _argparse_type(whole_number(1))
_non_negative_int = _argparse_type(whole_number(0))


def _option_type(name: str) -> Callable[[str], Any]:
    """An argparse type: the setting's own converter."""
    return _argparse_type(SETTINGS[name].convert)


def _option_help(name: str) -> str:
    """The help of an option's flag: its line, default and variable from settings.py."""
    return SETTINGS[name].describe().replace("%", "%%")


def _cmd_db_build(args: argparse.Namespace) -> int:
    from nabahan_pipeline.etimad_db.generator import build_database

    path = build_database(args.out, tenders=args.tenders, projects=args.projects, random_seed=args.seed)
    print(f"wrote {path}")
    return 0


def _cmd_cases_schema(args: argparse.Namespace) -> int:
    from nabahan_pipeline.evaluation.case_file import case_file_schema

    print(json.dumps(case_file_schema(), ensure_ascii=False, indent=2))
    return 0


def _cmd_agent_ask(args: argparse.Namespace) -> int:
    from nabahan_pipeline.agents.registry import resolve_agent

    filters = None
    if args.filters:
        try:
            filters = json.loads(args.filters)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--filters is not valid JSON: {exc}") from None
        if not isinstance(filters, dict):
            raise UsageError("--filters must be a JSON object, e.g. '{\"region\": \"الرياض\"}'")
    agent = resolve_agent(args.agent, timeout_s=resolve_run_settings().timeout_s)
    try:
        answer = agent.ask(args.question, filters)
    except TimeoutError as exc:  # a python: agent's child that does not answer in time
        print(f"nabahan: the agent did not answer: {exc}", file=sys.stderr)
        return 1
    finally:
        agent.close()
    print(scrub(json.dumps(answer, ensure_ascii=False, indent=2, default=str)))
    return 0


def _cmd_agent_serve(args: argparse.Namespace) -> int:
    from nabahan_pipeline.agents.server import serve

    try:
        serve(host=args.host, port=args.port, agent_spec=args.agent)
    except OSError as exc:  # the address is taken or not ours to bind
        raise UsageError(str(exc)) from None
    return 0


def _cmd_agents_add(args: argparse.Namespace) -> int:
    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.api import open_instance
    from nabahan_pipeline.orchestration.partitions import register_agents

    agents = with_tokens(labelled_agents(args.agents, args.agent_version, source="agent"), args.agent_token or [])
    # In the registry an HTTP agent gets only the token its entry names (runs of several read it).
    agents = [replace(agent, token_env=agent.token_env or default_token_env(agent.spec, several=True))
              for agent in agents]
    for agent in agents:  # a spec that names no agent is refused here, not in tonight's run
        resolve_agent(agent.spec, agent_version=agent.version).close()
    with open_instance() as instance:
        agents = register_agents(instance, agents)
    for agent in agents:
        print(f"registered {agent.label}: {agent.spec}" + (f" (version {agent.version})" if agent.version else "")
              + _token_text(agent, " (token from ${})") + (f" (imported from {agent.folder})" if agent.folder else ""))
    return 0


def _cmd_agents_list(args: argparse.Namespace) -> int:
    from nabahan_pipeline.api import open_instance
    from nabahan_pipeline.orchestration.partitions import scheduled_agents

    with open_instance() as instance:
        agents = scheduled_agents(instance)
    if not agents:
        print(f"nabahan: no agent registered: the nightly schedule and the sensor evaluate the location's agent, "
              f"{resolve('agent')} (${SETTINGS['agent'].env}); register agents with `nabahan agents add NAME=SPEC`",
              file=sys.stderr)
    for agent in agents:
        # redacted: an entry made before specs with a credential were refused may hold one
        print(f"{agent.label}\t{redacted_url(agent.spec)}" + (f"\t{agent.version}" if agent.version else "")
              + _token_text(agent, "\ttoken from ${}") + (f"\tfrom {agent.folder}" if agent.folder else ""))
    return 0


def _token_text(agent: LabelledAgent, form: str) -> str:
    """``form`` with the name of the variable ``agent``'s token is read from; empty for none."""
    return form.format(agent.token_env) if agent.token_env and agent.token_env != NO_TOKEN else ""


def _cmd_agents_remove(args: argparse.Namespace) -> int:
    from nabahan_pipeline.api import open_instance
    from nabahan_pipeline.orchestration.partitions import remove_agents

    with open_instance() as instance:
        missing = remove_agents(instance, args.labels)
    if missing:
        raise UsageError(f"no agent labelled {', '.join(repr(label) for label in missing)} (see `nabahan agents list`)")
    return 0


# The code location Dagster's commands load, from any folder (the package is installed).
LOCATION_MODULE = "nabahan_pipeline.definitions"


# Where a run kept its history before one home served every folder.
PROJECT_HOME = Path(".nabahan")


def note_project_home() -> None:
    """One line on stderr, when this folder holds a project's own history (``./.nabahan``, the home
    before ~/.nabahan) that the home is not, saying how to keep using it."""
    if environment_value(SETTINGS["home"].env) is None and (PROJECT_HOME / "dagster").is_dir() \
            and PROJECT_HOME.resolve() != nabahan_home():
        print(f"nabahan: note: runs are recorded in {nabahan_home()}; this folder's own history, "
              f"{PROJECT_HOME.resolve()}, is used with NABAHAN_HOME=$PWD/.nabahan", file=sys.stderr)


def _open_home() -> None:
    """The home's Dagster instance made ready for Dagster's own commands (dagster.yaml, dead runs)."""
    from nabahan_pipeline.api import open_instance

    open_instance().dispose()


def _dagster(*arguments: str) -> int:
    """Dagster's command line with ``arguments`` on the home's instance, in this terminal (Ctrl-C
    reaches it too, and it is waited for); its exit code."""
    process = subprocess.Popen([sys.executable, "-m", "dagster", *arguments],
                               env=environment(DAGSTER_HOME=str(dagster_home())))
    try:
        return process.wait()
    except KeyboardInterrupt:
        process.wait()
        raise


def _cmd_ui(args: argparse.Namespace) -> int:
    host, port = resolve("ui_host", args.host), resolve("ui_port", args.port)
    note_project_home()
    _open_home()
    shown_host = f"[{host}]" if ":" in host else host
    print(f"nabahan: the Dagster UI of {nabahan_home()} (every `nabahan eval` run recorded there) on "
          f"http://{shown_host}:{port} (Ctrl-C stops it)", flush=True)
    sys.stderr.flush()
    # This process becomes `dagster dev` (exec): Ctrl-C, SIGTERM and the exit code are its own, and
    # no child is orphaned. Its "superseded by dg dev" warning is Dagster's to itself.
    os.execve(sys.executable, [sys.executable, "-W", "ignore:Function `dev_command` is superseded",
                               "-m", "dagster", "dev", "-m", LOCATION_MODULE, "-h", host, "-p", str(port)],
              environment(DAGSTER_HOME=str(dagster_home())))
    return 0  # not reached: execve returns only by raising


def _cmd_materialize(args: argparse.Namespace) -> int:
    from nabahan_pipeline.api import open_instance
    from nabahan_pipeline.orchestration.partitions import AGENTS, location_agent

    config = args.config
    if config is not None and not config.is_file():
        raise UsageError(f"--config {config}: no such file (run_config.yaml lists every option)")
    note_project_home()
    own = location_agent(resolve_run_settings()).label  # its partition is added as the location loads
    with open_instance() as instance:
        labels = list(dict.fromkeys([own, *instance.get_dynamic_partitions(AGENTS.name)]))
    if args.agent not in labels:  # Dagster's own check would be a 54-line traceback
        near = difflib.get_close_matches(args.agent, labels, n=1)
        raise UsageError(
            f"no agent labelled {args.agent!r}" + (f" (did you mean {near[0]!r}?)" if near else "")
            + f"; the agents are: {', '.join(labels)} (`nabahan agents list`); "
            f"register one with `nabahan agents add {args.agent}=SPEC`")
    command = ["asset", "materialize", "-m", LOCATION_MODULE, "--select", "*", "--partition", args.agent]
    code = _dagster(*command, *(["-c", str(config)] if config is not None else []))
    if code == 0:  # the verdict last, on stdout, below Dagster's log
        print(f"{args.agent}: {_latest_verdict(args.agent)}")
    return code


def _latest_verdict(label: str) -> str:
    """The verdict line of the newest evaluation_summary of ``label``'s partition (its metadata)."""
    import dagster as dg

    from nabahan_pipeline.api import open_instance

    with open_instance() as instance:
        records = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("evaluation_summary"), asset_partitions=[label]), limit=1
        ).records
    verdict = records[0].asset_materialization.metadata.get("verdict") if records else None
    return str(verdict.value) if verdict is not None else "no evaluation_summary materialized"


# The flags of `eval` and the run options they set (--fail-under: pass_threshold and the exit code);
# the options without a flag come from their variables alone.
EVAL_SWITCHES = {setting.flag: setting.name for setting in RUN_OPTIONS if setting.flag and setting.switch}
EVAL_FLAGS = {  # flag: (option, metavar)
    setting.flag: (setting.name, setting.metavar)
    for setting in RUN_OPTIONS
    if setting.flag and not setting.switch and setting.name != "pass_threshold"
}


# Flags given once per agent of a comparison (NAME=...); --fail-under also sets the exit code.
_REPEATABLE = ("agent", "agent_token_env")
_FLAG_HELP = {
    "agent": _option_help("agent").replace(" (default", "; repeat it to compare agents, each named NAME=SPEC or "
                                           "labelled by its spec (default", 1),
    "pass_threshold": "exit 1 when the gated rate (--gate; with --gate-on lower, its interval's lower bound) is "
    "below this, 0.8 or 80%%; also the threshold check's (default: no exit; the check's is "
    "$NABAHAN_PASS_THRESHOLD or 0.8)",
}


def _add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    for setting in RUN_OPTIONS:
        name, flag = setting.name, setting.flag
        if flag is None:
            continue
        help = _FLAG_HELP.get(name) or _option_help(name)
        if setting.switch:
            parser.add_argument(flag, dest=name, action="store_true", default=None, help=help)
            continue
        parser.add_argument(
            flag, dest="fail_under" if name == "pass_threshold" else name,
            action="append" if name in _REPEATABLE else "store", metavar=setting.metavar, help=help,
            # A token's variable is read with its agent's label (labels.with_tokens), not here.
            type=None if name == "agent_token_env" else _option_type(name), choices=setting.choices or None,
        )


def eval_options(args: argparse.Namespace) -> dict[str, Any]:
    """The run options `eval`'s flags give, but the agents (``args.agent``, a list); None for a flag not given."""
    options = {name: getattr(args, name) for name in [*EVAL_SWITCHES.values(), *(name for name, _ in EVAL_FLAGS.values())]
               if name != "agent"}
    return {**options, "pass_threshold": args.fail_under}


def eval_run(args: argparse.Namespace) -> tuple[RunSettings, list[LabelledAgent]]:
    """The options and agents `eval`'s flags resolve to, once; a user error for a bad one."""
    return resolve_run(eval_options(args), args.agent or [])


def _cmd_eval(args: argparse.Namespace) -> int:
    settings, agents = eval_run(args)  # a bad flag, label or variable stops here, before Dagster loads
    note_project_home()
    from nabahan_pipeline.api import ComparedRuns, NabahanEvaluationPipeline
    from nabahan_pipeline.console import RunConsole
    from nabahan_pipeline.evaluation.summary import summary_dict

    console = RunConsole(sys.stdout)  # the run's events printed as they come
    try:
        result = NabahanEvaluationPipeline.resolved(settings, agents).run(progress=console)
    finally:
        console.close()
    several = isinstance(result, ComparedRuns)
    runs = list(result.runs.values()) if several else [result]
    gated = settings.gated_figure()
    rates = [(run.agent_label, summary_dict(run.summary)[gated]) for run in runs]
    below = [(label, rate) for label, rate in rates if args.fail_under is not None and rate < args.fail_under]
    shown = settings.gate.replace("_", " ") + (" lower bound" if settings.gate_on == "lower" else "")
    for label, rate in below:
        named = f"{label}: " if several else ""
        print(f"{named}{shown} {rate:.1%} is below --fail-under {args.fail_under:.1%}", file=sys.stderr)
    return 1 if below else 0


def build_parser() -> argparse.ArgumentParser:
    """The `nabahan` argument parser with all subcommands."""
    parser = _Parser(prog="nabahan", description="Evaluate Nabahan, the Arabic procurement assistant.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    db = sub.add_parser("db", help="the embedded evaluation database")
    db_sub = db.add_subparsers(dest="db_command", required=True, parser_class=_Parser)
    build = db_sub.add_parser("build", help="write the embedded SQLite database")
    build.add_argument("--out", type=Path, required=True, help="where to write the .sqlite file")
    build.add_argument("--tenders", type=_positive_int, default=None, help="number of tenders (default 20000)")
    build.add_argument("--projects", type=_non_negative_int, default=None, help="number of future projects")
    build.add_argument("--seed", type=int, default=None, help="generator seed (same seed, same file)")
    build.set_defaults(handler=_cmd_db_build)

    agent = sub.add_parser("agent", help="ask or serve an agent")
    agent_sub = agent.add_subparsers(dest="agent_command", required=True, parser_class=_Parser)
    ask = agent_sub.add_parser("ask", help="ask one question, print the JSON answer")
    ask.add_argument("question")
    ask.add_argument("--filters", help="JSON object: region, year, status, type")
    ask.add_argument("--agent", default=None, help=_option_help("agent"))
    ask.set_defaults(handler=_cmd_agent_ask)
    serve = agent_sub.add_parser("serve", help="serve an agent over HTTP (POST /ask, GET /health)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_non_negative_int, default=8765)
    # Not $NABAHAN_AGENT: that names the agent `eval` asks, often this very server.
    serve.add_argument("--agent", default=SETTINGS["agent"].default, help="agent spec to serve (default: embedded)")
    serve.set_defaults(handler=_cmd_agent_serve)

    cases = sub.add_parser("cases", help="the case file (the suite of questions)")
    cases_sub = cases.add_subparsers(dest="cases_command", required=True, parser_class=_Parser)
    schema = cases_sub.add_parser("schema", help="print the case file's JSON Schema (for an editor's json.schemas)")
    schema.set_defaults(handler=_cmd_cases_schema)

    agents = sub.add_parser("agents", help="the agents the sensor and the nightly schedule evaluate (partitions)")
    agents_sub = agents.add_subparsers(dest="agents_command", required=True, parser_class=_Parser)
    add = agents_sub.add_parser("add", help="register agents for the nightly schedule and the sensor (each a "
                                "partition of the evaluation assets; a python: agent with the folder it is found in)")
    add.add_argument("agents", nargs="+", metavar="[NAME=]SPEC", help="an agent spec, named NAME or by itself")
    add.add_argument("--agent-version", default=None, help=_option_help("agent_version"))
    add.add_argument("--agent-token", action="append", metavar="[NAME=]ENV_VAR",
                     help="the environment variable holding an agent's token (its name, never the token), read "
                     "when the sensor and the schedule run it; an HTTP agent named by none gets no token")
    add.set_defaults(handler=_cmd_agents_add)
    listing = agents_sub.add_parser("list", help="the agents registered for the schedule and the sensor: label, "
                                    "spec, version, token variable, folder")
    listing.set_defaults(handler=_cmd_agents_list)
    remove = agents_sub.add_parser("remove", help="unregister agents and remove their partitions (their history stays)")
    remove.add_argument("labels", nargs="+", metavar="LABEL")
    remove.set_defaults(handler=_cmd_agents_remove)

    ev = sub.add_parser("eval", help="run the evaluation through the Dagster assets")
    _add_eval_arguments(ev)
    ev.set_defaults(handler=_cmd_eval)

    ui = sub.add_parser("ui", help="the Dagster UI on the home's history (`dagster dev`, with the sensor and "
                        "the nightly schedule); prints its URL")
    ui.add_argument("--host", default=None, type=_option_type("ui_host"), help=_option_help("ui_host"))
    ui.add_argument("--port", "-p", default=None, type=_option_type("ui_port"), help=_option_help("ui_port"))
    ui.set_defaults(handler=_cmd_ui)

    materialize = sub.add_parser("materialize", help="materialize an agent's partition with Dagster's own command "
                                 "(`dagster asset materialize`), into the home's history; an unknown label is one line")
    materialize.add_argument("agent", metavar="AGENT", help="an agent's label (`nabahan agents list`; "
                             f"{SETTINGS['agent'].default} is always there)")
    materialize.add_argument("--config", "-c", type=Path, default=None, metavar="FILE",
                             help="run config, e.g. run_config.yaml (options it leaves out come from their variables)")
    materialize.set_defaults(handler=_cmd_materialize)
    return parser


# What a disk says when it cannot take a file: read-only, full, over quota, not ours.
_STORAGE_ERRNOS = frozenset({errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EFBIG})


def _run(argv: Sequence[str] | None, parse: Callable[[Sequence[str] | None], argparse.Namespace]) -> int:
    _reconfigure_stdout()
    args = parse(argv)
    try:
        with redirect_stdout(ReaderMayLeave(sys.stdout)):
            return args.handler(args)
    except NabahanError as exc:
        print(f"nabahan: error: {scrub(str(exc))}", file=sys.stderr)  # an agent's import error may hold a key
        return 2
    except OSError as exc:  # a disk that filled or turned read-only during the run: one line naming the file
        if exc.errno not in _STORAGE_ERRNOS:
            raise
        where = f" {exc.filename}" if exc.filename else ""
        print(f"nabahan: error: cannot write{where}: {exc.strerror or exc} (the files written before are kept)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nabahan: interrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """The `nabahan` command, in this process; its exit code."""
    return _run(argv, build_parser().parse_args)


def eval_main(argv: Sequence[str] | None = None) -> int:
    """`nabahan-eval` (the design's name for `nabahan eval`), in this process; its exit code."""
    return _run(argv, _eval_parser().parse_args)


def _eval_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nabahan-eval", description="Run the Nabahan evaluation.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_eval_arguments(parser)
    parser.set_defaults(handler=_cmd_eval)
    return parser


def console_main() -> NoReturn:
    """Entry point of the `nabahan` console script (and `python -m nabahan_pipeline`)."""
    sys.exit(_run(None, build_parser().parse_args))


def console_eval_main() -> NoReturn:
    """Entry point of the `nabahan-eval` console script."""
    sys.exit(_run(None, _eval_parser().parse_args))


def _reconfigure_stdout() -> None:
    # Arabic must print on consoles whose locale is not UTF-8 (CI, cron, Windows).
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")
