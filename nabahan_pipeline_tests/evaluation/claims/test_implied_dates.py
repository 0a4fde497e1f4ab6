"""The numbers a question implies: a quarter's or month's first and last days, Hijri years."""

from __future__ import annotations

from nabahan_pipeline.evaluation.claims.implied_dates import implied_numbers, period_lengths


def test_a_quarter_implies_its_months_and_their_first_and_last_days() -> None:
    numbers = set(implied_numbers("كم منافسة في الربع الثالث من 2025؟"))
    assert {1, 7, 8, 9, 31, 30} <= numbers and 6 not in numbers and 10 not in numbers


def test_a_month_of_a_leap_year_ends_on_its_last_day() -> None:
    assert {1, 2, 29} <= set(implied_numbers("منافسات فبراير 2024"))
    assert 29 not in implied_numbers("منافسات فبراير 2025")


def test_a_gregorian_year_implies_the_hijri_years_it_spans_and_its_months_and_days() -> None:
    assert set(implied_numbers("كم منافسة في 2024؟")) == {1445, 1446, 12, 4, 52, 366}


def test_a_period_has_its_length_in_months_and_days() -> None:
    assert {3, 90} <= set(period_lengths("الربع الأول من 2025")) and 91 not in period_lengths("الربع الأول من 2025")
    assert 29 in period_lengths("فبراير 2024")


def test_a_question_naming_no_period_implies_nothing() -> None:
    assert implied_numbers("كم منافسة ملغاة؟") == ()


def test_the_hijri_years_of_any_year_of_the_calendar_and_none_outside_it() -> None:
    # 2019 and 2031 lie outside the ten years the table embedded before hijridate held.
    assert set(implied_numbers("كم منافسة في 2019؟")) == {1440, 1441, 12, 4, 52, 365}
    assert {1452, 1453} <= set(implied_numbers("كم منافسة في 2031؟"))
    assert set(implied_numbers("كم منافسة في 2090؟")) == {12, 4, 52, 365}  # past 2077-11-16: unknown
