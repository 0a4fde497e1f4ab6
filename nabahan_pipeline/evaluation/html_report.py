"""The report to click through: one self-contained HTML page (Jinja2, autoescape on and required;
charts as data: URIs; CSS and script inlined under a CSP allowing nothing else). This module
shapes the tables into what the templates show."""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import pandas as pd
from jinja2 import Environment, PackageLoader, StrictUndefined, TemplateRuntimeError, pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

from nabahan_pipeline.evaluation.claims.checking import CONTRADICTED, SUPPORTED, UNSUPPORTED
from nabahan_pipeline.evaluation.scoring.claims import judge_disagreement
from nabahan_pipeline.evaluation.error_location import CLAUSES, location_clauses, location_counts
from nabahan_pipeline.evaluation.formats import format_seconds
from nabahan_pipeline.evaluation.headline import count_of, verdict_line
from nabahan_pipeline.evaluation.scoring.declare import Figure
from nabahan_pipeline.evaluation.summary import FIGURE, KPI_FIGURES, report_rows
from nabahan_pipeline.files import atomic_open, remove_stale_temporaries
from nabahan_pipeline.json_bounds import json_list_items

# The charts of the run the page embeds, read from the files the charts asset wrote: the overview,
# the verdicts, the error locations.
REPORT_CHARTS: tuple[str, ...] = ("metrics_overview.png", "pass_fail_distribution.png", "error_locations.png")
# Rows shown of a result, and characters of a cell: the report stays small as results grow.
SHOWN_ROWS = 5
CELL_CHARS = 80
# SQL longer than this is shown cut, and diffed as cut (difflib is quadratic at worst).
SQL_CHARS = 4_000
_CLAIM_MARKS = {SUPPORTED: ("supported", "✓"), CONTRADICTED: ("contradicted", "✗"), UNSUPPORTED: ("unsupported", "?")}
_ARABIC = re.compile("[\u0600-\u06ff]")
# SQL read into words, quoted strings, spaces and single characters, to mark what differs.
_SQL_TOKEN = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\s+|\w+|.", re.S)


@pass_eval_context
def autoescape_required(context: EvalContext) -> str:
    """Called first by the page: rendering with autoescape off would let an agent's markup in."""
    if not context.autoescape:
        raise TemplateRuntimeError("the report renders only with autoescape on: agent text must stay text")
    return ""


def _text(value: Any) -> Any:
    # What a {{ value }} shows: None and NaN as nothing (never "None"), the rest as itself.
    return "" if value is None or (isinstance(value, float) and value != value) else value


def _slug(text: Any) -> str:
    """A filter value: one token of letters, digits, _ and - (spaces as -)."""
    return re.sub(r"[^\w-]", "", re.sub(r"\s+", "-", str(text or "").strip())) or "none"


# A text's direction, as attributes: constant markup, never the text itself.
_RTL, _AUTO = Markup(' dir="rtl" lang="ar"'), Markup(' dir="auto"')


def _direction(text: Any) -> Markup:
    return _RTL if _ARABIC.search(str(text or "")) else _AUTO


def _cut(value: Any) -> str:
    text = "NULL" if value is None else str(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


TEMPLATES = Environment(loader=PackageLoader("nabahan_pipeline.evaluation", "templates"), autoescape=True,
                        undefined=StrictUndefined, finalize=_text, trim_blocks=True, lstrip_blocks=True,
                        keep_trailing_newline=True)
TEMPLATES.globals["autoescape_required"] = autoescape_required
TEMPLATES.filters.update(slug=_slug, cut=_cut, direction=_direction)

# The page's own style and script, inlined by the templates as they are in these files.
STYLE: str = TEMPLATES.loader.get_source(TEMPLATES, "report.css")[0]
SCRIPT: str = TEMPLATES.loader.get_source(TEMPLATES, "report.js")[0]


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


def _png(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def run_report_html(report: RunReport) -> str:
    """One agent's run as one HTML page: KPIs with intervals, charts, error locations, every case."""
    overall = report.summary.iloc[0].to_dict() if len(report.summary) else {}
    kpis = [(row.label, row.rate_text(), count_of(overall, figure) if overall else None)
            for row, figure in zip(report_rows(overall, KPI_FIGURES), KPI_FIGURES)]
    if overall:
        kpis += [("Cases / answers", f"{int(overall['cases']):,} / {int(overall['total']):,}", None),
                 ("p50 / p95 latency (s)", f"{_seconds(overall, 'p50_latency')} / {_seconds(overall, 'p95_latency')}",
                  None)]
    answers = report.scores.sort_values(["query_num", "repeat"], kind="stable")
    return TEMPLATES.get_template("run_report.html").render(
        policy=CONTENT_SECURITY_POLICY,
        title=report.title,
        # The head's first words: Correct (what the gate reads), the seed's pass rate beside it.
        verdict=verdict_line(report.summary) if overall else None,
        kpis=kpis,
        categories=_category_table(report.summary),
        locations=_locations_table(report.scores),
        charts=[(name, _png(png)) for name, png in report.charts.items()],
        selects=_filters(answers, [("correct", "Correct"), ("wrong", "Not correct")]),
        total=len(answers),
        cases=[_case(row, report) for row in answers.to_dict("records")],
    )


def comparison_report_html(title: str, scores: Mapping[str, pd.DataFrame], agents: pd.DataFrame,
                           chart: bytes | None = None) -> str:
    """Several agents on the same cases as one HTML page: each agent's figures, the chart, and
    every case with each agent's answer side by side: with repeats, the first that is not Correct
    (else the first), and on how many repeats the agent was Correct (the McNemar rule's "right":
    all of them)."""
    table = {"head": ["Agent", "Cases", *(figure.label for figure in KPI_FIGURES)],
             "rows": [[row["agent"], f"{int(row['cases']):,}", *_rates(row, KPI_FIGURES)]
                      for row in agents.to_dict("records")]}
    first = {label: _shown_answers(answers) for label, answers in scores.items()}
    order = list(dict.fromkeys(case for answers in first.values() for case in answers.index))
    cases = [_compared_case(case_id, {label: answers.loc[case_id].to_dict() for label, answers in first.items()
                                      if case_id in answers.index}) for case_id in order]
    verdicts = [("all-correct", "every agent correct"), ("disagree", "agents disagree"), ("none-correct", "no agent correct")]
    located = all("error_location" in answers for answers in scores.values())
    return TEMPLATES.get_template("comparison_report.html").render(
        policy=CONTENT_SECURITY_POLICY,
        title=title,
        agents=table,
        chart=_png(chart) if chart else None,
        selects=_filters(pd.concat(list(scores.values())), verdicts, located=located),
        total=len(cases),
        cases=cases,
    )


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
    an unreadable one as empty. The rows are read one at a time (``json_list_items``): the few
    shown are kept, the rest only counted, so that a 30 MiB result is never held as objects."""
    try:
        names = json.loads(columns) if isinstance(columns, str) else list(columns or [])
        if not isinstance(rows, str):
            values = list(rows or [])
            return Result([str(name) for name in names], values[:SHOWN_ROWS], len(values))
        items = json_list_items(rows)
        shown = list(islice(items, SHOWN_ROWS))
        total = len(shown) + sum(1 for _ in items)
    except (TypeError, ValueError):
        return Result([], [], 0)
    if not isinstance(names, list):
        return Result([], [], 0)
    return Result([str(name) for name in names], shown, total)


def _seconds(overall: Mapping[str, Any], key: str) -> str:
    return format_seconds(overall.get(key), unit="", decimals=2)


def _category_table(summary: pd.DataFrame) -> dict[str, list] | None:
    if len(summary) < 2:
        return None
    rates = [FIGURE[key] for key in ("correct_rate", "pass_rate", "execution_accuracy")]
    return {"head": ["Category", "Answers", *(figure.label for figure in rates)],
            "rows": [[row["scope"], f"{int(row['total']):,}", *_rates(row, rates)]
                     for row in summary.iloc[1:].to_dict("records")]}


def _rates(row: Mapping[str, Any], figures: Sequence[Figure]) -> list[str]:
    """The rates ``figures`` of a summary or agents row, each with its interval: "85.0% (62.1-94.8)"."""
    return [shown.rate_text() for shown in report_rows(row, figures)]


def _locations_table(scores: pd.DataFrame) -> dict[str, list] | None:
    counts = location_counts(scores)
    if counts.empty:
        return None
    return {"head": ["Location", "Category", "Wrong answers"],
            "rows": [[row["location"], row["category"], f"{int(row['answers']):,}"] for row in counts.to_dict("records")]}


def _filters(answers: pd.DataFrame, verdicts: Sequence[tuple[str, str]], located: bool = True) -> list[tuple]:
    """The filter bar's selects: the categories of ``answers``, ``verdicts``, the clauses their locations name."""
    categories = sorted({str(category) for category in answers["category"]})
    locations = sorted({clause for location in answers.get("error_location", pd.Series(dtype=str))
                        for clause in location_clauses(location)}, key=CLAUSES.index) if located else []
    return [("category", "Category", [(_slug(category), category) for category in categories]),
            ("verdict", "Verdict", list(verdicts)),
            ("location", "Error location", [(_slug(clause), clause) for clause in locations])]


def _case(row: Mapping[str, Any], report: RunReport) -> dict[str, Any]:
    """One answer of a run as its template shows it."""
    case_id, repeat, right = str(row["case_id"]), int(row["repeat"]), bool(row["correct"])
    agent_sql, gold_sql = _sql_pair(row.get("sql"), report.gold_sql.get(case_id))
    return {
        "anchor": f"{_slug(case_id)}-{repeat}", "category": row["category"], "question": row["question"],
        "verdict": "correct" if right else "wrong", "clauses": location_clauses(row.get("error_location") or ""),
        "number": int(row["query_num"]), "repeat": repeat, "correct": right,
        "agent_sql": agent_sql, "gold_sql": gold_sql,
        "agent_rows": _result(report.agent_rows.get((case_id, repeat))), "gold_rows": _result(report.gold_rows.get(case_id)),
        "insight": _insight(row.get("insights"), row.get("claim_details")), "reasons": _reasons(row),
    }


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


def _compared_case(case_id: str, answers: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One case with each agent's answer, as the comparison's template shows it."""
    first = next(iter(answers.values()))
    right = [int(answer["correct_repeats"]) == int(answer["repeats"]) for answer in answers.values()]
    return {
        "anchor": _slug(case_id), "category": first["category"], "question": first["question"],
        "verdict": "all-correct" if all(right) else "none-correct" if not any(right) else "disagree",
        "clauses": list(dict.fromkeys(clause for answer in answers.values()
                                      for clause in location_clauses(answer.get("error_location")))),
        "number": int(first["query_num"]), "badges": list(zip(answers, right)),
        "answers": [{"label": label, "verdict": _verdict_text(answer), "sql": _sql_pair(answer.get("sql"), None)[0],
                     "insight": _insight(answer.get("insights"), answer.get("claim_details")),
                     "reasons": _reasons(answer)} for label, answer in answers.items()],
    }


Pieces = list[tuple[str, bool]]


def _sql_pair(agent: Any, gold: Any) -> tuple[Pieces | None, Pieces | None]:
    """The agent's SQL and the gold's in pieces, each marked when it differs from the other side
    (None when there is none)."""
    texts = [sql[:SQL_CHARS] if isinstance(sql, str) and sql.strip() else "" for sql in (agent, gold)]
    if not all(texts):
        return tuple([(text, False)] if text else None for text in texts)  # type: ignore[return-value]
    ours, theirs = (_SQL_TOKEN.findall(text) for text in texts)
    keys = [[" " if token.isspace() else token.lower() for token in tokens] for tokens in (ours, theirs)]
    left: Pieces = []
    right: Pieces = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=keys[0], b=keys[1], autojunk=False).get_opcodes():
        for side, text in ((left, "".join(ours[a1:a2])), (right, "".join(theirs[b1:b2]))):
            side.append((text, op != "equal" and bool(text.strip())))
    return left, right


def _result(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    total = result.total if result.total is not None else len(result.rows)
    return {"columns": result.columns,
            "rows": [row if isinstance(row, (list, tuple)) else [row] for row in result.rows[:SHOWN_ROWS]],
            "more": f"{total - SHOWN_ROWS:,}" if total > SHOWN_ROWS else ""}


def _insight(insight: Any, details: Any) -> dict[str, Any]:
    """The insight in pieces, each checked claim marked where it is written, and the claims."""
    text = insight if isinstance(insight, str) else ""
    try:
        claims = json.loads(details) if isinstance(details, str) and details else []
    except ValueError:
        claims = []
    claims = [claim for claim in claims if isinstance(claim, dict)]
    marks = [_CLAIM_MARKS.get(claim.get("verdict"), _CLAIM_MARKS[UNSUPPORTED]) for claim in claims]
    pieces, position = [], 0
    for claim, (css, _) in zip(claims, marks):
        words = str(claim.get("claim") or "")
        at = text.find(words, position) if words else -1
        if at < 0:
            continue
        pieces += [(text[position:at], None, None), (words, css, claim.get("why"))]
        position = at + len(words)
    pieces.append((text[position:], None, None))
    listed = [(css, sign, claim.get("claim"), claim.get("why")) for claim, (css, sign) in zip(claims, marks)]
    counts = {verdict: sum(claim.get("verdict") == verdict for claim in claims)
              for verdict in (SUPPORTED, CONTRADICTED, UNSUPPORTED)}
    coverage = (f"{len(claims)} read, {counts[SUPPORTED]} verified, {counts[CONTRADICTED]} contradicted, "
                f"{counts[UNSUPPORTED]} unverified")
    return {"text": text, "pieces": pieces, "claims": listed, "coverage": coverage}


def _reasons(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    items = [
        ("Why not correct", row.get("not_correct_because")),
        ("Error location", row.get("error_location")),
        ("SQL problem", row.get("sql_problem")),
        ("Error", row.get("error")),
        ("Judge", " — ".join(str(part) for part in (row.get("judge_verdict"), row.get("judge_reason"))
                              if isinstance(part, str) and part)),
        ("Judge and checker", judge_disagreement(row)),
    ]
    return [(label, value) for label, value in items if isinstance(value, str) and value.strip()]


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
