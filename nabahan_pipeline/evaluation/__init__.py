"""The evaluation core: test cases, scoring, aggregation, reports, charts. Plain pandas; no Dagster."""
