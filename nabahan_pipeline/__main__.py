"""`python -m nabahan_pipeline` is the `nabahan` command."""

from nabahan_pipeline.cli import main

raise SystemExit(main())
