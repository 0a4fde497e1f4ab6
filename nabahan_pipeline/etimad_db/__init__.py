"""The evaluation database: Etimad-shaped synthetic data built from a random seed (``generator``),
kept in a cache and opened read-only (``store``), and the checks on untrusted SQL (``sql_safety``).
Import a name from its module: this face loads nothing (sql_safety loads sqlglot)."""
