"""docs/internals.md's counts kept true: a new metric column with its summary figure is one scorer
module and its line in SCORERS (every table, CSV header, KPI and synthetic draw follows)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
INTERNALS = (ROOT / "docs" / "internals.md").read_text(encoding="utf-8")

TOY_SCORER = '''
import pandera.pandas as pa

from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, by_case, mean_of, scorer


@scorer(
    Column("toy_point", pa.Column(int, pa.Check.isin((0, 1)), description="A toy point."), "Toy Point",
           draw=lambda drawn: 1),
    figures=[Figure("avg_toy_point", "Avg Toy Point", "rate", "Mean toy point.", mean_of("toy_point"),
                    by_case(lambda scores: scores["toy_point"]), trend=True)],
)
def toy(answer, scores):
    return {"toy_point": int(bool(answer.insight))}
'''

CHECK = '''
import importlib, sys
from pathlib import Path

import nabahan_pipeline.evaluation.scoring.case_scores as case_scores

source = Path(case_scores.__file__).read_text(encoding="utf-8")
# The one edit outside the new module: its line in SCORERS.
edited = source.replace("    judge_off,\\n)", "    judge_off, __import__('toy_scorer').toy,\\n)")
assert edited != source
exec(compile(edited, case_scores.__file__, "exec"), case_scores.__dict__)
# What reads the registry, reloaded as a new process would import it.
import nabahan_pipeline.evaluation.scoring as scoring
from nabahan_pipeline.evaluation import summary, tables, reports, html_report
for module in (scoring, summary, tables, reports, html_report):
    importlib.reload(module)
import nabahan_fixtures.synthetic as synthetic
importlib.reload(synthetic)

assert "toy_point" in tables.CASE_SCORES.columns
assert reports.RESULT_COLUMNS["toy_point"] == "Toy Point"
assert {"avg_toy_point", "avg_toy_point_low", "avg_toy_point_high"} <= set(tables.EVALUATION_SUMMARY.columns)
assert "avg_toy_point" in tables.TREND_FIGURES
scores = synthetic.make_scores(20, seed=3)
tables.CASE_SCORES.validate(scores)
assert (scores["toy_point"] == 1).all()
table = reports.summary_table(summary.summarize(scores))
metrics = dict(zip(table["Metric"], table["Value"]))
assert metrics["Avg Toy Point"] == "100.0%" and "Avg Toy Point Low" in metrics
answer = {"status": "success", "sql": None, "data": [], "insights": "نص"}
case = {"case_id": "c", "question": "س", "category": "count", "expected_table": "t", "expected_sql": None}
assert case_scores.score_answer(case, answer, 0.1)["toy_point"] == 1
print("ok")
'''


def test_the_internals_say_how_many_files_each_change_touches() -> None:
    for claim in ("A metric column with its summary figure** (2 package files",
                  "An agent adapter** (1 module plus its registry line)", "A chart** (2 package files",
                  "An option** (1 edit"):
        assert claim in INTERNALS, claim


@pytest.mark.slow
def test_a_new_metric_column_with_its_figure_is_its_module_and_its_scorers_line(tmp_path: Path) -> None:
    (tmp_path / "toy_scorer.py").write_text(textwrap.dedent(TOY_SCORER), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"}, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
