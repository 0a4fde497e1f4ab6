"""The Dagster layer: assets, checks, resources, IO manager, sensor, schedule, jobs."""
