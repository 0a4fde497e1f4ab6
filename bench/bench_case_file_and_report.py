"""Time what issue 42 moved onto libraries: a large case file validated (pydantic) and a large
HTML report rendered (Jinja2), each beside its ideal.

    .venv/bin/python bench/bench_case_file_and_report.py [--cases 100000] [--answers 10000] [--repeat 3]

The case file: ``parse_test_cases`` on the bytes of N cases (in-scope and out, ids, filters and
tags; no gold SQL, whose parsing sqlglot does either way). Its ideal is the floor of any reader:
``json.loads`` of the same bytes. The report: ``run_report_html`` on N synthetic answers. Its
ideal is the floor of any safe page: HTML-escaping every text it shows, once. Both only print;
run the script under another tree (PYTHONPATH) to compare two versions.
"""

from __future__ import annotations

import argparse
import json
from html import escape

from eval_runs import median_time

from nabahan_pipeline.evaluation.cases import parse_test_cases
from nabahan_pipeline.evaluation.html_report import RunReport, run_report_html
from nabahan_pipeline.evaluation.summary import summarize
from nabahan_fixtures.synthetic import make_scores

# The texts a report's case shows: what the ideal escapes.
SHOWN = ("question", "category", "sql", "insights", "error", "not_correct_because", "error_location")


def case_file(n: int) -> bytes:
    cases = []
    for i in range(n):
        case = {"id": f"q{i}", "question": f"كم عدد المناقصات في منطقة الرياض لعام {2000 + i % 30}؟ {i}",
                "category": "region_filter", "expected_table": "tenders_full_details",
                "filters": {"region_id": 1 + i % 13}, "tags": ["smoke", "رياض"], "must_pass": i % 7 == 0}
        if i % 10 == 0:
            case = {"question": f"ما حالة الطقس اليوم؟ {i}", "category": "out_of_scope", "expected_response": "عذراً"}
        cases.append(case)
    return json.dumps(cases, ensure_ascii=False).encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--answers", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    data = case_file(args.cases)
    parsed = median_time(args.repeat, lambda: parse_test_cases(data, "cases.json"))
    floor = median_time(args.repeat, lambda: json.loads(data))
    print(f"case file, {args.cases:,} cases ({len(data) / 1e6:.1f} MB): {parsed:.3f} s "
          f"({parsed / args.cases * 1e6:.1f} µs/case); json.loads alone {floor:.3f} s; ratio {parsed / floor:.1f}")

    scores = make_scores(args.answers, seed=3)
    report = RunReport("bench", scores, summarize(scores))
    rendered = median_time(args.repeat, lambda: run_report_html(report))
    texts = [str(value) for column in SHOWN if column in scores for value in scores[column].tolist()]
    floor = median_time(args.repeat, lambda: [escape(text, quote=True) for text in texts])
    size = len(run_report_html(report).encode("utf-8"))
    print(f"report, {args.answers:,} answers ({size / 1e6:.1f} MB): {rendered:.3f} s "
          f"({rendered / args.answers * 1e6:.1f} µs/answer); escaping its texts alone {floor:.3f} s; "
          f"ratio {rendered / floor:.1f}")


if __name__ == "__main__":
    main()
