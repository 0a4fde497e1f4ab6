"""The agent contract and its adapters (embedded, python, http, openai-compatible)."""
