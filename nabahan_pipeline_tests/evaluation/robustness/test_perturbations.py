"""The perturbations of a question (issue 29): each one's change, None where it cannot apply, the
same variant for a seed, never the original; and meaning kept: on the shipped suite the embedded
agent answers each variant with the original's SQL, or refuses it naming a word it did not read,
and still refuses every variant of a question it refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.evaluation.robustness.perturbations import BY_NAME, PERTURBATIONS, perturb
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.settings import SHIPPED_TEST_CASES

FRESH = Path(__file__).parents[2] / "data" / "fresh_questions.json"
QUESTIONS = [case["question"] for path in (SHIPPED_TEST_CASES, FRESH)
             for case in json.loads(path.read_text(encoding="utf-8"))]
NAMES = [perturbation.name for perturbation in PERTURBATIONS]

# A perturbation that does not depend on its seed: the variant it must give.
EXACT = [
    ("no_hamza", "ما إجمالي أعلى قيمة؟", "ما اجمالي اعلى قيمة؟"),
    ("taa_marbuta", "ما إجمالي القيمة التقديرية؟", "ما إجمالي القيمه التقديريه؟"),
    ("alef_maqsura", "ما هي المنطقة الأعلى؟", "ما هي المنطقة الأعلي؟"),
    ("alef_maqsura", "كم مناقصة في الرياض؟", "كم مناقصة فى الرياض؟"),
    ("arabic_indic_digits", "كم مناقصة في 2024؟", "كم مناقصة في ٢٠٢٤؟"),
    ("persian_digits", "كم مناقصة في ١٤٤٦هـ؟", "كم مناقصة في ۱۴۴۶هـ؟"),
    ("western_digits", "كم مناقصة في ١٤٤٦هـ؟", "كم مناقصة في 1446هـ؟"),
    ("thousands_separators", "كم مناقصة قيمتها فوق 50000 ريال في 2024؟", "كم مناقصة قيمتها فوق 50,000 ريال في 2024؟"),
    ("numbers_in_words", "ما هي أكثر 5 جهات في 2024؟", "ما هي أكثر خمس جهات في 2024؟"),
    ("words_in_digits", "كم مناقصة تتجاوز مليون ريال؟", "كم مناقصة تتجاوز 1000000 ريال؟"),
    ("words_in_digits", "كم مناقصة تتجاوز عشرين مليون؟", "كم مناقصة تتجاوز 20000000؟"),
    ("dialect", "كم عدد المناقصات النشطة حالياً؟", None),  # two rules apply: checked below
    ("to_msa", "وش عدد المنافسات اللي حالتها منتهية؟", None),
    ("word_order", "كم عدد المناقصات في منطقة الرياض؟", "في منطقة الرياض، كم عدد المناقصات؟"),
    ("english_name", "كم عدد المناقصات في منطقة الرياض؟", "كم عدد المناقصات في Riyadh؟"),
    ("english_name", "كم عدد المناقصات في المنطقة الشرقية؟", "كم عدد المناقصات في Eastern Province؟"),
]

# A question each perturbation cannot apply to.
NOT_APPLICABLE = {
    "no_hamza": "كم عدد المناقصات؟",
    "hamza_swapped": "كم عدد المناقصات؟",
    "taa_marbuta": "كم عدد المناقصات؟",
    "alef_maqsura": "كم عدد المناقصات؟",
    "tatweel": "كم؟",
    "diacritics": "كم؟",
    "arabic_indic_digits": "كم عدد المناقصات؟",
    "persian_digits": "كم عدد المناقصات؟",
    "western_digits": "كم مناقصة في 2024؟",
    "thousands_separators": "كم مناقصة في 2024 برقم 220139034392؟",
    "numbers_in_words": "كم مناقصة في 2024؟",
    "words_in_digits": "كم مناقصة في 2024؟",
    "dialect": "كم مناقصة في الرياض؟",
    "to_msa": "كم عدد المناقصات؟",
    "synonym": "كم مشروعاً مستقبلياً؟",
    "typo": "كم عدد؟",
    "politeness": " ",
    "word_order": "كم عدد المناقصات؟",
    "english_name": "كم عدد المناقصات في أمانة منطقة تبوك؟",
}


@pytest.mark.parametrize(("name", "question", "variant"), EXACT)
def test_a_seedless_perturbation_gives_its_variant(name: str, question: str, variant: str | None) -> None:
    result = perturb(question, name)
    assert result is not None and result != question
    if variant is not None:
        assert result == variant


def test_dialect_and_back() -> None:
    assert perturb("كم عدد المناقصات النشطة حالياً؟", "dialect", 0) in {
        "كم عدد المناقصات النشطة الحين؟", "كم فيه من المناقصات النشطة حالياً؟"}
    assert perturb("وش عدد المنافسات اللي حالتها منتهية؟", "to_msa", 0) in {
        "ما هي عدد المنافسات اللي حالتها منتهية؟", "وش عدد المنافسات التي حالتها منتهية؟"}
    assert perturb("المنافسات اللي فات موعدها", "to_msa") is None  # "اللي فات" is an idiom, not a relative


def test_seeded_perturbations_change_what_they_say() -> None:
    question = "ما هي أكثر 5 جهات حكومية طرحاً للمناقصات؟"
    swapped = perturb(question, "hamza_swapped")
    assert swapped is not None and swapped.replace("\u0625", "\u0623") == question
    stretched = perturb(question, "tatweel")
    assert stretched is not None and stretched.replace("\u0640", "") == question
    voweled = perturb(question, "diacritics")
    assert voweled is not None and re.sub("[\u064e\u064f\u0650\u0652]", "", voweled) == question
    assert perturb(question, "synonym") in {question.replace("جهات حكومية", "جهات"),
                                            question.replace("للمناقصات", "للمنافسات")}
    typed = perturb(question, "typo")
    assert typed is not None and _one_typo(question, typed)
    polite = perturb(question, "politeness")
    assert polite is not None and question.rstrip("؟") in polite.replace(" من فضلك", "").replace(" لو سمحت", "") \
        .replace(" وشكراً", "")


def _one_typo(question: str, typed: str) -> bool:
    """``typed`` is ``question`` with one letter dropped or two neighbours swapped."""
    dropped = {question[:i] + question[i + 1:] for i in range(len(question))}
    swapped = {question[:i] + question[i + 1] + question[i] + question[i + 2:] for i in range(len(question) - 1)}
    return typed in dropped | swapped


@pytest.mark.parametrize("name", NAMES)
def test_none_where_it_cannot_apply(name: str) -> None:
    assert perturb(NOT_APPLICABLE[name], name) is None


@pytest.mark.parametrize("name", NAMES)
def test_the_same_for_a_seed_and_never_the_original(name: str) -> None:
    applied = 0
    for question in QUESTIONS:
        variant = perturb(question, name, seed=7)
        assert variant == perturb(question, name, seed=7)
        assert variant != question
        applied += variant is not None
    assert applied > 0, f"{name} applies to no question of the shipped suite or the fresh set"


def test_a_typo_never_touches_a_number() -> None:
    for question in QUESTIONS:
        for seed in range(3):
            variant = perturb(question, "typo", seed)
            if variant is not None:
                assert _one_typo(question, variant)
                assert re.findall(r"[0-9\u0660-\u0669]+", variant) == re.findall(r"[0-9\u0660-\u0669]+", question)


def test_every_perturbation_is_named_once() -> None:
    assert len(BY_NAME) == len(PERTURBATIONS)
    assert all(p.family and p.apply.__doc__ for p in PERTURBATIONS)


@pytest.fixture(scope="module")
def agent(default_db: Path) -> ReferenceAgent:
    return ReferenceAgent()


def _refused_naming_a_word(answer: dict, variant: str) -> bool:
    named = re.findall("«([^»]+)»", answer.get("insights") or "")
    folded = normalize_arabic(variant)
    return answer["status"] == "out_of_scope" and any(normalize_arabic(word) in folded for word in named)


@pytest.mark.parametrize("name", NAMES)
def test_meaning_kept_on_the_shipped_suite(agent: ReferenceAgent, name: str) -> None:
    for case in json.loads(SHIPPED_TEST_CASES.read_text(encoding="utf-8")):
        variant = perturb(case["question"], name)
        if variant is None:
            continue
        original, answer = agent.ask(case["question"]), agent.ask(variant)
        if original["status"] == "out_of_scope":
            assert answer["status"] == "out_of_scope", (case["question"], variant)
        else:
            assert answer.get("sql") == original.get("sql") or _refused_naming_a_word(answer, variant), \
                (variant, answer.get("insights"))
