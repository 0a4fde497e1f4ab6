"""The terminal of `nabahan eval`: the seed's layout and lines first, ours after them, each rate
with its 95 % interval (``Correct Rate: 85.0% (62.1-94.8)``); each case printed as its answer
arrives, with a progress line under them on a terminal."""

from __future__ import annotations

import io
import os
import threading
from datetime import datetime
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from nabahan_pipeline.evaluation.comparison import paired_lines
from nabahan_pipeline.evaluation.formats import format_interval, format_pct, format_rate, format_seconds, interval_text
from nabahan_pipeline.evaluation.headline import count_of
from nabahan_pipeline.evaluation.scoring.case_scores import seed_verdict
from nabahan_pipeline.evaluation.summary import FIGURE
from nabahan_pipeline.reader_may_leave import ReaderMayLeave

RULE = "=" * 70
THIN = "-" * 70
QUESTION_CHARS = 50
RESULT_CHARS = 160
# The reason scoring.verdicts gives when the agent's SQL returns other rows than the gold's.
WRONG_RESULT = "wrong result"
# Pass and Correct rates this far apart (20 points) get a line saying what each checks.
FAR_APART = 0.2


def seconds(value: Any) -> str:
    """Seconds as the seed writes them: 1.85s."""
    return format_seconds(value, unit="s", decimals=2)


def header(*, timestamp: str, cases: int, output_dir: str | Path, agent: str, label: str, repeat: int = 1) -> str:
    """The seed's opening block, then the agent and the run's label."""
    lines = [RULE, "NABAHAN AGENT - EVALUATION PIPELINE", RULE,
             f"Timestamp: {timestamp}", f"Test Cases: {cases}", f"Output Dir: {output_dir}",
             f"Agent: {agent}", f"Label: {label}"]
    if repeat > 1:
        lines.append(f"Repeats: {repeat} answers per case ({cases * repeat} in all)")
    return "\n".join([*lines, RULE, ""])


def case_block(case: Mapping[str, Any], row: Mapping[str, Any], total: int, repeat: int = 1,
               scores: Mapping[str, Any] | None = None) -> str:
    """One case as the seed prints it: its ``scores``, else the seed's verdict of the row alone."""
    verdict = scores if scores is not None else seed_verdict(case, row)
    question = " ".join(str(case["question"]).split())
    again = f" (repeat {int(row['repeat']) + 1}/{repeat})" if repeat > 1 else ""
    lines = [
        f"[{case['number']}/{total}] {str(case['category']).upper()}{again}",
        f"    Q: {question[:QUESTION_CHARS]}...",
        f"    Retrieval: {verdict['retrieval_accuracy'] * 100:.0f}% | "
        f"Fidelity: {verdict['generation_fidelity'] * 100:.0f}% | "
        f"Latency: {seconds(row['latency_s'])} | [{'PASS' if verdict['overall_passed'] else 'FAIL'}]",
    ]
    if row.get("status") == "error":
        lines.append(f"    Error: {' '.join(str(row.get('error') or '').split())[:200]}")
    elif row.get("cached"):
        lines.append("    (cached answer)")
    return "\n".join(lines)


def summary_text(scores: pd.DataFrame, summary: pd.DataFrame, not_correct: pd.DataFrame | None = None) -> str:
    """The seed's EVALUATION SUMMARY, then ours: Correct and why not (a wrong result's expected rows
    beside the agent's, from ``not_correct``), accuracy, counts, categories."""
    overall = summary.iloc[0]
    cases, answers = int(overall["cases"]), int(overall["total"])
    # With repeats the seed's Passed and Failed count answers: said beside them, and the answers apart.
    of_answers = f" of {answers} answers" if answers != cases else ""
    lines = ["", RULE, "EVALUATION SUMMARY", RULE,
             f"Total Queries: {cases}",
             *([f"Answers: {answers} ({cases} cases x {int(overall['repeats'])})"] if answers != cases else []),
             f"Passed: {int(overall['passed'])}{of_answers}",
             f"Failed: {int(overall['failed'])}{of_answers}",
             f"Pass Rate: {_rate(overall, 'pass_rate')}",
             THIN,
             f"Avg Retrieval Accuracy: {format_pct(overall['avg_retrieval_accuracy'])}",
             f"Avg Generation Fidelity: {format_pct(overall['avg_generation_fidelity'])}",
             THIN,
             f"Avg Latency: {seconds(overall['avg_latency'])}",
             f"P50 Latency: {seconds(overall['p50_latency'])}",
             f"P95 Latency: {seconds(overall['p95_latency'])}",
             THIN]
    lines += [
        f"Correct Rate: {_rate(overall, 'correct_rate')} ({int(overall['correct'])} of {answers}: "
        "right result, grounded numbers, safe SQL)",
        # Each accuracy counts only the answers its check could run on: its own denominator.
        f"Execution Accuracy: {_rate(overall, 'execution_accuracy')} "
        f"{count_of(overall, FIGURE['execution_accuracy'], 'with gold SQL')}",
        f"Test Suite Accuracy: {_rate(overall, 'test_suite_accuracy')} "
        f"{count_of(overall, FIGURE['test_suite_accuracy'], 'also run on the test-suite databases')}",
        f"Errors: {int(overall['errors'])} | Unsafe SQL: {int(overall['unsafe_sql'])} "
        f"| Rows not verified: {int(overall['rows_not_verified'])} "
        f"| False refusals: {int(overall['false_refusals'])} | False answers: {int(overall['false_answers'])}",
    ]
    if int(overall["cached_answers"]):
        lines.append(f"Cached answers: {int(overall['cached_answers'])} of {answers} reused from the cache")
    if "pass_hat_n" in summary and not pd.isna(overall["pass_hat_n"]):
        lines += consistency_lines(scores, overall)
    if "total_tokens" in summary and not pd.isna(overall["total_tokens"]):
        lines.append(f"Tokens: {int(overall['total_tokens']):,}")
    if "judge_reason" in scores and scores["judge_reason"].notna().any():  # the judge was on
        lines.append(f"Judge agreement: {format_pct(overall['judge_agreement'])} ({int(overall['judged'])} of {answers} "
                     "judged; the LLM judge's supported = no claim contradicted; it never decides Correct)")
    wrong = scores.loc[~scores["correct"].astype(bool),
                       ["query_num", "repeat", "case_id", "not_correct_because", "unsafe_sql"]]
    rows = _result_rows(not_correct)
    if len(wrong):
        lines.append("Not correct:")
        for query_num, repeat, case_id, because, unsafe in wrong.itertuples(index=False):
            again = f" r{int(repeat) + 1}" if int(repeat) else ""
            lines.append(f"  [{int(query_num)}{again}] {case_id}: {because}")
            # Unsafe SQL never ran: its result is wrong for that alone, whatever rows it reported.
            wrong_result = not unsafe and any(reason.startswith(WRONG_RESULT) for reason in str(because).split("; "))
            if wrong_result and (case_id, int(repeat)) in rows:
                expected, result = rows[case_id, int(repeat)]
                lines += [f"      expected:       {expected[:RESULT_CHARS]}",
                          f"      agent reported: {result[:RESULT_CHARS]}"]
    lines.append("By category:")
    for _, category in summary.iloc[1:].iterrows():
        lines.append(
            f"  {category['scope']:<14} {int(category['passed'])}/{int(category['total'])} passed "
            f"({format_pct(category['pass_rate'])}), {int(category['correct'])} correct "
            f"({_rate(category, 'correct_rate', ', ')}), p95 {seconds(category['p95_latency'])}"
        )
    lines.append(RULE)
    return "\n".join(lines)


def consistency_lines(scores: pd.DataFrame, overall: pd.Series) -> list[str]:
    """With repeats: the cases of one verdict on every repeat, pass^N, then each case that was not,
    with its passes, distinct SQL and distinct results."""
    repeats, cases = int(overall["repeats"]), int(overall["cases"])
    passes = scores["overall_passed"].astype(bool).groupby(scores["case_id"], sort=False).agg(["sum", "size"])
    mixed = passes[(passes["sum"] > 0) & (passes["sum"] < passes["size"])]
    per_case = scores.drop_duplicates("case_id").set_index("case_id")
    lines = [f"Consistency: {cases - len(mixed)} of {cases} cases the same verdict on all {repeats} repeats | "
             f"Pass^{repeats} (every repeat passed): {_rate(overall, 'pass_hat_n')}"]
    for case_id, row in mixed.iterrows():
        lines.append(f"  {case_id}: {int(row['sum'])} of {int(row['size'])} passed, "
                     f"{int(per_case.at[case_id, 'distinct_sql'])} distinct SQL, "
                     f"{int(per_case.at[case_id, 'distinct_results'])} distinct results")
    return lines


def _result_rows(not_correct: pd.DataFrame | None) -> dict[tuple[str, int], tuple[str, str]]:
    """(case_id, repeat) -> the gold's rows and the agent's, as ``not_correct`` wrote them."""
    if not_correct is None:
        return {}
    columns = ["case_id", "repeat", "expected", "result"]
    return {(case_id, int(repeat)): (expected, result)
            for case_id, repeat, expected, result in not_correct[columns].itertuples(index=False)}


def _rate(row: pd.Series, rate: str, between: str = "") -> str:
    """A rate and its interval, "85.0% (62.1-94.8)" (with ``between`` ", ": "85.0%, 62.1-94.8")."""
    if not between:
        return format_rate(row[rate], row.get(f"{rate}_low"), row.get(f"{rate}_high"))
    interval = interval_text(row.get(f"{rate}_low"), row.get(f"{rate}_high"))
    return f"{format_pct(row[rate])}{between}{interval}" if interval else format_pct(row[rate])


def files_text(files: Mapping[str, str], output_dir: str | Path) -> str:
    """The seed's lines about the files written: the reports, then one line per chart."""
    out = Path(output_dir)
    lines = ["", "Saving reports...", *_saved(files, {"results_csv": "Detailed results saved to",
                                                      "summary_csv": "Summary saved to",
                                                      "report_html": "Report to click through"})]
    charts = [path for name, path in files.items() if name.endswith(".png")]
    if charts:
        lines += ["", "Generating visualization charts..."]
        lines += [f"  Created: {_shown(path, out)}" for path in charts]
    return "\n".join(lines)


def robustness_text(summary: pd.DataFrame, files: Mapping[str, str]) -> str:
    """Per perturbation: variants, Correct on originals and on them, drop, cases broken; the files."""
    lines = ["", RULE, "ROBUSTNESS (each case written other ways)", RULE,
             f"{'Perturbation':<22}{'Cases':>6}{'Original':>10}{'Variant':>10}{'Drop':>8}{'Broke':>7}"]
    for row in summary.itertuples():
        lines.append(f"{row.perturbation:<22}{row.cases:>6}{format_pct(row.original_rate):>10}"
                     f"{format_pct(row.variant_rate):>10}{format_pct(row.drop):>8}{row.broken:>7}")
    lines += _saved(files, {"robustness_results_csv": "Robustness per variant",
                            "robustness_summary_csv": "Robustness summary"})
    return "\n".join(lines)


def footer(summary: pd.DataFrame) -> str:
    """The seed's closing block, the Correct rate, and (FAR_APART) a line on why the two differ."""
    overall = summary.iloc[0]
    lines = ["", RULE, "EVALUATION COMPLETE", RULE,
             f"FINAL PASS RATE: {format_pct(overall['pass_rate'])}",
             f"FINAL CORRECT RATE: {format_pct(overall['correct_rate'])}"]
    if abs(float(overall["pass_rate"]) - float(overall["correct_rate"])) >= FAR_APART:
        lines.append("The seed's pass rate checks an answer's form (SQL on the right table, rows, Arabic text, "
                     "numbers), not whether it is right; the correct rate does (see Not correct above).")
    return "\n".join(lines)


def interrupted_text(written: Mapping[str, str]) -> str:
    """What a run stopped by Ctrl-C left: the reports and charts written before it, or none."""
    if not written:
        return "\nInterrupted: no report was written."
    return "\n".join(["", "Interrupted; written before it:",
                      *(f"  {_shown(path, Path.cwd())}" for path in written.values())])


def comparison_text(agents: pd.DataFrame, *, cases: int, disagreements: int, files: Mapping[str, str],
                    pairs: pd.DataFrame | None = None) -> str:
    """The agents side by side, the cases they disagree on, each pair by McNemar, the files written."""
    width = max([len("Agent"), *(len(str(label)) for label in agents["agent"])]) + 2
    lines = ["", RULE, f"AGENT COMPARISON ({len(agents)} agents, {cases} cases)", RULE,
             f"{'Agent':<{width}}{'Correct':>9}{'95% interval':>15}{'Pass':>9}{'Exec':>9}{'p50':>9}{'p95':>9}"
             f"{'Errors':>8}{'Unsafe':>8}"]
    for row in agents.itertuples():
        interval = format_interval(row._asdict(), "correct_rate")
        lines.append(f"{str(row.agent):<{width}}{format_pct(row.correct_rate):>9}{interval:>15}"
                     f"{format_pct(row.pass_rate):>9}"
                     f"{format_pct(row.execution_accuracy):>9}{seconds(row.p50_latency):>9}"
                     f"{seconds(row.p95_latency):>9}{int(row.errors):>8}{int(row.unsafe_sql):>8}")
    lines += [THIN, f"Agents disagree on {disagreements} of {cases} cases (listed first in the case matrix)."]
    if pairs is not None and len(pairs):
        lines += ["Paired, case by case (exact McNemar on the cases right for one agent only; significant: p < 0.05):",
                  *(f"  {line}" for line in paired_lines(pairs))]
    lines += _saved(files, {"comparison_csv": "Comparison saved to", "matrix_csv": "Case matrix saved to",
                            "pairs_csv": "Pairs saved to", "agent_comparison.png": "Chart saved to",
                            "report_html": "Report to click through"})
    lines.append(RULE)
    return "\n".join(lines)


def run_text(settings: Any, *, run: Any, responses: pd.DataFrame, cases: pd.DataFrame,
             golds: Mapping[str, Any], robustness: pd.DataFrame | None) -> str:
    """What closes an agent's run: summary, files, robustness when asked, footer, checks not passed."""
    from nabahan_pipeline.evaluation.not_correct import not_correct_answers
    from nabahan_pipeline.evaluation.robustness.variants import robustness_summary
    from nabahan_pipeline.orchestration.assets import CHARTS_FOLDER

    not_correct = not_correct_answers(run.scores, responses, cases, golds=golds)
    # The console names the charts through the output folder's link, as the seed did.
    link = settings.output_dir.absolute() / CHARTS_FOLDER
    files = {**run.files, **{name: str(link / name) for name in run.charts}}
    parts = [summary_text(run.scores, run.summary, not_correct), files_text(files, settings.output_dir)]
    if robustness is not None:
        parts.append(robustness_text(robustness_summary(robustness), run.files))
    parts.append(footer(run.summary))
    failed = [name for name, passed in run.checks.items() if not passed]
    if failed:
        parts.append(f"checks not passed: {', '.join(failed)}")
    return "\n".join(parts)


def _saved(files: Mapping[str, str], labels: Mapping[str, str]) -> list[str]:
    """"Label: path" for each file of ``labels`` written, in their order."""
    return [f"{label}: {_shown(files[key], Path.cwd())}" for key, label in labels.items() if key in files]


def _shown(path: str | Path, base: Path) -> str:
    try:
        return str(Path(path).relative_to(base.absolute()))
    except ValueError:
        return str(path)


class RunConsole:
    """`nabahan eval`'s watcher of its runs (``NabahanEvaluationPipeline.run``'s ``progress``): the
    seed's header, each case block as its answer arrives, on a terminal a progress line naming the
    stage; the summary, files and footer (after Ctrl-C, what was written); a comparison last."""

    def __init__(self, stream: TextIO) -> None:
        self._given = self.stream = stream
        self.terminal = False
        self.repeat = 1
        self._settings: Any = None
        self._total = 0
        self._progress: Any = None
        self._task: Any = None
        self._lock = threading.Lock()
        self.written: dict[str, str] = {}

    def __call__(self, event: str, data: Mapping[str, Any]) -> None:
        if event == "run":
            self._open(data["settings"], int(data["cases"]))
        elif event == "written":
            self.written.update(data["files"])
        elif event == "stage":
            with self._lock:
                if self._progress is not None:  # the answers' bar gives way to the stage's
                    self._progress.update(self._task, visible=False)
                    self._task = self._progress.add_task(str(data["name"]), total=None)
                    self._progress.refresh()
        elif event == "asking":
            self._total = int(data["cases"])
            if self.terminal:
                self._start_progress(int(data["answers"]))
        elif event == "answer":
            text = case_block(data["case"], data["row"], self._total, self.repeat, data.get("scores"))
            with self._lock:
                if self._progress is not None:
                    self._progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
                    self._progress.advance(self._task)
                else:
                    print(text, file=self.stream, flush=True)
        elif event == "evaluated":
            self.close()
            print(run_text(self._settings, **data), file=self.stream)
        elif event == "interrupted":
            self.close()
            print(interrupted_text(self.written), file=self.stream, flush=True)
        elif event == "registered":
            from nabahan_pipeline.orchestration.partitions import registered_text

            print(registered_text(data["agents"]), file=self.stream, flush=True)
        elif event == "compared":
            compared = data["comparison"]
            print(comparison_text(compared.agents, cases=compared.cases, disagreements=compared.disagreements,
                                  files=compared.files, pairs=pd.DataFrame(compared.pairs)), file=self.stream)

    def _open(self, settings: Any, cases: int) -> None:
        """An agent's run starts: its header, and our own handle on the stream, made before the run
        (while a step runs, Dagster's compute-log capture, no terminal, holds the process's stdout)."""
        self._settings, self.repeat, self.written = settings, settings.repeat, {}
        print(header(timestamp=datetime.now().isoformat(timespec="seconds"), cases=cases,
                     output_dir=settings.output_dir, agent=settings.agent, label=settings.run_label(),
                     repeat=settings.repeat), file=self._given, flush=True)
        self.terminal = _is_terminal(self._given)
        self.stream = _own_handle(self._given)

    def close(self) -> None:
        """Take the progress line away (the blocks above it stay), and our own handle."""
        with self._lock:
            if self._progress is not None:
                self._progress.stop()
                self._progress = None
            self.stream.flush()
            if self.stream is not self._given:
                self.stream.close()
                self.stream = self._given

    def _start_progress(self, answers: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        from rich.text import Text

        def counted(column: Any) -> Any:  # shown for the answers' task, blank for a stage's (no total)
            return _column(lambda task: column(task) if task.total is not None else Text(""))

        per_second = _column(lambda task: Text(f"{task.speed:.1f}/s" if task.speed else ""))
        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), counted(MofNCompleteColumn()), per_second,
            counted(TextColumn("ETA")), counted(TimeRemainingColumn()),
            console=Console(file=self.stream, force_terminal=True), transient=True)
        self._task = self._progress.add_task("asking the agent", total=answers)
        self._progress.start()


def _column(draw: Callable[[Any], Any]) -> Any:
    """A rich progress column that ``draw(task)`` renders."""
    from rich.progress import ProgressColumn

    class Column(ProgressColumn):
        def render(self, task: Any) -> Any:
            return draw(task)

    return Column()


def _own_handle(stream: TextIO) -> TextIO:
    """Our own handle on the stream's file (a duplicate descriptor), else the stream itself."""
    try:
        stream.flush()
        descriptor = os.dup(stream.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return stream
    return ReaderMayLeave(open(descriptor, "w", encoding="utf-8", errors="replace", buffering=1, closefd=True))


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
