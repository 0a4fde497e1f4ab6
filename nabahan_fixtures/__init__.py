"""Test fixtures the tests and bench/ share, outside the product (not in the wheel): synthetic
case_scores, summaries and history (``synthetic``), and the labelled claims set judged as a run
judges it (``claims_labelled``)."""
