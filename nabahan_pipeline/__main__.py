"""`python -m nabahan_pipeline` is the `nabahan` command."""

from nabahan_pipeline.cli import console_main

console_main()
