"""The evaluation as software-defined assets: one lineage graph, group ``evaluation``.

    test_cases_file -> test_cases -> agent_responses -> case_scores -> evaluation_summary
                       agent ---------^                             -> evaluation_reports -> evaluation_charts
                                                                       (CSV)                   (PNG)
                                                                    -> evaluation_report_page (HTML: the
                                                                       CSVs' stamp, the charts' files)

``evaluation_summary`` also reads ``test_cases`` and ``agent_responses``: the gold's rows and the
agent's beside each answer not Correct. Every asset but the case file is partitioned by agent
(``partitions``): one partition per agent label, each with its own history.

Each asset states what it is and calls the core; each table's Dagster type is its pandera schema
(``evaluation.tables``), checked at the step that makes it. Parquet storage and the generic
metadata (row count, column schema, preview) come from the IO manager.
"""

import hashlib
import warnings
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Optional

import dagster as dg
import pandas as pd
from dagster_pandera import pandera_schema_to_dagster_type

from nabahan_pipeline.agents.contract import Agent
from nabahan_pipeline.agents.response_cache import ResponseCache, response_key
from nabahan_pipeline.agents.runner import run_agent
from nabahan_pipeline.agents.secrets import scrubbed_output
from nabahan_pipeline.etimad_db.store import database_hash, ensure_database, suite_databases
from nabahan_pipeline.evaluation.execution_match import ExpectedResult
from nabahan_pipeline.evaluation.gold_cache import checked_golds, store_golds
from nabahan_pipeline.evaluation.headline import verdict_line
from nabahan_pipeline.evaluation.not_correct import SHOWN, log_lines, not_correct_answers, not_correct_markdown
from nabahan_pipeline.evaluation.reports import write_reports
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.evaluation.scoring.on_arrival import ScoringOnArrival
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_pipeline.evaluation.tables import (
    AGENT_RESPONSES,
    CASE_SCORES,
    EVALUATION_SUMMARY,
    TEST_CASES,
    TREND_FIGURES,
)
from nabahan_pipeline.evaluation.cases import (
    numbered_cases,
    parse_test_cases,
    read_case_file,
    select_quick,
    suite_fingerprint,
)
from nabahan_pipeline.errors import EvaluationInputError
from nabahan_pipeline.files import folder_problem, linked_folder_problem, storage_problem
from nabahan_pipeline.orchestration.checks import (
    CHECK_SPECS, no_regression, pass_rate_threshold, scores_in_range, test_case_file_valid
)
from nabahan_pipeline.orchestration.history import materializations, series_metadata, summary_history
from nabahan_pipeline.orchestration.partitions import AGENT_ASSET, AGENTS
from nabahan_pipeline.orchestration.resources import answer_limits
from nabahan_pipeline.orchestration.run_owners import canceled_if_interrupted
from nabahan_pipeline.settings import RunSettings, gold_cache_folder, response_cache_path
from nabahan_pipeline.progress import Watcher

if TYPE_CHECKING:  # a run without --judge never imports it
    from nabahan_pipeline.evaluation.judge import Judge

GROUP = "evaluation"
# How many runs of one agent may materialize between this run's reports and its HTML page.
RUNS_AT_ONCE = 100
# The folder of the charts' link within the output folder (``files.atomic_folder``).
CHARTS_FOLDER = "charts"
# The tables between the assets, each checked against its schema at the step that makes it (a
# wrong column fails that step); the Dagster UI shows each column's type and description.
# (dagster-pandera is marked beta: its warning would reach every `nabahan` command's stderr.)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", dg.BetaWarning)
    TEST_CASES_TYPE = pandera_schema_to_dagster_type(TEST_CASES)
    AGENT_RESPONSES_TYPE = pandera_schema_to_dagster_type(AGENT_RESPONSES)
    CASE_SCORES_TYPE = pandera_schema_to_dagster_type(CASE_SCORES)
    EVALUATION_SUMMARY_TYPE = pandera_schema_to_dagster_type(EVALUATION_SUMMARY)

test_cases_file = dg.AssetSpec(
    "test_cases_file",
    group_name=GROUP,
    description="The JSON case file (outside Dagster); the sensor watches its content hash.",
    kinds={"json"},
)
agent = dg.AssetSpec(
    AGENT_ASSET,
    group_name=GROUP,
    partitions_def=AGENTS,
    description="The agent under evaluation (outside Dagster), one partition per label; each "
    "registration is an observation holding its spec and version.",
)


class CheckedCases(NamedTuple):
    """A case file loaded and checked: its path, its sha256 when read, how many cases it holds, the
    cases to be asked (the quick selection with ``quick``), and each gold SQL's results on every
    database, run by the check under the run's limits and handed to scoring."""

    path: Path
    sha256: str
    in_file: int
    cases: pd.DataFrame
    golds: Mapping[str, list[ExpectedResult]]
    unkept_golds: Optional[Path] = None  # where to keep the golds the check ran (none: read from the cache)


def checked_test_cases(evaluation: RunSettings) -> CheckedCases:
    """The case file loaded once its gold SQL and expected tables are checked; raises a user error
    naming what is wrong. Our entry points call it before they start a run and hand the run what
    it found (the ``checked_cases`` resource); a run launched otherwise calls it in ``test_cases``."""
    path = evaluation.test_file
    data = read_case_file(path)  # once: the file may be a pipe
    sha256 = hashlib.sha256(data).hexdigest()
    cases = parse_test_cases(data, path)
    database = ensure_database(evaluation.database)
    golds, unkept = checked_golds(cases, path, sha256, database, suite_databases(evaluation.test_suite_size()),
                                  timeout_s=evaluation.sql_timeout_s, max_rows=evaluation.sql_max_rows,
                                  folder=gold_cache_folder())
    return CheckedCases(path, sha256, len(cases), select_quick(cases) if evaluation.quick else cases, golds, unkept)


def check_output_folder(evaluation: RunSettings) -> None:
    """Raise EvaluationInputError when the run's reports or charts could not be written where they
    go (``--output-dir`` a file, a folder of the user's where the charts' link goes, a read-only
    or full disk): told before any agent call, not after them all."""
    output = evaluation.output_dir
    problem = (folder_problem(output) or linked_folder_problem(output.absolute() / CHARTS_FOLDER)
               or storage_problem(output))
    if problem is not None:
        raise EvaluationInputError(f"--output-dir {output}: {problem}")


@dg.asset(group_name=GROUP, partitions_def=AGENTS, deps=[test_cases_file], kinds={"pandas", "parquet"},
          dagster_type=TEST_CASES_TYPE, check_specs=CHECK_SPECS["test_cases"])
def test_cases(
    context: dg.AssetExecutionContext,
    evaluation: dg.ResourceParam[RunSettings],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """The validated test cases; a bad file, a gold SQL that does not run or an unknown expected
    table stops the run here, before any agent call. Then its check: the file still holds them."""
    checked = checked_cases or checked_test_cases(evaluation)
    check_output_folder(evaluation)
    if checked.unkept_golds is not None:  # the run has started: the gold results kept for the next
        store_golds(checked.unkept_golds, checked.golds)
    yield dg.Output(checked.cases, metadata={
        "file": dg.MetadataValue.path(str(checked.path)),
        "file_sha256": checked.sha256,
        "quick": evaluation.quick,
        "cases_per_category": dg.MetadataValue.json(checked.cases["category"].value_counts().to_dict()),
    })
    # Checked after the Output: Dagster has then stored the table, the materialization the check judges.
    yield test_case_file_valid(context, evaluation.test_file, (checked.sha256, checked.in_file), checked.cases)


@dg.asset(group_name=GROUP, partitions_def=AGENTS, deps=[agent], kinds={"pandas", "parquet"},
          dagster_type=AGENT_RESPONSES_TYPE)
def agent_responses(
    context: dg.AssetExecutionContext,
    progress: dg.ResourceParam[Watcher],
    evaluation: dg.ResourceParam[RunSettings],
    agent: dg.ResourceParam[Agent],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    answer_scores: dg.ResourceParam[dict],
    test_cases: pd.DataFrame,
) -> pd.DataFrame:
    """Every case asked of the run's agent (built and checked once for the run, ``resources``),
    concurrently, each call timed alone; failures and answers over a cap become error rows;
    secrets are scrubbed from every answer. Each answer is scored as it arrives, beside the calls
    (``scoring.on_arrival``): the console shows that score, and case_scores assembles them."""
    database = ensure_database(evaluation.database)
    fingerprint = agent.fingerprint()
    db_hash = database_hash(database)
    cache = ResponseCache(response_cache_path()) if evaluation.use_cache else None
    numbered = numbered_cases(test_cases)
    judge = run_judge(evaluation)
    progress("asking", {"cases": len(test_cases), "answers": len(test_cases) * evaluation.repeat})

    def scored(row: Mapping, scores: Optional[Mapping]) -> None:
        progress("answer", {"case": numbered(row["case_id"]), "row": row, "scores": scores})

    try:
        # what an in-process agent prints reaches the compute log scrubbed; Ctrl-C cancels the run
        with scrubbed_output(), canceled_if_interrupted(context.instance, context.run), ScoringOnArrival(
            test_cases, database, suite_databases(evaluation.test_suite_size()),
            sql_timeout_s=evaluation.sql_timeout_s, max_rows=evaluation.sql_max_rows,
            golds=checked_cases.golds if checked_cases is not None else None, judge=judge, on_scored=scored,
        ) as scoring:
            responses = run_agent(
                test_cases,
                agent,
                concurrency=evaluation.concurrency,
                timeout_s=evaluation.timeout_s,
                repeat=evaluation.repeat,
                cache=cache,
                cache_key=lambda case, repeat: response_key(case, repeat, fingerprint, db_hash),
                limits=answer_limits(evaluation),
                on_answer=scoring.submit,
            )
            answer_scores.update(scoring.results())
    finally:
        if cache is not None:
            cache.close()
        if judge is not None:
            judge.close()
    context.add_output_metadata(
        {
            "agent_spec": agent.spec,
            "agent_fingerprint": fingerprint,
            "database": dg.MetadataValue.path(str(database)),
            "database_sha256": db_hash,
            "agent_calls": int((~responses["cached"]).sum()),
            "cached_answers": int(responses["cached"].sum()),
            "errors": int((responses["status"] == "error").sum()),
        }
    )
    return responses


@dg.asset(group_name=GROUP, partitions_def=AGENTS, kinds={"pandas", "parquet"}, dagster_type=CASE_SCORES_TYPE,
          check_specs=CHECK_SPECS["case_scores"])
def case_scores(
    context: dg.AssetExecutionContext,
    progress: dg.ResourceParam[Watcher],
    evaluation: dg.ResourceParam[RunSettings],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    answer_scores: dg.ResourceParam[dict],
    test_cases: pd.DataFrame,
    agent_responses: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Each answer scored: the seed's retrieval, fidelity and latency, and whether it is right: its
    SQL re-run read-only, execution match here and on the test-suite databases (the gold's results
    as the case file's check found them, when the run was handed that check), the insight's claims.
    The answers scored as they arrived (``answer_scores``) are assembled, not scored again. Then
    its checks: the scores in range, and no regression against the run before."""
    progress("stage", {"name": "scoring"})
    database = ensure_database(evaluation.database)
    suite = suite_databases(evaluation.test_suite_size())
    judge = run_judge(evaluation) if len(answer_scores) < len(agent_responses) else None
    try:
        scores = score_responses(
            test_cases,
            agent_responses,
            database,
            suite=suite,
            timestamp=datetime.now().astimezone().isoformat(timespec="seconds"),
            sql_timeout_s=evaluation.sql_timeout_s,
            max_rows=evaluation.sql_max_rows,
            golds=checked_cases.golds if checked_cases is not None else None,
            judge=judge,
            scored=answer_scores,
        )
    finally:
        answer_scores.clear()  # assembled: not held for the rest of the run
        if judge is not None:
            judge.close()
    series = run_series(evaluation, scores)
    yield dg.Output(scores, metadata={
        **series,
        "passed": int(scores["overall_passed"].sum()),
        "failed": int((~scores["overall_passed"].astype(bool)).sum()),
        "correct": int(scores["correct"].sum()),
        "database_sha256": database_hash(database),
        "test_suite_databases": dg.MetadataValue.json([path.name for path in suite]),
    })
    yield scores_in_range(scores)
    yield no_regression(context, evaluation, scores, test_cases, series)


def run_judge(evaluation: RunSettings) -> Optional["Judge"]:
    """The run's LLM judge (``--judge``), None when off; its caller closes it. Its module (and
    its HTTP client's) imported only for a run that has one."""
    if not evaluation.judge:
        return None
    from nabahan_pipeline.evaluation.judge import Judge

    return Judge(evaluation.judge, timeout_s=evaluation.timeout_s, max_answer_bytes=evaluation.max_answer_bytes)


@dg.asset(group_name=GROUP, partitions_def=AGENTS, kinds={"pandas", "parquet"}, dagster_type=EVALUATION_SUMMARY_TYPE,
          check_specs=CHECK_SPECS["evaluation_summary"])
def evaluation_summary(
    context: dg.AssetExecutionContext,
    evaluation: dg.ResourceParam[RunSettings],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    test_cases: pd.DataFrame,
    agent_responses: pd.DataFrame,
    case_scores: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Totals, rates, p50/p95 latency, overall and per category; the run's series (suite, agent,
    label) in its metadata, so that the trend compares like with like, the options it ran with, and
    the answers not Correct (failures first, the agent's rows beside the gold's), one log line each.
    Then its check: the gated rate at or above the threshold, with the same answers not Correct."""
    summary = summarize(case_scores)
    not_correct = not_correct_answers(
        case_scores, agent_responses, test_cases, database=ensure_database(evaluation.database),
        golds=checked_cases.golds if checked_cases is not None else None, limit=SHOWN,
        sql_timeout_s=evaluation.sql_timeout_s, max_rows=evaluation.sql_max_rows,
    )
    for line in log_lines(case_scores):
        context.log.info(line)
    verdict = verdict_line(summary)
    context.log.info(verdict)  # the rates, last: where `dagster asset materialize`'s output shows them
    wrong = int((~case_scores["correct"].astype(bool)).sum())
    shown = {"not_correct_count": wrong, "not_correct": dg.MetadataValue.md(not_correct_markdown(not_correct, wrong))}
    yield dg.Output(summary, metadata={
        "verdict": verdict,  # first: what the UI's metadata list leads with
        **run_series(evaluation, case_scores),
        **plotted_figures(summary),
        "settings": dg.MetadataValue.json(evaluation.as_config()),
        **shown,
    })
    yield pass_rate_threshold(context, evaluation, summary, shown)


@dg.asset(group_name=GROUP, partitions_def=AGENTS, kinds={"csv"})
def evaluation_reports(
    progress: dg.ResourceParam[Watcher],
    evaluation: dg.ResourceParam[RunSettings],
    case_scores: pd.DataFrame,
    evaluation_summary: pd.DataFrame,
) -> dg.MaterializeResult:
    """The results, summary and error-location CSV files (seed names and columns), written
    atomically."""
    progress("stage", {"name": "writing reports"})
    paths = write_reports(case_scores, evaluation_summary, evaluation.output_dir, report_stamp(case_scores))
    progress("written", {"files": {name: str(path) for name, path in paths.items()}})
    return dg.MaterializeResult(
        metadata={name: dg.MetadataValue.path(str(path.resolve())) for name, path in paths.items()}
    )


@dg.asset(group_name=GROUP, partitions_def=AGENTS, deps=[evaluation_reports], kinds={"png"})
def evaluation_charts(
    context: dg.AssetExecutionContext,
    progress: dg.ResourceParam[Watcher],
    evaluation: dg.ResourceParam[RunSettings],
    case_scores: pd.DataFrame,
    evaluation_summary: pd.DataFrame,
) -> dg.MaterializeResult:
    """The PNG charts, the dashboard shown in the UI, and the pass-rate trend over runs, switched
    into ``charts`` as one set."""
    # Imported here: matplotlib is for the step that draws, not for every load of the code location.
    from nabahan_pipeline.evaluation.charts.markdown import dashboard_markdown
    from nabahan_pipeline.evaluation.charts.render import render_charts

    progress("stage", {"name": "drawing charts"})
    charts = evaluation.output_dir.absolute() / CHARTS_FOLDER
    drawn = render_charts(
        case_scores,
        evaluation_summary,
        charts,
        history=summary_history(context.instance, series=run_series(evaluation, case_scores),
                                partition=context.partition_key),
        pass_threshold=evaluation.pass_threshold,
        gated=evaluation.gated_figure(),
    )
    progress("written", {"files": {name: str(charts / name) for name in drawn}})
    # This run's own files, not the link: another run (another agent's) may switch it before they are read.
    metadata: dict[str, dg.MetadataValue] = {name: dg.MetadataValue.path(str(path)) for name, path in drawn.items()}
    metadata["run_folder"] = dg.MetadataValue.path(str(drawn["evaluation_dashboard.png"].parent))
    metadata["dashboard"] = dg.MetadataValue.md(dashboard_markdown(drawn["evaluation_dashboard.png"]))
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(group_name=GROUP, partitions_def=AGENTS, deps=[evaluation_reports, evaluation_charts], kinds={"html"})
def evaluation_report_page(
    context: dg.AssetExecutionContext,
    progress: dg.ResourceParam[Watcher],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    test_cases: pd.DataFrame,
    agent_responses: pd.DataFrame,
    case_scores: pd.DataFrame,
    evaluation_summary: pd.DataFrame,
) -> dg.MaterializeResult:
    """The report to click through (evaluation_report_<stamp>.html beside this run's CSVs: every
    case with its SQL, rows, claims and reasons), with the charts this run drew, read from their
    files rather than drawn again."""
    # Jinja2 and the page's module, imported by the step that writes the page, not before the first question.
    from nabahan_pipeline.evaluation.html_report import (
        REPORT_CHARTS, gathered_run_report, run_report_html, run_report_path, write_html,
    )

    progress("stage", {"name": "writing the HTML report"})
    written = this_runs_files(context, [evaluation_reports.key, evaluation_charts.key])
    if "results_csv" not in written:
        raise dg.Failure(f"this run's reports are not among the newest {RUNS_AT_ONCE} of partition {context.partition_key!r}")
    report = gathered_run_report(
        f"Nabahan evaluation: {context.partition_key}", case_scores, evaluation_summary,
        cases=test_cases, responses=agent_responses, golds=checked_cases.golds if checked_cases is not None else {},
        charts={name: Path(written[name]).read_bytes() for name in REPORT_CHARTS if name in written},
    )
    path = write_html(run_report_html(report), run_report_path(Path(written["results_csv"])))
    progress("written", {"files": {"report_html": str(path)}})
    context.log.info(f"{verdict_line(evaluation_summary)}; the report: {path}")  # the run's last word
    return dg.MaterializeResult(metadata={"report_html": dg.MetadataValue.path(str(path.resolve()))})


def this_runs_files(context: dg.AssetExecutionContext, assets: Sequence[dg.AssetKey]) -> dict[str, str]:
    """The files the ``assets`` wrote in this run, by name, as their materializations recorded them
    (this run's, among the partition's since the run was created: runs of one agent at once
    materialize in between; the older history is not read, however long it is)."""
    record = context.instance.get_run_record_by_id(context.run.run_id)
    since = record.create_timestamp.timestamp() - 1 if record is not None else None
    files: dict[str, str] = {}
    for asset in assets:
        for run_id, _, materialization in materializations(
            context.instance, asset.to_user_string(), partition=context.partition_key, most=RUNS_AT_ONCE,
            after_timestamp=since,
        ):
            if run_id == context.run.run_id:
                files.update({name: str(entry.value) for name, entry in materialization.metadata.items()
                              if isinstance(entry, dg.PathMetadataValue)})
                break
    return files


def run_series(evaluation: RunSettings, scores: pd.DataFrame) -> dict[str, str]:
    """The series a run belongs to (its suite and agent) and its label, for history."""
    # A named agent's runs get "NAME · cases.json" when no label is given (settings_for_agent): that
    # names every run of the agent, not one, so it is not a label the user gave.
    derived = f" · {evaluation.test_file.name}"
    given = evaluation.label is not None and not evaluation.label.endswith(derived)
    return series_metadata(suite_fingerprint(scores), evaluation.agent, evaluation.run_label(), label_given=given)


LEADING_FIGURES = ("correct_rate", "pass_rate")


def plotted_figures(summary: pd.DataFrame) -> dict[str, float | int]:
    """The overall figures as numbers (NaN left out), for the UI's plots across runs."""
    overall = summary.iloc[0]
    figures: dict[str, float | int] = {}
    # Correct first, the seed's pass rate beside it: the UI lists (and plots) them in this order.
    for name in sorted(TREND_FIGURES, key=lambda name: LEADING_FIGURES.index(name) if name in LEADING_FIGURES
                       else len(LEADING_FIGURES)):
        if name in summary.columns and not pd.isna(overall[name]):
            value = overall[name]
            figures[name] = int(value) if pd.api.types.is_integer_dtype(summary[name]) else float(value)
    return figures


def report_stamp(scores: pd.DataFrame) -> str:
    """The run's YYYYMMDD_HHMMSS stamp, taken from the scores' timestamp (one per run)."""
    moment = datetime.fromisoformat(str(scores["timestamp"].iloc[0])) if len(scores) else datetime.now()
    return moment.strftime("%Y%m%d_%H%M%S")


evaluation_assets = [
    test_cases, agent_responses, case_scores, evaluation_summary, evaluation_reports, evaluation_charts,
    evaluation_report_page,
]
