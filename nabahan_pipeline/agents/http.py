"""A service speaking the contract over HTTP (``http(s)://host:port/path``), on ``http_client``."""

from __future__ import annotations

from typing import Any

from nabahan_pipeline.agents.contract import MAX_ANSWER_VALUES, AgentAnswer, AgentOptions
from nabahan_pipeline.agents.fingerprint import compose
from nabahan_pipeline.agents.http_client import HttpClient, parse_http_url, retry_policy
from nabahan_pipeline.errors import AgentSpecError, HttpError, MalformedResponseError
from nabahan_pipeline.settings import SETTINGS, environment_value


class HttpAgent:
    """An agent behind an HTTP endpoint: POST {"question", "filters"} as JSON, the contract back.
    A bearer token (``token``, else from the variable ``token_env`` names) goes to this endpoint
    alone; transport failures are ``error`` answers naming the URL and the cause."""

    def __init__(self, spec: str, *, agent_version: str | None = None, timeout_s: float = 30.0,
                 token: str | None = None, token_env: str | None = SETTINGS["agent_token"].env,
                 max_retries: int = 3, backoff_base_s: float = 0.5, backoff_max_s: float = 8.0,
                 retry_after_cap_s: float = 30.0, max_answer_bytes: int | None = None,
                 max_values: int = MAX_ANSWER_VALUES) -> None:
        spec = spec.strip()
        try:
            parse_http_url(spec)
        except ValueError as exc:
            raise AgentSpecError(f"agent spec: {exc}") from None
        self.spec = spec
        self._agent_version = agent_version
        # On the body rows and column names count too: twice the cap (normalize_answer counts exactly).
        self._max_values = 2 * max_values
        if token is None and token_env is not None:
            token = environment_value(token_env)
        retry = retry_policy(max_retries, backoff_base_s, backoff_max_s, retry_after_cap_s)
        self._client = HttpClient(spec, timeout_s=timeout_s, retry=retry, token=token,
                                  max_body_bytes=max_answer_bytes)

    def ask(self, question: str, filters: dict | None = None) -> Any:
        """POST the question; the decoded JSON answer, or an ``error`` answer saying what failed."""
        try:
            return self._client.request_json("POST", {"question": question, "filters": filters},
                                              max_values=self._max_values)
        except MalformedResponseError as exc:
            return AgentAnswer.failure(f"malformed answer: {exc}").to_contract()
        except HttpError as exc:
            return AgentAnswer.failure(str(exc)).to_contract()

    def check(self) -> None:
        """Raise AgentSpecError when the service cannot be reached (before any case is asked)."""
        self._client.check_reachable(min(self._client.timeout_s, 5.0))

    def fingerprint(self) -> str:
        """The spec and the declared agent version (the token is no part of it)."""
        return compose(self.spec, self._agent_version)

    def close(self) -> None:
        """Close pooled connections."""
        self._client.close()

    def __repr__(self) -> str:
        return f"HttpAgent({self.spec!r})"


def build(options: AgentOptions) -> HttpAgent:
    """A service agent; its token given, else (``secret_from_env``) read from $NABAHAN_AGENT_TOKEN."""
    return HttpAgent(options.spec, agent_version=options.agent_version, timeout_s=options.timeout_s,
                     token=options.secret, token_env=SETTINGS["agent_token"].env if options.secret_from_env else None,
                     max_answer_bytes=options.max_answer_bytes)
