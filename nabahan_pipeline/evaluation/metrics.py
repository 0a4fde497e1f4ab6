"""Per-case scores: the seed's retrieval accuracy, generation fidelity and latency tiers, plus
execution match, numeric grounding, refusal accounting and our verdict -> the ``case_scores`` table.

Two verdicts. ``overall_passed`` is the seed's formula (retrieval and fidelity both pass) with two
hardenings of ours: an ``error`` answer, and an answer whose SQL is not one read-only SELECT, never
pass. ``correct`` (the gate's) also wants the gold's result where the case has gold SQL (on the
evaluation database and every test-suite database), no ungrounded number, safe SQL whose re-run
returns the rows the agent reported, and a refusal for an out-of-scope case; ``not_correct_because``
says what failed.

The agent's SQL is run by us (``agent_sql``): execution match compares the rows it returns here.
SQL that is unsafe, fails here (a table we lack) or runs past the time limit scores 0, whatever
rows the agent reported beside it: the agent must answer over the evaluation database. Grounding reads the insight against the reported rows, what
the agent saw when it wrote it.

Out-of-scope cases: retrieval accuracy is 1 exactly when the agent refused (status out_of_scope
and no SQL). Their three retrieval point columns still record the same checks on whatever the
agent did (a refusal scores 0 on all three), so a report shows what an answered out-of-scope case
ran; retrieval_points sums them and does not decide the out-of-scope pass.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from nabahan_pipeline.agents.contract import ContractError, result_table
from nabahan_pipeline.arabic.normalize import arabic_letter_share, normalize_arabic
from nabahan_pipeline.etimad_db.sql_safety import QueryResult, UnsafeSQLError, referenced_tables
from nabahan_pipeline.evaluation.agent_sql import (
    DEFAULT_MAX_ROWS,
    DEFAULT_SQL_TIMEOUT_S,
    QueryRunner,
    SQLRun,
    check_agent_sql,
    rows_verified,
)
from nabahan_pipeline.evaluation.execution_match import ExpectedResult, execution_match, result_matches
from nabahan_pipeline.evaluation.grounding import ungrounded_numbers
from nabahan_pipeline.evaluation.cases import OUT_OF_SCOPE

MIN_INSIGHT_CHARS = 30  # a success must say more than this many characters (stripped)
MIN_ARABIC_SHARE = 0.3

# Stock AI disclaimers and hedges: an assistant speaking of itself as a model, of its training or
# of its knowledge, which a grounded answer over retrieved rows never needs. Matched as whole words
# and phrases after normalize_arabic (hamza, ta marbuta and case variants all match; "as an ai" is
# not in "has an airport").
DISCLAIMER_PHRASES: tuple[str, ...] = (
    "كنموذج لغوي",
    "نموذج لغوي كبير",
    "بصفتي نموذج",
    "بصفتي نموذجا",
    "بصفتي ذكاء اصطناعي",
    "كذكاء اصطناعي",
    "كمساعد ذكاء اصطناعي",
    "انا نموذج لغوي",
    "انا مجرد نموذج",
    "لا يمكنني تصفح",
    "لا استطيع تصفح",
    "حسب معرفتي",
    "حسب علمي",
    "على حد علمي",
    "اخر تحديث لمعرفتي",
    "بيانات تدريبي",
    "تم تدريبي",
    "as an ai",
    "as a language model",
    "as an artificial intelligence",
    "language model",
    "i am an ai",
    "i'm an ai",
    "i cannot browse",
    "i can't browse",
    "i am unable to browse",
    "my knowledge cutoff",
    "knowledge cutoff",
    "my training data",
    "as of my last update",
)
# "I cannot reach ..." is a disclaimer only when what it cannot reach is the internet or live,
# current data (the model excusing itself); "لا يمكنني الوصول إلى بيانات الطقس" is an honest
# statement of the agent's scope. LIVE_SOURCES must follow within three words.
ACCESS_PHRASES: tuple[str, ...] = (
    "لا يمكنني الوصول",
    "لا استطيع الوصول",
    "ليس لدي وصول",
    "ليس لدي امكانية الوصول",
    "لا املك امكانية الوصول",
    "لا يمكنني الاتصال",
    "i don't have access",
    "i do not have access",
    "i have no access",
    "i cannot access",
    "i can't access",
    "i am unable to access",
)
LIVE_SOURCES: tuple[str, ...] = (
    "الإنترنت",
    "الانترنيت",
    "الشبكة",
    "الويب",
    "بيانات حية",
    "البيانات الحية",
    "معلومات حية",
    "المعلومات الحية",
    "بيانات مباشرة",
    "البيانات المباشرة",
    "بيانات محدثة",
    "البيانات المحدثة",
    "معلومات محدثة",
    "المعلومات المحدثة",
    "أحدث البيانات",
    "أحدث المعلومات",
    "البيانات الحالية",
    "المعلومات الحالية",
    "الوقت الفعلي",
    "الوقت الحقيقي",
    "the internet",
    "internet",
    "the web",
    "real-time",
    "realtime",
    "real time",
    "live data",
    "live information",
    "current data",
    "current information",
    "current events",
    "up-to-date",
    "up to date",
    "the latest",
)


def _phrase(text: str) -> str:
    return r"(?<!\w)" + re.escape(normalize_arabic(text)) + r"(?!\w)"


def _with_preposition(source: str) -> list[str]:
    """A source as written, and after ب or ل ("بالإنترنت", "للبيانات الحية")."""
    folded = normalize_arabic(source)
    return [folded, "ب" + folded, "لل" + folded[2:] if folded.startswith("ال") else "ل" + folded]


_LIVE = "(?:" + "|".join(_phrase(form) for source in LIVE_SOURCES for form in _with_preposition(source)) + ")"
_DISCLAIMERS = tuple((phrase, re.compile(_phrase(phrase))) for phrase in DISCLAIMER_PHRASES) + tuple(
    (phrase, re.compile(_phrase(phrase) + r"(?:\s+\S+){0,3}?\s+" + _LIVE)) for phrase in ACCESS_PHRASES
)

# HTML element names: a tag an agent may emit (<br>, <thead>, </td>, <h3>, <a href=...>) is no
# placeholder.
_HTML_ELEMENTS = (
    "a|abbr|address|area|article|aside|audio|b|base|bdi|bdo|big|blockquote|body|br|button|canvas|"
    "caption|center|cite|code|col|colgroup|data|datalist|dd|del|details|dfn|dialog|div|dl|dt|em|"
    "embed|fieldset|figcaption|figure|font|footer|form|h[1-6]|head|header|hgroup|hr|html|i|iframe|"
    "img|input|ins|kbd|label|legend|li|link|main|map|mark|menu|meta|meter|nav|noscript|object|ol|"
    "optgroup|option|output|p|param|picture|pre|progress|q|rp|rt|ruby|s|samp|script|search|section|"
    "select|slot|small|source|span|strike|strong|style|sub|summary|sup|table|tbody|td|template|"
    "textarea|tfoot|th|thead|time|title|tr|track|tt|u|ul|var|video|wbr"
)
# Template placeholders left in the text: {count}, {{x}}, [REGION], <placeholder>, XXX, N/A,
# TODO/TBD/FIXME, $1, ${x}, %s, %(name)s. [REGION] and TODO count in capitals only ("[see note]"
# in prose is not a placeholder); an angle-bracket word counts when it is no HTML element name.
PLACEHOLDER_PATTERN = re.compile(
    r"\{\{?\s*[A-Za-z_][\w.]*\s*\}\}?"
    r"|\[[A-Z][A-Z0-9_ ]*\]"
    r"|\b(?:TODO|TBD|FIXME)\b"
    r"|<(?!(?i:" + _HTML_ELEMENTS + r")\b)[A-Za-z_][\w ]*>"
    r"|(?<![A-Za-z])[Xx]{3,}(?![A-Za-z])"
    r"|(?<![\w/])(?i:n/a)(?![\w/])"
    r"|\$[1-9](?![\d.,])|\$\{\w+\}"
    r"|%\(\w+\)[sd]|(?<![\w%])%[sd](?!\w)"
)

# An apology, after normalize_arabic: عذراً، أعتذر، نعتذر، آسف، للأسف، مع الأسف، sorry ...
APOLOGY_PATTERN = re.compile(
    r"(?<!\w)[وف]?(?:عذرا|معذره|اعتذر|نعتذر|اعتذار|اسف|اسفه|اسفون|اسفين|للاسف|بالاسف)(?!\w)"
    r"|\b(?:sorry|apologi[sz]e|apologies|unfortunately)\b"
)
_DIGIT_PATTERN = re.compile("[0-9\u0660-\u0669\u06f0-\u06f9]")

# The seed's table: < 2 s Excellent, 2-5 Good, 5-10 Acceptable, > 10 Poor; each bound belongs to
# the tier below it (5.0 s is Good, 10.0 s Acceptable), 2.0 s is no longer "< 2".
LATENCY_TIERS: tuple[tuple[float, bool, str, float], ...] = (
    (2.0, False, "Excellent", 1.0),
    (5.0, True, "Good", 0.8),
    (10.0, True, "Acceptable", 0.5),
)
POOR = ("Poor", 0.2)

SCORE_COLUMNS: tuple[str, ...] = (
    "sql_valid",
    "table_match",
    "has_rows",
    "retrieval_points",
    "retrieval_accuracy",
    "status_match",
    "arabic_text",
    "numbers_present",
    "no_hallucination",
    "fidelity_points",
    "generation_fidelity",
    "latency_tier",
    "latency_score",
    "execution_match",
    "ungrounded_numbers",
    "hallucination_markers",
    "false_refusal",
    "false_answer",
    "overall_passed",
    "unsafe_sql",
    "sql_problem",
    "rows_verified",
    "test_suite_match",
    "correct",
    "not_correct_because",
)
CASE_SCORE_COLUMNS: tuple[str, ...] = (
    "query_num",
    "case_id",
    "repeat",
    "timestamp",
    "question",
    "category",
    "expected_table",
    "status",
    "sql",
    "dialect",
    "data_rows",
    "insights",
    "error",
    "latency_s",
    "cached",
    "prompt_tokens",
    "completion_tokens",
    "result_digest",
) + SCORE_COLUMNS
# Over a case's repeats (the same value on each of its rows): see add_repeat_consistency.
REPEAT_COLUMNS: tuple[str, ...] = ("repeat_pass_share", "distinct_sql", "distinct_results")


def latency_tier(seconds: float) -> tuple[str, float]:
    """The seed's latency tier and score (see LATENCY_TIERS); an unknown latency is Poor."""
    for bound, inclusive, tier, score in LATENCY_TIERS:
        if seconds < bound or (inclusive and seconds == bound):
            return tier, score
    return POOR


def hallucination_markers(insight: str, ungrounded: list[str]) -> list[str]:
    """What in ``insight`` marks a hallucination, each as 'kind: text': stock AI disclaimers,
    template placeholders, and the ``ungrounded`` numbers (from grounding.ungrounded_numbers)."""
    normalized = normalize_arabic(insight).replace("\u2019", "'")
    markers = [f"disclaimer: {phrase}" for phrase, pattern in _DISCLAIMERS if pattern.search(normalized)]
    markers += [f"placeholder: {match.group(0)}" for match in PLACEHOLDER_PATTERN.finditer(insight)]
    markers += [f"ungrounded number: {number}" for number in ungrounded]
    return markers


def score_answer(
    case: Mapping[str, Any],
    answer: Mapping[str, Any],
    latency_s: float,
    gold: QueryResult | ExpectedResult | None = None,
    *,
    replay: SQLRun | None = None,
    suite: Sequence[tuple[ExpectedResult, SQLRun]] = (),
) -> dict[str, Any]:
    """The score columns of one answer to one case (pure).

    ``answer`` has the contract's keys (its result as ``data`` or as ``columns`` + ``rows``, and
    an optional ``dialect``); ``gold`` is the result of the case's expected_sql on the evaluation
    database, required when the case has one; ``replay`` is the agent's SQL re-run there, and
    ``suite`` pairs the gold's and the agent's results on each test-suite database.
    """
    category = case["category"]
    in_scope = category != OUT_OF_SCOPE
    status = answer.get("status")
    checked = check_agent_sql(_text(answer.get("sql")), _text(answer.get("dialect")))
    columns, rows = _result(answer)
    data_rows = _data_rows(answer, rows)
    insight = _text(answer.get("insights")) or ""
    question = _text(case.get("question")) or ""

    sql_valid = int(_text(answer.get("sql")) is not None and not checked.unsafe)
    table_match = int(_references(_text(answer.get("sql")), _text(answer.get("dialect")), _text(case.get("expected_table"))))
    has_rows = int(data_rows > 0)
    retrieval_points = sql_valid + table_match + has_rows
    refused = status == "out_of_scope" and _text(answer.get("sql")) is None
    retrieval_accuracy = int(retrieval_points >= 2) if in_scope else int(refused)

    ungrounded = ungrounded_numbers(insight, rows, question)
    markers = hallucination_markers(insight, ungrounded)
    status_match = int(_matches_status(status, insight))
    arabic_text = int(arabic_letter_share(insight) > MIN_ARABIC_SHARE)
    numbers_present = int(data_rows > 0 and bool(_DIGIT_PATTERN.search(insight)))
    no_hallucination = int(not markers)
    fidelity_points = status_match + arabic_text + numbers_present + no_hallucination
    generation_fidelity = int(fidelity_points >= 3)
    # Ours: an error answer and SQL that is not one read-only SELECT never pass.
    overall_passed = (
        retrieval_accuracy == 1 and generation_fidelity == 1 and status != "error" and not checked.unsafe
    )

    # The rows the agent's SQL returns here. None at all for unsafe SQL (never run) and for SQL
    # that fails or runs out of time here: the rows an agent reports beside such SQL prove nothing.
    # Only with no database to run on (replay None) do the reported rows stand in.
    failed_here = replay is not None and replay.result is None
    if checked.unsafe or failed_here:
        result_rows: Sequence[Sequence[Any]] = []
    elif replay is not None:
        result_rows = [tuple(row) for row in replay.result.rows]
    else:
        result_rows = rows
    execution = _execution_match(case, "not run" if checked.unsafe or failed_here else status, result_rows, gold)
    suite_match = _test_suite_match(execution, status, suite)
    verified = rows_verified(columns, rows, replay) if replay is not None else None

    tier, latency_score = latency_tier(latency_s)
    scores = {
        "sql_valid": sql_valid,
        "table_match": table_match,
        "has_rows": has_rows,
        "retrieval_points": retrieval_points,
        "retrieval_accuracy": retrieval_accuracy,
        "status_match": status_match,
        "arabic_text": arabic_text,
        "numbers_present": numbers_present,
        "no_hallucination": no_hallucination,
        "fidelity_points": fidelity_points,
        "generation_fidelity": generation_fidelity,
        "latency_tier": tier,
        "latency_score": latency_score,
        "execution_match": execution,
        "ungrounded_numbers": json.dumps(ungrounded, ensure_ascii=False),
        "hallucination_markers": json.dumps(markers, ensure_ascii=False),
        "false_refusal": in_scope and status == "out_of_scope",
        "false_answer": not in_scope and status == "success",
        "overall_passed": overall_passed,
        "unsafe_sql": checked.unsafe,
        "sql_problem": checked.problem or (replay.problem if replay is not None else None),
        "rows_verified": verified,
        "test_suite_match": suite_match,
    }
    reasons = not_correct_reasons(scores, status=status, in_scope=in_scope, error=_text(answer.get("error")),
                                  ungrounded=ungrounded)
    return {**scores, "correct": not reasons, "not_correct_because": "; ".join(reasons)}


SEED_VERDICT_COLUMNS = ("retrieval_accuracy", "generation_fidelity", "latency_tier", "overall_passed")


def seed_verdict(case: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """The seed's verdict of one stored response (retrieval, fidelity, latency tier, Overall
    Passed): it needs no query run, so the console can show it the moment an answer arrives.
    The same ``score_answer`` scores it again, whole, in ``case_scores``."""
    columns, rows = _stored_result(response)
    answer = {**response, "columns": columns, "rows": rows, "data": None}
    scores = score_answer({**case, "expected_sql": None}, answer, float(response["latency_s"]))
    return {name: scores[name] for name in SEED_VERDICT_COLUMNS}


def not_correct_reasons(
    scores: Mapping[str, Any], *, status: Any, in_scope: bool, error: str | None, ungrounded: Sequence[str]
) -> list[str]:
    """Why an answer is not Correct, most telling first; empty when it is.

    Correct: the seed's Overall Passed (with our two hardenings), the gold's result where the case
    has gold SQL (and on every test-suite database), no ungrounded number, safe SQL whose re-run
    gives the rows the agent reported, and for an out-of-scope case a refusal.
    """
    reasons: list[str] = []
    if status == "error":
        reasons.append(f"error: {_clip(error)}" if error else "error")
    if scores["unsafe_sql"]:
        reasons.append(f"unsafe SQL: {_clip(scores['sql_problem'])}")
    if in_scope and status == "out_of_scope":
        reasons.append("refused an in-scope question")
    if not in_scope and status != "out_of_scope" and status != "error":
        reasons.append("answered an out-of-scope question")
    elif not in_scope and status == "out_of_scope" and not scores["retrieval_accuracy"]:
        reasons.append("refused but ran SQL")
    if status == "success" and not scores["unsafe_sql"] and scores["sql_problem"]:
        reasons.append(f"its SQL gave no result here: {_clip(scores['sql_problem'])}")
    elif scores["execution_match"] == 0.0 and status == "success":
        reasons.append("wrong result")
    elif scores["test_suite_match"] == 0.0 and status == "success":
        reasons.append("right on the evaluation database only (test suite)")
    if scores["rows_verified"] is False:
        reasons.append("reported rows its SQL does not return")
    if ungrounded:
        reasons.append("ungrounded " + ", ".join(ungrounded[:5]) + (" …" if len(ungrounded) > 5 else ""))
    if not scores["overall_passed"] and not reasons:
        reasons.append(
            f"seed checks: retrieval {scores['retrieval_points']}/3, fidelity {scores['fidelity_points']}/4"
        )
    return reasons


def score_responses(
    cases: pd.DataFrame,
    responses: pd.DataFrame,
    database: str | Path | None,
    *,
    suite: Sequence[str | Path] = (),
    timestamp: str | None = None,
    sql_timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> pd.DataFrame:
    """The case_scores table: every response (case x repeat) scored against its case, in file
    order. The agent's SQL and each gold SQL run on ``database`` and on the test-suite databases
    ``suite``, each distinct query once per database. A gold SQL that fails raises."""
    unknown = sorted(set(responses["case_id"]) - set(cases["case_id"]))
    if unknown:
        raise ValueError(f"responses for unknown case ids: {', '.join(map(str, unknown[:5]))}")
    timestamp = timestamp or datetime.now().astimezone().isoformat(timespec="seconds")
    runner = QueryRunner(database, suite, timeout_s=sql_timeout_s, max_rows=max_rows) if database else None
    golds = _gold_results(cases, runner)
    position = {case_id: index for index, case_id in enumerate(cases["case_id"])}
    ordered = responses.assign(_position=responses["case_id"].map(position)).sort_values(
        ["_position", "repeat"], kind="stable"
    )
    case_by_id = {record["case_id"]: record for record in cases.to_dict("records")}
    records = []
    for response in ordered.to_dict("records"):
        case = case_by_id[response["case_id"]]
        columns, rows = _stored_result(response)
        answer = {**response, "columns": columns, "rows": rows, "data": None}
        expected = golds.get(_text(case.get("expected_sql")) or "", [])
        runs = runner.agent_runs(check_agent_sql(_text(answer.get("sql")), _text(answer.get("dialect")))) if runner else []
        scores = score_answer(
            case,
            answer,
            float(response["latency_s"]),
            expected[0] if expected else None,
            replay=runs[0] if runs else None,
            suite=list(zip(expected[1:], runs[1:])),
        )
        records.append(
            {
                "query_num": response["_position"] + 1,
                "case_id": response["case_id"],
                "repeat": int(response["repeat"]),
                "timestamp": timestamp,
                "question": case["question"],
                "category": case["category"],
                "expected_table": _text(case.get("expected_table")),
                "status": response["status"],
                "sql": _text(response.get("sql")),
                "dialect": _text(response.get("dialect")),
                "data_rows": _data_rows(response, rows),
                "insights": _text(response.get("insights")) or "",
                "error": _text(response.get("error")),
                "latency_s": float(response["latency_s"]),
                "cached": _present(response.get("cached")) and bool(response["cached"]),
                "prompt_tokens": _token_count(response.get("prompt_tokens")),
                "completion_tokens": _token_count(response.get("completion_tokens")),
                "result_digest": result_digest(rows),
                **scores,
            }
        )
    table = pd.DataFrame.from_records(records, columns=list(CASE_SCORE_COLUMNS))
    return add_repeat_consistency(table.astype(_CASE_SCORE_DTYPES))[[*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS]]


def result_digest(rows: Sequence[Any]) -> str:
    """A short digest of a result set, blind to row order, to count distinct results across repeats."""
    canonical = sorted(json.dumps(row, ensure_ascii=False, sort_keys=True, default=str) for row in rows)
    return hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()[:16]


def add_repeat_consistency(scores: pd.DataFrame) -> pd.DataFrame:
    """Per case, over its repeats: the share that passed, distinct SQL texts, distinct result sets."""
    by_case = scores.groupby("case_id", sort=False)
    return scores.assign(
        repeat_pass_share=by_case["overall_passed"].transform("mean").astype(float),
        distinct_sql=by_case["sql"].transform(lambda sql: sql.fillna("").nunique()).astype("int64"),
        distinct_results=by_case["result_digest"].transform("nunique").astype("int64"),
    )


_CASE_SCORE_DTYPES = {
    "query_num": "int64",
    "repeat": "int64",
    "data_rows": "int64",
    "latency_s": "float64",
    "cached": "bool",
    "prompt_tokens": "float64",
    "completion_tokens": "float64",
    **{column: "int64" for column in ("sql_valid", "table_match", "has_rows", "retrieval_points")},
    **{column: "int64" for column in ("status_match", "arabic_text", "numbers_present", "no_hallucination")},
    "retrieval_accuracy": "int64",
    "fidelity_points": "int64",
    "generation_fidelity": "int64",
    "latency_score": "float64",
    "execution_match": "float64",
    "false_refusal": "bool",
    "false_answer": "bool",
    "overall_passed": "bool",
    "unsafe_sql": "bool",
    "rows_verified": "boolean",
    "test_suite_match": "float64",
    "correct": "bool",
}


# --- pieces -------------------------------------------------------------------------------------


def _token_count(value: Any) -> float:
    return float(value) if _present(value) else math.nan


def _references(sql: str | None, dialect: str | None, table: str | None) -> bool:
    if sql is None or table is None:
        return False
    try:
        return table.strip().lower() in referenced_tables(sql, (dialect or "sqlite").lower())
    except (UnsafeSQLError, ValueError):
        return False


def _result(answer: Mapping[str, Any]) -> tuple[list[str], list[list]]:
    try:
        return result_table(answer)
    except ContractError:
        return [], []


def _clip(text: str | None, limit: int = 120) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _data_rows(answer: Mapping[str, Any], rows: list) -> int:
    # The runner records data_rows; an answer built by hand may leave it to the rows.
    return int(answer["data_rows"]) if _present(answer.get("data_rows")) else len(rows)


def _matches_status(status: Any, insight: str) -> bool:
    if status == "success":
        return len(insight.strip()) > MIN_INSIGHT_CHARS
    if status == "out_of_scope":
        return bool(APOLOGY_PATTERN.search(normalize_arabic(insight)))
    return False


def _execution_match(
    case: Mapping[str, Any], status: Any, rows: Sequence[Sequence[Any]], gold: QueryResult | ExpectedResult | None
) -> float:
    gold_sql = _text(case.get("expected_sql"))
    if gold_sql is None:
        return math.nan
    if gold is None:
        raise ValueError(f"case {case.get('case_id', '?')}: has expected_sql but no gold result was given")
    return 1.0 if status == "success" and execution_match(rows, gold, gold_sql) else 0.0


def _test_suite_match(execution: float, status: Any, suite: Sequence[tuple[ExpectedResult, SQLRun]]) -> float:
    """1 when the result is right on the evaluation database and on every test-suite database;
    NaN without gold SQL, without suite databases, or when the agent's SQL did not run here."""
    if math.isnan(execution) or not suite or any(run.result is None for _, run in suite):
        return math.nan
    if execution != 1.0 or status != "success":
        return 0.0
    return float(all(result_matches(run.result.rows, expected) for expected, run in suite))


def _gold_results(cases: pd.DataFrame, runner: QueryRunner | None) -> dict[str, list[ExpectedResult]]:
    """Each distinct gold SQL's result on every database (the evaluation database first)."""
    results: dict[str, list[ExpectedResult]] = {}
    for case in cases.to_dict("records"):
        sql = _text(case.get("expected_sql"))
        if sql is None or sql in results:
            continue
        if runner is None:
            raise ValueError(f"case {case['case_id']}: has expected_sql but no database was given")
        try:
            expected = runner.expected(sql)
        except (UnsafeSQLError, OSError) as error:
            raise ValueError(f"case {case['case_id']}: expected_sql fails on {runner.databases[0]}: {error}") from error
        if any(result.truncated for result in expected):
            raise ValueError(f"case {case['case_id']}: expected_sql returns more rows than can be compared")
        results[sql] = expected
    return results


def _stored_result(response: Mapping[str, Any]) -> tuple[list[str], list[list]]:
    """A stored response's result: the ``columns`` + ``rows`` JSON texts, or a ``data`` JSON text
    of row objects (responses written by hand or by an older version)."""
    case_id = response.get("case_id", "?")
    if _present(response.get("rows")):
        parsed = {"columns": _json_list(response.get("columns"), case_id), "rows": _json_list(response["rows"], case_id)}
    else:
        parsed = {"data": _json_list(response.get("data"), case_id)}
    try:
        return result_table(parsed)
    except ContractError as error:
        raise ValueError(f"case {case_id}: stored result is malformed: {error}") from error


def _json_list(value: Any, case_id: str) -> list:
    if not _present(value) or value == "":
        return []
    if isinstance(value, list):
        return value
    try:
        parsed = json.loads(value)
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"case {case_id}: response data is not JSON: {error}") from error
    if not isinstance(parsed, list):
        raise ValueError(f"case {case_id}: response data is not a JSON list")
    return parsed


def _present(value: Any) -> bool:
    """False for None and for the NaN/NA that pandas puts in place of a missing value."""
    if value is None:
        return False
    try:
        return not bool(pd.isna(value))
    except (TypeError, ValueError):
        return True  # list-likes


def _text(value: Any) -> str | None:
    """A non-blank string, else None (None, NaN and blank strings all mean 'absent')."""
    if not _present(value) or not isinstance(value, str) or not value.strip():
        return None
    return value
