"""The report to click through: one self-contained HTML file beside the CSVs, for one agent's run
or for several agents compared case by case.

Self-contained: the charts are PNGs in ``data:`` URIs, the style and the script are inline, and a
Content-Security-Policy allows nothing else (no request leaves the file; only our own script and
style, by hash, run). Every text we did not write (questions, SQL, rows, insights, reasons, labels)
is HTML-escaped where it is put, attributes included; Arabic text is marked ``dir="rtl"``.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

from nabahan_pipeline.evaluation.claims import CONTRADICTED, SUPPORTED, UNSUPPORTED
from nabahan_pipeline.evaluation.error_location import CLAUSES, location_clauses, location_counts
from nabahan_pipeline.evaluation.headline import count_of, verdict_line
from nabahan_pipeline.evaluation.reports import format_pct
from nabahan_pipeline.files import atomic_open, remove_stale_temporaries

# The charts of the run the page embeds, read from the files the charts asset wrote: the overview,
# the verdicts, the error locations.
REPORT_CHARTS: tuple[str, ...] = ("metrics_overview.png", "pass_fail_distribution.png", "error_locations.png")
# Rows shown of a result, and characters of a cell: the report stays small as results grow.
SHOWN_ROWS = 5
CELL_CHARS = 80
# SQL longer than this is shown cut, and diffed as cut (difflib is quadratic at worst).
SQL_CHARS = 4_000
# The rates shown as KPIs, with the summary's interval columns (R_low, R_high) when it has them.
KPI_RATES: tuple[tuple[str, str], ...] = (
    ("correct_rate", "Correct Rate"),
    ("pass_rate", "Pass Rate"),
    ("execution_accuracy", "Execution Accuracy"),
    ("test_suite_accuracy", "Test Suite Accuracy"),
)
# What each KPI rate counts: its own denominator, shown beside it ("6 of 17").
KPI_DENOMINATORS = {"correct_rate": "total", "pass_rate": "total", "execution_accuracy": "execution_cases",
                    "test_suite_accuracy": "test_suite_cases"}
_CLAIM_MARKS = {SUPPORTED: ("supported", "✓"), CONTRADICTED: ("contradicted", "✗"), UNSUPPORTED: ("unsupported", "?")}
_ARABIC = re.compile("[\u0600-\u06ff]")
# SQL read into words, quoted strings, spaces and single characters, to mark what differs.
_SQL_TOKEN = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\s+|\w+|.", re.S)

STYLE = """
body{font-family:system-ui,"DejaVu Sans",sans-serif;margin:1.5rem;color:#222;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.6rem}h4{margin:.8rem 0 .3rem}
.kpis{display:flex;flex-wrap:wrap;gap:.8rem}.kpi{border:1px solid #ccc;border-radius:6px;padding:.5rem .8rem}
.kpi b{display:block;font-size:1.3rem}.kpi small{display:block;color:#555}
.verdict{font-size:1.1rem;font-weight:600}
.charts img{max-width:100%;border:1px solid #eee;margin:.4rem 0}
table{border-collapse:collapse;font-size:.85rem}td,th{border:1px solid #ddd;padding:.2rem .45rem;vertical-align:top}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:.6rem 0}
details.case{border:1px solid #ddd;border-radius:6px;margin:.3rem 0;padding:.3rem .6rem}
details.case>summary{cursor:pointer;display:flex;gap:.6rem;align-items:baseline;flex-wrap:wrap}
.badge{border-radius:4px;padding:0 .4rem;font-size:.8rem;color:#fff}.correct{background:#0072B2}
.wrong{background:#D55E00}.loc{color:#555;font-size:.85rem}.num{color:#555}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f7;padding:.4rem;margin:0}
mark.diff{background:#ffd9a8}mark.supported{background:#cfe6f7}mark.contradicted{background:#f9c4a8}
mark.unsupported{background:#eee}.muted{color:#777}.agents{display:grid;gap:1rem}
"""

SCRIPT = """
"use strict";
const filters = Array.from(document.querySelectorAll("select[data-filter]"));
const cases = Array.from(document.querySelectorAll("details.case"));
const shown = document.getElementById("shown");
function apply() {
  let count = 0;
  for (const item of cases) {
    const fits = filters.every((filter) => !filter.value ||
      (item.dataset[filter.dataset.filter] || "").split(" ").includes(filter.value));
    item.hidden = !fits;
    if (fits) { count += 1; }
  }
  shown.textContent = String(count);
}
for (const filter of filters) { filter.addEventListener("change", apply); }
apply();
"""


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


# Nothing but this file's own style and script (by hash) and its data: images; no request out.
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; img-src data:; style-src {_hash(STYLE)}; script-src {_hash(SCRIPT)}; "
    "base-uri 'none'; form-action 'none'"
)


@dataclass(frozen=True)
class Result:
    """A result as the report shows it: its columns and (some of) its rows."""

    columns: list[str]
    rows: list[Sequence[Any]]
    total: int | None = None


@dataclass(frozen=True)
class RunReport:
    """What one agent's report shows: ``scores`` (case_scores), ``summary`` (evaluation_summary),
    ``charts`` (file name -> PNG bytes), the gold SQL and the agent's and the gold's rows."""

    title: str
    scores: pd.DataFrame
    summary: pd.DataFrame
    charts: Mapping[str, bytes] = field(default_factory=dict)
    gold_sql: Mapping[str, str] = field(default_factory=dict)  # case_id -> gold SQL
    agent_rows: Mapping[tuple[str, int], Result] = field(default_factory=dict)  # (case_id, repeat) ->
    gold_rows: Mapping[str, Result] = field(default_factory=dict)  # case_id ->


def _e(value: Any) -> str:
    """Any value as inert HTML text (attributes too): None and NaN as empty."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return escape(str(value), quote=True)


def _dir(text: Any) -> str:
    return ' dir="rtl" lang="ar"' if _ARABIC.search(str(text or "")) else ' dir="auto"'


def _slug(text: Any) -> str:
    """A filter value: one token of letters, digits, _ and - (spaces as -)."""
    return re.sub(r"[^\w-]", "", re.sub(r"\s+", "-", str(text or "").strip())) or "none"


def _rate(overall: Mapping[str, Any], column: str) -> str:
    low, high = overall.get(f"{column}_low"), overall.get(f"{column}_high")
    text = format_pct(overall.get(column))
    if low is not None and high is not None and not pd.isna(low) and not pd.isna(high):
        text += f" ({float(low) * 100:.1f}–{float(high) * 100:.1f})"
    return text


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )


def run_report_html(report: RunReport) -> str:
    """One agent's run as one HTML page: KPIs with intervals, charts, error locations, every case."""
    overall = report.summary.iloc[0].to_dict() if len(report.summary) else {}
    kpis = "".join(
        f'<div class="kpi"><small>{label}</small><b>{_e(_rate(overall, column))}</b>'
        + (f'<small>{_e(count_of(overall, column, KPI_DENOMINATORS[column]))}</small>' if overall else "")
        + '</div>'
        for column, label in KPI_RATES
    )
    if overall:
        kpis += (f'<div class="kpi"><small>Cases / answers</small><b>{int(overall["cases"]):,} / '
                 f'{int(overall["total"]):,}</b></div>'
                 f'<div class="kpi"><small>p50 / p95 latency (s)</small><b>{_e(_seconds(overall.get("p50_latency")))}'
                 f' / {_e(_seconds(overall.get("p95_latency")))}</b></div>')
    charts = "".join(
        f'<img alt="{_e(name)}" src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'
        for name, png in report.charts.items()
    )
    answers = report.scores.sort_values(["query_num", "repeat"], kind="stable")
    cases = "\n".join(_case(row, report) for row in answers.to_dict("records"))
    # The head's first words: Correct (what the gate reads), the seed's pass rate beside it.
    verdict = f'<p class="verdict">{_e(verdict_line(report.summary))}</p>\n' if overall else ""
    body = (
        f"<h1>{_e(report.title)}</h1>\n{verdict}"
        f'<h2>Key figures</h2><div class="kpis">{kpis}</div>'
        '<p class="muted">A rate\'s 95 % interval, when the summary has one, follows it in brackets.</p>\n'
        f"<h2>By category</h2>{_category_table(report.summary)}\n"
        f"<h2>Where wrong answers go wrong</h2>{_locations_table(report.scores)}\n"
        f'<h2>Charts</h2><div class="charts">{charts}</div>\n'
        f"<h2>Cases</h2>{_filters(answers, [('correct', 'Correct'), ('wrong', 'Not correct')], len(answers))}\n"
        f"<div id=\"cases\">{cases}</div>"
    )
    return _page(report.title, body)


def comparison_report_html(title: str, scores: Mapping[str, pd.DataFrame], agents: pd.DataFrame,
                           chart: bytes | None = None) -> str:
    """Several agents on the same cases as one HTML page: each agent's figures, the chart, and
    every case with each agent's answer side by side: with repeats, the first that is not Correct
    (else the first), and on how many repeats the agent was Correct (the McNemar rule's "right":
    all of them)."""
    table = _table(["Agent", "Cases", *(label for _, label in KPI_RATES)],
                   ([_e(row["agent"]), f"{int(row['cases']):,}", *(_e(_rate(row, column)) for column, _ in KPI_RATES)]
                    for row in agents.to_dict("records")))
    image = (f'<img alt="agent_comparison.png" src="data:image/png;base64,{base64.b64encode(chart).decode("ascii")}">'
             if chart else "")
    first = {label: _shown_answers(table) for label, table in scores.items()}
    order = list(dict.fromkeys(case for table in first.values() for case in table.index))
    items = [_compared_case(case_id, {label: table.loc[case_id].to_dict() for label, table in first.items()
                                      if case_id in table.index}) for case_id in order]
    verdicts = [("all-correct", "every agent correct"), ("disagree", "agents disagree"), ("none-correct", "no agent correct")]
    located = all("error_location" in table for table in scores.values())
    body = (
        f"<h1>{_e(title)}</h1>\n<h2>Agents</h2>{table}\n"
        '<p class="muted">A rate\'s 95 % interval, when the summary has one, follows it in brackets.</p>\n'
        f'<h2>Chart</h2><div class="charts">{image}</div>\n'
        "<h2>Cases</h2>"
        + _filters(pd.concat(list(scores.values())), verdicts, len(items), located=located)
        + f"\n<div id=\"cases\">{''.join(items)}</div>"
    )
    return _page(title, body)


def write_html(html: str, path: Path) -> Path:
    """Write ``html`` to ``path`` atomically (UTF-8), never over an existing file (its name is
    that of CSVs just claimed, written before it); return the path."""
    remove_stale_temporaries(path.parent)
    with atomic_open(path, "w", replace=False, encoding="utf-8", newline="\n") as handle:
        handle.write(html)
    return path


def run_report_path(results_csv: Path) -> Path:
    """The run's report beside its CSVs, of the same stamp (and suffix): evaluation_report_<stamp>.html."""
    return results_csv.with_name(results_csv.name.replace("evaluation_results_", "evaluation_report_", 1)).with_suffix(".html")


def stored_result(columns: Any, rows: Any) -> Result:
    """A stored response's result (its ``columns`` and ``rows`` JSON texts) as the report shows it;
    an unreadable one as empty."""
    try:
        names = json.loads(columns) if isinstance(columns, str) else list(columns or [])
        values = json.loads(rows) if isinstance(rows, str) else list(rows or [])
    except (TypeError, ValueError):
        return Result([], [], 0)
    if not isinstance(names, list) or not isinstance(values, list):
        return Result([], [], 0)
    return Result([str(name) for name in names], values[:SHOWN_ROWS], len(values))


def _seconds(value: Any) -> str:
    return "n/a" if value is None or pd.isna(value) else f"{float(value):.2f}"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table of the words ``head`` and ``rows`` of cells already HTML."""
    cells = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{''.join(f'<th>{_e(name)}</th>' for name in head)}</tr>{cells}</table>"


def _category_table(summary: pd.DataFrame) -> str:
    if len(summary) < 2:
        return '<p class="muted">No category.</p>'
    rates = ("correct_rate", "pass_rate", "execution_accuracy")
    return _table(["Category", "Answers", "Correct Rate", "Pass Rate", "Execution Accuracy"],
                  ([_e(row["scope"]), f"{int(row['total']):,}", *(_e(_rate(row, rate)) for rate in rates)]
                   for row in summary.iloc[1:].to_dict("records")))


def _locations_table(scores: pd.DataFrame) -> str:
    counts = location_counts(scores)
    if counts.empty:
        return '<p class="muted">No wrong answer located.</p>'
    return _table(["Location", "Category", "Wrong answers"],
                  ([_e(row["location"]), _e(row["category"]), f"{int(row['answers']):,}"]
                   for row in counts.to_dict("records")))


def _filters(answers: pd.DataFrame, verdicts: Sequence[tuple[str, str]], total: int, located: bool = True) -> str:
    """The filter bar: the categories of ``answers``, ``verdicts``, the clauses their locations name."""
    categories = sorted({str(category) for category in answers["category"]})
    locations = sorted({clause for location in answers.get("error_location", pd.Series(dtype=str))
                        for clause in location_clauses(location)}, key=CLAUSES.index) if located else []
    selects = [("category", "Category", [(_slug(category), category) for category in categories]),
               ("verdict", "Verdict", verdicts),
               ("location", "Error location", [(_slug(clause), clause) for clause in locations])]
    parts = []
    for key, label, options in selects:
        choices = "".join(f'<option value="{_e(value)}">{_e(text)}</option>' for value, text in options)
        parts.append(f'<label>{_e(label)} <select id="filter-{key}" data-filter="{key}">'
                     f'<option value="">all</option>{choices}</select></label>')
    return f'<div class="filters">{"".join(parts)}<span><span id="shown">{total}</span> shown</span></div>'


def _case(row: Mapping[str, Any], report: RunReport) -> str:
    case_id, repeat, right = str(row["case_id"]), int(row["repeat"]), bool(row["correct"])
    agent_sql, gold_sql = _sql_pair(row.get("sql"), report.gold_sql.get(case_id))
    head = (f'<span class="num">#{int(row["query_num"])}{f" (repeat {repeat + 1})" if repeat else ""}</span>'
            f'<span class="badge {"correct" if right else "wrong"}">{"Correct" if right else "Not correct"}</span>')
    body = (
        f'<div class="pair"><div><h4>Agent SQL</h4>{agent_sql}</div><div><h4>Gold SQL</h4>{gold_sql}</div></div>'
        f'<div class="pair"><div><h4>Agent rows</h4>{_result(report.agent_rows.get((case_id, repeat)))}</div>'
        f'<div><h4>Gold rows</h4>{_result(report.gold_rows.get(case_id))}</div></div>'
        f'{_insight(row.get("insights"), row.get("claim_details"))}{_reasons(row)}'
    )
    return _details(f"{_slug(case_id)}-{repeat}", row, "correct" if right else "wrong",
                    location_clauses(row.get("error_location") or ""), head, body)


def _shown_answers(table: pd.DataFrame) -> pd.DataFrame:
    """One answer per case, in case order: the first repeat not Correct, else the first; with the
    number of repeats (``repeats``) and of those Correct (``correct_repeats``)."""
    ordered = table.sort_values(["query_num", "repeat"], kind="stable")
    counts = ordered.assign(correct=ordered["correct"].astype(bool)).groupby("case_id", sort=False)["correct"]
    shown = (ordered.sort_values("correct", kind="stable").drop_duplicates("case_id")
             .sort_values(["query_num", "repeat"], kind="stable").set_index("case_id", drop=False))
    return shown.assign(correct_repeats=counts.sum(), repeats=counts.size())


def _verdict_text(answer: Mapping[str, Any]) -> str:
    right, repeats = int(answer["correct_repeats"]), int(answer["repeats"])
    if right in (0, repeats):
        return "Correct" if right else "Not correct"
    return f"Correct on {right} of {repeats} repeats"


def _compared_case(case_id: str, answers: Mapping[str, Mapping[str, Any]]) -> str:
    first = next(iter(answers.values()))
    right = [int(answer["correct_repeats"]) == int(answer["repeats"]) for answer in answers.values()]
    verdict = "all-correct" if all(right) else "none-correct" if not any(right) else "disagree"
    clauses = list(dict.fromkeys(clause for answer in answers.values()
                                 for clause in location_clauses(answer.get("error_location"))))
    badges = "".join(
        f'<span class="badge {"correct" if ok else "wrong"}">{_e(label)}</span>'
        for (label, answer), ok in zip(answers.items(), right)
    )
    columns = "".join(
        f'<div><h4>{_e(label)}: {_verdict_text(answer)}</h4>'
        f'<h4>SQL</h4>{_sql_pair(answer.get("sql"), None)[0]}'
        f'{_insight(answer.get("insights"), answer.get("claim_details"))}{_reasons(answer)}</div>'
        for label, answer in answers.items()
    )
    head = f'<span class="num">#{int(first["query_num"])}</span>{badges}'
    return _details(_slug(case_id), first, verdict, clauses, head, f'<div class="agents pair">{columns}</div>')


def _details(anchor: str, case: Mapping[str, Any], verdict: str, clauses: Sequence[str], head: str, body: str) -> str:
    """One case to click open: ``head`` and its category, question and error clauses in its summary,
    then its question and ``body``; its data- attributes are what the filters read."""
    question = case["question"]
    return (
        f'<details class="case" id="case-{_e(anchor)}" data-category="{_e(_slug(case["category"]))}" '
        f'data-verdict="{verdict}" data-location="{_e(" ".join(_slug(c) for c in clauses))}">'
        f'<summary>{head}<span>{_e(case["category"])}</span><span{_dir(question)}>{_e(question)}</span>'
        f'<span class="loc">{_e(", ".join(clauses))}</span></summary>'
        f'<div class="body"><h4>Question</h4><p{_dir(question)}>{_e(question)}</p>{body}</div></details>'
    )


def _sql_pair(agent: Any, gold: Any) -> tuple[str, str]:
    """The agent's SQL and the gold's as two <pre> blocks, the words that differ marked in each."""
    texts = [sql[:SQL_CHARS] if isinstance(sql, str) and sql.strip() else "" for sql in (agent, gold)]
    if not all(texts):
        agent_block, gold_block = (f'<pre dir="ltr">{_e(text)}</pre>' if text else '<p class="muted">none</p>'
                                   for text in texts)
        return agent_block, gold_block
    ours, theirs = (_SQL_TOKEN.findall(text) for text in texts)
    keys = [[" " if token.isspace() else token.lower() for token in tokens] for tokens in (ours, theirs)]
    left, right = [], []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=keys[0], b=keys[1], autojunk=False).get_opcodes():
        for side, text in ((left, _e("".join(ours[a1:a2]))), (right, _e("".join(theirs[b1:b2])))):
            side.append(f'<mark class="diff">{text}</mark>' if op != "equal" and text.strip() else text)
    return f'<pre dir="ltr">{"".join(left)}</pre>', f'<pre dir="ltr">{"".join(right)}</pre>'


def _result(result: Result | None) -> str:
    if result is None:
        return '<p class="muted">not at hand</p>'
    if not result.columns and not result.rows:
        return '<p class="muted">no rows</p>'
    head = "".join(f"<th{_dir(name)}>{_e(_cut(name))}</th>" for name in result.columns)
    body = "".join(
        "<tr>" + "".join(f"<td{_dir(cell)}>{_e(_cut(cell))}</td>"
                         for cell in (row if isinstance(row, (list, tuple)) else [row]))
        + "</tr>"
        for row in result.rows[:SHOWN_ROWS]
    )
    total = result.total if result.total is not None else len(result.rows)
    more = f'<p class="muted">{total - SHOWN_ROWS:,} more rows</p>' if total > SHOWN_ROWS else ""
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def _cut(value: Any) -> str:
    text = "NULL" if value is None else str(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def _insight(insight: Any, details: Any) -> str:
    """The insight with each checked claim marked where it is written, and the claims listed."""
    text = insight if isinstance(insight, str) else ""
    try:
        claims = json.loads(details) if isinstance(details, str) and details else []
    except ValueError:
        claims = []
    claims = [claim for claim in claims if isinstance(claim, dict)]
    marks = [_CLAIM_MARKS.get(claim.get("verdict"), _CLAIM_MARKS[UNSUPPORTED]) for claim in claims]
    marked, position = [], 0
    for claim, (css, _) in zip(claims, marks):
        words = str(claim.get("claim") or "")
        at = text.find(words, position) if words else -1
        if at < 0:
            continue
        marked.append(_e(text[position:at]))
        marked.append(f'<mark class="{css}" title="{_e(claim.get("why"))}">{_e(words)}</mark>')
        position = at + len(words)
    marked.append(_e(text[position:]))
    listed = "".join(
        f'<li><mark class="{css}">{sign}</mark> <span{_dir(claim.get("claim"))}>{_e(claim.get("claim"))}</span>'
        f'{": " + _e(claim.get("why")) if claim.get("why") else ""}</li>'
        for claim, (css, sign) in zip(claims, marks)
    )
    return (f'<h4>Insight</h4><p class="insight"{_dir(text)}>{"".join(marked)}</p>'
            + (f"<h4>Claims checked</h4><ul>{listed}</ul>" if listed else ""))


def _reasons(row: Mapping[str, Any]) -> str:
    items = [
        ("Why not correct", row.get("not_correct_because")),
        ("Error location", row.get("error_location")),
        ("SQL problem", row.get("sql_problem")),
        ("Error", row.get("error")),
        ("Judge", " — ".join(str(part) for part in (row.get("judge_verdict"), row.get("judge_reason"))
                              if isinstance(part, str) and part)),
    ]
    listed = "".join(f"<li><b>{label}:</b> <span{_dir(value)}>{_e(value)}</span></li>"
                     for label, value in items if isinstance(value, str) and value.strip())
    return f"<h4>Reasons</h4><ul>{listed}</ul>" if listed else ""


def gathered_run_report(
    title: str,
    scores: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    cases: pd.DataFrame,
    responses: pd.DataFrame,
    golds: Mapping[str, Sequence[Any]],
    charts: Mapping[str, bytes],
) -> RunReport:
    """A run's report from its tables: the gold SQL of ``cases``, the rows of ``responses``, and
    the gold's rows on the evaluation database from ``golds`` (gold SQL -> its results, the
    evaluation database's first, as the case file's check ran them; a gold not there shows none)."""
    gold_sql = {str(case_id): sql for case_id, sql in zip(cases["case_id"], cases.get("expected_sql", [None] * len(cases)))
                if isinstance(sql, str) and sql.strip()}
    gold_rows = {}
    for case_id, sql in gold_sql.items():
        results = golds.get(sql)
        if results:
            first = results[0]
            gold_rows[case_id] = Result(list(first.columns), list(first.rows[:SHOWN_ROWS]), len(first.rows))
    agent_rows = {
        (str(case_id), int(repeat)): stored_result(columns, rows)
        for case_id, repeat, columns, rows in zip(responses["case_id"], responses["repeat"],
                                                  responses.get("columns", [None] * len(responses)),
                                                  responses.get("rows", [None] * len(responses)))
    }
    return RunReport(title, scores, summary, dict(charts), gold_sql, agent_rows, gold_rows)
