"""The JSON case file -> ``test_cases``. A bad file stops the run before any agent call with one
line naming the file, the 1-based case and the field. Read once (it may be a pipe) and measured
before it is parsed (depth, long numbers, keys given twice); gold SQL and expected tables checked
against the database."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from nabahan_pipeline.etimad_db.store import connect_readonly
from nabahan_pipeline.etimad_db.sql_safety import DEFAULT_MAX_CELLS, DEFAULT_MAX_ROWS
from nabahan_pipeline.errors import TestCaseError, UnsafeSQLError
from nabahan_pipeline.evaluation.case_file import json_type, validate_case
from nabahan_pipeline.evaluation.case_table import CATEGORIES, OUT_OF_SCOPE, TEST_CASE_COLUMNS  # noqa: F401 (re-exported)
from nabahan_pipeline.json_bounds import measure_json, too_deep_at
from nabahan_pipeline.settings import SETTINGS

if TYPE_CHECKING:
    from nabahan_pipeline.evaluation.execution_match import ExpectedResult

DEFAULT_SQL_TIMEOUT_S: float = SETTINGS["sql_timeout_s"].default

# The list, a case, its filters, a value of a filter: 4 levels; past this a file is no case file.
MAX_DEPTH = 16
# Longer than any number a filter needs (and than Python turns into an int: 4,300 digits).
MAX_NUMBER_CHARS = 100


def load_test_cases(path: str | Path) -> pd.DataFrame:
    """Read and validate the JSON case file at ``path`` into the test_cases table, in file order;
    raise TestCaseError on the first problem found."""
    return parse_test_cases(read_case_file(path), path)


def read_case_file(path: str | Path) -> bytes:
    """The case file's bytes, read once (a pipe cannot be read twice); TestCaseError when it cannot be read."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise TestCaseError(f"{path}: file not found") from None
    except OSError as error:
        raise TestCaseError(f"{path}: cannot read the file: {error}") from None


def parse_test_cases(data: bytes, path: str | Path) -> pd.DataFrame:
    """Validate the bytes of the case file ``path`` (``read_case_file``) into the test_cases
    table, in file order; raise TestCaseError on the first problem found."""
    name = str(path)
    entries = _read_json_list(data, name)
    records = [_validate_case(entry, number, name) for number, entry in enumerate(entries, 1)]
    _check_unique_ids(records, name)
    return pd.DataFrame.from_records(records, columns=list(TEST_CASE_COLUMNS))


def suite_fingerprint(cases: pd.DataFrame) -> str:
    """What identifies a suite: a digest of its cases' ids, questions and categories in order (a
    --quick run is a suite of its own), so that history compares runs of the same suite. Works on
    test_cases and on case_scores alike (repeats counted once)."""
    distinct = cases.drop_duplicates("case_id")[["case_id", "question", "category"]]
    text = distinct.to_json(orient="values", force_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def numbered_cases(cases: pd.DataFrame) -> Callable[[str], dict[str, Any]]:
    """A case's record by its id, with its 1-based ``number`` in ``cases``, made when asked (as the
    console shows each answer): a record kept for each of 100,000 cases would hold 100 MB."""
    columns = {name: cases[name].tolist() for name in cases.columns}
    position = {case_id: index for index, case_id in enumerate(columns["case_id"])}

    def record(case_id: str) -> dict[str, Any]:
        index = position[case_id]
        return {**{name: values[index] for name, values in columns.items()}, "number": index + 1}

    return record


def select_quick(cases: pd.DataFrame, n: int | None = None) -> pd.DataFrame:
    """``n`` cases spread over the categories (round-robin in order of first appearance, the first
    case of each category first), in file order: the ``--quick`` run. By default one case of
    each category, so that a quick run leaves none out."""
    if n is None:
        n = cases["category"].nunique()
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    categories = cases["category"].tolist()
    queues = [
        [position for position, category in enumerate(categories) if category == wanted]
        for wanted in dict.fromkeys(categories)
    ]
    rounds = itertools.zip_longest(*queues)  # the first case of each category, then the second ...
    chosen = [position for taken in rounds for position in taken if position is not None][:n]
    return cases.iloc[sorted(chosen)].reset_index(drop=True)


def check_against_database(
    cases: pd.DataFrame,
    file: str | Path,
    database: str | Path,
    suite: Sequence[str | Path] = (),
    *,
    timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
    known: Mapping[str, list[ExpectedResult]] | None = None,
) -> dict[str, list[ExpectedResult]]:
    """Check a whole case file (in file order) against the evaluation database before any agent
    call: every expected_table is a table of it, every gold SQL runs on it and on the test-suite
    databases ``suite`` under the run's time limit and row cap, but those whose results ``known``
    holds (``gold_cache``: this file's, on these databases, under these limits). Returns each
    distinct gold SQL's results (evaluation database first), for scoring to use rather than run
    again. Raises TestCaseError naming the case by number and id, and the database's message."""
    tables = _table_names(database)
    names = Path(database).name
    first: dict[str, int] = {}  # each distinct gold SQL, by the number of its first case
    columns = [cases[name].tolist() for name in ("case_id", "expected_table", "expected_sql")]
    for number, (case_id, table, sql) in enumerate(zip(*columns), 1):
        if isinstance(table, str) and table.lower() not in tables:
            problem = TestCaseError(f"{_where(file, number, case_id)}: field 'expected_table': {table!r} is not a "
                                    f"table of {names} (tables: {', '.join(sorted(tables))})")
            break
        if isinstance(sql, str) and sql not in first:
            first[sql] = number
    else:
        problem = None
    # The gold queries before the first bad table, each on every database; the first that fails
    # (in file order) is reported if it comes before that table.
    known = known or {}
    failures, results = _run_gold([sql for sql in first if sql not in known], database, suite,
                                  timeout_s=timeout_s, max_rows=max_rows)
    results.update((sql, known[sql]) for sql in first if sql in known)
    for sql, number in first.items():
        failure = failures.get(sql)
        if failure is None:
            continue
        case_id = columns[0][number - 1]
        if isinstance(failure, Exception):
            raise TestCaseError(f"{_where(file, number, case_id)}: field 'expected_sql': fails on {names}: "
                                f"{failure}") from None
        raise TestCaseError(
            f"{_where(file, number, case_id)}: field 'expected_sql': returns more than can be compared "
            f"(at most {failure:,} rows and {DEFAULT_MAX_CELLS:,} values)"
        )
    if problem is not None:
        raise problem
    return results


# Threads that run a suite's gold queries: SQLite lets go of the interpreter while a query runs, so
# two threads (each with its own connection to each database) keep both cores busy.
GOLD_THREADS = 2


def _run_gold(
    queries: list[str], database: str | Path, suite: Sequence[str | Path], *, timeout_s: float, max_rows: int
) -> tuple[dict[str, Exception | int], dict[str, list[ExpectedResult]]]:
    """Each gold query run on the database and the suite's: what went wrong with each that failed
    (its exception, or the row cap its result passes), and the results of those that ran."""
    from nabahan_pipeline.evaluation.agent_sql import QueryRunner

    runners = [QueryRunner(database, suite, timeout_s=timeout_s, max_rows=max_rows)
               for _ in range(min(GOLD_THREADS, max(1, len(queries))))]

    def run(
        runner: QueryRunner, share: list[str]
    ) -> tuple[dict[str, Exception | int], dict[str, list[ExpectedResult]]]:
        failures: dict[str, Exception | int] = {}
        results: dict[str, list[ExpectedResult]] = {}
        for sql in share:
            try:
                expected = runner.expected(sql)
            except (UnsafeSQLError, OSError) as error:
                failures[sql] = error
                continue
            if any(result.truncated for result in expected):
                failures[sql] = runner.max_rows
            else:
                results[sql] = expected
        return failures, results

    try:
        shares = [queries[index :: len(runners)] for index in range(len(runners))]
        with ThreadPoolExecutor(len(runners)) as pool:
            done = list(pool.map(run, runners, shares))
        return ({sql: failure for failures, _ in done for sql, failure in failures.items()},
                {sql: result for _, results in done for sql, result in results.items()})
    finally:
        for runner in runners:
            runner.close()


def _where(file: str | Path, number: int, case_id: str) -> str:
    return f"{file}: case {number} (id {case_id!r})"


def _table_names(database: str | Path) -> set[str]:
    connection = connect_readonly(database)
    try:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    finally:
        connection.close()
    return {name.lower() for (name,) in rows}


def derive_case_id(question: str, category: str, filters: dict | None = None) -> str:
    """A stable id from a case's content: "c-" and 10 hex digits of the SHA-256 of its canonical JSON."""
    content: dict[str, Any] = {"question": question, "category": category}
    if filters is not None:
        content["filters"] = filters
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "c-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:10]


# --- reading ------------------------------------------------------------------------------------


def _read_json_list(data: bytes, name: str) -> list:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TestCaseError(f"{name}: cannot read the file: {error}") from None
    if measure_json(data, MAX_DEPTH).depth > MAX_DEPTH:
        number, field = too_deep_at(data, MAX_DEPTH) or (1, None)
        where = f"{name}: case {number}" + (f": field {field!r}" if field is not None else "")
        raise TestCaseError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    try:
        entries = json.loads(text, object_pairs_hook=_object, parse_int=_number(int), parse_float=_number(float))
    except json.JSONDecodeError as error:
        raise TestCaseError(
            f"{name}: invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    if not isinstance(entries, list):
        raise TestCaseError(f"{name}: the top level must be a JSON list of cases, got {json_type(entries)}")
    if not entries:
        raise TestCaseError(f"{name}: the list of cases is empty")
    return entries


class _KeyGivenTwice(dict):
    """An object of the file that gives ``key`` twice (json keeps the last silently)."""

    key: str


class _LongNumber(float):
    """A number longer than MAX_NUMBER_CHARS, kept as its length until the case is validated."""

    chars: int


def _object(pairs: list[tuple[str, Any]]) -> dict:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            twice = _KeyGivenTwice(pairs)
            twice.key = key
            return twice
        seen[key] = value
    return seen


def _number(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    def number(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            long = _LongNumber("nan")
            long.chars = len(text)
            return long
        return convert(text)

    return number


_SURROGATE = re.compile("[\ud800-\udfff]")


def _odd_value(value: Any) -> str | None:
    """What is wrong in ``value`` (a key given twice, a number too long), found without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _KeyGivenTwice):
            return f"key {item.key!r} given twice"
        if isinstance(item, _LongNumber):
            return f"a number of {item.chars:,} characters (at most {MAX_NUMBER_CHARS})"
        if isinstance(item, str) and (surrogate := _SURROGATE.search(item)):
            # Valid JSON ("\ud800") but no Unicode text: no file, database or agent could take it.
            return (f"a lone surrogate \\u{ord(surrogate.group()):04x} at character {surrogate.start() + 1} "
                    "(not Unicode text)")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


# --- one case -----------------------------------------------------------------------------------


def _validate_case(entry: object, number: int, name: str) -> dict[str, Any]:
    where = f"{name}: case {number}"
    if not isinstance(entry, dict):
        raise TestCaseError(f"{where}: must be a JSON object, got {json_type(entry)}")
    if isinstance(entry, _KeyGivenTwice):
        raise TestCaseError(f"{where}: field '{entry.key}': given twice")
    for key, value in entry.items():
        odd = _odd_value({key: value})
        if odd is not None:  # the field's name as it can be printed (it may hold the surrogate)
            printable = key.encode("utf-8", "backslashreplace").decode("utf-8")
            raise TestCaseError(f"{where}: field '{printable}': {odd}")
    case = validate_case(entry)
    if isinstance(case, tuple):
        raise TestCaseError(f"{where}: field '{case[0]}': {case[1]}")
    question, case_id = case.question.strip(), case.id.strip() if case.id else None
    return {
        "case_id": case_id or derive_case_id(question, case.category, case.filters),
        "question": question,
        "category": case.category,
        "expected_table": case.expected_table.strip() if case.expected_table else None,
        "expected_response": case.expected_response,
        "description": case.description,
        "filters": None if case.filters is None else json.dumps(case.filters, ensure_ascii=False),
        "expected_sql": case.expected_sql,
        "tags": json.dumps(case.tags or [], ensure_ascii=False),
        "must_pass": case.must_pass,
        "_explicit_id": case_id is not None,
    }


def _check_unique_ids(records: list[dict[str, Any]], name: str) -> None:
    first_seen: dict[str, int] = {}
    explicit_ids = [record.pop("_explicit_id") for record in records]
    for index, record in enumerate(records):
        number = index + 1
        case_id = record["case_id"]
        if case_id in first_seen:
            if explicit_ids[index] or explicit_ids[first_seen[case_id] - 1]:
                problem = f"field 'id': duplicate id {case_id!r} (also case {first_seen[case_id]})"
            else:
                problem = (
                    f"field 'question': duplicate case: same question, category and filters as "
                    f"case {first_seen[case_id]} (derived id {case_id!r}; give one an 'id')"
                )
            raise TestCaseError(f"{name}: case {number}: {problem}")
        first_seen[case_id] = number
