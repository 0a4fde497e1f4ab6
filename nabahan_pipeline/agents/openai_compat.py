"""An OpenAI-compatible chat model as a text-to-SQL agent (``openai:MODEL``), on any server of the
chat-completions protocol (OpenAI, vLLM, llama.cpp, Ollama). ``ChatModel``: one chat completion,
the agent's and the LLM judge's.

Step 1: schema, lookup values and Arabic examples in, one SQLite SELECT (or OUT_OF_SCOPE) out,
checked and run read-only; a failing query gets one repair round. Step 2: a short Arabic insight
from the question and the first rows. Token usage is summed over the calls.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from sqlglot.errors import SqlglotError

from nabahan_pipeline.agents.contract import AgentOptions
from nabahan_pipeline.agents.fingerprint import compose
from nabahan_pipeline.agents.http_client import HttpClient, excerpt, parse_http_url, retry_policy
from nabahan_pipeline.errors import AgentSpecError, DatabaseBuildError, HttpError, UnsafeSQLError
from nabahan_pipeline.settings import SETTINGS, environment_value, resolve

DEFAULT_BASE_URL = SETTINGS["openai_base_url"].default
BASE_URL_ENV = SETTINGS["openai_base_url"].env
API_KEY_ENV = SETTINGS["openai_api_key"].env
OUT_OF_SCOPE = "OUT_OF_SCOPE"
APOLOGY = (
    "عذراً، هذا السؤال خارج نطاق ما أستطيع الإجابة عنه؛ "
    "أجيب فقط عن أسئلة المنافسات والمشاريع الحكومية في منصة اعتماد."
)
INSIGHT_ROWS = 20
LOOKUP_TABLES = ("regions", "tender_types", "tender_statuses")

EXAMPLES: tuple[tuple[str, str], ...] = (
    ("كم عدد المناقصات في منطقة الرياض؟", "SELECT COUNT(*) AS tenders_count FROM tenders_full_details WHERE region_id = 1;"),
    ("ما متوسط القيمة التقديرية للمنافسات النشطة؟",
     "SELECT AVG(estimated_value) AS avg_estimated_value FROM tenders_full_details WHERE status_id = 1;"),
    ("ما توزيع المناقصات حسب نوع المنافسة؟",
     "SELECT tender_type_name, COUNT(*) AS tenders_count FROM tenders_full_details "
     "GROUP BY tender_type_name ORDER BY tenders_count DESC;"),
    ("كم عدد المناقصات المنشورة في عام ٢٠٢٤؟",
     "SELECT COUNT(*) AS tenders_count FROM tenders_full_details WHERE strftime('%Y', publish_date) = '2024';"),
    ("ما أكبر 5 مشاريع مستقبلية في المنطقة الشرقية من حيث القيمة؟",
     "SELECT project_name, agency_name, estimated_value FROM future_projects "
     "WHERE region_id = 5 ORDER BY estimated_value DESC LIMIT 5;"),
    ("ما حالة الطقس في جدة اليوم؟", OUT_OF_SCOPE),
)

SQL_INSTRUCTIONS = f"""You write SQL for Nabahan, an assistant that answers Arabic questions about Saudi government procurement (Etimad tenders, future projects, regions, agencies, activities) from a SQLite database.

Reply with exactly one SQLite SELECT statement that answers the question, in a ```sql code block, and nothing else.
- Read only: one SELECT (WITH ... SELECT is fine). Never INSERT, UPDATE, DELETE, DROP, CREATE, ALTER, PRAGMA or ATTACH.
- Use only the tables and columns of the schema below. Filter regions, tender types and statuses by their ids (listed below).
- Give computed columns short aliases. Add LIMIT only when the question asks for a top N.
- Dates are ISO text 'YYYY-MM-DD': a year is strftime('%Y', publish_date) = '2024'. Arabic-Indic digits mean the same numbers.
- Active/open/current tenders (النشطة، الحالية، المفتوحة، المتاحة) have status_id = 1.
- If the question is not about this procurement data, reply exactly {OUT_OF_SCOPE}."""

INSIGHT_INSTRUCTIONS = """You are Nabahan, an assistant for Saudi government procurement data. Answer the user's question in Arabic, in 1 to 3 sentences, from the query result rows given.
State only numbers that appear in the rows (or the number of rows); do not invent, estimate or extrapolate. If there are no rows, say that no matching results were found.
No preamble, no disclaimers, no Markdown."""

_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[ \t]*\n(.*?)```", re.DOTALL)
_SQL_START = re.compile(r"\bSELECT\b|\bWITH\s+(?:RECURSIVE\s+)?[\w\"]+(?:\s*\([^)]*\))?\s+AS\s*\(", re.IGNORECASE)


class _Failure(Exception):
    """The answer is an ``error``; the message says why, ``sql`` is what was run if anything."""

    def __init__(self, message: str, sql: str | None = None) -> None:
        super().__init__(message)
        self.sql = sql


class ChatError(Exception):
    """A chat completion that gave no text; the message says why (scrubbed of secrets)."""


class ChatModel:
    """One model of an OpenAI-compatible server, asked at temperature 0 (the agent's two steps, the
    judge). Base URL and key given, else from $OPENAI_BASE_URL and the variable ``api_key_env``
    names (None: no key); the key is a secret."""

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str | None = API_KEY_ENV, timeout_s: float = 30.0, max_retries: int = 3,
                 backoff_base_s: float = 0.5, max_answer_bytes: int | None = None) -> None:
        self.model = model
        self.base_url = resolve("openai_base_url", base_url or None).strip().rstrip("/")
        try:
            target = parse_http_url(self.base_url)
        except ValueError as exc:
            raise AgentSpecError(f"base URL (${BASE_URL_ENV}): {exc}") from None
        self.url = f"{self.base_url}/chat/completions"
        self.host = f"{target.host}:{target.port}"
        self.api_key = api_key if api_key is not None or api_key_env is None else environment_value(api_key_env)
        self.client = HttpClient(self.url, timeout_s=timeout_s, token=self.api_key,
                                 retry=retry_policy(max_retries=max_retries, backoff_base_s=backoff_base_s),
                                 max_body_bytes=max_answer_bytes)

    def require_key(self, what: str) -> None:
        """AgentSpecError naming ``what`` (a spec) when no key is set for the public endpoint, where
        every call would fail (a local server at $OPENAI_BASE_URL may need none)."""
        if not self.api_key and self.base_url == DEFAULT_BASE_URL:
            raise AgentSpecError(
                f"{what}: ${API_KEY_ENV} is not set for {DEFAULT_BASE_URL} "
                f"(set ${BASE_URL_ENV} for a local server that needs no key)"
            )

    def chat(self, messages: list[dict[str, str]], timeout_s: float, usage: dict[str, int] | None = None) -> str:
        """One chat completion's text; adds the reported token counts to ``usage``. Raises ChatError."""
        payload = {"model": self.model, "messages": messages, "temperature": 0}
        try:
            reply = self.client.request_json("POST", payload, timeout_s=timeout_s)
        except HttpError as exc:
            raise ChatError(f"LLM request failed: {exc}") from None
        if not isinstance(reply, dict):
            raise ChatError(f"malformed chat completion from {self.url}: expected a JSON object")
        reported = reply.get("usage")
        if isinstance(reported, dict) and usage is not None:
            for key in usage:
                value = reported.get(key)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    usage[key] += int(value)
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ChatError(f"malformed chat completion from {self.url}: no choices[0].message.content") from None
        if not isinstance(content, str) or not content.strip():
            raise ChatError(f"the model returned no text (finish_reason {reply['choices'][0].get('finish_reason')!r})")
        return content

    def close(self) -> None:
        """Close pooled connections."""
        self.client.close()


class OpenAICompatibleAgent:
    """Text-to-SQL over the evaluation database with a chat-completions model (temperature 0)."""

    def __init__(self, spec: str, *, agent_version: str | None = None, database: str | Path | None = None,
                 timeout_s: float = 30.0, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str | None = API_KEY_ENV, sql_timeout_s: float = 5.0, max_retries: int = 3,
                 backoff_base_s: float = 0.5, max_answer_bytes: int | None = None) -> None:
        from nabahan_pipeline.etimad_db.store import ensure_database

        self.spec = spec.strip()
        self.model = self.spec.removeprefix("openai:").strip()
        if not self.model:
            raise AgentSpecError(f"agent spec {spec!r}: expected 'openai:MODEL', e.g. 'openai:gpt-4o-mini'")
        self._model = ChatModel(self.model, base_url=base_url, api_key=api_key, api_key_env=api_key_env,
                                timeout_s=timeout_s, max_retries=max_retries, backoff_base_s=backoff_base_s,
                                max_answer_bytes=max_answer_bytes)
        self._model.require_key(f"agent spec {spec!r}")
        self._url, self._client = self._model.url, self._model.client
        self._timeout_s = timeout_s
        self._sql_timeout_s = sql_timeout_s
        self._agent_version = agent_version
        try:
            self.database = ensure_database(database)
        except DatabaseBuildError as exc:
            raise AgentSpecError(str(exc)) from None
        self._sql_prompt = SQL_INSTRUCTIONS + "\n\n" + describe_database(self.database) + "\n\n" + _examples()

    def check(self) -> None:
        """Raise AgentSpecError when the model's server cannot be reached (before any case is asked)."""
        self._client.check_reachable(min(self._timeout_s, 5.0))

    def ask(self, question: str, filters: dict | None = None) -> dict[str, Any]:
        """Write SQL for the question, run it, and describe the rows in Arabic (the contract dict)."""
        usage = {"prompt_tokens": 0, "completion_tokens": 0}
        deadline = time.monotonic() + self._timeout_s
        try:
            answer = self._answer(question, filters, usage, deadline)
        except _Failure as exc:
            answer = {"status": "error", "sql": exc.sql, "data": [], "insights": "", "error": str(exc)}
        answer["usage"] = usage
        return answer

    def fingerprint(self) -> str:
        """The spec (model name), the API host and the declared agent version."""
        return compose(self.spec, self._model.host, self._agent_version)

    def close(self) -> None:
        """Close pooled connections."""
        self._client.close()

    def __repr__(self) -> str:
        return f"OpenAICompatibleAgent({self.spec!r}, {self._url!r})"

    def _answer(self, question: str, filters: dict | None, usage: dict[str, int], deadline: float) -> dict[str, Any]:
        request = question
        if filters:
            request += "\n\nFilters (apply them as conditions): " + json.dumps(filters, ensure_ascii=False)
        messages = [{"role": "system", "content": self._sql_prompt}, {"role": "user", "content": request}]
        reply = self._chat(messages, usage, deadline)
        try:
            sql, columns, rows = self._run(reply)
        except _Repairable as exc:
            retry = (f"That SQL failed: {exc}\nReply with one corrected SQLite SELECT in a ```sql code block, "
                     f"or {OUT_OF_SCOPE}.")
            messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": retry}]
            reply = self._chat(messages, usage, deadline)
            try:
                sql, columns, rows = self._run(reply)
            except _Repairable as again:
                raise _Failure(f"SQL failed after one repair: {again}", again.sql) from None
        if sql is None:
            return {"status": "out_of_scope", "sql": None, "data": [], "insights": APOLOGY, "error": None}
        request = [{"role": "system", "content": INSIGHT_INSTRUCTIONS},
                   {"role": "user", "content": _insight_request(question, sql, columns, rows)}]
        insight = self._chat(request, usage, deadline).strip()
        if not insight:
            raise _Failure("the model returned an empty insight", sql)
        # columns + rows keep two result columns of one name apart; ``data`` would merge them.
        return {"status": "success", "sql": sql, "columns": list(columns), "rows": [list(row) for row in rows],
                "insights": insight, "error": None}

    def _run(self, reply: str) -> tuple[str | None, list[str], list[tuple]]:
        """Run the SQL of a reply: (sql, columns, rows), or (None, [], []) for OUT_OF_SCOPE; raises
        _Repairable for SQL that does not parse or fails to run, _Failure for unsafe SQL."""
        from nabahan_pipeline.etimad_db.sql_safety import check_read_only_select, run_read_only

        sql = extract_sql(reply)
        if sql is None:
            return None, [], []
        if not sql:
            raise _Repairable("the reply contains no SQL", None)
        try:
            check_read_only_select(sql)
        except UnsafeSQLError as exc:
            if isinstance(exc.__cause__, SqlglotError):  # a syntax error: worth a repair
                raise _Repairable(str(exc), None) from None
            raise _Failure(f"unsafe SQL from the model, not run: {exc}: {excerpt(sql)}") from None
        try:
            result = run_read_only(self.database, sql, timeout_s=self._sql_timeout_s)
        except UnsafeSQLError as exc:  # includes QueryTimeoutError
            raise _Repairable(str(exc), sql) from None
        return sql, list(result.columns), list(result.rows)

    def _chat(self, messages: list[dict[str, str]], usage: dict[str, int], deadline: float) -> str:
        """One chat completion at temperature 0; its text. Adds the reported token counts to usage."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Failure(f"timeout: no answer from {self._url} within {self._timeout_s:g} s")
        try:
            return self._model.chat(messages, remaining, usage)
        except ChatError as exc:
            raise _Failure(str(exc)) from None


class _Repairable(_Failure):
    """SQL that failed in a way the model may fix when told the error."""


def extract_sql(reply: str) -> str | None:
    """The SQL in a model reply (first ```sql fence, else any fence, else from SELECT/WITH on);
    None when the model said OUT_OF_SCOPE, "" when there is no SQL at all."""
    if reply.strip().strip("`'\".").strip().upper().startswith(OUT_OF_SCOPE):
        return None
    fences = _FENCE.findall(reply)
    sql_fences = [body for lang, body in fences if lang.lower() in ("sql", "sqlite")]
    if sql_fences or fences:
        text = (sql_fences or [body for _, body in fences])[0]
    else:
        match = _SQL_START.search(reply)
        text = reply[match.start() :] if match else ""
    text = text.strip().strip("`").strip()
    if text.upper() == OUT_OF_SCOPE:
        return None
    return text


def describe_database(database: str | Path) -> str:
    """The schema as compact CREATE statements, plus the lookup tables' id -> name values."""
    from nabahan_pipeline.etimad_db.store import connect_readonly

    con = connect_readonly(database)
    try:
        tables = con.execute(
            "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).fetchall()
        lines = ["Schema:"] + [" ".join(sql.split()) + ";" for _, sql in tables]
        names = {name for name, _ in tables}
        lookups = []
        for table in LOOKUP_TABLES:
            if table not in names:
                continue
            cursor = con.execute(f'SELECT * FROM "{table}" ORDER BY 1')
            columns = [description[0] for description in cursor.description]
            values = "; ".join(f"{row[0]}={' / '.join(str(v) for v in row[1:])}" for row in cursor.fetchall())
            lookups.append(f"{table} ({columns[0]}={' / '.join(columns[1:])}): {values}")
    finally:
        con.close()
    if lookups:
        lines += ["", "Lookup values:"] + lookups
    return "\n".join(lines)


def _examples() -> str:
    lines = ["Examples:"]
    for question, sql in EXAMPLES:
        answer = sql if sql == OUT_OF_SCOPE else f"```sql\n{sql}\n```"
        lines.append(f"Q: {question}\n{answer}")
    return "\n".join(lines)


def _insight_request(question: str, sql: str, columns: list[str], rows: list[tuple]) -> str:
    # The rows the model is shown, as objects: only these are copied, however many the query returned.
    shown = [dict(zip(columns, row)) for row in rows[:INSIGHT_ROWS]]
    text = json.dumps(shown, ensure_ascii=False, default=str)
    count = f"عدد الصفوف: {len(rows)}"
    if len(rows) > len(shown):
        count += f" (أول {len(shown)} صفاً أدناه)"
    return f"السؤال: {question}\n\nSQL: {sql}\n\n{count}\nالصفوف (JSON):\n{text}"


def build(options: AgentOptions) -> OpenAICompatibleAgent:
    """A chat model agent; its key given, else (``secret_from_env``) read from $OPENAI_API_KEY."""
    return OpenAICompatibleAgent(
        options.spec, agent_version=options.agent_version, database=options.database,
        timeout_s=options.timeout_s, api_key=options.secret, api_key_env=API_KEY_ENV if options.secret_from_env else None,
        max_answer_bytes=options.max_answer_bytes,
        **({"sql_timeout_s": options.sql_timeout_s} if options.sql_timeout_s is not None else {}),
    )
