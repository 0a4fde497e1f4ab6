"""An agent that leaks its keys the ways a careless SDK does, for the secrets tests.

Imported with $LEAKY_AGENT_FAIL_IMPORT set, the module fails as it loads with $OPENAI_API_KEY in
its error. Asked, ``printing_agent`` prints $NABAHAN_AGENT_TOKEN to stdout, logs it through a
handler made when the module loaded (holding the stderr of that moment) and writes it to file
descriptor 2 directly, then answers honestly.
"""

from __future__ import annotations

import logging
import os
import sys

if os.environ.get("LEAKY_AGENT_FAIL_IMPORT"):
    raise RuntimeError(f"could not sign in to the model provider with key {os.environ.get('OPENAI_API_KEY')}")

_log = logging.getLogger("leaky_sdk")
_log.addHandler(logging.StreamHandler(sys.stderr))
_log.setLevel(logging.DEBUG)
_log.propagate = False


def printing_agent(question: str, filters: dict | None = None) -> dict:
    token = os.environ.get("NABAHAN_AGENT_TOKEN", "")
    print(f"DEBUG request headers: {{'X-Key': '{token}'}}", flush=True)
    _log.debug("sdk: signing request with %s", token)
    os.write(2, f"native client: key={token[:20]}\n".encode())
    return {"status": "success", "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1", "columns": ["n"],
            "rows": [[7]], "insights": "بلغ عدد المناقصات 7 مناقصات.", "error": None}
