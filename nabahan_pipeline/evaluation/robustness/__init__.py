"""Robustness to the ways users write a question (issue 29): perturbations that keep a question's
meaning (``perturbations``), and the evaluation of an agent on the variants beside the originals
(``variants``)."""
