"""The `nabahan` command: `db build`, `agent ask|serve`, `eval`.

Every subcommand reports a user mistake (a ``NabahanError``, see ``errors``) as one line on
stderr and exit code 2; only a bug shows a stack trace.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from nabahan_pipeline.errors import NabahanError, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number not below ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {value}")
        return value

    return parse


_positive_int = _int_at_least(1)
_non_negative_int = _int_at_least(0)


def _rate(text: str) -> float:
    """A rate: 0 to 1 (0.8), or a percentage written with % (80%). A bare 1.5 or 80 is refused:
    it could mean either."""
    percent = text.strip().endswith("%")
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a rate such as 0.8 or 80%, got {text!r}") from None
    if percent:
        value /= 100
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(
            f"expected a rate between 0 and 1 (0.8) or a percentage between 0% and 100% (80%), got {text}"
        )
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


# --- db ------------------------------------------------------------------------------------------


def _cmd_db_build(args: argparse.Namespace) -> int:
    from nabahan_pipeline.etimad_db.generator import build_database

    path = build_database(args.out, tenders=args.tenders, projects=args.projects, seed=args.seed)
    print(f"wrote {path}")
    return 0


# --- agent ---------------------------------------------------------------------------------------


def _cmd_agent_ask(args: argparse.Namespace) -> int:
    from nabahan_pipeline.agents.registry import resolve_agent
    from nabahan_pipeline.agents.secrets import scrub

    filters = None
    if args.filters:
        try:
            filters = json.loads(args.filters)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--filters is not valid JSON: {exc}") from None
        if not isinstance(filters, dict):
            raise UsageError("--filters must be a JSON object, e.g. '{\"region\": \"الرياض\"}'")
    agent = resolve_agent(args.agent)
    answer = agent.ask(args.question, filters)
    print(scrub(json.dumps(answer, ensure_ascii=False, indent=2, default=str)))
    return 0


def _cmd_agent_serve(args: argparse.Namespace) -> int:
    from nabahan_pipeline.agents.server import serve

    try:
        serve(host=args.host, port=args.port, agent_spec=args.agent)
    except OSError as exc:  # the address is taken or not ours to bind
        raise UsageError(str(exc)) from None
    return 0


# --- eval ----------------------------------------------------------------------------------------


def _add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="one case of each category")
    parser.add_argument("--test-file", type=Path, help="JSON case file (default: the shipped suite)")
    parser.add_argument("--output-dir", type=Path, default=Path("evaluation/results"))
    parser.add_argument("--agent", help="embedded | python:pkg.module:function | http(s)://... | openai:MODEL")
    parser.add_argument("--agent-version", help="your agent's version, part of its cache fingerprint")
    parser.add_argument("--concurrency", type=_positive_int, default=8)
    parser.add_argument("--timeout", type=_positive_float, default=30.0, help="seconds per agent call")
    parser.add_argument(
        "--fail-under", type=_rate, help="exit 1 when the gated rate (--gate) is below this: 0.8 or 80%%"
    )
    parser.add_argument(
        "--gate",
        choices=("correct_rate", "pass_rate"),
        default="correct_rate",
        help="the rate --fail-under and the threshold check judge: Correct Rate (default) or the seed's pass rate",
    )
    parser.add_argument(
        "--test-suite",
        type=_non_negative_int,
        default=3,
        metavar="K",
        help="also run gold and agent SQL on K more generated databases (default 3; 0 turns it off)",
    )
    parser.add_argument(
        "--sql-timeout", type=_positive_float, default=5.0, help="seconds allowed to each query we run (default 5)"
    )
    parser.add_argument("--repeat", type=_positive_int, default=1, help="ask every case N times")
    parser.add_argument("--cache", action="store_true", help="reuse cached answers of an unchanged agent")
    parser.add_argument("--database", type=Path, help="evaluation SQLite database (default: embedded)")
    parser.add_argument("--label", help="the run's name in history, the trend and the UI (default: agent spec · case file)")
    parser.add_argument(
        "--baseline", metavar="RUN_ID|LABEL",
        help="compare with this run (id, id prefix or label) instead of the previous run of the same suite and agent",
    )


def _cmd_eval(args: argparse.Namespace) -> int:
    from nabahan_pipeline.api import NabahanEvaluationPipeline

    pipeline = NabahanEvaluationPipeline(
        output_dir=args.output_dir,
        test_file=args.test_file,
        agent=args.agent,
        agent_version=args.agent_version,
        quick=args.quick,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        repeat=args.repeat,
        use_cache=args.cache,
        database=args.database,
        fail_under=args.fail_under,
        gate=args.gate,
        test_suite_databases=args.test_suite,
        sql_timeout_s=args.sql_timeout,
        label=args.label,
        baseline=args.baseline,
    )
    result = pipeline.run_complete_pipeline(console=sys.stdout)
    rate = result["summary"][args.gate]
    if args.fail_under is not None and rate < args.fail_under:
        label = args.gate.replace("_", " ")
        print(f"{label} {rate:.1%} is below --fail-under {args.fail_under:.1%}", file=sys.stderr)
        return 1
    return 0


# --- parser --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The `nabahan` argument parser with all subcommands."""
    parser = _Parser(prog="nabahan", description="Evaluate Nabahan, the Arabic procurement assistant.")
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
    ask.add_argument("--agent", default=None, help="agent spec (default: NABAHAN_AGENT or embedded)")
    ask.set_defaults(handler=_cmd_agent_ask)
    serve = agent_sub.add_parser("serve", help="serve an agent over HTTP (POST /ask, GET /health)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_non_negative_int, default=8765)
    serve.add_argument("--agent", default="embedded", help="agent spec to serve (default: embedded)")
    serve.set_defaults(handler=_cmd_agent_serve)

    ev = sub.add_parser("eval", help="run the evaluation through the Dagster assets")
    _add_eval_arguments(ev)
    ev.set_defaults(handler=_cmd_eval)
    return parser


def _run(argv: Sequence[str] | None, parse: Callable[[Sequence[str] | None], argparse.Namespace]) -> int:
    args = parse(argv)
    try:
        return args.handler(args)
    except NabahanError as exc:
        print(f"nabahan: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nabahan: interrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `nabahan` console script."""
    _reconfigure_stdout()
    return _run(argv, build_parser().parse_args)


def eval_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `nabahan-eval`, the design's name for `nabahan eval`."""
    _reconfigure_stdout()
    parser = _Parser(prog="nabahan-eval", description="Run the Nabahan evaluation.")
    _add_eval_arguments(parser)
    parser.set_defaults(handler=_cmd_eval)
    return _run(argv, parser.parse_args)


def _reconfigure_stdout() -> None:
    # Arabic must print on consoles whose locale is not UTF-8 (CI, cron, Windows).
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")
