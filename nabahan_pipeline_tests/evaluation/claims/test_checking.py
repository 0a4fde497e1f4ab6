"""Each claim rule checked on rows written here, one test (or a few) per rule and per kind of fault
of issue 25: a figure on the wrong row, a share quoted for another group, a wrong superlative, a
direction against the data, yes/no against the question's threshold, a bound read as a rounding,
a measure word on another column, "none" when the row has some, a number nowhere in the rows; and
the right answers the old bag of numbers flagged: derivations within a row, approximations in
digits, the dates a question implies."""

from __future__ import annotations

import pytest

from nabahan_pipeline.evaluation.claims.checking import CONTRADICTED, SUPPORTED, UNSUPPORTED, check_insight

BY_REGION_SQL = "SELECT region_name, COUNT(*) AS tender_count FROM t GROUP BY region_id ORDER BY tender_count DESC"
BY_REGION = (["region_name", "tender_count"],
             [["منطقة مكة المكرمة", 2310], ["منطقة الرياض", 1475], ["منطقة عسير", 415]])
BY_YEAR_SQL = ("SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders, SUM(v) AS total_value FROM t "
               "GROUP BY year ORDER BY year")
BY_YEAR = (["year", "tenders", "total_value"], [["2023", 640, 3_100_000_000.0], ["2024", 585, 4_450_000_000.0]])


def verdicts(insight: str, question: str, table: tuple[list, list], sql: str | None = None) -> list[tuple[str, str]]:
    columns, rows = table
    return [(check.verdict, check.describe()) for check in check_insight(insight, question, columns, rows, sql)]


def contradicted(insight: str, question: str, table: tuple[list, list], sql: str | None = None) -> list[str]:
    return [text for verdict, text in verdicts(insight, question, table, sql) if verdict == CONTRADICTED]


def unsupported(insight: str, question: str, table: tuple[list, list], sql: str | None = None) -> list[str]:
    return [text for verdict, text in verdicts(insight, question, table, sql) if verdict == UNSUPPORTED]


QUESTION = "كم منافسة في كل منطقة؟"


# --- labelled numbers ---------------------------------------------------------------------------


def test_a_figure_on_its_own_row_holds_and_on_the_wrong_row_is_contradicted_with_the_row_quoted() -> None:
    assert contradicted("مكة المكرمة 2,310 والرياض 1,475", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("الرياض 2,310 ومكة 1,475", QUESTION, BY_REGION, BY_REGION_SQL) == [
        "الرياض 2,310: row says 1,475", "مكة 1,475: row says 2,310"]


def test_the_label_after_a_number_takes_it_when_only_a_preposition_stands_between() -> None:
    assert contradicted("سُجلت 1,475 منافسة في الرياض و415 في عسير", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("سُجلت 415 منافسة في الرياض و1,475 في عسير", QUESTION, BY_REGION, BY_REGION_SQL) == [
        "الرياض 415: row says 1,475", "عسير 1,475: row says 415"]


def test_a_share_quoted_for_another_group_is_contradicted_with_the_rows_share() -> None:
    # 2,310 of 4,200 is 55 %; 1,475 of it 35.1 %.
    assert contradicted("تستحوذ منطقة الرياض على 35.1% من المنافسات", QUESTION, BY_REGION, BY_REGION_SQL) == []
    found = contradicted("منطقة الرياض (1,475 منافسة، 55%)", QUESTION, BY_REGION, BY_REGION_SQL)
    assert found == ["منطقة الرياض 55%: row's share is 35.1%"]


def test_a_figure_of_the_whole_result_may_stand_beside_a_label() -> None:
    # The total (4,200) and the number of regions (3) are no row's, and no row's contradiction.
    insight = "الرياض 1,475 منافسة من أصل 4,200 في 3 مناطق"
    assert [verdict for verdict, _ in verdicts(insight, QUESTION, BY_REGION, BY_REGION_SQL)] == [SUPPORTED] * 3


def test_a_list_numbering_is_no_figure_of_the_row_it_numbers() -> None:
    insight = "1) منطقة مكة المكرمة: 2,310\n2) منطقة الرياض: 1,475\n3) منطقة عسير: 415"
    assert contradicted(insight, QUESTION, BY_REGION, BY_REGION_SQL) == []


def test_labels_are_read_in_their_spellings_and_with_proclitics() -> None:
    # "لمكة", "Riyadh", Arabic-Indic digits.
    assert contradicted("لمكة ٢٬٣١٠ منافسة، وRiyadh 1,475", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("لمكة ١٬٤٧٥ منافسة", QUESTION, BY_REGION, BY_REGION_SQL) == ["مكة ١٬٤٧٥: row says 2,310"]


# --- measures -----------------------------------------------------------------------------------

SUMMARY_SQL = "SELECT AVG(v) AS avg_value, SUM(v) AS total_value, COUNT(*) AS tenders FROM t WHERE region_id = 6"
SUMMARY = (["avg_value", "total_value", "tenders"], [[1_250_000.0, 518_750_000.0, 415]])


def test_a_measure_word_on_another_columns_figure_is_contradicted() -> None:
    question = "ما متوسط قيمة المنافسات في عسير؟"
    assert contradicted("متوسط القيمة 1.25 مليون ريال على 415 منافسة", question, SUMMARY, SUMMARY_SQL) == []
    assert contradicted("متوسط القيمة 518.75 مليون ريال", question, SUMMARY, SUMMARY_SQL) == [
        "518.75 مليون: avg_value says 1,250,000"]


def test_a_figure_told_in_another_unit_than_its_column_holds_is_contradicted() -> None:
    table = (["total_estimated_value", "tender_count"], [[4_127_101_003.36, 1551]])
    sql = "SELECT SUM(estimated_value) AS total_estimated_value, COUNT(*) AS tender_count FROM t"
    question = "ما إجمالي القيمة التقديرية للمناقصات في الربع الثاني من 2026؟"
    assert contradicted("الإجمالي 4,127,101,003.36 ريال، موزعة على 1,551 مناقصة", question, table, sql) == []
    # the count told in riyals and the value told as a count of tenders
    assert contradicted("بلغت 1,551 ريال، موزعة على 4,127,101,003.36 مناقصة", question, table, sql) == [
        "1,551: told as money; the rows hold it as count",
        "4,127,101,003.36: told as count; the rows hold it as money"]
    # a comparison's "first_value" names no kind: its figure is read as either
    generic = (["first_value", "second_value", "difference"], [[494, 323, 171]])
    assert contradicted("جازان 494 مناقصة ونجران 323 مناقصة", "كم؟", generic, "SELECT 1") == []


def test_a_riyal_figure_named_as_another_value_than_its_column_is_contradicted() -> None:
    table = (["tender_name", "estimated_value", "awarded_value", "booklet_price"],
             [["توريد أسرة", 882_837_923.04, 878_873_129.34, 5000.0]])
    sql = "SELECT * FROM t ORDER BY awarded_value DESC LIMIT 1"
    question = "ما أعلى مناقصة من حيث قيمة الترسية؟"
    assert contradicted("«توريد أسرة» (قيمة الترسية 878,873,129.34 ريال)", question, table, sql) == []
    assert contradicted("«توريد أسرة» (قيمة الترسية 882,837,923.04 ريال)", question, table, sql) == [
        "توريد أسرة 882,837,923.04: the rows hold it as the estimated value, not the awarded"]
    assert contradicted("«توريد أسرة» (قيمة الترسية 5,000.00 ريال)", question, table, sql) == [
        "توريد أسرة 5,000.00: the rows hold it as the booklet value, not the awarded"]


def test_a_superlative_over_rows_sorted_the_other_way_is_contradicted() -> None:
    table = (["agency_name", "tender_count"], [["الشؤون الصحية بوزارة الحرس الوطني", 3591]])
    sql = "SELECT agency_name, COUNT(*) AS tender_count FROM t GROUP BY agency_id ORDER BY tender_count DESC LIMIT 1"
    question = "وش أكثر جهة طرحت مناقصات؟"
    assert contradicted("الجهة الأكثر: الشؤون الصحية بوزارة الحرس الوطني (3,591 مناقصة).", question, table, sql) == []
    assert contradicted("الجهة الأقل: الشؤون الصحية بوزارة الحرس الوطني (3,591 مناقصة).", question, table, sql) == [
        "الأقل الشؤون الصحية بوزارة الحرس الوطني: the first row is الشؤون الصحية بوزارة الحرس الوطني"]
    # a heading with a count and no row of its own: the SQL's order says which end it lists
    top = (["tender_name", "estimated_value"], [["أ", 900.0], ["ب", 800.0]])
    top_sql = "SELECT tender_name, estimated_value FROM t ORDER BY estimated_value DESC LIMIT 2"
    assert contradicted("أعلى 2 مناقصات من حيث القيمة: 900 ريال و800 ريال.", "أعلى مناقصتين؟", top, top_sql) == []
    assert contradicted("أدنى 2 مناقصات من حيث القيمة: 900 ريال و800 ريال.", "أعلى مناقصتين؟", top, top_sql) == [
        "أدنى: the rows are sorted descending"]
    # sorted by a bare key ("m", a month) the order says nothing of which end is the highest
    months = (["m", "n"], [[1, 300], [2, 420], [3, 390]])
    assert contradicted("وأعلاها في الشهر 2 بعدد 420 مناقصة.", "ما توزيع 2024 حسب الشهر؟", months,
                        "SELECT MONTH(d) AS m, COUNT(*) AS n FROM t GROUP BY 1 ORDER BY m") == []
    # "ما" of "ما يلي" on the line before is no negation of the heading
    assert contradicted("وجدت ما يلي:\nأعلى 2 مناقصات من حيث القيمة: 900 ريال و800 ريال.", "أعلى مناقصتين؟",
                        top, top_sql) == []


def test_a_status_named_before_a_count_must_be_the_sqls_filter() -> None:
    table = (["tender_count"], [[11]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE agency_id = 55 AND status_id = 1"
    question = "كم مناقصة نشطة لدى أمانة محافظة جدة؟"
    assert contradicted("بلغ عدد المناقصات النشطة لدى أمانة محافظة جدة 11 مناقصة.", question, table, sql) == []
    found = contradicted("بلغ عدد المناقصات الملغاة لدى أمانة محافظة جدة 11 مناقصة.", question, table, sql)
    assert len(found) == 1 and found[0].startswith("الملغاة 11: the rows are for")


def test_a_month_said_as_the_figures_period_must_be_in_the_sqls_window() -> None:
    table = (["tender_count"], [[1464]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE d >= '2026-11-01' AND d < '2026-12-01'"
    question = "كم مناقصة يحل آخر موعد لتقديم عروضها الشهر القادم؟"
    assert contradicted("يحل آخر موعد 1,464 مناقصة في شهر نوفمبر 2026.", question, table, sql) == []
    assert contradicted("يحل آخر موعد 1,464 مناقصة في شهر ديسمبر 2026.", question, table, sql) == [
        "ديسمبر 2026: the SQL's window is 2026-11 to 2026-11"]
    # an open-ended filter ("since") spans no window of months
    since = "SELECT COUNT(*) AS tender_count FROM t WHERE d >= '2026-01-01'"
    assert contradicted("منذ يناير طُرحت 1,464 مناقصة حتى مارس 2026.", "كم مناقصة منذ بداية العام؟", table, since) == []


def test_the_month_a_figure_is_told_for_is_one_the_sqls_dates_span() -> None:
    table = (["tender_count"], [[50]])
    first_quarter = "SELECT COUNT(*) AS tender_count FROM t WHERE d >= '2024-01-01' AND d < '2024-04-01'"
    question = "كم عدد المناقصات في الربع الأول من 2024؟"
    assert contradicted("في مارس طُرحت 50 مناقصة.", question, table, first_quarter) == []
    # the window's exclusive end ("< '2024-04-01'") is not a month it asks about
    assert "أبريل: 50: the question asks about month 1 of 2024" in contradicted(
        "طُرحت في شهر أبريل 50 مناقصة.", question, table, first_quarter)
    # an open-ended filter asks about no one month: not the month it opens on more than another
    since = "SELECT COUNT(*) AS tender_count FROM t WHERE d >= '2025-01-01'"
    for month in ("يناير", "مارس"):
        assert contradicted(f"في {month} 2025 طُرحت 50 مناقصة.", "كم عدد المناقصات منذ بداية 2025؟", table, since) == []


def test_a_denial_opening_a_sentence_governs_its_first_figure_across_a_list() -> None:
    table = (["tender_count"], [[1148]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE region_id IN (7, 11, 13)"
    question = "كم عدد المناقصات في تبوك ونجران والجوف؟"
    assert contradicted("بلغ عدد المناقصات في منطقة تبوك، منطقة نجران ومنطقة الجوف 1,148 مناقصة.", question, table, sql) == []
    assert contradicted("لم يبلغ عدد المناقصات في منطقة تبوك، منطقة نجران ومنطقة الجوف 1,148 مناقصة.",
                        question, table, sql) == ["1,148: the rows say 1,148, which the insight denies"]
    # "لا،" answering a question denies no figure after it
    assert contradicted("لا، مجموعها 1,148 مناقصة فقط.", "هل تجاوزت ألفي مناقصة؟", table, sql) == []


def test_a_numbered_list_whose_numbers_are_exchanged_ranks_by_its_numbers() -> None:
    table = (["agency_name", "tenders"], [["وزارة الصحة", 1217], ["وزارة التعليم", 634], ["وزارة المالية", 596]])
    sql = "SELECT agency_name, COUNT(*) AS tenders FROM t GROUP BY agency_id ORDER BY tenders DESC LIMIT 3"
    question = "أكثر ثلاث جهات؟"
    assert contradicted("1. وزارة الصحة: 1,217\n2. وزارة التعليم: 634\n3. وزارة المالية: 596", question, table, sql) == []
    assert contradicted("1. وزارة الصحة: 1,217\n3. وزارة التعليم: 634\n2. وزارة المالية: 596", question, table, sql) == [
        "وزارة الصحة > وزارة المالية > وزارة التعليم: the rows rank وزارة التعليم above وزارة المالية"]


def test_a_quarter_named_must_overlap_the_sqls_window() -> None:
    table = (["tender_count"], [[605]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE d >= '2024-07-01' AND d < '2024-10-01'"
    question = "كم مناقصة في الربع الثالث 2024؟"
    assert contradicted("في الربع الثالث من عام 2024: 605 مناقصة.", question, table, sql) == []
    assert contradicted("في الربع الثاني من عام 2024: 605 مناقصة.", question, table, sql) == [
        "الربع الثاني من عام 2024: the SQL's window is 2024-07 to 2024-09"]


def test_an_entity_named_as_left_out_must_be_the_one_the_sql_leaves_out() -> None:
    table = (["tender_count"], [[2515]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE region_id = 1 AND tender_type_id <> 2"
    question = "كم مناقصة ليست شراء مباشر في الرياض؟"
    assert contradicted("بلغ عدد المناقصات من غير نوع شراء مباشر في منطقة الرياض 2,515 مناقصة.", question, table, sql) == []
    assert contradicted("بلغ عدد المناقصات من غير نوع منافسة عامة في منطقة الرياض 2,515 مناقصة.",
                        question, table, sql) == ["منافسة عامة: the SQL does not leave it out"]
    kept = "SELECT COUNT(*) AS tender_count FROM t WHERE region_id = 8 AND status_id IN (1, 2, 3, 4, 6)"
    assert contradicted("بلغ عدد المناقصات غير ملغاة في منطقة حائل 149 مناقصة.", "كم غير ملغاة؟", table, kept) == []
    assert contradicted("بلغ عدد المناقصات غير منتهية في منطقة حائل 149 مناقصة.", "كم غير ملغاة؟", table, kept) == [
        "منتهية: the SQL does not leave it out"]


def test_a_count_of_tenders_said_as_a_count_of_bids_is_contradicted() -> None:
    table = (["tender_count"], [[4957]])
    sql = "SELECT COUNT(*) AS tender_count FROM t WHERE estimated_value > 500000"
    question = "كم مناقصة قيمتها أكثر من نصف مليون؟"
    assert contradicted("بلغ عدد المناقصات بقيمة أكثر من نصف مليون ريال 4,957 مناقصة.", question, table, sql) == []
    assert contradicted("بلغ عدد العروض بقيمة أكثر من نصف مليون ريال 4,957 مناقصة.", question, table, sql) == [
        "4,957: the rows count tenders, not bids"]


def test_a_bound_the_sqls_filter_states_the_other_way_is_contradicted() -> None:
    table = (["avg_value", "tender_count"], [[13_262_200.11, 3753]])
    sql = "SELECT AVG(estimated_value) AS avg_value, COUNT(*) AS tender_count FROM t WHERE estimated_value > 1000000"
    question = "متوسط قيمة المناقصات التي تزيد عن مليون ريال"
    assert contradicted("متوسط القيمة للمناقصات بقيمة أكثر من مليون ريال: 13,262,200.11 ريال.", question, table, sql) == []
    assert contradicted("متوسط القيمة للمناقصات بقيمة أقل من مليون ريال: 13,262,200.11 ريال.", question, table, sql) == [
        "أقل من مليون: the SQL filters > 1,000,000"]
    # a CASE splits the rows both ways: either side may be told
    split = "SELECT SUM(CASE WHEN estimated_value > 1000000 THEN 1 ELSE 0 END) AS n FROM t"
    assert contradicted("منها 3,753 بقيمة أقل من مليون ريال.", "كم؟", (["n"], [[3753]]), split) == []


def test_an_average_quoting_the_sum_where_the_row_holds_a_sum_and_a_count_is_contradicted() -> None:
    table = (["total_value", "tenders"], [[518_750_000.0, 415]])
    sql = "SELECT SUM(v) AS total_value, COUNT(*) AS tenders FROM t"
    question = "ما متوسط قيمة المنافسة في عسير؟"
    # the average from the row's sum and count is a derivation within the row: right
    assert verdicts("متوسط قيمة المنافسة نحو 1.25 مليون ريال", question, table, sql) == [(SUPPORTED, "1.25 مليون")]
    assert contradicted("متوسط قيمة المنافسة 518.75 مليون ريال", question, table, sql) == [
        "518.75 مليون: sum / count says 1,250,000"]


def test_an_average_of_a_count_is_an_average() -> None:
    table = (["avg_bids", "tenders"], [[2.44, 18_400]])
    sql = "SELECT AVG(bids) AS avg_bids, COUNT(*) AS tenders FROM t"
    assert contradicted("متوسط عدد العروض 2.44 عرضاً على 18,400 منافسة", "متوسط العروض", table, sql) == []


# --- superlatives ---------------------------------------------------------------------------------


def test_a_superlative_names_the_first_row_of_an_ordered_result_or_the_extreme_row() -> None:
    assert contradicted("أكثر المناطق طرحاً هي مكة المكرمة", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("تتصدر الرياض المناطق", QUESTION, BY_REGION, BY_REGION_SQL) == [
        "تتصدر الرياض: the first row is منطقة مكة المكرمة"]
    assert contradicted("أقل المناطق عسير", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("أقل المناطق الرياض", QUESTION, BY_REGION, BY_REGION_SQL) != []


def test_a_superlative_naming_an_entity_the_rows_do_not_hold_is_contradicted() -> None:
    table = (["region_name", "tender_count"], [["منطقة مكة المكرمة", 2310]])
    sql = BY_REGION_SQL + " LIMIT 1"
    assert contradicted("المنطقة الأعلى هي مكة المكرمة", "ما أكثر منطقة؟", table, sql) == []
    assert contradicted("المنطقة الأعلى هي منطقة جازان", "ما أكثر منطقة؟", table, sql) == [
        "الأعلى منطقة جازان: the first row is منطقة مكة المكرمة"]


def test_a_comparative_and_a_left_out_row_are_no_superlative() -> None:
    assert contradicted("الرياض أكثر من عسير", QUESTION, BY_REGION, BY_REGION_SQL) == []
    outside = (["region_name", "tender_count"], [["منطقة الرياض", 1475], ["منطقة عسير", 415]])
    assert contradicted("أكثر المناطق خارج منطقة مكة المكرمة هي الرياض", QUESTION, outside, BY_REGION_SQL) == []
    assert contradicted("أكثر المناطق خارج منطقة مكة المكرمة هي عسير", QUESTION, outside, BY_REGION_SQL) != []


def test_a_superlative_of_a_measure_reads_that_measures_column() -> None:
    # 2023 has the most tenders, 2024 the highest value.
    assert contradicted("أكبر عدد منافسات في 2023", "حسب السنة", BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("أكبر عدد منافسات في 2024", "حسب السنة", BY_YEAR, BY_YEAR_SQL) != []
    assert contradicted("أعلى قيمة في 2024", "حسب السنة", BY_YEAR, BY_YEAR_SQL) == []


# --- directions -----------------------------------------------------------------------------------


def test_a_direction_agrees_with_the_sign_of_the_change_between_the_periods_named() -> None:
    question = "قارن 2023 و2024"
    assert contradicted("ارتفعت القيمة في 2024", question, BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("تراجعت القيمة في 2024", question, BY_YEAR, BY_YEAR_SQL) == [
        "تراجعت: the rows go from 3,100,000,000 to 4,450,000,000"]
    assert contradicted("انخفض عدد المنافسات في 2024 مقارنة بـ 2023", question, BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("زاد عدد المنافسات في 2024", question, BY_YEAR, BY_YEAR_SQL) != []


def test_a_direction_from_one_figure_to_another_agrees_with_their_order() -> None:
    table = (["n"], [[5]])
    assert contradicted("تراجع العدد من 640 إلى 585", "كم", table) == []
    assert contradicted("قفز العدد من 640 إلى 585", "كم", table) == ["قفز: from 640 to 585"]


def test_no_change_is_no_rise() -> None:
    table = (["year", "tenders"], [["2024", 47], ["2025", 47]])
    sql = "SELECT y AS year, COUNT(*) AS tenders FROM t GROUP BY 1"
    assert contradicted("ارتفع العدد في 2025", "قارن", table, sql) != []


# --- yes/no ---------------------------------------------------------------------------------------

TOTAL_SQL = "SELECT SUM(v) AS total_value FROM t"


def test_yes_or_no_agrees_with_the_questions_threshold() -> None:
    question = "هل تخطت قيمة منافسات عسير المليار ريال؟"
    table = (["total_value"], [[760_000_000.0]])
    assert contradicted("لا، بلغت 760 مليون ريال فقط", question, table, TOTAL_SQL) == []
    assert contradicted("نعم، فقد بلغت 760 مليون ريال", question, table, TOTAL_SQL) == [
        "نعم: the rows say 760,000,000, below 1,000,000,000"]
    assert contradicted("ايه، بلغت 760 مليون", "هل القيمة أكثر من 500 مليون؟", table, TOTAL_SQL) == []


def test_yes_or_no_to_two_periods_compared_agrees_with_their_rows() -> None:
    assert contradicted("لا، قلت من 640 إلى 585", "هل زادت المنافسات في 2024 عن 2023؟", BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("نعم، زادت", "هل زادت المنافسات في 2024 عن 2023؟", BY_YEAR, BY_YEAR_SQL) != []
    assert contradicted("نعم", "هل قيمة 2024 أعلى من 2023؟", BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("لا", "هل قيمة 2024 أعلى من 2023؟", BY_YEAR, BY_YEAR_SQL) != []


def test_yes_or_no_to_existence_compares_the_count_with_zero() -> None:
    question = "هل توجد منافسات ملغاة في الباحة؟"
    table = (["n"], [[9]])
    sql = "SELECT COUNT(*) AS n FROM t"
    assert contradicted("نعم، 9 منافسات", question, table, sql) == []
    assert contradicted("لا، ما فيه", question, table, sql) != []


# --- bounds and approximations --------------------------------------------------------------------

COUNT = (["tenders"], [[1_996]])
COUNT_SQL = "SELECT COUNT(*) AS tenders FROM t"


def test_a_bound_must_hold_as_a_bound_not_as_a_rounding() -> None:
    assert contradicted("طُرحت أكثر من ألفي منافسة", "كم؟", COUNT, COUNT_SQL) == ["أكثر من ألفي: the rows say 1,996"]
    assert contradicted("طُرحت أقل من ألفي منافسة", "كم؟", COUNT, COUNT_SQL) == []
    assert verdicts("طُرحت أكثر من 1,900 منافسة", "كم؟", COUNT, COUNT_SQL) == [(SUPPORTED, "أكثر من 1,900")]
    assert contradicted("تجاوز العدد 2,100 منافسة", "كم؟", COUNT, COUNT_SQL) != []
    assert contradicted("لا يقل العدد عن 1,996 منافسة", "كم؟", COUNT, COUNT_SQL) == []


def test_an_approximation_holds_within_its_significant_digits_in_digits_and_in_words_alike() -> None:
    table = (["tenders"], [[4_962]])
    for insight in ("قرابة 5,000 منافسة", "قرابة 5 آلاف منافسة", "حوالي خمسة آلاف منافسة", "4,960 منافسة تقريباً"):
        assert verdicts(insight, "كم؟", table, COUNT_SQL)[0][0] == SUPPORTED, insight
    for insight in ("قرابة 6,000 منافسة", "حوالي 4,900 منافسة"):
        assert verdicts(insight, "كم؟", table, COUNT_SQL)[0][0] != SUPPORTED, insight
    # No approximator: the figure as stated, at its last digit.
    assert unsupported("5,000 منافسة", "كم؟", table, COUNT_SQL) == ["5,000"]


# --- none -------------------------------------------------------------------------------------------


def test_none_is_zero() -> None:
    table = (["n"], [[12]])
    sql = "SELECT COUNT(*) AS n FROM t"
    for insight in ("لا توجد أي منافسات ملغاة", "ما فيه منافسات ملغاة", "لم تُطرح أي منافسة ملغاة"):
        found = contradicted(insight, "كم ملغاة؟", table, sql)
        assert len(found) == 1 and found[0].endswith(": row says 12"), (insight, found)
    assert contradicted("لا توجد أي منافسات ملغاة", "كم ملغاة؟", (["n"], [[0]]), sql) == []
    assert contradicted("لا توجد بيانات عن الطقس", "كم ملغاة؟", table, sql) == []  # no count


def test_none_for_a_labelled_row_reads_that_row() -> None:
    assert contradicted("لا توجد أي منافسات في عسير", QUESTION, BY_REGION, BY_REGION_SQL) == [
        "لا توجد أي: row says 415"]


# --- unattached numbers -------------------------------------------------------------------------------


def test_an_unattached_number_nowhere_in_the_rows_is_unsupported() -> None:
    assert unsupported("بلغ العدد 2,870 منافسة", "كم؟", COUNT, COUNT_SQL) == ["2,870"]
    assert unsupported("بلغ العدد 1,996 منافسة", "كم؟", COUNT, COUNT_SQL) == []


def test_derivations_within_a_row_support_a_number() -> None:
    table = (["awarded", "tenders"], [[1_200, 9_000]])
    assert unsupported("رُسّي 1,200 من أصل 9,000، أي 13.3%", "كم", table) == []
    assert unsupported("الفرق 7,800 منافسة", "كم", table) == []


@pytest.mark.parametrize(("question", "insight"), [
    ("كم منافسة في الربع الثاني من 2024؟", "من 1 أبريل إلى 30 يونيو 2024 طُرحت 1,996 منافسة"),
    ("كم منافسة في فبراير 2024؟", "خلال الفترة من 1 إلى 29 فبراير 2024: 1,996 منافسة"),
    ("كم منافسة في 2024؟", "في 2024 (1445-1446 هـ) طُرحت 1,996 منافسة"),
    ("كم منافسة في 2019؟", "في 2019 (1440-1441 هـ) طُرحت 1,996 منافسة"),
])
def test_the_dates_a_question_implies_support_a_number(question: str, insight: str) -> None:
    assert unsupported(insight, question, COUNT, COUNT_SQL) == []


def test_a_figure_per_month_of_the_period_the_question_names_is_derived() -> None:
    table = (["tenders"], [[920]])
    question = "كم منافسة في الربع الأول 2025؟"
    assert unsupported("طُرحت 920 منافسة، أي بمعدل 307 منافسات شهرياً", question, table, COUNT_SQL) == []
    assert unsupported("طُرحت 920 منافسة، أي بمعدل 310 منافسات شهرياً", question, table, COUNT_SQL) == ["310"]


def test_a_year_the_question_does_not_imply_is_unsupported() -> None:
    assert unsupported("في 2024 (1439 هـ) طُرحت 1,996 منافسة", "كم منافسة في 2024؟", COUNT, COUNT_SQL) == ["1439"]
    assert unsupported("في 2019 (1439-1441 هـ) طُرحت 1,996 منافسة", "كم منافسة في 2019؟", COUNT, COUNT_SQL) == ["1439"]


def test_a_preposition_that_is_also_a_comparator_bounds_only_the_number_right_after_it() -> None:
    # "بدون ترسية" is "without an award"; "دون 2,000" is "below 2,000".
    assert contradicted("بلغ عدد المنافسات بدون ترسية 1,996 منافسة", "كم؟", COUNT, COUNT_SQL) == []
    assert contradicted("عدد المنافسات دون 2,000", "كم؟", COUNT, COUNT_SQL) == []
    assert contradicted("عدد المنافسات فوق 2,000", "كم؟", COUNT, COUNT_SQL) != []


def test_a_numbered_list_of_rows_ranks_them_as_the_ordered_result_does() -> None:
    right = "## المناطق\n1. منطقة مكة المكرمة — 2,310\n2. منطقة الرياض — 1,475\n3. منطقة عسير — 415"
    assert contradicted(right, QUESTION, BY_REGION, BY_REGION_SQL) == []
    swapped = "1) منطقة الرياض: 1,475\n2) منطقة مكة المكرمة: 2,310\n3) منطقة عسير: 415"
    assert contradicted(swapped, QUESTION, BY_REGION, BY_REGION_SQL) == [
        "منطقة الرياض > منطقة مكة المكرمة > منطقة عسير: the rows rank منطقة مكة المكرمة above منطقة الرياض"]


def test_yes_or_no_to_a_question_without_its_question_word_agrees_with_the_threshold() -> None:
    table = (["total_value"], [[943_200_000.0]])
    assert contradicted("إيه تعدّت المليار", "القيمة تعدّت المليار؟", table, TOTAL_SQL) != []
    assert contradicted("لا، ما تعدّت المليار", "القيمة تعدّت المليار؟", table, TOTAL_SQL) == []


# --- issue 36: each claim verified by its own reading, on the default database's rows -----------
#
# Every item below is an answer a chat agent could give: the SQL is right and the rows are the
# default database's, so only the insight decides. The wrong ones carry one fault each, of a kind
# issue 36 lists as judged Correct before; the right ones are of the kinds it lists as flagged.

from nabahan_fixtures.claims_labelled import score_items  # noqa: E402

REGIONS_SQL = ("SELECT region_name, COUNT(*) AS tenders FROM tenders_full_details WHERE region_id IS NOT NULL "
               "GROUP BY region_id ORDER BY tenders DESC")
TYPES_SQL = "SELECT tender_type_name, COUNT(*) AS tenders FROM tenders_full_details GROUP BY tender_type_id ORDER BY tenders DESC"
YEARS_SQL = ("SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders FROM tenders_full_details "
             "WHERE strftime('%Y', publish_date) IN ('2022', '2023') GROUP BY year ORDER BY year")
MONTHS_SQL = ("SELECT strftime('%Y-%m', publish_date) AS month, COUNT(*) AS tenders FROM tenders_full_details "
              "WHERE strftime('%Y', publish_date) = '2026' GROUP BY month ORDER BY month")
CANCELLED_SQL = "SELECT COUNT(*) AS tenders FROM tenders_full_details WHERE status_id = 5"
LATEST_SQL = "SELECT MAX(publish_date) AS latest FROM tenders_full_details"
NAJRAN_SQL = "SELECT COUNT(*) AS tenders FROM tenders_full_details WHERE region_id = 11"
ASIR_CANCELLED_SQL = ("SELECT COUNT(*) AS tenders, SUM(CASE WHEN status_id = 5 THEN 1 ELSE 0 END) AS cancelled "
                      "FROM tenders_full_details WHERE region_id = 6")
Q_REGIONS, Q_TYPES = "رتب المناطق حسب عدد المنافسات", "ما حصة كل نوع من أنواع المنافسات؟"
Q_YEARS, Q_MONTHS = "كم منافسة طرحت في 2022 و2023؟", "كم منافسة طرحت في كل شهر من عام 2026؟"
Q_CANCELLED, Q_LATEST = "كم عدد المنافسات الملغاة؟", "متى نشرت أحدث منافسة؟"
Q_NAJRAN, Q_ASIR = "كم منافسة في منطقة نجران؟", "كم منافسة في عسير، وكم منها ملغاة؟"
Q_MARCH = "كم منافسة طرحت في مارس 2025؟"
Q_MILLION = "كم منافسة قيمتها التقديرية أكثر من مليون ريال؟"
MILLION_SQL = "SELECT COUNT(*) AS tenders FROM tenders_full_details WHERE estimated_value > 1000000"
MARCH_SQL = "SELECT COUNT(*) AS tenders FROM tenders_full_details WHERE publish_date BETWEEN '2025-03-01' AND '2025-03-31'"

# (kind, question, SQL, insight, what the reason must hold); the figures are the rows'.
WRONG_ITEMS = [
    ("ratio_more_than", Q_REGIONS, REGIONS_SQL,  # 323 / 169 = 1.91
     "سجلت نجران 323 منافسة، وهو أكثر من ضعف ما سجلته حائل (169).", "نجران"),
    ("fraction", Q_REGIONS, REGIONS_SQL,  # 144 / 494 = 0.29: a third, not a half
     "منافسات الباحة (144) تعادل نصف منافسات جازان (494).", "0.29"),
    ("multiple", Q_REGIONS, REGIONS_SQL,  # 3,558 / 927 = 3.84
     "طرحت مكة المكرمة خمسة أضعاف ما طرحته عسير.", "3.84"),
    ("change_on_later_base", Q_YEARS, YEARS_SQL,  # (3,388 - 2,920) / 3,388 = 13.8 %; on 2022's base 16 %
     "ارتفع عدد المنافسات من 2,920 في 2022 إلى 3,388 في 2023، بزيادة 13.8%.", "13.8%"),
    ("bound_on_other_rows", Q_TYPES, TYPES_SQL,  # 6,094 of 20,000 is 30.5 %
     "لا تتجاوز حصة المنافسة العامة 10% من المنافسات.", "30.47%"),
    ("ordinal_adverb", Q_REGIONS, REGIONS_SQL,
     "أولاً الرياض (7,044)، ثانياً مكة المكرمة (3,558)، ثالثاً عسير (927).", "place 3"),
    ("ordinal_rank_noun", Q_REGIONS, REGIONS_SQL,
     "وجاءت تبوك في المركز الخامس بـ667 منافسة.", "place 5"),
    ("ranked_bullets", Q_REGIONS, REGIONS_SQL,
     "أعلى المناطق طرحاً للمنافسات:\n- منطقة الرياض\n- المنطقة الشرقية\n- منطقة مكة المكرمة", "rank"),
    ("bids_for_tenders", Q_NAJRAN, NAJRAN_SQL,
     "تلقت منافسات نجران 323 عطاءً.", "not bids"),
    ("status_word", Q_CANCELLED, CANCELLED_SQL,
     "بلغ عدد المنافسات النشطة 2,359 منافسة.", "ملغاه"),
    ("month_of_a_date", Q_LATEST, LATEST_SQL,
     "نُشرت أحدث منافسة يوم 31 يوليو 2026.", "2026-10-31"),
    ("hijri_month_of_a_date", Q_LATEST, LATEST_SQL,  # 2026-10-31 is 20 Jumada al-Ula 1448
     "نُشرت أحدث منافسة في 20 جمادى الآخرة 1448هـ.", "2026-10-31"),
    ("month_the_rows_lack", Q_MONTHS, MONTHS_SQL,  # the data ends in October 2026
     "- سبتمبر: 827\n- أكتوبر: 773\n- ديسمبر: 790", "no row"),
    ("bound_wording", Q_REGIONS, REGIONS_SQL,
     "تتخطى منافسات المنطقة الشرقية ثلاثة آلاف منافسة.", "2,995"),
    ("negated_superlative", Q_REGIONS, REGIONS_SQL,
     "لم تتصدر الرياض المناطق هذا العام.", "first row"),
    ("unit", Q_NAJRAN, NAJRAN_SQL,
     "في نجران 323 ألف منافسة.", "unverified"),
    ("percent_on_other_base", Q_REGIONS, REGIONS_SQL,  # (3,558 - 2,995) / 2,995 = 18.8 %; / 3,558 = 15.8 %
     "تتفوق مكة المكرمة على المنطقة الشرقية بنسبة 15.8%.", "base it is 18.8%"),
    ("denied_figure", Q_NAJRAN, NAJRAN_SQL,
     "لم تسجل منطقة نجران 323 منافسة.", "denies"),
    ("month_not_asked", Q_MARCH, MARCH_SQL,
     "طُرحت في فبراير 2025 نحو 293 منافسة.", "فبراير 2025"),
    ("filter_turned", Q_MILLION, MILLION_SQL,
     "بلغ عدد المنافسات بقيمة تقديرية أقل من مليون ريال 3,753 منافسة.", "the question asks > 1,000,000"),
]
RIGHT_ITEMS = [
    ("ratio_about", Q_REGIONS, REGIONS_SQL, "منافسات تبوك (667) قرابة ضعف منافسات نجران (323)."),
    ("fraction_about", Q_REGIONS, REGIONS_SQL, "تمثل منافسات الباحة قرابة ثلث منافسات القصيم (144 مقابل 489)."),
    ("fraction_bound", Q_REGIONS, REGIONS_SQL, "منافسات الباحة (144) أقل من ثلث منافسات القصيم (489)."),
    ("change_on_earlier_base", Q_YEARS, YEARS_SQL,
     "ارتفع عدد المنافسات من 2,920 في 2022 إلى 3,388 في 2023، بزيادة 16%."),
    ("bound_own_row", Q_TYPES, TYPES_SQL, "لا تتجاوز حصة المسابقة 1% من المنافسات."),
    ("ordinals_in_order", Q_REGIONS, REGIONS_SQL,
     "أولاً الرياض، ثانياً مكة المكرمة، ثالثاً المنطقة الشرقية، ورابعاً عسير."),
    ("ordinal_rank_noun", Q_REGIONS, REGIONS_SQL, "وجاءت تبوك في المرتبة السادسة بـ667 منافسة."),
    ("bullets_unranked", Q_REGIONS, REGIONS_SQL,
     "منافسات بعض المناطق:\n- منطقة مكة المكرمة: 3,558\n- منطقة الرياض: 7,044\n- منطقة عسير: 927"),
    ("question_to_the_user", Q_NAJRAN, NAJRAN_SQL,
     "في منطقة نجران 323 منافسة. هل تود أن أعرض لك أعلى 10 جهات فيها؟"),
    ("range", Q_NAJRAN, NAJRAN_SQL, "عدد منافسات نجران بين 300 و350 منافسة."),
    ("count_by_sum_case", Q_ASIR, ASIR_CANCELLED_SQL, "عدد المنافسات الملغاة في عسير 98 من أصل 927."),
    ("total_by_sum_case", Q_ASIR, ASIR_CANCELLED_SQL, "إجمالي الملغاة في عسير 98 منافسة."),
    ("words_short", Q_NAJRAN, NAJRAN_SQL, "ثلاثمئة وثلاث وعشرون."),
    ("date", Q_LATEST, LATEST_SQL, "نُشرت أحدث منافسة في 31 أكتوبر 2026، الموافق 20 جمادى الأولى 1448هـ."),
    ("months_held", Q_MONTHS, MONTHS_SQL, "- سبتمبر: 827\n- أكتوبر: 773"),
    ("percent_on_its_base", Q_REGIONS, REGIONS_SQL, "تتفوق مكة المكرمة على المنطقة الشرقية بنسبة 18.8%."),
    ("month_asked", Q_MARCH, MARCH_SQL, "طُرحت في مارس 2025 نحو 293 منافسة، ولم يكن ذلك استثناءً."),
    ("filter_restated", Q_MILLION, MILLION_SQL, "بلغ عدد المنافسات بقيمة تقديرية أكثر من مليون ريال 3,753 منافسة."),
]


def _items(rows: list[tuple], label: str) -> list[dict]:
    return [{"id": f"{label}-{kind}", "question": question, "category": "aggregation", "status": "success",
             "sql": sql, "insight": insight, "label": label, "kind": kind}
            for kind, question, sql, insight, *_ in rows]


@pytest.fixture(scope="module")
def judged(default_db) -> dict[str, tuple[bool, str]]:
    scores = score_items(_items(WRONG_ITEMS, "wrong") + _items(RIGHT_ITEMS, "right"), default_db)
    return {row.item: (row.correct, row.not_correct_because) for row in scores.itertuples()}


@pytest.mark.parametrize("kind, question, sql, insight, says", WRONG_ITEMS, ids=[item[0] for item in WRONG_ITEMS])
def test_a_wrong_claim_the_seed_read_past_is_not_correct(judged, kind, question, sql, insight, says) -> None:
    correct, why = judged[f"wrong-{kind}"]
    assert not correct, f"judged Correct: {insight}"
    assert says in why, why


@pytest.mark.parametrize("kind, question, sql, insight", RIGHT_ITEMS, ids=[item[0] for item in RIGHT_ITEMS])
def test_a_right_insight_the_seed_flagged_is_correct(judged, kind, question, sql, insight) -> None:
    correct, why = judged[f"right-{kind}"]
    assert correct, f"{insight}: {why}"


def test_the_seeds_grounding_and_the_claims_read_a_number_the_same_way(default_db) -> None:
    # The numbers the claims verify are the ones Ungrounded Numbers leaves out, row for row: a share
    # of two cells, a rounded figure, the question's own period; and a wrong one is in both.
    from nabahan_pipeline.etimad_db.sql_safety import run_read_only
    from nabahan_pipeline.evaluation.grounding import ungrounded_numbers

    result = run_read_only(default_db, ASIR_CANCELLED_SQL)
    rows = [dict(zip(result.columns, row)) for row in result.rows]
    for insight, unverified in (
        ("من أصل 927 منافسة في عسير أُلغيت 98، أي نحو 10.6%.", []),
        ("أُلغيت في عسير قرابة 100 منافسة.", []),
        ("أُلغيت في عسير 98 منافسة من 940.", ["940"]),
    ):
        checks = check_insight(insight, Q_ASIR, list(result.columns), [list(row) for row in result.rows],
                               ASIR_CANCELLED_SQL)
        not_verified = [check.claim.mention.text for check in checks
                        if check.claim.kind == "number" and check.verdict != SUPPORTED]
        assert ungrounded_numbers(insight, rows, Q_ASIR, ASIR_CANCELLED_SQL) == not_verified == unverified, insight


# --- issue 36, the mutation run's misses --------------------------------------------------------


def test_an_entity_the_sql_leaves_out_told_as_what_the_rows_are_is_contradicted() -> None:
    sql = "SELECT COUNT(*) AS tenders FROM t WHERE region_id <> 4 AND tender_type_id NOT IN (2, 12)"
    table = (["tenders"], [[4_210]])
    assert contradicted("خارج منطقة القصيم ومن غير نوع شراء مباشر أو مسابقة: 4,210 منافسة.", "كم", table, sql) == []
    assert contradicted("داخل منطقة القصيم: 4,210 منافسة.", "كم", table, sql) == [
        "منطقة القصيم: the SQL leaves it out"]


def test_an_entity_beside_the_sqls_list_of_its_kind_is_contradicted_unless_quoted() -> None:
    sql = "SELECT COUNT(*) AS tenders FROM t WHERE status_id = 2 AND region_id = 8"
    table = (["tenders"], [[37]])
    assert contradicted("في حائل 37 منافسة قيد الفحص.", "كم", table, sql) == []
    assert contradicted("في حائل 37 منافسة ملغاة.", "كم", table, sql) != []
    assert contradicted("أبرزها «صيانة المباني الملغاة سابقاً» من 37 منافسة قيد الفحص.", "كم", table, sql) == []


def test_two_labels_of_one_figure_that_share_no_row_are_contradicted() -> None:
    table = (["tender_name", "agency_name", "estimated_value"],
             [["توريد أدوية", "مستشفى حائل", 910_000.0], ["صيانة مصاعد", "أمانة حائل", 640_000.0]])
    sql = "SELECT tender_name, agency_name, estimated_value FROM t ORDER BY estimated_value DESC"
    assert contradicted("«توريد أدوية» لدى مستشفى حائل بقيمة 910,000 ريال.", "ما أعلى المناقصات؟", table, sql) == []
    assert contradicted("«صيانة مصاعد» لدى مستشفى حائل بقيمة 910,000 ريال.", "ما أعلى المناقصات؟", table, sql) == [
        "صيانة مصاعد / مستشفى حائل: no row of the result has both"]


def test_the_measure_a_ranking_or_a_heading_names_is_the_sqls() -> None:
    sql = ("SELECT agency_name, SUM(estimated_value) AS total_estimated_value FROM t GROUP BY agency_id "
           "ORDER BY total_estimated_value DESC")
    table = (["agency_name", "total_estimated_value"], [["أمانة حائل", 52_000_000.0], ["مستشفى حائل", 31_000_000.0]])
    right = "الجهات الأعلى من حيث إجمالي القيمة التقديرية: أمانة حائل (52,000,000 ريال)، مستشفى حائل (31,000,000 ريال)."
    assert contradicted(right, "الجهات حسب القيمة", table, sql) == []
    wrong = right.replace("إجمالي القيمة التقديرية", "متوسط القيمة التقديرية")
    assert contradicted(wrong, "الجهات حسب القيمة", table, sql) != []
    # said once for the ranking where no figure follows it
    ranking = "أعلى جهة من حيث متوسط القيمة التقديرية هي أمانة حائل."
    assert contradicted(ranking, "الجهات حسب القيمة", table, sql) == [
        "من حيث متوسط القيمة التقديرية: the SQL ranks by total_estimated_value"]
    awarded = right.replace("إجمالي القيمة التقديرية", "إجمالي قيمة الترسية")
    assert contradicted(awarded, "الجهات حسب القيمة", table, sql) != []


def test_a_sum_told_of_an_average_column_is_contradicted() -> None:
    sql = "SELECT AVG(duration_months) AS avg_months, COUNT(*) AS projects FROM p"
    table = (["avg_months", "projects"], [[21.4, 830]])
    assert contradicted("متوسط المدة 21.4 شهراً على 830 مشروعاً.", "كم", table, sql) == []
    assert contradicted("إجمالي المدة 21.4 شهراً على 830 مشروعاً.", "كم", table, sql) != []


def test_existence_said_over_a_zero_count_is_contradicted() -> None:
    table, sql = (["tenders"], [[0]]), "SELECT COUNT(*) AS tenders FROM t WHERE region_id = 12"
    assert contradicted("لا توجد منافسات في الباحة.", "كم", table, sql) == []
    assert contradicted("توجد منافسات في الباحة، عددها 0.", "كم", table, sql) != []


def test_an_ordinal_of_a_row_past_an_offset_counts_the_rows_skipped() -> None:
    sql = "SELECT region_name, COUNT(*) AS tenders FROM t GROUP BY region_id ORDER BY tenders DESC LIMIT 1 OFFSET 2"
    table = (["region_name", "tenders"], [["منطقة عسير", 415]])
    assert contradicted("في المرتبة الثالثة: منطقة عسير (415 منافسة).", "كم", table, sql) == []
    assert contradicted("في المرتبة الثانية: منطقة عسير (415 منافسة).", "كم", table, sql) == [
        "الثانية منطقة عسير: منطقة عسير ranks 3"]


def test_a_bound_just_across_a_cell_is_that_cells_rounding() -> None:
    sql = "SELECT AVG(v) AS avg_value, COUNT(*) AS tenders FROM t WHERE v > 1000000"
    table = (["avg_value", "tenders"], [[9_870_000.0, 2_214]])
    assert contradicted("المتوسط 9.87 مليون ريال على أكثر من 2,200 منافسة.", "كم", table, sql) == []
    assert contradicted("المتوسط 9.87 مليون ريال على أقل من 2,200 منافسة.", "كم", table, sql) == [
        "أقل من 2,200: the rows say 2,214"]


def test_a_range_restating_the_sqls_between_keeps_both_its_ends() -> None:
    sql = "SELECT COUNT(*) AS tenders FROM t WHERE v BETWEEN 50000 AND 250000"
    table = (["tenders"], [[3_020]])
    assert contradicted("بقيمة بين 50 ألف و250 ألف ريال: 3,020 منافسة.", "كم", table, sql) == []
    assert contradicted("بقيمة بين 50 ألف و250 مليون ريال: 3,020 منافسة.", "كم", table, sql) != []


def test_a_share_in_its_rows_brackets_is_that_rows_share() -> None:
    # 2,310 of 4,200 is 55.0 %; 1,475 of it 35.1 %; 2,310 / 1,475 is 156.6 %.
    assert contradicted("منطقة مكة المكرمة (2,310 منافسة، 55.0%)", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("منطقة مكة المكرمة (2,310 منافسة، 156.6%)", QUESTION, BY_REGION, BY_REGION_SQL) != []


def test_a_figure_on_its_row_is_no_difference_with_another_row_unless_the_clause_compares() -> None:
    # 2,310 - 1,475 = 835
    assert contradicted("منطقة مكة المكرمة 835 منافسة.", QUESTION, BY_REGION, BY_REGION_SQL) != []
    assert contradicted("تزيد منطقة مكة المكرمة على الرياض بـ835 منافسة.", QUESTION, BY_REGION, BY_REGION_SQL) == []


def test_a_pronoun_ties_a_figure_to_the_row_named_before() -> None:
    assert contradicted("أعلى سنة 2024، قيمتها نحو 4.45 مليار ريال.", "كم", BY_YEAR, BY_YEAR_SQL) == []
    assert contradicted("أعلى سنة 2024، قيمتها نحو 3.1 مليار ريال.", "كم", BY_YEAR, BY_YEAR_SQL) != []


def test_the_last_row_and_the_sort_column_decide_a_superlative() -> None:
    assert contradicted("تتذيل منطقة عسير القائمة بـ415 منافسة.", QUESTION, BY_REGION, BY_REGION_SQL) == []
    assert contradicted("تتذيل منطقة مكة المكرمة القائمة بـ2,310 منافسة.", QUESTION, BY_REGION, BY_REGION_SQL) != []


def test_a_negated_there_is_before_a_bound_turns_it() -> None:
    sql = ("SELECT region_name, COUNT(*) AS tenders FROM t WHERE region_id IS NOT NULL GROUP BY region_id "
           "HAVING COUNT(*) > 1,000".replace("1,000", "1000"))
    table = (["region_name", "tenders"], [["منطقة مكة المكرمة", 2310], ["منطقة الرياض", 1475]])
    question = "المناطق التي فيها أكثر من 1000 منافسة"
    assert contradicted("المناطق التي فيها أكثر من 1,000 منافسة: مكة المكرمة (2,310) والرياض (1,475).",
                        question, table, sql) == []
    assert contradicted("المناطق التي ما فيها أكثر من 1,000 منافسة: مكة المكرمة (2,310) والرياض (1,475).",
                        question, table, sql) != []
