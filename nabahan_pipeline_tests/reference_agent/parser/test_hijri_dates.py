"""Hijri months, days and ranges of months read into Gregorian spans by the Umm al-Qura table, months
named with no year counted from the as-of date, and Hijri dates outside the table refused by name."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser, Refusal
from nabahan_pipeline.reference_agent.parser.hijri_dates import read_hijri_dates, unread_hijri

AS_OF = date(2025, 6, 15)  # 19 Dhu al-Hijjah 1446


def _read(phrase: str) -> tuple[str, list[tuple[str | None, str | None]]]:
    text, spans = read_hijri_dates(normalize_arabic(phrase), AS_OF)
    return text, [(s.start, s.end) for s in spans]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("خلال شهر رمضان المبارك لعام 1444 هـ", "2023-03-23", "2023-04-21"),
        ("بشهر شعبان 1445", "2024-02-11", "2024-03-11"),
        ("في جمادى الأولى من عام 1446", "2024-11-03", "2024-12-02"),
        ("في جمادى الآخرة 1446هـ", "2024-12-02", "2025-01-01"),
        ("في ربيع الثاني ١٤٤٧", "2025-09-23", "2025-10-23"),
        ("في ربيع الآخر 1447", "2025-09-23", "2025-10-23"),
        ("في ذو القعدة 1445", "2024-05-09", "2024-06-07"),
        ("في شهر صفر سنة 1448 هجري", "2026-07-15", "2026-08-14"),
        ("في المحرم 1449", "2027-06-06", "2027-07-05"),
        ("برجب 1447", "2025-12-21", "2026-01-20"),
    ],
)
def test_a_month_and_its_year(phrase: str, start: str, end: str) -> None:
    text, spans = _read(phrase)
    assert spans == [(start, end)]
    assert not text.strip() or text.strip() in ("في", "خلال")


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("يوم 27 رمضان 1445", "2024-04-06", "2024-04-07"),
        ("بتاريخ 1 محرم 1447", "2025-06-26", "2025-06-27"),
        ("من رجب إلى رمضان 1446", "2025-01-01", "2025-03-30"),
        ("بين ذي الحجة 1445 و صفر 1446", "2024-06-07", "2024-09-04"),
        ("من ذي القعدة حتى محرم 1447", "2025-04-29", "2025-07-26"),  # across the new year
        ("من 10 شعبان إلى 5 رمضان 1446", "2025-02-09", "2025-03-06"),
    ],
)
def test_days_and_ranges(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في رمضان الماضي", "2025-03-01", "2025-03-30"),  # 1446: the last one before Dhu al-Hijjah 1446
        ("في شوال الجاي", "2026-03-20", "2026-04-18"),  # 1447
        ("في شعبان هذا العام", "2025-01-31", "2025-03-01"),  # 1446
        ("في ذي الحجة الماضي", "2024-06-07", "2024-07-07"),  # as-of is in Dhu al-Hijjah: the one before
    ],
)
def test_a_month_with_no_year_counts_from_the_as_of_date(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


def test_no_such_day_or_month_is_not_read() -> None:
    assert _read("يوم 30 رمضان 1446")[1] == []  # Ramadan 1446 had 29 days
    assert _read("في رمضان 1510")[1] == []  # past the Umm al-Qura calendar (1500)
    assert _read("صفر عروض")[1] == []


@pytest.mark.parametrize(
    "phrase",
    ["في رمضان 1510", "في رمضان", "خلال شهر شوال", "عام 1437هـ", "في سنة 1460 هجري"],
)
def test_unplaced_hijri_dates_are_named(phrase: str) -> None:
    text, _ = read_hijri_dates(normalize_arabic(phrase), AS_OF)
    assert unread_hijri(text)


def test_a_hijri_month_filters_the_publish_date(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة ملغاة نزلت في شهر شعبان 1445؟")
    assert isinstance(frame, QueryFrame) and frame.measure == "count"
    dates = [c for c in frame.conditions if c.field == "date"]
    assert [c.values for c in dates] == [("2024-02-11", "2024-03-11")]
    assert dates[0].label == "شهر شعبان 1445هـ"  # the answer states only the numbers the question did
    assert {c.field for c in frame.conditions} == {"date", "status"}


@pytest.mark.parametrize(
    "question",
    [
        "كم مناقصة طرحت في رمضان 1510؟",
        "كم منافسة في شهر رجب؟",
        "عدد المناقصات عام 1505هـ",
        "كم مناقصة في رجب ورمضان 1446",
        "كم مناقصة في شهر صفر؟",
    ],
)
def test_a_hijri_date_outside_the_calendar_is_refused(parser: QuestionParser, question: str) -> None:
    refusal = parser.parse(question)
    assert isinstance(refusal, Refusal) and refusal.reason == "unplaced_date"
    assert refusal.words


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في شعبان من السنة الهجرية 1446", "2025-01-31", "2025-03-01"),
        ("في الشهر 10 من عام 1445", "2024-04-10", "2024-05-09"),
        ("في شهري ذي القعدة وذي الحجة 1445", "2024-05-09", "2024-07-07"),
        ("في النصف الثاني من عام 1446 هجري", "2025-01-01", "2025-06-26"),
        ("من 1444 إلى 1445هـ", "2022-07-30", "2024-07-07"),
        ("في السنوات الهجرية 1446 و 1447", "2024-07-07", "2026-06-16"),
        ("في السنة الهجرية الماضية", "2023-07-19", "2024-07-07"),  # as-of 1446: the past one is 1445
    ],
)
def test_more_hijri_periods(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("قبل شهر رجب 1446", None, "2025-01-01"),
        ("بعد نهاية رمضان 1445", "2024-04-10", None),
        ("منذ بداية محرم 1446", "2024-07-07", None),
        ("حتى نهاية 1444هـ", None, "2023-07-19"),
        ("ابتداء من عام 1447", "2025-06-26", None),
    ],
)
def test_hijri_bounds(phrase: str, start: str | None, end: str | None) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize("phrase", ["بين 1400 و 1500 ريال", "قبل 1446 ريال"])
def test_not_one_hijri_span(phrase: str) -> None:
    assert _read(phrase)[1] == []


def test_safar_alone_is_zero(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة سعر كراستها بصفر ريال؟")
    assert isinstance(frame, QueryFrame)
    assert [(c.field, c.op, c.values) for c in frame.conditions] == [("booklet", "=", (0.0,))]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("بتاريخ 1445/10/01", "2024-04-10", "2024-04-11"),  # Eid al-Fitr 1445
        ("يوم 10/12/1445هـ", "2024-06-16", "2024-06-17"),  # Eid al-Adha 1445
        ("في 1447-01", "2025-06-26", "2025-07-26"),
    ],
)
def test_hijri_dates_in_figures(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


def test_a_hijri_day_a_month_does_not_have_is_not_read() -> None:
    assert _read("بتاريخ 1446/09/30")[1] == []  # Ramadan 1446 had 29 days
