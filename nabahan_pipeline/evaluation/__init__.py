"""The evaluation core, plain pandas and no Dagster: the test cases, the scoring of each answer, the
summary, the CSV reports and the charts; the tables between them are declared in ``tables``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nabahan_pipeline.exports import lazy_exports

# Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS = {
    "load_test_cases": "cases",
    "check_against_database": "cases",
    "select_quick": "cases",
    "suite_fingerprint": "cases",
    "score_responses": "scoring",
    "summarize": "summary",
    "write_reports": "reports",
    "render_charts": "charts",
    "compare_agents": "comparison",
    "write_comparison": "comparison",
    "TEST_CASES": "tables",
    "AGENT_RESPONSES": "tables",
    "CASE_SCORES": "tables",
    "EVALUATION_SUMMARY": "tables",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.cases import check_against_database, load_test_cases, select_quick, suite_fingerprint
    from nabahan_pipeline.evaluation.scoring import score_responses
    from nabahan_pipeline.evaluation.summary import summarize
    from nabahan_pipeline.evaluation.reports import write_reports
    from nabahan_pipeline.evaluation.charts import render_charts
    from nabahan_pipeline.evaluation.comparison import compare_agents, write_comparison
    from nabahan_pipeline.evaluation.tables import AGENT_RESPONSES, CASE_SCORES, EVALUATION_SUMMARY, TEST_CASES
