"""All the date readers together: the order they run in (a Hijri month before the Hijri year, a
part of a period before the month), a negation before the one date phrase, and what no reader
could place."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.date_reading import DateReading, read_all_dates

AS_OF = date(2025, 6, 15)


def _read(phrase: str) -> DateReading:
    return read_all_dates(normalize_arabic(phrase), AS_OF)


@pytest.mark.parametrize(
    ("phrase", "span"),
    [
        ("في جمادى الأولى 1446", ("2024-11-03", "2024-12-02")),  # not the whole year 1446
        ("الأسبوع الثاني من يناير 2024", ("2024-01-08", "2024-01-15")),  # not the whole month
        ("بعد 2022 وقبل 2024", ("2023-01-01", "2024-01-01")),  # bounds said together
    ],
)
def test_each_phrase_is_read_whole_by_the_reader_that_knows_it(phrase: str, span: tuple) -> None:
    reading = _read(phrase)
    assert [(s.start, s.end) for s in reading.spans] == [span]
    assert not reading.text.strip() or reading.text.strip() in ("في",)


@pytest.mark.parametrize(
    ("phrase", "span", "label"),
    [
        ("في غير 2023", ("2023-01-01", "2024-01-01"), "في غير عام 2023"),
        ("ما عدا شهر مارس 2024", ("2024-03-01", "2024-04-01"), "في غير شهر مارس 2024"),
        ("باستثناء شوال 1445", ("2024-04-10", "2024-05-09"), "في غير شهر شوال 1445هـ"),
    ],
)
def test_a_negated_date_is_every_other_day(phrase: str, span: tuple, label: str) -> None:
    reading = _read(phrase)
    assert [(s.start, s.end, s.negated, s.label) for s in reading.spans] == [(*span, True, label)]
    assert not reading.text.strip()


def test_a_negation_beside_two_dates_is_left_unread() -> None:
    reading = _read("في 2024 ما عدا مارس 2024")
    assert "عدا" in reading.text and not any(s.negated for s in reading.spans)


def test_what_no_reader_places_is_reported() -> None:
    assert _read("في رمضان").unplaced == ("في رمضان",)
    assert _read("في كل يوم").ungrouped == ("في كل يوم",)
