"""The pipeline's exceptions, two families: ``NabahanError``, the user's mistake or an unwritable
file of the run's (one line, exit 2, before any run starts), and ``AgentAnswerError``, an
answer's problem (an error row; the run goes on). Anything else is a bug and shows its traceback."""

from __future__ import annotations

__all__ = [
    "AgentAnswerError", "AgentSpecError", "BodyTooLargeError", "ContractError", "DatabaseBuildError",
    "EvaluationInputError", "HttpConnectionError", "HttpError", "HttpStatusError", "HttpTimeoutError",
    "MalformedResponseError", "NabahanError", "QueryTimeoutError", "SettingsError", "StorageError",
    "TestCaseError", "UnsafeSQLError", "UsageError",
]


class NabahanError(Exception):
    """A user mistake: the entry points print its message as one line and exit with code 2."""


class UsageError(NabahanError):
    """A command-line argument that cannot be used."""


class EvaluationInputError(NabahanError, ValueError):
    """A user mistake in the run's options or inputs; the run stops before any agent call."""


class TestCaseError(NabahanError, ValueError):
    """A test-case file that cannot be used: the message names the file, the case and the field."""

    __test__ = False


class AgentSpecError(NabahanError, ValueError):
    """An agent spec that names no usable agent (a user mistake)."""


class SettingsError(NabahanError, ValueError):
    """A bad option value, named with where it came from (flag, argument, run config or variable)."""


class StorageError(NabahanError, OSError):
    """A file or folder of the run's that cannot be read or written (a read-only or full disk, a
    corrupt response cache or Dagster run database); the message names it."""


class DatabaseBuildError(NabahanError, ValueError):
    """A user mistake when building or locating the database (bad size, unusable path)."""


class AgentAnswerError(Exception):
    """A problem with an agent's answer or with getting it: the answer is scored as an error."""


class ContractError(AgentAnswerError, ValueError):
    """A result that is in neither of the contract's forms."""


class UnsafeSQLError(AgentAnswerError, ValueError):
    """SQL that is not a single read-only query, or that cannot be parsed or run safely."""


class QueryTimeoutError(UnsafeSQLError):
    """A query that ran past its time limit and was interrupted."""


class HttpError(AgentAnswerError):
    """A request that failed for good (after any retries); the message says why, with no secrets."""


class HttpConnectionError(HttpError):
    """The server could not be reached, or dropped the connection."""


class HttpTimeoutError(HttpError):
    """No complete answer within the request's time budget."""


class HttpStatusError(HttpError):
    """The server answered with a status other than 2xx."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class MalformedResponseError(HttpError):
    """A 2xx answer whose body is not what was asked for (e.g. not JSON)."""


class BodyTooLargeError(HttpError):
    """A response body over the client's ``max_body_bytes`` (read no further than the cap)."""
