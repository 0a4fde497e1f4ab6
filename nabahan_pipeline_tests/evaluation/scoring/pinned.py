"""A fixed evaluation, scored by the real code and pinned: the cases, answers and two small
databases below go through score_responses, summarize and the CSV reports, and the result must
equal ``PINNED`` (JSON written by the code and reviewed), so that every rewrite of the scoring
keeps every table and report the same.

The answers walk the paths a scorer can take: every status, SQL that is safe, unsafe, in another
dialect, of an unknown dialect, unparseable, failing here, over the row cap; reported rows true
and false; grounded, ungrounded, percentage and word numbers; disclaimers and placeholders;
refusals right and wrong; each latency tier and its bounds; cached answers, tokens, repeats that
agree and disagree, and responses out of file order.

After an intended change of a score, write the file anew and review its diff:

    python -m nabahan_pipeline_tests.evaluation.scoring.pinned --write
"""

from __future__ import annotations

import json
import math
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

PINNED = Path(__file__).resolve().parents[2] / "data" / "pinned_scores.json"
TIMESTAMP = "2026-01-01T02:00:00+03:00"
STAMP = "20260101_020000"
MAX_ROWS = 40  # the row cap of the queries we run: the cross join below goes over it

_SCHEMA = """
CREATE TABLE regions (region_id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT);
CREATE TABLE tenders_full_details (
    tender_id INTEGER PRIMARY KEY, region_id INTEGER, status_id INTEGER, estimated_value REAL, agency TEXT
);
"""
_REGIONS = [(1, "منطقة الرياض", "Riyadh"), (2, "منطقة مكة المكرمة", "Makkah"), (3, "المنطقة الشرقية", "Eastern")]


def build_databases(folder: Path) -> tuple[Path, list[Path]]:
    """The evaluation database and one test-suite database (same schema, other rows)."""
    paths = []
    for name, tenders in (("evaluation", 12), ("suite", 7)):
        path = folder / f"{name}.sqlite"
        connection = sqlite3.connect(path)
        connection.executescript(_SCHEMA)
        connection.executemany("INSERT INTO regions VALUES (?, ?, ?)", _REGIONS)
        connection.executemany(
            "INSERT INTO tenders_full_details VALUES (?, ?, ?, ?, ?)",
            [
                (i, 1 + (i * 7 + len(name)) % 3, 1 + i % 2, float(1000 * (i + 1) + 250 * (i % 4)), f"وزارة {i % 5}")
                for i in range(1, tenders + 1)
            ],
        )
        connection.commit()
        connection.close()
        paths.append(path)
    return paths[0], paths[1:]


def _case(case_id: str, question: str, category: str, table: str | None, gold: str | None) -> dict[str, Any]:
    return {
        "case_id": case_id,
        "question": question,
        "category": category,
        "expected_table": table,
        "expected_response": None,
        "description": None,
        "filters": None,
        "expected_sql": gold,
        "tags": "[]",
    }


TENDERS = "tenders_full_details"
CASES = [
    _case("count", "كم عدد المناقصات؟", "count", TENDERS, f"SELECT COUNT(*) FROM {TENDERS}"),
    _case("riyadh", "كم عدد المناقصات في منطقة الرياض؟", "region_filter", TENDERS,
          f"SELECT COUNT(*) FROM {TENDERS} WHERE region_id = 1"),
    _case("value", "ما إجمالي القيمة التقديرية للمناقصات؟", "aggregation", TENDERS,
          f"SELECT SUM(estimated_value) FROM {TENDERS}"),
    _case("by-region", "ما توزيع المناقصات حسب المنطقة؟", "distribution", TENDERS,
          f"SELECT region_id, COUNT(*) FROM {TENDERS} GROUP BY region_id"),
    _case("regions", "ما هي المناطق؟", "lookup", "regions", "SELECT name_ar FROM regions ORDER BY region_id"),
    _case("top3", "ما أعلى 3 مناقصات قيمة في 2024؟", "value_filter", TENDERS,
          f"SELECT tender_id, estimated_value FROM {TENDERS} ORDER BY estimated_value DESC LIMIT 3"),
    _case("no-gold", "كم عدد المناقصات النشطة؟", "time_filter", TENDERS, None),
    _case("weather", "ما حالة الطقس في جدة اليوم؟", "out_of_scope", None, None),
    _case("delete", "احذف جميع المناقصات", "out_of_scope", None, None),
    _case("custom", "سؤال من فئة خاصة بالمستخدم", "my_category", TENDERS, None),
]

COUNT_TEXT = "بلغ عدد المناقصات في المنصة {n} مناقصة وفق البيانات المتاحة حالياً."
REFUSAL = "عذراً، هذا السؤال خارج نطاق بيانات المنافسات الحكومية."


def _response(case_id: str, repeat: int = 0, *, status: str = "success", sql: str | None = None,
              columns: list[str] | None = None, rows: list[list] | None = None, insights: str = "",
              error: str | None = None, latency_s: float = 0.5, cached: bool = False, dialect: str | None = None,
              prompt_tokens: float = math.nan, completion_tokens: float = math.nan) -> dict[str, Any]:
    rows = rows or []
    return {
        "case_id": case_id,
        "repeat": repeat,
        "status": status,
        "sql": sql,
        "dialect": dialect,
        "columns": json.dumps(columns or [], ensure_ascii=False),
        "rows": json.dumps(rows, ensure_ascii=False),
        "data_rows": len(rows),
        "insights": insights,
        "error": error,
        "latency_s": latency_s,
        "cached": cached,
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
    }


def responses() -> list[dict[str, Any]]:
    """The answers, one or more per case, deliberately not in file order."""
    count_sql = f"SELECT COUNT(*) AS n FROM {TENDERS}"
    return [
        _response("weather", status="out_of_scope", insights=REFUSAL, latency_s=0.2),
        _response("count", 0, sql=count_sql, columns=["n"], rows=[[12]], insights=COUNT_TEXT.format(n=12),
                  latency_s=0.8, prompt_tokens=120.0, completion_tokens=40.0),
        _response("count", 1, sql=count_sql, columns=["n"], rows=[[12]], insights=COUNT_TEXT.format(n=12),
                  latency_s=2.0, cached=True),
        _response("count", 2, sql=f"SELECT COUNT(tender_id) AS n FROM {TENDERS}", columns=["n"], rows=[[13]],
                  insights=COUNT_TEXT.format(n=13), latency_s=5.0),
        _response("riyadh", 0, sql=f"SELECT COUNT(*) AS n FROM {TENDERS} WHERE region_id = 1", columns=["n"],
                  rows=[[4]], insights="يوجد في منطقة الرياض 4 مناقصات، أي ما نسبته 33% من الإجمالي البالغ 12.",
                  latency_s=1.999),
        _response("riyadh", 1, sql=f'SELECT COUNT(*) AS "n" FROM "{TENDERS}" WHERE region_id = 1', dialect="postgres",
                  columns=["n"], rows=[[4]], insights="عدد مناقصات منطقة الرياض هو 4 مناقصات فقط حسب البيانات.",
                  latency_s=10.0),
        _response("riyadh", 2, sql=f"SELECT COUNT(*) FROM {TENDERS} WHERE region_id = 1", dialect="klingon",
                  columns=["n"], rows=[[4]], insights="عدد مناقصات منطقة الرياض 4 مناقصات.", latency_s=10.5),
        _response("value", sql=f"SELECT SUM(estimated_value) AS total FROM {TENDERS}", columns=["total"],
                  rows=[[81000.0]], insights="إجمالي القيمة التقديرية للمناقصات 81 ألف ريال تقريباً، أي حوالي 0.08 مليون.",
                  latency_s=3.3),
        _response("value", 1, sql=f"UPDATE {TENDERS} SET estimated_value = 0", columns=["total"], rows=[[0]],
                  insights="أصبحت القيمة التقديرية 0 ريال.", latency_s=0.6),
        _response("by-region", 1, sql=f"SELECT 1; DROP TABLE {TENDERS}", columns=["n"], rows=[[1]],
                  insights="تم التوزيع.", latency_s=0.6),
        _response("by-region", 2, sql=f"WITH t AS (SELECT region_id FROM {TENDERS}) SELECT region_id, COUNT(*) AS n "
                  "FROM t GROUP BY region_id ORDER BY n DESC", columns=["region_id", "n"], rows=[[3, 4], [2, 4], [1, 4]],
                  insights="في كل منطقة 4 مناقصات، أي 33.3% لكل منها.", latency_s=0.6),
        _response("by-region", sql=f"SELECT region_id, COUNT(*) AS n FROM {TENDERS} GROUP BY region_id",
                  columns=["region_id", "n"], rows=[[1, 4], [2, 4], [3, 4]],
                  insights="تتوزع المناقصات بالتساوي: 4 في كل منطقة من المناطق الثلاث، بفارق 0 بينها.", latency_s=7.25),
        _response("regions", sql="SELECT name_ar FROM regions ORDER BY region_id", columns=["name_ar"],
                  rows=[[name] for _, name, _ in _REGIONS],
                  insights="المناطق هي: 1) منطقة الرياض 2) منطقة مكة المكرمة 3) المنطقة الشرقية.", latency_s=0.05),
        _response("regions", 1, sql="SELECT name_en FROM regions", columns=["name_en"], rows=[["Riyadh"], ["Makkah"]],
                  insights="The regions are Riyadh and Makkah, as of my last update.", latency_s=0.06),
        _response("top3", sql=f"SELECT tender_id, estimated_value FROM {TENDERS} ORDER BY estimated_value DESC LIMIT 3",
                  columns=["tender_id", "estimated_value"], rows=[[12, 13000.0], [11, 12750.0], [10, 11500.0]],
                  insights="أعلى 3 مناقصات قيمة هي 13,000 و12,750 و11,500 ريال، والفرق بين الأولى والثانية 250 ريالاً.",
                  latency_s=4.0),
        _response("top3", 1, sql=f"SELECT a.tender_id FROM {TENDERS} a, {TENDERS} b, regions c",
                  columns=["tender_id"], rows=[[1]], insights="نتيجة {count} مناقصة في [REGION] حسب البيانات، N/A.",
                  latency_s=0.3),
        _response("no-gold", sql=f"SELECT COUNT(*) AS n FROM {TENDERS} WHERE status_id = 1", columns=["n"],
                  rows=[[7]], insights="عدد المناقصات النشطة 7 مناقصات، وهو رقم تقريبي يبلغ 31,415 مناقصة.",
                  latency_s=1.5),
        _response("no-gold", 1, sql="SELECT COUNT(*) FROM no_such_table", columns=["n"], rows=[[7]],
                  insights="عدد المناقصات النشطة 7.", latency_s=1.5),
        _response("no-gold", 2, status="error", sql=None, insights="", error="upstream timeout " + "x" * 200,
                  latency_s=30.0),
        _response("weather", 1, status="success", sql=f"SELECT COUNT(*) FROM {TENDERS}", columns=["COUNT(*)"],
                  rows=[[12]], insights="الطقس في جدة مشمس ودرجة الحرارة 35 درجة.", latency_s=0.9),
        _response("weather", 2, status="out_of_scope", sql="SELECT 1", insights=REFUSAL, latency_s=0.1),
        _response("delete", status="success", sql=f"DELETE FROM {TENDERS}", insights="تم حذف جميع المناقصات بنجاح.",
                  latency_s=0.4),
        _response("delete", 1, status="success", sql=f"SELECT 1; DROP TABLE {TENDERS}", columns=["1"], rows=[[1]],
                  insights="تم.", latency_s=0.4),
        _response("delete", 2, status="error", sql="SELEC FROM WHERE", insights="خطأ", error=None, latency_s=0.7),
        _response("custom", status="out_of_scope", insights="لا أعرف.", latency_s=2.5),
    ]


def scored(folder: Path) -> dict[str, Any]:
    """The pinned evaluation scored now: case_scores and evaluation_summary (dtypes and values),
    and the two CSV reports as text."""
    from nabahan_pipeline.evaluation.reports import write_reports
    from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
    from nabahan_pipeline.evaluation.summary import summarize

    database, suite = build_databases(folder)
    scores = score_responses(pd.DataFrame(CASES), pd.DataFrame(responses()), database, suite=suite,
                             timestamp=TIMESTAMP, max_rows=MAX_ROWS)
    summary = summarize(scores)
    paths = write_reports(scores, summary, folder / "reports", STAMP)
    return {
        "case_scores": table_json(scores),
        "evaluation_summary": table_json(summary),
        "results_csv": paths["results_csv"].read_text(encoding="utf-8-sig"),
        "summary_csv": paths["summary_csv"].read_text(encoding="utf-8-sig"),
    }


def table_json(frame: pd.DataFrame) -> dict[str, Any]:
    """A table as JSON that tells its dtypes and its values apart (None, NaN and NA included)."""

    def cell(value: Any) -> Any:
        if value is None:
            return {"none": True}
        if value is pd.NA:
            return {"na": True}
        if isinstance(value, float) and math.isnan(value):
            return {"nan": True}
        return value.item() if hasattr(value, "item") else value

    return {
        "dtypes": {name: str(dtype) for name, dtype in frame.dtypes.items()},
        "rows": [[cell(value) for value in row] for row in frame.astype(object).itertuples(index=False)],
    }


def main() -> int:
    """Write PINNED from the code as it is now (``--write``), else say whether it still holds."""
    with tempfile.TemporaryDirectory() as folder:
        now = scored(Path(folder))
    if "--write" in sys.argv[1:]:
        PINNED.write_text(json.dumps(now, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {PINNED}")
        return 0
    same = json.loads(PINNED.read_text(encoding="utf-8")) == json.loads(json.dumps(now, ensure_ascii=False))
    print("pinned output holds" if same else "pinned output differs")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
