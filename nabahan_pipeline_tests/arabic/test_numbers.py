"""The reader of Arabic numbers: digits in every script and separator style, written numbers in
every form, what is not a number, and property tests against number-to-words writers.

The words oracle is num2words (lang "ar"). tafqeet, the other Arabic number-to-words package on
PyPI, cannot be a test dependency: its sdist names itself as its build backend and pip cannot build
it, and what it writes is not Arabic anyone reads ("مائة وصفر" for 100). A writer of our own
(``_spell``) covers the variants num2words never writes: gender and case forms, colloquial words,
"و" glued or apart, units before or after tens.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from num2words import num2words

from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers
from nabahan_pipeline.arabic.normalize import normalize_arabic

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _values(text: str) -> list[float]:
    return [m.value for m in find_numbers(text)]


def _one(text: str) -> NumberMention:
    mentions = find_numbers(text)
    assert len(mentions) == 1, (text, mentions)
    return mentions[0]


def _readings(text: str) -> list[tuple[float, float]]:
    return [(r.value, r.unit) for r in _one(text).readings]


# --- digits ---------------------------------------------------------------------------------------


def test_digits_in_any_script_with_separators() -> None:
    assert _values("1,234,567.50 ريال") == [1234567.5]
    assert _values("٢٬٥٠٠ ريال") == [2500.0]
    assert _values("۱۵ مناقصة") == [15.0]
    assert find_numbers("2.75")[0].decimals == 2


@pytest.mark.parametrize(
    "written",
    ["1,234", "1.234", "1 234", "1\u00a0234", "1\u2009234", "1\u202f234", "1’234", "1'234", "١٬٢٣٤", "۱٬۲۳۴", "1،234"],
)
def test_every_thousands_separator(written: str) -> None:
    assert 1234 in [value for value, _ in _readings(written)]


@pytest.mark.parametrize(("written", "value"), [("١٫٥", 1.5), ("١,٥", 1.5), ("1.5", 1.5), ("۱٫۵", 1.5), ("12,75", 12.75)])
def test_decimal_comma_and_point(written: str, value: float) -> None:
    assert _readings(written) == [(value, 0.1 if len(written) == 3 else 0.01)]


def test_a_form_with_two_readings_carries_both_each_at_its_precision() -> None:
    assert _readings("20.000") == [(20000.0, 1.0), (20.0, 0.001)]
    assert _readings("1,234") == [(1234.0, 1.0), (1.234, 0.001)]
    assert _readings("20 000") == [(20000.0, 1.0)]
    assert _readings("1.234.567,5") == [(1234567.5, 0.1)]


def test_separators_that_fit_no_pattern_separate_numbers() -> None:
    assert _values("1,2,3") == [1, 2, 3]
    assert _values("15.03.2024") == [15, 3, 2024]
    assert _values("5،6") == [5, 6]  # the Arabic comma between digits that are not thousands: a list
    assert _values("عام 2023 15 مناقصة") == [2023, 15]
    assert _values("1،250،000") == [1_250_000]


def test_scale_words_multiply() -> None:
    assert _values("5 ملايين") == [5e6]
    assert _values("٢٫٥ مليون") == [2.5e6]
    assert _values("٢,٥ مليون") == [2.5e6]
    assert _values("12.5 ألف") == [12_500]
    assert _values("500 ألف") == [5e5]
    assert _values("3 آلاف") == [3e3]
    assert _values("1.2 مليار") == [1.2e9]
    assert _values("2مليون") == [2e6]
    mention = find_numbers("1.5 مليون")[0]
    assert mention.scaled and mention.text == "1.5 مليون" and mention.scale == 1e6


def test_percent_signs_and_words() -> None:
    mention = find_numbers("نسبة ٣٠٪")[0]
    assert mention.percent and mention.value == 30 and mention.text == "٣٠٪"
    for written in ("52 بالمئة", "52 بالمائة", "52 في المئة", "52 في المائة", "52 %", "%52", "اثنان وخمسون بالمئة"):
        mention = _one(f"تستحوذ على {written} من المناقصات")
        assert mention.percent and mention.value == 52 and mention.text == written


def test_digits_glued_to_latin_letters_are_identifiers() -> None:
    assert _values("Q3 2024") == [2024.0]
    assert _values("COVID19 و H1") == []


def test_spans_are_in_the_text_as_written() -> None:
    text = "قيمتها أكثر من \u200f٢٫٥ مِلْيُون ريال و ١٢٬٥٠٠ ريال"
    first, second = find_numbers(text)
    assert (first.text, second.text) == ("٢٫٥ مِلْيُون", "١٢٬٥٠٠")
    assert text[first.start : first.end] == first.text and text[second.start : second.end] == second.text


# --- written numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("ثلاثة عشر ألف", 13_000),
        ("ثلاثة عشر ألفاً", 13_000),
        ("مئتا ألف", 200_000),
        ("مائتي ألف", 200_000),
        ("مئتان", 200),
        ("ميتين", 200),
        ("مليونين وخمسمائة ألف", 2_500_000),
        ("ثلاثة مليارات ومئتا مليون", 3_200_000_000),
        ("ألف وتسعمائة وتسعة وتسعون", 1999),
        ("خمسمائة وثلاث وعشرون", 523),
        ("ثلاث مئة", 300),
        ("ثلاثمئة", 300),
        ("ثلاثمية", 300),
        ("أحد عشر", 11),
        ("إحدى عشرة", 11),
        ("اثنا عشر", 12),
        ("اثني عشر", 12),
        ("اثنى عشر", 12),
        ("اثنتا عشرة", 12),
        ("تسعة عشر", 19),
        ("إحدى وسبعون", 71),
        ("عشرين وخمسة", 25),
        ("خمسة وعشرين", 25),
        ("ألفان", 2000),
        ("ألفين", 2000),
        ("ألفا", 2000),
        ("بألفي ريال", 2000),
        ("ثلاثة آلاف", 3000),
        ("عشرة آلاف", 10_000),
        ("مليونان", 2e6),
        ("مليونا", 2e6),
        ("ثلاثة ملايين", 3e6),
        ("خمسة مليارات", 5e9),
        ("مائة و اثنان ألف", 102_000),
        ("ألف مليون", 1e9),
        ("تريليون", 1e12),
        ("صفر", 0),
        ("مليون و200 ألف", 1_200_000),
        ("2 مليون و500 ألف", 2_500_000),
        ("الف و500", 1500),
    ],
)
def test_written_numbers(written: str, value: float) -> None:
    mention = _one(f"بلغت القيمة {written} تقريباً")
    assert mention.value == value and mention.text == written.removeprefix("ب").removesuffix(" ريال")


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("حدعش", 11),
        ("اطنعش", 12),
        ("خمسطعش", 15),
        ("تسعطعش", 19),
        ("مية", 100),
        ("مية ألف", 100_000),
        ("ميت ألف", 100_000),
        ("خمسمية", 500),
        ("الفين وخمسمية", 2500),
        ("مليون ونص", 1_500_000),
        ("نص مليون", 500_000),
        ("ثنتين", 2),
        ("ثمنية", 8),
    ],
)
def test_saudi_colloquial_forms(written: str, value: float) -> None:
    assert _one(written).value == value


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("نصف مليون", 5e5),
        ("نص مليون", 5e5),
        ("نصف مليار", 5e8),
        ("ربع مليون", 2.5e5),
        ("ثلث مليون", 1e6 / 3),
        ("ثلاثة أرباع مليون", 7.5e5),
        ("ثلاثة أرباع المليون", 7.5e5),
        ("مليون ونص", 1.5e6),
        ("2 مليون ونصف", 2.5e6),
        ("ثلاثة ملايين ونصف", 3.5e6),
        ("ألف وربع", 1250),
        ("ثلاثة ونصف", 3.5),
    ],
)
def test_fractions(written: str, value: float) -> None:
    assert _one(written).value == pytest.approx(value)


def test_spoken_and_writer_decimal_points() -> None:
    assert _readings("اثنان فاصلة خمسة") == [(2.5, 0.1)]
    assert _readings("ثلاثة فاصل صفر خمسة") == [(3.05, 0.01)]
    assert _readings("واحد  , خمسون") == [(1.5, 0.01)]
    assert _readings("ثلاثة  , سبع") == [(3.07, 0.01), (3.7, 0.1)]
    # A comma typed after a word, as in a list, is no decimal point.
    assert _values("ثلاثة، سبعة") == [3, 7]


def test_precision_of_written_numbers() -> None:
    assert _readings("مليونين") == [(2e6, 1e6)]
    assert _readings("مليونين وخمسمائة ألف") == [(2.5e6, 1e3)]
    assert _readings("عشرة آلاف") == [(1e4, 1e3)]
    assert _readings("نصف مليون") == [(5e5, 1e5)]
    assert _readings("مليون ونص") == [(1.5e6, 1e5)]
    assert _readings("ألف وتسعمائة وتسعة وتسعون") == [(1999, 1)]


def test_between_two_numbers_reads_both() -> None:
    assert _values("بين مليون ومليونين") == [1e6, 2e6]
    assert _values("من ١٠٠ ألف إلى ٥٠٠ ألف") == [1e5, 5e5]
    assert _values("بين مليون و 5 ملايين") == [1e6, 5e6]
    assert _values("بين 10 و 20 مليون") == [10, 2e7]
    assert _values("ثلاثة وأربعة") == [3, 4]  # one place twice: two numbers


@pytest.mark.parametrize(
    "text",
    [
        "ملايين الريالات",  # a plural scale alone is vague
        "آلاف المناقصات",
        "نصف المناقصات",  # a fraction without a scale
        "ثلاثة أرباع المناقصات",
        "إحدى المناقصات",  # أحد/إحدى outside a teen
        "في أحد الأيام",
        "القيم بالمليون ريال",  # a unit of display
        "في شهر صفر",  # the month
        "لست متأكداً",  # "I am not", not ل + ست
        "هذه الميت",
    ],
)
def test_not_numbers(text: str) -> None:
    assert find_numbers(text) == []


@pytest.mark.parametrize(
    ("text", "value", "written"),
    [
        ("تعدت حاجز المئة مليون ريال", 1e8, "المئة مليون"),
        ("فوق المائة ألف", 1e5, "المائة ألف"),
        ("أقل من الخمسين ألف", 5e4, "الخمسين ألف"),
        ("تجاوزت الثلاثمائة مليون", 3e8, "الثلاثمائة مليون"),
        ("حاجز المئتي ألف", 2e5, "المئتي ألف"),
        ("العشرة آلاف ريال", 1e4, "العشرة آلاف"),
        ("تخطت حاجز المليون", 1e6, "المليون"),
        ("أعلى من المليار", 1e9, "المليار"),
    ],
)
def test_a_number_with_the_article_before_its_scale_word(text: str, value: float, written: str) -> None:
    mention = _one(text)
    assert mention.value == value and mention.text == written


@pytest.mark.parametrize("text", ["نسبة خمسة في المئة", "المئة", "الثلاثة الأوائل", "العشرين منافسة", "القيم بالمليار"])
def test_a_number_word_with_the_article_and_no_scale_word_is_no_amount(text: str) -> None:
    assert all(m.scale == 1 for m in find_numbers(text))
    assert not any(m.value >= 100 for m in find_numbers(text))


@pytest.mark.parametrize(("text", "value"), [("20M", 2e7), ("750k ريال", 7.5e5), ("2.5B", 2.5e9), ("3mn", 3e6)])
def test_a_latin_scale_letter_glued_to_digits(text: str, value: float) -> None:
    assert _one(text).value == value


@pytest.mark.parametrize(("text", "value"), [("20 M", 20), ("12m2", 12), ("Q4", None)])
def test_a_latin_letter_that_is_no_scale(text: str, value: float | None) -> None:
    assert [m.value for m in find_numbers(text)] == ([value] if value is not None else [])


def test_a_scale_word_alone_is_one_of_it() -> None:
    assert _values("فوق مليون") == [1e6]
    assert _values("أكثر من مليار ريال") == [1e9]
    assert _values("ألف ريال") == [1e3]


def test_cardinal_words_alone_are_numbers() -> None:
    assert _values("أعلى خمس مناقصات") == [5]
    assert _values("وجدت مناقصة واحدة") == [1]


@pytest.mark.parametrize(
    ("text", "value", "written"),
    [
        ("خلال الاثني عشر شهراً الماضية", 12, "الاثني عشر"),
        ("الاثنا عشر مشروعاً المتبقية", 12, "الاثنا عشر"),
        ("اثنتا عشرة منافسة", 12, "اثنتا عشرة"),
        ("جاءت الجهة في المرتبة الرابعة عشرة", 14, "الرابعة عشرة"),
        ("في اليوم الحادي عشر من الشهر", 11, "الحادي عشر"),
        ("الساعة الحادية عشرة", 11, "الحادية عشرة"),
        ("الأسبوع الثالث عشر من السنة", 13, "الثالث عشر"),
        ("المركز التاسع عشر", 19, "التاسع عشر"),
        ("الدورة الثامنة عشرة", 18, "الثامنة عشرة"),
        ("خلال الخمسة عشر يوماً", 15, "الخمسة عشر"),
        ("والحادي عشر كذلك", 11, "الحادي عشر"),  # the proclitic is no part of the number
        ("بالاثني عشر شهراً", 12, "الاثني عشر"),
        ("للثالث عشر على التوالي", 13, "ثالث عشر"),  # ل with the article: both dropped
        ("حلت سابع عشر", 17, "سابع عشر"),  # an ordinal without the article
        ("الخمسة عشر ألفاً", 15_000, "الخمسة عشر ألفاً"),
    ],
)
def test_definite_and_ordinal_teens_read_as_their_value(text: str, value: float, written: str) -> None:
    mention = _one(text)
    assert (mention.value, mention.text) == (value, written)


@pytest.mark.parametrize("text", ["ثاني أكبر جهة", "المرتبة الثالثة", "العشر الأواخر من رمضان", "الثاني والثالث"])
def test_an_ordinal_without_ashar_is_no_number(text: str) -> None:
    assert find_numbers(text) == []


def test_sunday_before_ashar_is_not_the_teen() -> None:
    # "الأحد" is Sunday far more often than the definite أحد of أحد عشر: "يوم الأحد عشر مناقصات".
    assert _values("طرحت يوم الأحد عشر مناقصات") == [10]


# --- properties -----------------------------------------------------------------------------------


def _num2words_writes_it(n: int) -> bool:
    """num2words writes a group of hundreds ending in 01 before a scale word as nonsense: 101,000 is
    "مائة و ألف ألف"; those numbers are no test of a reader."""
    groups = [(n // 1000**k) % 1000 for k in range(1, 5)]
    return not any(g > 100 and g % 100 == 1 for g in groups)


@PROPERTY
@given(st.integers(0, 10**12).filter(_num2words_writes_it))
def test_num2words_integers_read_back(n: int) -> None:
    words = num2words(n, lang="ar")
    mention = _one(words)
    assert mention.value == n and mention.text == words


@PROPERTY
@given(st.integers(100, 10**12).filter(lambda cents: _num2words_writes_it(cents // 100)))
def test_num2words_decimals_read_back(cents: int) -> None:
    # From 1 up: num2words drops the zero before a fraction (0.5 is ", خمسون").
    value = Decimal(cents) / 100
    words = num2words(value, lang="ar")
    mention = _one(words)
    assert any(r.value == pytest.approx(float(value), abs=1e-6) for r in mention.readings), (words, mention)


@pytest.mark.parametrize("n", range(11, 20))
def test_num2words_ordinal_teens_read_back_with_and_without_the_article(n: int) -> None:
    ordinal = num2words(n, lang="ar", to="ordinal")  # "حادي عشر", "ثاني عشر" ...
    for written in (ordinal, "ال" + ordinal):
        mention = _one(f"جاءت في المرتبة {written} هذا العام")
        assert (mention.value, mention.text) == (n, written)


_ORDINAL_HEADS = {1: "حادي", 2: "ثاني", 3: "ثالث", 4: "رابع", 5: "خامس", 6: "سادس", 7: "سابع", 8: "ثامن", 9: "تاسع"}
_CARDINAL_HEADS = {1: ["أحد", "إحدى"], 2: ["اثنا", "اثني", "اثنتا", "اثنتي"], **{u: [w] for u, w in
                   {3: "ثلاثة", 4: "أربعة", 5: "خمسة", 6: "ستة", 7: "سبعة", 8: "ثمانية", 9: "تسعة"}.items()}}


@PROPERTY
@given(st.integers(11, 19), st.booleans(), st.booleans(), st.sampled_from(["", "و", "ف", "ب", "ك"]),
       st.randoms(use_true_random=False))
def test_every_definite_or_ordinal_teen_reads_back(n: int, ordinal: bool, feminine: bool, proclitic: str,
                                                    rng: random.Random) -> None:
    unit = n - 10
    head = _ORDINAL_HEADS[unit] + ("ة" if feminine else "") if ordinal else rng.choice(_CARDINAL_HEADS[unit])
    if not ordinal and unit == 1 and head == "أحد":
        head = "إحدى"  # "الأحد" is Sunday: the definite masculine one is not read as a teen
    written = f"ال{head} {'عشرة' if feminine else 'عشر'}"
    mention = _one(f"في المرتبة {proclitic}{written} بين الجهات")
    assert (mention.value, mention.text) == (n, written)


_UNITS = {
    1: ["واحد", "واحدة"], 2: ["اثنان", "اثنين", "اثنتان", "اثنتين"], 3: ["ثلاثة", "ثلاث"],
    4: ["أربعة", "أربع"], 5: ["خمسة", "خمس"], 6: ["ستة", "ست"], 7: ["سبعة", "سبع"],
    8: ["ثمانية", "ثماني", "ثمان"], 9: ["تسعة", "تسع"],
}  # fmt: skip
_TEENS = {
    10: ["عشرة", "عشر"], 11: ["أحد عشر", "إحدى عشرة", "حدعش"],
    12: ["اثنا عشر", "اثني عشر", "اثنتا عشرة", "اثنتي عشرة", "اطنعش"],
    **{n: [f"{u} عشر" for u in _UNITS[n - 10]] + [f"{u} عشرة" for u in _UNITS[n - 10]] for n in range(13, 20)},
    15: ["خمسة عشر", "خمس عشرة", "خمسطعش"],
}  # fmt: skip
_TENS = {2: "عشر", 3: "ثلاث", 4: "أربع", 5: "خمس", 6: "ست", 7: "سبع", 8: "ثمان", 9: "تسع"}
_HUNDREDS = {
    1: ["مئة", "مائة", "مية"],
    2: ["مئتان", "مئتين", "مائتان", "مائتين", "مئتا", "مائتي", "ميتين"],
    **{n: [f"{stem}{gap}{hundred}" for gap in ("", " ") for hundred in ("مئة", "مائة", "مية")] for n, stem in
       {3: "ثلاث", 4: "أربع", 5: "خمس", 6: "ست", 7: "سبع", 8: "ثمان", 9: "تسع"}.items()},
}  # fmt: skip
_SCALES = [
    (10**12, "تريليون", "تريليوناً", ["تريليونان", "تريليونين"], "تريليونات"),
    (10**9, "مليار", "ملياراً", ["ملياران", "مليارين", "مليارا", "ملياري"], "مليارات"),
    (10**6, "مليون", "مليوناً", ["مليونان", "مليونين", "مليونا", "مليوني"], "ملايين"),
    (10**3, "ألف", "ألفاً", ["ألفان", "ألفين", "ألفا", "ألفي"], "آلاف"),
]


def _join(parts: list[str], rng: random.Random) -> str:
    return parts[0] + "".join(rng.choice((" و", " و ")) + part for part in parts[1:])


def _below_thousand(n: int, rng: random.Random) -> str:
    hundreds, rest = divmod(n, 100)
    parts = [rng.choice(_HUNDREDS[hundreds])] if hundreds else []
    if 0 < rest < 20:
        parts.append(rng.choice(_UNITS.get(rest) or _TEENS[rest]))
    elif rest:
        tens, unit = divmod(rest, 10)
        parts.append(_TENS[tens] + rng.choice(("ون", "ين")))
        if unit:
            parts.insert(len(parts) - rng.randint(0, 1), rng.choice(_UNITS[unit]))
    if rng.random() < 0.1:
        rng.shuffle(parts)  # any order within a group
    return _join(parts, rng)


def _spell(n: int, rng: random.Random) -> str:
    """``n`` written in Arabic words, each form drawn from its correct variants."""
    if n == 0:
        return "صفر"
    parts = []
    for size, one, accusative, duals, plural in _SCALES:
        group, n = divmod(n, size)
        if not group:
            continue
        if rng.random() < 0.15:
            parts.append(f"{group} {plural if 3 <= group <= 10 else one}")  # digits before the scale word
        elif group == 1:
            parts.append(one)
        elif group == 2:
            parts.append(rng.choice(duals))
        else:
            word = plural if 3 <= group <= 10 else rng.choice((one, accusative))
            parts.append(f"{_below_thousand(group, rng)} {word}")
    if n:
        parts.append(_below_thousand(n, rng))
    return _join(parts, rng)


@PROPERTY
@given(st.integers(0, 10**12), st.randoms(use_true_random=False))
def test_every_written_variant_reads_back(n: int, rng: random.Random) -> None:
    words = _spell(n, rng)
    mention = _one(f"بلغ العدد {words} حسب البيانات")
    assert mention.value == n and mention.text == words


_SCRIPTS = {
    "western": str.maketrans("", ""),
    "arabic-indic": str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"),
    "persian": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"),
}
_THOUSANDS = [",", ".", " ", "\u00a0", "\u2009", "\u202f", "’", "'", "٬", ""]
_DECIMALS = [".", ",", "٫"]
_SCALE_WORDS = {"": 1, " ألف": 1e3, " مليون": 1e6, "مليون": 1e6, " مليار": 1e9}


def _write_digits(n: int, fraction: str, thousands: str, point: str, script: str) -> str:
    integer = f"{n:,}".replace(",", thousands)
    return (integer + (point + fraction if fraction else "")).translate(_SCRIPTS[script])


@PROPERTY
@given(
    st.integers(0, 10**12),
    st.one_of(st.just(""), st.text("0123456789", min_size=1, max_size=4)),
    st.sampled_from(_THOUSANDS),
    st.sampled_from(_DECIMALS),
    st.sampled_from(sorted(_SCRIPTS)),
    st.sampled_from(sorted(_SCALE_WORDS)),
    st.sampled_from(["", "%", "٪"]),
)
def test_digit_forms_read_back(n: int, fraction: str, thousands: str, point: str, script: str, scale: str, percent: str) -> None:
    if thousands == point:
        point = "٫"
    written = _write_digits(n, fraction, thousands, point, script) + (percent or scale)
    mention = _one(f"بلغت القيمة {written} حسب البيانات")
    expected = float(f"{n}.{fraction or 0}") * (1 if percent else _SCALE_WORDS[scale])
    assert mention.text == written and mention.percent == bool(percent)
    assert any(r.value == pytest.approx(expected, rel=1e-12) for r in mention.readings), (written, mention)


_PIECES = st.sampled_from(
    [" ", "و", " و ", ",", ".", "٫", "٬", "،", "%", "\n", "-", "1", "٢", "۳", "000", "12", "ألف", "آلاف", "مليون", "مليونين",
     "مليار", "ثلاثة", "عشر", "عشرون", "مئة", "مائتي", "ميت", "نص", "ربع", "أرباع", "فاصلة", "صفر", "إحدى", "اثنا",
     "بالمئة", "في", "المائة", "Q", "ب", "ال", "\u200f", "ً"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(_PIECES, max_size=30).map("".join)))
def test_the_reader_never_raises(text: str) -> None:
    previous_end = 0
    for mention in find_numbers(text):
        assert previous_end <= mention.start < mention.end <= len(text)
        assert text[mention.start : mention.end] == mention.text
        assert mention.readings and all(math.isfinite(r.value) and r.unit > 0 for r in mention.readings)
        previous_end = mention.end


def test_reading_a_normalized_text_gives_the_same_numbers() -> None:
    # The question parser reads normalize_arabic's output; grounding reads the text as written.
    text = "أكثر من ٢٫٥ مليون وأقل من ثلاثمائة ألف، و١٬٢٥٠ ريال بنسبة ٣٠٪"
    assert _values(normalize_arabic(text)) == _values(text) == [2.5e6, 3e5, 1250, 30]


def test_a_text_read_again_gives_the_same_mentions_in_a_list_of_its_own(monkeypatch) -> None:
    import nabahan_pipeline.arabic.numbers as numbers

    numbers._kept_mentions.cache_clear()
    folds: list[str] = []
    real = numbers._fold_with_origin
    monkeypatch.setattr(numbers, "_fold_with_origin", lambda text: folds.append(text) or real(text))
    text = "بلغ عدد المناقصات 1,234 مناقصة بقيمة ٢٫٥ مليون ريال"
    first = find_numbers(text)
    first.clear()  # the caller's list is its own
    again = find_numbers(text)
    assert [m.text for m in again] == ["1,234", "٢٫٥ مليون"]
    assert folds == [text], "read once while kept"
    long_text = "العدد 7 " + "ا" * numbers.MENTIONS_KEPT_CHARS
    assert [m.value for m in find_numbers(long_text)] == [m.value for m in find_numbers(long_text)] == [7.0]
    assert folds == [text, long_text, long_text], "a text past MENTIONS_KEPT_CHARS is read each time"


@pytest.mark.parametrize("proclitic", ["و", "ف", "ب", "ل", "ك", "وب", "ول", "وك", "فب", "فل"])
def test_every_proclitic_before_every_kind_of_number_word(proclitic: str) -> None:
    # A word is looked up after a proclitic only when it is one of the forms made of them (a word
    # of no such form is skipped at once): every proclitic before a unit, a tens word, a hundreds
    # word and a scale word is still read.
    for word, value in (("خمسة", 5), ("عشرين", 20), ("ثلاثمائة", 300), ("مليون", 1e6)):
        mentions = find_numbers(f"قيل {proclitic}{word} فقط")
        assert [m.value for m in mentions] == [value], (proclitic, word)
        assert mentions[0].text == word  # the proclitic is no part of the number
