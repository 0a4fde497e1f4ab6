"""The evaluation core, plain pandas and no Dagster: the test cases, the scoring of each answer, the
summary, the CSV reports and the charts; the tables between them are declared in ``tables``.
Import each from its module (docs/internals.md maps them): this package loads nothing itself."""
