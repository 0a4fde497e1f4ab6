"""Numeric grounding: each way a number can be supported, rounding at the stated precision, and
made-up numbers flagged."""

from __future__ import annotations

import pytest
from num2words import num2words

from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.evaluation.grounding import ungrounded_numbers

REGIONS = [
    {"region_name": "منطقة الرياض", "tenders": 523},
    {"region_name": "منطقة مكة المكرمة", "tenders": 300},
    {"region_name": "المنطقة الشرقية", "tenders": 177},
]
QUESTION = "ما توزيع المناقصات على المناطق؟"


def ungrounded(insight: str, rows=REGIONS, question: str = QUESTION) -> list[str]:
    return ungrounded_numbers(insight, rows, question)


def test_no_numbers_nothing_to_ground() -> None:
    assert ungrounded("تتصدر منطقة الرياض عدد المناقصات") == []


def test_cell_value() -> None:
    assert ungrounded("في منطقة الرياض 523 مناقصة") == []


def test_made_up_number_is_flagged_as_written() -> None:
    assert ungrounded("في منطقة الرياض 537 مناقصة، وفي مكة 300") == ["537"]


def test_each_ungrounded_number_once_in_order() -> None:
    assert ungrounded("الأرقام 999 ثم 888 ثم 999") == ["999", "888"]


def test_arabic_indic_digits_are_read_and_returned_as_written() -> None:
    assert ungrounded("في منطقة الرياض ٥٢٣ مناقصة") == []
    assert ungrounded("في منطقة الرياض ٥٣٧ مناقصة") == ["٥٣٧"]


def test_number_inside_a_text_cell() -> None:
    rows = [{"tender_name": "توريد 12 سيارة إسعاف", "publish_date": "2024-03-05"}]
    assert ungrounded("نُشرت مناقصة توريد 12 سيارة في عام 2024", rows, "ما آخر مناقصة؟") == []
    assert ungrounded("نُشرت مناقصة توريد 14 سيارة في عام 2023", rows, "ما آخر مناقصة؟") == ["14", "2023"]


def test_row_count() -> None:
    rows = [{"tender_id": 100 + i} for i in range(37)]
    assert ungrounded("وجدنا 37 مناقصة", rows, "اعرض المناقصات") == []
    assert ungrounded("وجدنا 38 مناقصة", rows, "اعرض المناقصات") == ["38"]


def test_row_count_zero() -> None:
    assert ungrounded("عدد المناقصات 0", [], "كم عدد المناقصات الملغاة؟") == []


def test_column_sum_average_min_max() -> None:
    assert ungrounded("إجمالي المناقصات 1,000 بمتوسط 333.3 لكل منطقة") == []
    assert ungrounded("الإجمالي 1,001") == ["1,001"]


def test_count_of_rows_sharing_a_value() -> None:
    rows = [{"status": "نشطة"}] * 25 + [{"status": "ملغاة"}] * 15
    assert ungrounded("منها 25 نشطة و15 ملغاة", rows, "ما حالات المناقصات؟") == []


def test_share_of_a_column_total_as_percentage() -> None:
    assert ungrounded("تستحوذ الرياض على 52.3% من المناقصات") == []
    assert ungrounded("تستحوذ الرياض على ٥٢٪ من المناقصات") == []
    assert ungrounded("تستحوذ الرياض على 61% من المناقصات") == ["61%"]


def test_percent_words_count_as_percentages() -> None:
    assert ungrounded("تستحوذ الرياض على 52 بالمئة من المناقصات") == []
    assert ungrounded("تستحوذ الرياض على 52 في المائة من المناقصات") == []


def test_shares_only_support_percentages() -> None:
    # 52.3 is the Riyadh share, but stated as a plain number it claims something else.
    assert ungrounded("تستحوذ الرياض على 52.3 مناقصة") == ["52.3"]


def test_share_of_rows_with_a_value() -> None:
    rows = [{"status": "نشطة"}] * 3 + [{"status": "ملغاة"}]
    assert ungrounded("75% من المناقصات نشطة", rows, "ما حالات المناقصات؟") == []


def test_fraction_cell_written_as_percentage() -> None:
    rows = [{"region": "الرياض", "share": 0.246}]
    assert ungrounded("حصة الرياض 24.6%", rows, "ما حصة الرياض؟") == []


def test_difference_and_ratio_of_two_cells_in_a_small_result() -> None:
    assert ungrounded("تتقدم الرياض على مكة بفارق 223 مناقصة") == []
    assert ungrounded("لدى الرياض 1.7 ضعف ما لدى مكة") == []
    assert ungrounded("زادت بنسبة 74% عن مكة") == []  # (523 - 300) / 300


def test_no_pairwise_numbers_in_a_large_result() -> None:
    rows = [{"v": float(v)} for v in range(1000, 1000 + 30 * 97, 97)]
    assert ungrounded("الفرق بين أول قيمتين 97", rows, "اعرض القيم") == ["97"]


def test_number_in_the_question() -> None:
    question = "ما أعلى 5 مناقصات قيمة في عام ٢٠٢٤؟"
    assert ungrounded("هذه أعلى 5 مناقصات في 2024", [{"v": 9_000_000}], question) == []


def test_enumeration_integers() -> None:
    insight = "1) منطقة الرياض: 523\n2) منطقة مكة المكرمة: 300\n3) المنطقة الشرقية: 177"
    assert ungrounded(insight) == []
    assert ungrounded("4) منطقة الجوف") == ["4"]


@pytest.mark.parametrize(
    ("insight", "value", "grounded"),
    [
        ("القيمة 1.5 مليون ريال", 1_523_400, True),
        ("القيمة 1.5 مليون ريال", 1_450_000, True),
        ("القيمة 1.5 مليون ريال", 1_600_000, False),
        ("القيمة ١٫٥ مليون ريال", 1_523_400, True),
        ("القيمة 2.35 مليار", 2_354_000_000, True),
        ("القيمة 2.35 مليار", 2_360_000_000, False),
        ("القيمة 1,234", 1234.4, True),
        ("القيمة 1,234", 1235.0, False),
        ("القيمة 3", 5, False),
        ("القيمة 250 ألف ريال", 250_400, True),
        ("القيمة 250 ألف ريال", 251_000, False),
        ("القيمة مليونين", 2_100_000, True),
        ("القيمة نصف مليون", 520_000, True),
        ("القيمة نصف مليون", 600_000, False),
        ("النسبة 25.0%", 25.04, True),
        ("النسبة 25.0%", 24.6, False),
    ],
)
def test_rounding_at_the_stated_precision_and_scale(insight: str, value: float, grounded: bool) -> None:
    rows = [{"value": value}, {"value": value}]
    assert (ungrounded(insight, rows, "ما القيمة؟") == []) is grounded


def test_percentage_rounded_to_whole_number() -> None:
    assert ungrounded("النسبة 25%", [{"p": 24.6}], "ما النسبة؟") == []
    assert ungrounded("النسبة 25%", [{"p": 24.4}], "ما النسبة؟") == ["25%"]


def test_the_precision_is_the_last_stated_unit() -> None:
    # Grounding accepts half of it either side (Evidence._supports).
    assert find_numbers("1.5 مليون")[0].readings[0].unit == pytest.approx(100_000)
    assert find_numbers("1,234")[0].readings[0].unit == pytest.approx(1)
    assert find_numbers("3.25%")[0].readings[0].unit == pytest.approx(0.01)


# --- every way of writing a number: (the rows' value, a right form, a wrong form) --------------------

FORMS = [
    # The examples.
    (13_000, "ثلاثة عشر ألف", "أربعة عشر ألف"),
    (200_000, "مئتا ألف", "ثلاثمئة ألف"),
    (200_000, "مائتي ألف", "مائتي مليون"),
    (2_500_000, "مليونين وخمسمائة ألف", "مليونين وستمائة ألف"),
    (3_200_000_000, "ثلاثة مليارات ومئتا مليون", "ثلاثة مليارات وثلاثمئة مليون"),
    (1999, "ألف وتسعمائة وتسعة وتسعون", "ألف وتسعمائة وتسعة وثمانون"),
    (20_000, "20 000", "21 000"),
    (20_000, "20.000", "20.500"),
    (20, "20.000", "20.500"),
    (2_500_000, "٢,٥ مليون", "٢,٧ مليون"),
    (600, "ستمائة", "خمسمائة وثلاث وعشرون"),
    # Digits: scripts and separators.
    (1234, "1,234", "1,243"),
    (1234, "1.234", "1.324"),
    (1234, "1 234", "1 334"),
    (1234, "1\u00a0234", "1\u00a0243"),
    (1234, "1\u2009234", "1\u2009243"),
    (1234, "1’234", "1’235"),
    (1234, "1'234", "1'432"),
    (1234, "١٬٢٣٤", "١٬٢٤٣"),
    (1234, "۱٬۲۳۴", "۱٬۲۴۳"),
    (1234, "1،234", "1،334"),
    (1.234, "1,234", "1,324"),
    (1.5, "١٫٥", "١٫٨"),
    (1.5, "١,٥", "٢,٥"),
    (1.5, "۱٫۵", "۱٫۶"),
    (1_234_567.5, "1,234,567.50", "1,234,657.50"),
    (1_234_567.5, "1.234.567,5", "1.234.576,5"),
    (1_234_567.5, "1 234 567,5", "1 234 576,5"),
    (1_234_567.5, "١٬٢٣٤٬٥٦٧٫٥", "١٬٢٣٤٬٥٧٦٫٥"),
    (2_500_000, "٢٫٥ مليون", "٣٫٥ مليون"),
    (12_500, "12.5 ألف", "13.5 ألف"),
    (13_000, "١٣ ألف", "١٤ ألف"),
    (3000, "3 آلاف", "4 آلاف"),
    (5_000_000, "5 ملايين", "6 ملايين"),
    (25, "٢٥٪", "٣٥٪"),
    (20, "%20", "%30"),
    (30, "30 بالمئة", "40 بالمئة"),
    (30, "ثلاثون في المائة", "أربعون في المائة"),
    # Written numbers.
    (0, "صفر", "اثنان"),
    (3, "ثلاث", "أربع"),
    (8, "ثماني", "تسع"),
    (11, "أحد عشر", "اثنا عشر"),
    (12, "اثنتي عشرة", "ثلاث عشرة"),
    (19, "تسعة عشر", "تسعة وعشرون"),
    (25, "خمسة وعشرون", "خمسة وثلاثون"),
    (25, "عشرين وخمسة", "عشرين وستة"),
    (71, "إحدى وسبعون", "إحدى وثمانون"),
    (100, "مئة", "مئتان"),
    (300, "ثلاثمئة", "أربعمئة"),
    (300, "ثلاث مئة", "ثلاث مئة وخمسون"),
    (1000, "ألف", "ألفا"),
    (2000, "ألفين", "ثلاثة آلاف"),
    (2000, "ألفان", "ألفان وخمسمائة"),
    (11_000, "أحد عشر ألفاً", "اثنا عشر ألفاً"),
    (40_000, "أربعين ألف", "خمسين ألف"),
    (102_000, "مائة واثنان ألف", "مائة وثلاثة آلاف"),
    (1_000_000, "مليون", "مليار"),
    (2_000_000, "مليونين", "ثلاثة ملايين"),
    (2_000_000_000, "ملياران", "مليار"),
    (1_000_000_000_000, "تريليون", "تريليونين"),
    (999_999_999_999, num2words(999_999_999_999, lang="ar"), num2words(999_998_999_999, lang="ar")),
    (2.5, "اثنان فاصلة خمسة", "اثنان فاصلة سبعة"),
    (1.5, "واحد  , خمسون", "واحد  , ستون"),
    # Fractions.
    (1_500_000, "مليون ونص", "مليونين ونص"),
    (500_000, "نصف مليون", "ربع مليون"),
    (250_000, "ربع مليون", "ثلث مليون"),
    (750_000, "ثلاثة أرباع مليون", "نصف مليون"),
    (1250, "ألف وربع", "ألف ونص"),
    # Digits and words together, Saudi colloquial forms.
    (2_500_000, "2 مليون و500 ألف", "2 مليون و700 ألف"),
    (1_200_000, "مليون و200 ألف", "مليون و300 ألف"),
    (100_000, "ميت ألف", "ميتين ألف"),
    (100, "مية", "ميتين"),
    (300, "ثلاثمية", "أربعمية"),
    (2500, "الفين وخمسمية", "الفين وستمية"),
    (15, "خمسطعش", "ستطعش"),
]


@pytest.mark.parametrize(("value", "right", "wrong"), FORMS)
def test_right_forms_are_grounded_and_wrong_forms_flagged(value: float, right: str, wrong: str) -> None:
    rows = [{"value": value}]
    assert ungrounded(f"بلغت القيمة {right} حسب البيانات", rows, "ما القيمة؟") == []
    assert ungrounded(f"بلغت القيمة {wrong} حسب البيانات", rows, "ما القيمة؟") == [wrong]


def test_a_form_with_two_readings_is_grounded_by_either() -> None:
    assert ungrounded("القيمة 20.000", [{"v": 20_000}], "ما القيمة؟") == []
    assert ungrounded("القيمة 20.000", [{"v": 20.0}], "ما القيمة؟") == []
    assert ungrounded("القيمة 20.000", [{"v": 20.4}], "ما القيمة؟") == ["20.000"]
    # Each reading at its own precision: 1,234 as 1.234 is stated to the thousandth.
    assert ungrounded("القيمة 1,234", [{"v": 1.2344}], "ما القيمة؟") == []
    assert ungrounded("القيمة 1,234", [{"v": 1.24}], "ما القيمة؟") == ["1,234"]
