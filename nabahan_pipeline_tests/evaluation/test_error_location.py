"""The clause comparison on gold / near-miss pairs written by hand, each with the location expected,
and the location of a wrong insight."""

from __future__ import annotations

import pandas as pd
import pytest

from nabahan_pipeline.evaluation.error_location import (
    CLAUSES,
    locate_error,
    location_clauses,
    location_counts,
    sql_differences,
)

T = "tenders_full_details"
# (gold SQL, the agent's near miss, the clauses expected in order, words the location must quote)
PAIRS: list[tuple[str, str, list[str], list[str]]] = [
    # tables
    (f"SELECT COUNT(*) FROM {T}", "SELECT COUNT(*) FROM future_projects", ["tables"], ["future_projects", T]),
    ("SELECT name_ar FROM regions", "SELECT name_ar FROM tender_types", ["tables"], ["tender_types", "regions"]),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1",
     f"SELECT COUNT(*) FROM {T} t JOIN regions r ON r.region_id = t.region_id WHERE r.region_id = 1",
     ["tables"], ["regions"]),
    # joins
    (f"SELECT r.name_ar, COUNT(*) FROM {T} t JOIN regions r ON r.region_id = t.region_id GROUP BY r.name_ar",
     f"SELECT r.name_ar, COUNT(*) FROM {T} t JOIN regions r ON r.region_id = t.agency_id GROUP BY r.name_ar",
     ["joins"], ["agency_id"]),
    # selected columns
    ("SELECT name_ar FROM regions", "SELECT name_en FROM regions", ["columns"], ["missing name_ar", "extra name_en"]),
    (f"SELECT tender_name, estimated_value FROM {T} ORDER BY estimated_value DESC LIMIT 3",
     f"SELECT tender_name FROM {T} ORDER BY estimated_value DESC LIMIT 3", ["columns"], ["missing estimated_value"]),
    (f"SELECT agency_name FROM {T} WHERE status_id = 5",
     f"SELECT agency_name, tender_name FROM {T} WHERE status_id = 5", ["columns"], ["extra tender_name"]),
    # aliases and qualifiers are names, not meaning: no difference
    (f"SELECT COUNT(*) AS n FROM {T} WHERE region_id = 1",
     f"select count(*) as total from {T} AS t where t.region_id = 1", [], []),
    (f"SELECT region_name, COUNT(*) AS c FROM {T} GROUP BY region_name ORDER BY c DESC",
     f"SELECT region_name, COUNT(*) FROM {T} GROUP BY 1 ORDER BY 2 DESC", [], []),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 AND status_id = 1",
     f"SELECT COUNT(*) FROM {T} WHERE status_id = 1 AND (region_id = 1)", [], []),
    # DISTINCT
    (f"SELECT DISTINCT agency_name FROM {T} WHERE region_id = 3",
     f"SELECT agency_name FROM {T} WHERE region_id = 3", ["distinct"], ["SELECT DISTINCT"]),
    (f"SELECT activity_name FROM {T}", f"SELECT DISTINCT activity_name FROM {T}", ["distinct"], ["keeps duplicates"]),
    (f"SELECT COUNT(DISTINCT agency_id) FROM {T}", f"SELECT COUNT(agency_id) FROM {T}", ["aggregation"],
     ["COUNT(agency_id)", "COUNT(DISTINCT agency_id)"]),
    # aggregation function
    (f"SELECT SUM(estimated_value) FROM {T} WHERE region_id = 5",
     f"SELECT AVG(estimated_value) FROM {T} WHERE region_id = 5", ["aggregation"],
     ["AVG(estimated_value)", "SUM(estimated_value)"]),
    (f"SELECT MAX(estimated_value) FROM {T}", f"SELECT MIN(estimated_value) FROM {T}", ["aggregation"], ["MIN", "MAX"]),
    (f"SELECT COUNT(*) FROM {T} WHERE status_id = 4", f"SELECT SUM(awarded_value) FROM {T} WHERE status_id = 4",
     ["aggregation"], ["SUM(awarded_value)", "COUNT(*)"]),
    (f"SELECT AVG(booklet_price) FROM {T}", f"SELECT AVG(estimated_value) FROM {T}", ["aggregation"],
     ["AVG(estimated_value)", "AVG(booklet_price)"]),
    # WHERE: missing, extra, different
    (f"SELECT COUNT(*) FROM {T} WHERE status_id = 1", f"SELECT COUNT(*) FROM {T}", ["where"],
     ["missing condition status_id = 1"]),
    (f"SELECT COUNT(*) FROM {T}", f"SELECT COUNT(*) FROM {T} WHERE status_id = 1", ["where"],
     ["extra condition status_id = 1"]),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 AND tender_type_id = 2",
     f"SELECT COUNT(*) FROM {T} WHERE region_id = 1", ["where"], ["missing condition tender_type_id = 2"]),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1",
     f"SELECT COUNT(*) FROM {T} WHERE region_name = 'منطقة الرياض'", ["where"],
     ["region_name = 'منطقة الرياض'", "region_id = 1"]),
    (f"SELECT COUNT(*) FROM {T} WHERE estimated_value > 1000000",
     f"SELECT COUNT(*) FROM {T} WHERE estimated_value >= 1000000", ["where"],
     ["estimated_value >= 1000000", "estimated_value > 1000000"]),
    (f"SELECT COUNT(*) FROM {T} WHERE status_id IN (5, 6)", f"SELECT COUNT(*) FROM {T} WHERE status_id = 5",
     ["where"], ["status_id = 5", "status_id IN (5, 6)"]),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 OR region_id = 2",
     f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 AND region_id = 2", ["where", "where"],
     ["region_id = 1 where the gold has region_id = 1 OR region_id = 2", "extra condition region_id = 2"]),
    (f"SELECT COUNT(*) FROM {T} WHERE awarded_value IS NOT NULL",
     f"SELECT COUNT(*) FROM {T} WHERE awarded_value IS NULL", ["where"], ["awarded_value IS NULL"]),
    # a literal value
    (f"SELECT COUNT(*) FROM {T} WHERE status_id = 1", f"SELECT COUNT(*) FROM {T} WHERE status_id = 2", ["literal"],
     ["status_id = 2 where the gold has status_id = 1"]),
    (f"SELECT COUNT(*) FROM {T} WHERE region_id = 1 AND status_id = 5",
     f"SELECT COUNT(*) FROM {T} WHERE region_id = 2 AND status_id = 5", ["literal"], ["region_id = 2", "region_id = 1"]),
    (f"SELECT COUNT(*) FROM {T} WHERE estimated_value > 1000000",
     f"SELECT COUNT(*) FROM {T} WHERE estimated_value > 100000", ["literal"], ["100000", "1000000"]),
    (f"SELECT COUNT(*) FROM {T} WHERE agency_name = 'وزارة الصحة'",
     f"SELECT COUNT(*) FROM {T} WHERE agency_name = 'وزارة التعليم'", ["literal"], ["وزارة التعليم", "وزارة الصحة"]),
    (f"SELECT COUNT(*) FROM {T} WHERE tender_type_name LIKE '%منافسة%'",
     f"SELECT COUNT(*) FROM {T} WHERE tender_type_name LIKE 'منافسة%'", ["literal"], ["'منافسة%'"]),
    # the date window
    (f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', publish_date) = '2024'",
     f"SELECT COUNT(*) FROM {T} WHERE strftime('%Y', publish_date) = '2023'", ["date window"], ["'2023'", "'2024'"]),
    (f"SELECT COUNT(*) FROM {T} WHERE publish_date BETWEEN '2024-07-07' AND '2025-06-25'",
     f"SELECT COUNT(*) FROM {T} WHERE publish_date BETWEEN '2024-07-01' AND '2025-06-30'", ["date window"],
     ["'2024-07-01'", "'2024-07-07'"]),
    (f"SELECT COUNT(*) FROM {T} WHERE publish_date >= '2024-01-01'",
     f"SELECT COUNT(*) FROM {T} WHERE publish_date > '2024-01-01'", ["date window"], ["publish_date > '2024-01-01'"]),
    (f"SELECT COUNT(*) FROM {T} WHERE publish_date >= '2025-01-01' AND status_id = 1",
     f"SELECT COUNT(*) FROM {T} WHERE status_id = 1", ["date window"], ["missing condition publish_date >= '2025-01-01'"]),
    (f"SELECT COUNT(*) FROM {T} WHERE last_offer_date > '2026-10-01'",
     f"SELECT COUNT(*) FROM {T} WHERE publish_date > '2026-10-01'", ["date window"],
     ["publish_date > '2026-10-01' where the gold has last_offer_date > '2026-10-01'"]),
    (f"SELECT COUNT(*) FROM {T}", f"SELECT COUNT(*) FROM {T} WHERE publish_date < '2026-01-01'", ["date window"],
     ["extra condition publish_date < '2026-01-01'"]),
    # GROUP BY
    (f"SELECT status_name, COUNT(*) FROM {T} GROUP BY status_name",
     f"SELECT status_name, COUNT(*) FROM {T}", ["group by"], ["none where the gold groups by status_name"]),
    (f"SELECT region_name, COUNT(*) FROM {T} GROUP BY region_name, status_name",
     f"SELECT region_name, COUNT(*) FROM {T} GROUP BY region_name", ["group by"], ["region_name, status_name"]),
    (f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_id",
     f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_name", ["group by"], ["agency_name where the gold groups by agency_id"]),
    # HAVING
    (f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_name HAVING COUNT(*) > 100",
     f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_name HAVING COUNT(*) > 10", ["literal"], ["> 10", "> 100"]),
    (f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_name HAVING COUNT(*) > 100",
     f"SELECT agency_name, COUNT(*) FROM {T} GROUP BY agency_name", ["having"], ["missing condition COUNT(*) > 100"]),
    # ORDER BY
    (f"SELECT tender_name FROM {T} ORDER BY estimated_value DESC LIMIT 5",
     f"SELECT tender_name FROM {T} ORDER BY estimated_value ASC LIMIT 5", ["order by"],
     ["estimated_value ASC where the gold orders by estimated_value DESC"]),
    (f"SELECT tender_name FROM {T} ORDER BY estimated_value DESC LIMIT 5",
     f"SELECT tender_name FROM {T} ORDER BY awarded_value DESC LIMIT 5", ["order by"], ["awarded_value DESC"]),
    (f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_name ORDER BY n DESC LIMIT 1",
     f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_name LIMIT 1", ["order by"],
     ["none where the gold orders by COUNT(*) DESC"]),
    # LIMIT
    (f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_name ORDER BY n DESC LIMIT 5",
     f"SELECT agency_name, COUNT(*) AS n FROM {T} GROUP BY agency_name ORDER BY n DESC LIMIT 10", ["limit"],
     ["10 where the gold has 5"]),
    (f"SELECT tender_name FROM {T} ORDER BY estimated_value DESC LIMIT 1",
     f"SELECT tender_name FROM {T} ORDER BY estimated_value DESC", ["limit"], ["none where the gold has 1"]),
    (f"SELECT tender_name FROM {T} ORDER BY publish_date DESC LIMIT 3",
     f"SELECT tender_name FROM {T} ORDER BY publish_date DESC LIMIT 3 OFFSET 3", ["limit"], ["offset 3"]),
    # several clauses at once, in the order a query reads
    (f"SELECT region_name, SUM(estimated_value) AS v FROM {T} WHERE region_id IS NOT NULL GROUP BY region_id "
     "ORDER BY v DESC LIMIT 1",
     f"SELECT region_name, AVG(estimated_value) AS v FROM {T} GROUP BY region_id ORDER BY v DESC LIMIT 3",
     ["aggregation", "where", "order by", "limit"], ["AVG(estimated_value)", "region_id", "3 where the gold has 1"]),
    (f"SELECT COUNT(*) FROM {T} WHERE status_id = 1 AND strftime('%Y', publish_date) = '2024'",
     f"SELECT COUNT(*) FROM {T} WHERE status_id = 6 AND strftime('%Y', publish_date) = '2025'",
     ["literal", "date window"], ["status_id = 6", "'2025'"]),
    # not one SELECT, or not SQL at all
    ("SELECT name_ar FROM regions", "SELECT name_ar FROM regions UNION SELECT name_ar FROM tender_types", ["query"],
     ["a UNION"]),
    ("SELECT name_ar FROM regions", "SELEC name_ar FROM", ["query"], ["does not parse"]),
]


@pytest.mark.parametrize(("gold", "agent", "clauses", "quoted"), PAIRS,
                         ids=[f"{index:02d}-{'+'.join(pair[2]) or 'same'}" for index, pair in enumerate(PAIRS)])
def test_each_near_miss_is_located_at_its_clause(gold: str, agent: str, clauses: list[str], quoted: list[str]) -> None:
    differences = sql_differences(agent, gold)
    assert [difference.split(":", 1)[0] for difference in differences] == clauses
    location = "; ".join(differences)
    for words in quoted:
        assert words in location, (words, location)
    assert all(clause in CLAUSES for clause in clauses)


def test_there_are_at_least_forty_pairs_and_every_sql_clause_is_exercised() -> None:
    assert len(PAIRS) >= 40
    named = {clause for *_, clauses, _ in PAIRS for clause in clauses}
    assert named == set(CLAUSES) - {"insight"}


def test_a_right_result_or_matching_sql_puts_the_error_in_the_insight() -> None:
    gold = f"SELECT COUNT(*) FROM {T} WHERE region_id = 1"
    claim = "جدة 1,204: the row says 860"
    assert locate_error(gold, gold, result_right=False, contradicted=[claim]) == f"insight: {claim}"
    assert locate_error(f"SELECT COUNT(*) FROM {T} WHERE region_id = 2", gold, result_right=True,
                        contradicted=[claim, "another"]) == f"insight: {claim}"
    assert locate_error(gold, gold, result_right=True, ungrounded=["13", "33%"]) == "insight: unverified 13 · 33%"
    assert locate_error(gold, gold, result_right=True, arabic=False) == "insight: not Arabic"
    assert locate_error(gold, gold, result_right=True) == ""
    assert locate_error(None, gold, result_right=False, contradicted=[claim]) == "", "no SQL: not located"
    wrong = locate_error(f"SELECT COUNT(*) FROM {T} WHERE region_id = 2", gold, result_right=False, contradicted=[claim])
    assert wrong == "literal: region_id = 2 where the gold has region_id = 1", "the SQL first when the result is wrong"


def test_the_clauses_of_a_location_are_counted_by_category() -> None:
    spoof = locate_error(f"SELECT COUNT(*) FROM {T} WHERE b = 'x; tables: y'", f"SELECT COUNT(*) FROM {T}",
                         result_right=False)
    assert location_clauses(spoof) == ["where"], "agent text cannot name a clause"
    scores = pd.DataFrame({
        "category": ["count", "count", "time_filter", "count", "count"],
        "error_location": ["where: missing condition a = 1; limit: 3 where the gold has 1", spoof,
                           "date window: x", "", None],
    })
    counts = location_counts(scores)
    assert counts.to_dict("records") == [
        {"location": "where", "category": "count", "answers": 2},
        {"location": "date window", "category": "time_filter", "answers": 1},
        {"location": "limit", "category": "count", "answers": 1},
    ]
    assert location_counts(scores.drop(columns="error_location")).empty
