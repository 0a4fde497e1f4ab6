"""The seed's fidelity points on the insight, 3 of 4 pass."""

from __future__ import annotations

import pytest

from nabahan_pipeline_tests.evaluation.scoring.answers import GOOD_INSIGHT, OUT_OF_SCOPE_CASE, answer, refusal, score


def test_status_match_success_needs_more_than_30_characters() -> None:
    assert score(reply=answer(insights="ع" * 30))["status_match"] == 0
    assert score(reply=answer(insights="  " + "ع" * 30 + "  "))["status_match"] == 0  # stripped
    assert score(reply=answer(insights="ع" * 31))["status_match"] == 1


@pytest.mark.parametrize(
    "text",
    ["عذراً، لا أستطيع المساعدة في ذلك.", "عذرا لا يمكنني", "نعتذر، السؤال خارج النطاق", "أعتذر عن ذلك",
     "آسف، لا أملك هذه البيانات", "للأسف هذا خارج نطاقي", "Sorry, I can only answer procurement questions",
     # the other apologies agents write, with the article and proclitics
     "معليش، ما أقدر أجاوب", "معلش ما عندي هالمعلومة", "المعذرة، السؤال خارج النطاق", "فالمعذرة منك",
     "يؤسفني أن البيانات لا تشمل ذلك", "يؤسفنا ذلك", "نأسف لعدم توفر البيانات", "عفواً، لا أملك ذلك",
     "مع الاعتذار، لا تتوفر البيانات", "وأعتذر عن ذلك", "آسفة جداً", "متأسف، ما عندي", "اعذرني، لا أعرف"],
)
def test_status_match_refusal_needs_an_apology(text: str) -> None:
    assert score(OUT_OF_SCOPE_CASE, refusal(insights=text))["status_match"] == 1


def test_status_match_refusal_without_apology() -> None:
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="هذا السؤال خارج نطاق بيانات المنافسات"))["status_match"] == 0
    # أسفل (below) contains the letters of آسف but is not an apology.
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="انظر الجدول أسفل الصفحة"))["status_match"] == 0
    # يوسف (a name) holds the letters of يؤسف, العفو of عفواً: neither apologizes.
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="سأل يوسف عن الطقس وليس عن المنافسات"))["status_match"] == 0
    assert score(OUT_OF_SCOPE_CASE, refusal(insights="هيئة العفو خارج نطاق البيانات"))["status_match"] == 0


def test_status_match_error_is_zero() -> None:
    assert score(reply=answer(status="error", insights=GOOD_INSIGHT))["status_match"] == 0


def test_arabic_text_point() -> None:
    english = "There are 523 tenders in the Riyadh region according to the data."
    assert score(reply=answer(insights=english))["arabic_text"] == 0
    # Mostly Arabic with a Latin name is still Arabic.
    assert score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حسب Etimad"))["arabic_text"] == 1


def test_numbers_present_point() -> None:
    assert score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض عدداً كبيراً جداً"))["numbers_present"] == 0
    for digits in ("٥٢٣", "۵۲۳"):  # Arabic-Indic, Persian
        insight = f"بلغ عدد المناقصات في منطقة الرياض {digits} مناقصة حسب البيانات"
        assert score(reply=answer(insights=insight))["numbers_present"] == 1
    # The seed's rule: `data_rows > 0 and has_numbers(insights)`, so no rows, no point.
    no_rows = answer(data=[], insights="لا توجد مناقصات مطابقة في منطقة الرياض حالياً")
    assert score(reply=no_rows)["numbers_present"] == 0
    assert score(reply=answer(data=[], insights=GOOD_INSIGHT))["numbers_present"] == 0


@pytest.mark.parametrize(
    ("reply", "points", "fidelity"),
    [
        (answer(), 4, 1),
        (answer(insights="الرياض: 523"), 3, 1),  # too short
        (answer(insights="In Riyadh there are 523 tenders according to Etimad data."), 3, 1),  # not Arabic
        (answer(insights="بلغ عدد المناقصات في منطقة الرياض 537 مناقصة وفق البيانات"), 3, 1),  # ungrounded
        (answer(insights="In Riyadh: 523"), 2, 0),  # too short and not Arabic
        (answer(insights="الرياض فيها عدد كبير"), 2, 0),  # too short and no number
        (answer(insights="In Riyadh: 537"), 1, 0),  # too short, not Arabic, ungrounded
        (answer(status="error", insights=""), 1, 0),  # nothing said: no marker, nothing else
        (answer(status="error", insights="Riyadh: {n}"), 0, 0),
    ],
)
def test_fidelity_passes_at_three_of_four(reply: dict, points: int, fidelity: int) -> None:
    result = score(reply=reply)
    assert (result["fidelity_points"], result["generation_fidelity"]) == (points, fidelity)
