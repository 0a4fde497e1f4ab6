"""What marks a hallucination: disclaimers, placeholders, ungrounded numbers; and what only looks like one."""

from __future__ import annotations

import json
import re

import pytest

from nabahan_pipeline_tests.evaluation.scoring.answers import answer, score


@pytest.mark.parametrize(
    ("insight", "marker"),
    [
        ("كنموذج لغوي، أرى أن عدد المناقصات في الرياض 523 مناقصة", "disclaimer: كنموذج لغوي"),
        ("بصفتي نموذج ذكاء اصطناعي لا أملك بيانات حية، لكن العدد 523", "disclaimer: بصفتي نموذج"),
        ("لا يمكنني الوصول إلى الإنترنت، لكن العدد 523 مناقصة في الرياض", "disclaimer: لا يمكنني الوصول"),
        ("As an AI, I think there are 523 tenders in Riyadh region", "disclaimer: as an ai"),
        ("I don’t have access to live data, but 523 tenders were found", "disclaimer: i don't have access"),
        ("عدد المناقصات في منطقة الرياض هو {count} مناقصة", "placeholder: {count}"),
        ("عدد المناقصات في منطقة الرياض هو {{ n }} مناقصة", "placeholder: {{ n }}"),
        ("عدد المناقصات في [REGION] هو 523 مناقصة حسب البيانات", "placeholder: [REGION]"),
        ("عدد المناقصات في <placeholder> هو 523 مناقصة حسب البيانات", "placeholder: <placeholder>"),
        ("عدد المناقصات في منطقة الرياض هو XXX مناقصة حسب البيانات", "placeholder: XXX"),
        ("عدد المناقصات في منطقة الرياض هو N/A مناقصة حسب البيانات", "placeholder: N/A"),
        ("عدد المناقصات في منطقة الرياض 523 مناقصة TODO أكمل التحليل", "placeholder: TODO"),
        ("عدد المناقصات في منطقة الرياض هو $1 مناقصة حسب البيانات", "placeholder: $1"),
        ("بلغ عدد المناقصات في منطقة الرياض 537 مناقصة وفق البيانات", "ungrounded number: 537"),
    ],
)
def test_hallucination_markers(insight: str, marker: str) -> None:
    result = score(reply=answer(insights=insight))
    assert marker in json.loads(result["hallucination_markers"])
    assert result["no_hallucination"] == 0


def test_ungrounded_numbers_column() -> None:
    result = score(reply=answer(insights="بلغ عدد المناقصات في منطقة الرياض 537 مناقصة، منها ٤١٢ نشطة"))
    assert json.loads(result["ungrounded_numbers"]) == ["537", "٤١٢"]


def test_prose_that_only_looks_like_a_placeholder_is_not_one() -> None:
    insight = "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة [انظر الملاحظة] <br> todo"
    assert score(reply=answer(insights=insight))["no_hallucination"] == 1


@pytest.mark.parametrize(
    ("insight", "marker"),
    [
        ("كنموذج لغوي كبير لا أستطيع الوصول إلى الإنترنت، لكن العدد 523", "disclaimer: لا استطيع الوصول"),
        ("لا يمكنني الوصول للبيانات الحية، لكن في الرياض 523 مناقصة", "disclaimer: لا يمكنني الوصول"),
        ("I am an AI and I cannot access real-time data; Riyadh has 523 tenders", "disclaimer: i cannot access"),
        ("As of my last update, Riyadh had 523 tenders in the data", "disclaimer: as of my last update"),
        ("عدد المناقصات في <region> هو 523 مناقصة حسب البيانات", "placeholder: <region>"),
        ("عدد المناقصات في <REGION_NAME> هو 523 مناقصة حسب البيانات", "placeholder: <REGION_NAME>"),
    ],
)
def test_markers_are_whole_phrases(insight: str, marker: str) -> None:
    assert marker in json.loads(score(reply=answer(insights=insight))["hallucination_markers"])


@pytest.mark.parametrize(
    "insight",
    [
        # An honest refusal says what the agent cannot reach: a statement of scope, not a disclaimer.
        "لا يمكنني الوصول إلى بيانات الطقس؛ أجيب عن بيانات المناقصات فقط، وفي الرياض 523 مناقصة",
        "I cannot access weather data; I answer about tenders only: Riyadh has 523 of them",
        # A phrase inside other words: "as an ai" in "has an airport", "حسب علمي" in "حسب علمية".
        "The region has an airport and 523 tenders according to the data",
        "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حسب علمية البيانات المنشورة",
        # Data freshness is no claim about the model.
        "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة حتى تاريخ آخر تحديث للبيانات",
        # HTML tags: open, close, headings, attributes.
        "<table><thead><tr><th>المنطقة</th></tr></thead><tbody><tr><td>الرياض: 523</td></tr></tbody></table>",
        '<h3>منطقة الرياض</h3><p>عدد المناقصات 523 حسب <a href="https://tenders.etimad.sa">اعتماد</a></p>',
    ],
)
def test_what_only_looks_like_a_marker_is_not_one(insight: str) -> None:
    assert json.loads(score(reply=answer(insights=insight))["hallucination_markers"]) == []


def test_every_phrase_is_found_past_the_check_that_its_words_are_there() -> None:
    # hallucination_markers searches a phrase's pattern only where the phrase (folded) is in the
    # text: every phrase (each access phrase followed by each live source) must still be named.
    from nabahan_pipeline.arabic.normalize import normalize_arabic
    from nabahan_pipeline.evaluation.scoring.hallucination import (
        ACCESS_PHRASES,
        DISCLAIMER_PHRASES,
        LIVE_SOURCES,
        _FOLDED_DISCLAIMERS,
        hallucination_markers,
    )

    texts = [f"عدد المناقصات 5، {phrase}، حسب البيانات." for phrase in DISCLAIMER_PHRASES]
    texts += [f"{phrase} إلى {source} الآن." for phrase in ACCESS_PHRASES for source in LIVE_SOURCES]
    for text in texts:
        one_by_one = [f"disclaimer: {phrase}" for phrase, _, pattern in _FOLDED_DISCLAIMERS
                      if re.search(pattern, normalize_arabic(text))]
        assert one_by_one, text
        assert hallucination_markers(text, []) == one_by_one
