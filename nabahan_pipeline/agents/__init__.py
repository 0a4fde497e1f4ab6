"""Agents: the answer contract, the adapters (embedded, python, http, openai-compatible) behind one
spec string (``registry``), and the runner that asks them concurrently, capped and scrubbed of
secrets. Import each from its module: this package loads nothing itself (a ``python:`` agent's child
process imports a few of them, and no more)."""
