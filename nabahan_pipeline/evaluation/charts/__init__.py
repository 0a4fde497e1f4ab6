"""The PNG charts of an evaluation run, drawn from the ``case_scores`` and ``evaluation_summary``
tables with matplotlib (no Dagster, no pyplot), one module per idea (docs/internals.md lists them).
Import each from its module: this package loads nothing itself (matplotlib only with a chart)."""
